package grow

import (
	"bytes"
	"strings"
)

// Skip may continue before writing: nothing is known per iteration.
func Skip(xs []string) string {
	var sb strings.Builder
	for _, x := range xs {
		if x == "" {
			continue
		}
		sb.WriteByte(',')
		sb.WriteString(x)
	}
	return sb.String()
}

// Lines keeps each line's bytes past the iteration: the buffer is reset
// and read in the loop.
func Lines(xs []string) [][]byte {
	var out [][]byte
	var buf bytes.Buffer
	for _, x := range xs {
		buf.Reset()
		buf.WriteString(x)
		buf.WriteByte('\n')
		out = append(out, bytes.Clone(buf.Bytes()))
	}
	return out
}

// Shared is written by goroutines.
func Shared(xs []string, sb *strings.Builder) {
	for range xs {
		go func() { sb.WriteByte('x') }()
	}
}

// Maybe is given a buffer that may be nil when xs is empty.
func Maybe(xs []string, buf *bytes.Buffer) {
	for range xs {
		buf.WriteByte('x')
	}
}

// Sized grows the buffer already.
func Sized(xs []string) string {
	var sb strings.Builder
	sb.Grow(len(xs))
	for range xs {
		sb.WriteByte('x')
	}
	return sb.String()
}

// Count may be negative: Grow would panic where the loop runs no
// iteration.
func Count(n int) string {
	var sb strings.Builder
	for range n {
		sb.WriteByte('x')
	}
	return sb.String()
}

// Indexes ranges over a string's runes without the rune: fewer
// iterations than bytes.
func Indexes(s string) string {
	var sb strings.Builder
	for i := range s {
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// Optional writes only in one branch.
func Optional(xs []int) string {
	var sb strings.Builder
	for _, x := range xs {
		if x > 0 {
			sb.WriteByte('+')
		}
	}
	return sb.String()
}

// Unknown writes strings of unknown length only.
func Unknown(xs []string) string {
	var sb strings.Builder
	for _, x := range xs {
		sb.WriteString(x)
	}
	return sb.String()
}
