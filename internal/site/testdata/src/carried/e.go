package carried

import "io"

// RID is an identifier with random bytes.
type RID [16]byte

// NewID reads the ID's random part from the caller's source.
func NewID(ms uint64, entropy io.Reader) (id RID, err error) {
	id[0] = byte(ms)
	switch e := entropy.(type) {
	case nil:
		return id, nil
	default:
		_, err = io.ReadFull(e, id[6:]) // want `NewID reads random bytes from entropy, the source of randomness its caller passes, once per call`
	}
	return id, err
}

// readHeader reads a header from a stream: no randomness.
func readHeader(r io.Reader) (h [4]byte, err error) {
	_, err = io.ReadFull(r, h[:])
	return h, err
}

// Monotonic fills entropy from the reader it wraps.
type Monotonic struct {
	io.Reader
	ms uint64
}

// MonotonicRead reads fresh randomness into the caller's entropy.
func (m *Monotonic) MonotonicRead(ms uint64, entropy []byte) error {
	_, err := io.ReadFull(m.Reader, entropy) // want `MonotonicRead reads random bytes from m.Reader into entropy, the caller's slice: the source of randomness its caller passes, once per call`
	m.ms = ms
	return err
}
