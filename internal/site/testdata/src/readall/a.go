package readall

import (
	"bytes"
	"io"
)

func Count(r io.Reader) (int, error) {
	data, err := io.ReadAll(r) // want `io.ReadAll\(r\) reads the whole input into one buffer it grows by doubling`
	if err != nil {
		return 0, err
	}
	return bytes.Count(data, []byte("\n")), nil
}
