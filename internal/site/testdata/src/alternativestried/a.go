package alternativestried

import (
	"errors"
	"strconv"
	"time"
)

var layouts = []string{time.RFC3339, "2006-01-02", time.Kitchen}

func ParseDate(s string) (d time.Time, e error) {
	for _, layout := range layouts {
		if d, e = time.Parse(layout, s); e == nil { // want `ParseDate tries time.Parse on each of layouts in turn until one returns no error`
			return
		}
	}
	return d, errors.New("unable to parse date: " + s)
}

// Every error is kept: no alternatives dropped.
func ParseAll(ss []string) (errs []error) {
	for _, s := range ss {
		if _, err := strconv.Atoi(s); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// Every value is parsed, none is an alternative to the others.
func Sum(ss []string) (n int) {
	for _, s := range ss {
		v, err := strconv.Atoi(s)
		if err != nil {
			continue
		}
		n += v
	}
	return n
}
