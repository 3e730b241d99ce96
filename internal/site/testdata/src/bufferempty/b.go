package bufferempty

import (
	"bytes"
	"strings"
)

type Buffer struct{ bytes []byte }

func (b *Buffer) Write(p []byte) (int, error) { b.bytes = append(b.bytes, p...); return len(p), nil }
func (b *Buffer) WriteByte(c byte) error      { b.bytes = append(b.bytes, c); return nil }
func (b *Buffer) Bytes() []byte               { return b.bytes }

func scanString(in []byte, delim byte) []byte {
	var buffer Buffer // want `scanString declares buffer, a Buffer, empty and writes into it in a loop \(lines 17 and 19\): every call regrows it from nothing`
	for i := 0; i < len(in); i++ {
		buffer.WriteByte(in[i])
		if in[i] == '\\' {
			buffer.Write(in[i : i+1])
		}
	}
	return buffer.Bytes()
}

func quote(parts []string) string {
	b := &strings.Builder{} // want `quote declares b, a \*strings.Builder, empty and writes into it in a loop \(line 28\)`
	for _, p := range parts {
		b.WriteString(p)
	}
	return b.String()
}

// Given room before the loop.
func grown(parts []string) string {
	var b bytes.Buffer
	b.Grow(64)
	for _, p := range parts {
		b.WriteString(p)
	}
	return b.String()
}

// One write, no loop: one allocation.
func once(p []byte) []byte {
	var b Buffer
	b.Write(p)
	return b.Bytes()
}

// Made with room.
func made(parts []string) []byte {
	b := &Buffer{bytes: make([]byte, 0, 64)}
	for _, p := range parts {
		b.Write([]byte(p))
	}
	return b.Bytes()
}
