package conversionkept

import (
	"errors"
	"fmt"
	"strings"
)

// Parse keeps its parameter in its error message.
func Parse(value string) (int, error) {
	original := value
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, fmt.Errorf("can't parse %s", original)
	}
	return len(value), nil
}

// Quiet never keeps its parameter.
func Quiet(value string) (int, error) {
	if value == "" {
		return 0, errors.New("empty")
	}
	return len(value), nil
}

func unquote(s string) string {
	if len(s) > 2 && s[0] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// Decode converts the bytes to call Parse: the copy escapes.
func Decode(b []byte) (int, error) {
	return Parse(string(b)) // want `string\(b\) is passed to Parse, whose error message at line 14 keeps its parameter value: the copy escapes to the heap on every call, error or not`
}

// DecodeQuoted does the same through unquote.
func DecodeQuoted(b []byte) (int, error) {
	return Parse(unquote(string(b))) // want `string\(b\) is passed to Parse, whose error message at line 14`
}

// DecodeQuiet calls a function that keeps nothing: no shape.
func DecodeQuiet(b []byte) (int, error) {
	return Quiet(string(b))
}

// DecodeString already has a string: no conversion.
func DecodeString(s string) (int, error) {
	return Parse(s)
}

// Holder keeps what it is given.
type Holder struct{ s string }

// Set keeps its parameter in the holder as well as in its error.
func (h *Holder) Set(value string) error {
	if value == "" {
		return fmt.Errorf("empty %s", value)
	}
	h.s = value
	return nil
}

// Keep hands its parameter to a method that keeps it: the error message is
// not the only reason the copy escapes.
func Keep(value string) (int, error) {
	var h Holder
	if err := h.Set(value); err != nil {
		return 0, fmt.Errorf("can't keep %s", value)
	}
	return len(h.s), nil
}

// DecodeKept calls Keep, which keeps the string beyond its errors: no
// conversion-kept; the copy is Keep's input.
func DecodeKept(b []byte) (int, error) {
	return Keep(string(b)) // want `string\(b\) copies the bytes to call Keep, which takes a string and keeps its parameter value`
}
