package hoistalloc

import "io"

// Sum adds the bytes of n blocks.
func Sum(r io.Reader, n int) (int, error) {
	total := 0
	for i := 0; i < n; i++ {
		buf := make([]byte, 512) // want `makes a new .* of the same size on every iteration`
		m, err := io.ReadFull(r, buf)
		if err != nil {
			return total, err
		}
		for _, b := range buf[:m] {
			total += int(b)
		}
	}
	return total, nil
}
