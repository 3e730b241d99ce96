package bufferpercall

import (
	"encoding/binary"
	"io"
)

// Decoder reads geometries.
type Decoder struct {
	r io.Reader
}

func readHeader(r io.Reader, buf []byte) (uint32, error) {
	if _, err := io.ReadFull(r, buf); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(buf), nil
}

// Decode makes its scratch buffer at every call.
func (d *Decoder) Decode() (uint32, error) {
	buf := make([]byte, 8) // want `Decode makes buf, 8 bytes, at every call and hands it to readHeader\(d.r, buf\): the compiler cannot see that call leave it alone`
	return readHeader(d.r, buf)
}

// Encoder writes geometries.
type Encoder struct {
	w     io.Writer
	order binary.ByteOrder
}

// Encode writes a constant mark made at every call.
func (e *Encoder) Encode() error {
	var b []byte
	if e.order == binary.LittleEndian {
		b = []byte{1} // want `Encode makes b, a literal of one constant byte, at every call and hands it to e.w.Write\(b\)`
	} else {
		b = []byte{0}
	}
	_, err := e.w.Write(b)
	return err
}

// Read returns its buffer: the caller's value.
func (d *Decoder) Read() ([]byte, error) {
	buf := make([]byte, 8)
	_, err := io.ReadFull(d.r, buf)
	return buf, err
}

// Large is over the bound: a field of 4 KiB is another trade-off.
func (d *Decoder) Large() error {
	buf := make([]byte, 4096)
	_, err := io.ReadFull(d.r, buf)
	return err
}

// decode is a function, no receiver to keep it in.
func decode(r io.Reader) error {
	buf := make([]byte, 8)
	_, err := io.ReadFull(r, buf)
	return err
}
