package errorbuilt

import (
	"errors"
	"fmt"
)

func decode(s string) error {
	if s == "" {
		return errors.New("empty")
	}
	return nil
}

// Decode wraps a joined error on its error path.
func Decode(s string) error {
	err := decode(s)
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		return fmt.Errorf("decoding failed:\n\n%w", err) // want `fmt.Errorf\("decoding failed:\\n\\n%w", …\) builds the error Decode returns when errors.As\(err, &joined\): its error path`
	}
	return err
}

// Parse returns its error in a nested condition.
func Parse(s string) (int, error) {
	if len(s) > 0 {
		if s[0] == '-' {
			return 0, fmt.Errorf("negative: %q", s) // want `fmt.Errorf\("negative: %q", …\) builds the error Parse returns when s\[0\] == '-'`
		}
	}
	return len(s), nil
}

// Always builds its error unconditionally: not an error path.
func Always(s string) error {
	return fmt.Errorf("always %s", s)
}

// Message formats text that is not returned: no shape.
func Message(s string) string {
	if s != "" {
		msg := fmt.Sprintf("got %s", s)
		return msg
	}
	return ""
}

// Closure's literal returns its own error: not Closure's path.
func Closure(s string) func() error {
	if s != "" {
		return func() error { return fmt.Errorf("x %s", s) }
	}
	return nil
}

// ParserError is a parse failure with its text.
type ParserError struct {
	Highlight []byte
	Message   string
}

func (e *ParserError) Error() string { return e.Message }

// NewParserError formats its text on every call.
func NewParserError(highlight []byte, format string, args ...interface{}) error {
	return &ParserError{
		Highlight: highlight,
		Message:   fmt.Errorf(format, args...).Error(), // want `NewParserError formats its error's text \(fmt.Errorf\) on every call, whether or not the error is ever read`
	}
}

// newLazy keeps the format: no text built.
func newLazy(format string, args ...interface{}) error {
	return &lazyError{format, args}
}

type lazyError struct {
	format string
	args   []interface{}
}

func (e *lazyError) Error() string { return fmt.Sprintf(e.format, e.args...) }
