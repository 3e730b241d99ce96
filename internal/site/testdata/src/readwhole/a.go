package readwhole

import (
	"encoding/binary"
	"io"
)

type block struct {
	data []byte
	buf  [4]byte
}

func (b *block) Read(src io.Reader) error {
	if _, err := io.ReadFull(src, b.buf[:]); err != nil { // a fixed header
		return err
	}
	size := int(binary.LittleEndian.Uint32(b.buf[:]))
	b.data = b.data[:size]
	_, err := io.ReadFull(src, b.data) // want `Read reads b.data whole from src in one io.ReadFull, its length computed, not a few bytes at a time`
	return err
}

func small(r io.Reader, buf []byte) error {
	_, err := io.ReadFull(r, buf[:1]) // one byte: not a record
	return err
}

func record(r io.Reader, buf []byte, n int) error {
	_, err := io.ReadAtLeast(r, buf[:n], n) // want `record reads buf\[:n\] whole from r in one io.ReadAtLeast`
	return err
}
