package resultdropped

import "errors"

// Decode decodes a suffix into its 16 bytes.
func Decode(s string) ([]byte, error) {
	if len(s) != 26 {
		return nil, errors.New("bad length")
	}
	id := make([]byte, 16)
	for i := range id {
		id[i] = s[i]
	}
	return id, nil
}

func validateSuffix(suffix string) error {
	if _, err := Decode(suffix); err != nil { // want `validateSuffix calls Decode\(suffix\) only for its error: the \[\]byte it returns is made on every call and dropped`
		return err
	}
	return nil
}

func count(s string) (int, error) { return len(s), nil }

func use(s string) error {
	_, err := count(s) // an int: nothing allocated
	b, err2 := Decode(s)
	_ = b
	if err2 != nil {
		return err2
	}
	return err
}
