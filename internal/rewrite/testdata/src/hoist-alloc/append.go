package hoistalloc

import (
	"io"
	"strconv"
)

// WriteAll writes one number per line.
func WriteAll(w io.Writer, xs []int, size int) error {
	for _, x := range xs {
		line := make([]byte, 0, size) // want `makes a new .* of the same size on every iteration`
		line = strconv.AppendInt(line, int64(x), 10)
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}
