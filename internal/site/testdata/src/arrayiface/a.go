package arrayiface

import "io"

// ULID is an ID.
type ULID [16]byte

// MonotonicReader reads entropy that grows within a millisecond.
type MonotonicReader interface {
	io.Reader
	MonotonicRead(ms uint64, p []byte) error
}

// MonotonicEntropy is the package's own MonotonicReader.
type MonotonicEntropy struct{ io.Reader }

// MonotonicRead fills p.
func (m *MonotonicEntropy) MonotonicRead(ms uint64, p []byte) error { _, err := m.Read(p); return err }

// New makes an ID with entropy.
func New(ms uint64, entropy io.Reader) (id ULID, err error) { // want `New hands a slice of id, the ULID it returns, to e.MonotonicRead and io.ReadFull, through an interface the compiler cannot see into`
	switch e := entropy.(type) {
	case nil:
		return id, nil
	case MonotonicReader:
		err = e.MonotonicRead(ms, id[6:])
	default:
		_, err = io.ReadFull(e, id[6:])
	}
	return id, err
}

// Fill copies into a slice of its own: nothing returned goes through.
func Fill(r io.Reader) error {
	var buf [8]byte
	_, err := io.ReadFull(r, buf[:])
	return err
}
