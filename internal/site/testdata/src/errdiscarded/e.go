package errdiscarded

import "errors"

func Marshal(v any) ([]byte, error) {
	if v == nil {
		return nil, errors.New("nil")
	}
	return []byte("x"), nil
}

func Validate(v any) error { return nil }

func Size(v any) int { return 1 }
