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
