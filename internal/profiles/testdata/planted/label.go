package planted

import "fmt"

// Labels formats n labels with fmt.Sprintf, one call per label.
func Labels(dst []string, n int) []string {
	dst = dst[:0]
	for i := 0; i < n; i++ {
		dst = append(dst, fmt.Sprintf("item-%d", 1000+i))
	}
	return dst
}
