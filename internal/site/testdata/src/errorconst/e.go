package errorconst

import (
	"errors"
	"fmt"
)

type UUID [16]byte

func Parse(s string) (UUID, error) {
	var uuid UUID
	if len(s) != 36 {
		return uuid, fmt.Errorf("invalid UUID length: %d", len(s)) // a text built per call: not this shape
	}
	if s[8] != '-' {
		return uuid, errors.New("invalid UUID format") // want `Parse returns errors.New\("invalid UUID format"\) on this path: a new error, with a text that never changes, allocated on every failure`
	}
	return uuid, nil
}

var errShort = errors.New("short")

func Check(s string) error {
	if len(s) < 2 {
		return errShort // made once: nothing to say
	}
	return nil
}

type queueError struct{ message string }

func (e *queueError) Error() string { return e.message }

// A full queue's error, a literal of constants, made on every insert.
func push(full bool, data []byte) (int, error) {
	if full {
		return -1, &queueError{"Full queue. Maximum size limit reached."} // want `push returns &queueError\{"Full queue. Maximum size limit reached."\} on this path: a new error whose fields are constants`
	}
	if len(data) == 0 {
		return -1, &queueError{message: string(data)} // a field made per call: no shape
	}
	return 0, nil
}
