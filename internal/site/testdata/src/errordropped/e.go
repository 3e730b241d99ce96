package errordropped

import (
	"errors"
	"fmt"
)

type token struct{ text string }

// UnexpectedTokenError is a parse failure.
type UnexpectedTokenError struct{ Unexpected token }

func (e *UnexpectedTokenError) Error() string { return "unexpected " + e.Unexpected.text }

type node interface {
	Parse(in []token) (int, error)
}

type literal struct{ text string }

// Parse fails with an error built for its caller.
func (l *literal) Parse(in []token) (int, error) {
	if len(in) == 0 || in[0].text != l.text {
		return 0, &UnexpectedTokenError{Unexpected: in[0]} // want `Parse builds a \*UnexpectedTokenError for each failure, and Parse calls it in a loop of alternatives \(line 36\) that keeps at most one of the errors`
	}
	return 1, nil
}

type disjunction struct{ nodes []node }

// Parse tries each alternative and remembers the deepest failure.
func (d *disjunction) Parse(in []token) (int, error) {
	var firstErr error
	deepest := -1
	for i, n := range d.nodes {
		if k, err := n.Parse(in); err != nil {
			if i > deepest {
				firstErr, deepest = err, i
			}
		} else {
			return k, nil
		}
	}
	return 0, firstErr
}

// number parses digits, or fails.
func number(s, layout string) (int, error) {
	if s != layout {
		return 0, fmt.Errorf("%q is not %q", s, layout) // want `number builds an error \(fmt.Errorf\) for each failure, and parseAny calls it in a loop of alternatives \(line 57\)`
	}
	return len(s), nil
}

func parseAny(s string, layouts []string) int {
	for _, l := range layouts {
		n, err := number(s, l)
		if err != nil {
			continue
		}
		return n
	}
	return -1
}

// word fails with an error its caller returns: no alternative dropped.
func word(s string) (string, error) {
	if s == "" {
		return "", errors.New("empty")
	}
	return s, nil
}

func words(ss []string) ([]string, error) {
	var out []string
	for _, s := range ss {
		w, err := word(s)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// check fails with an error its caller collects: every one is kept.
func check(s string) error {
	if s == "" {
		return errors.New("empty")
	}
	return nil
}

func checkAll(ss []string) []error {
	var errs []error
	for _, s := range ss {
		err := check(s)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

type stopper struct{ depth int }

// stop says whether a failure went too far to try another alternative.
func (s *stopper) stop(err error, depth int) bool { return err != nil && depth > s.depth }

type tried struct{}

// Parse fails with an error built for its caller.
func (tried) Parse(in []token) (int, error) {
	return 0, errors.New("no") // want `Parse builds an error \(errors.New\) for each failure, and Parse calls it in a loop of alternatives \(line 126\)`
}

type choice struct {
	nodes []tried
	s     stopper
}

// Parse returns a failure only when it went too far; else it tries the
// next alternative.
func (c *choice) Parse(in []token) (int, error) {
	for i, n := range c.nodes {
		if k, err := n.Parse(in); err != nil {
			if c.s.stop(err, i) {
				return 0, err
			}
		} else {
			return k, nil
		}
	}
	return 0, nil
}

// digit fails with an error its two callers in one loop drop.
func digit(s string) (int, error) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, errors.New("not a digit") // want `digit builds an error \(errors.New\) for each failure, and pair calls it in a loop of alternatives \(line 149\)`
	}
	return int(s[0] - '0'), nil
}

// pair tries each string as a digit twice over, in two error variables:
// the loop's first call is the one named, whatever the order of a map.
func pair(ss []string) int {
	for _, s := range ss {
		if d, err1 := digit(s); err1 == nil {
			return d
		}
		if d, err2 := digit(s[1:]); err2 == nil {
			return d
		}
	}
	return -1
}
