// Package uuid is a stand-in for github.com/gofrs/uuid/v5: a UUID type
// and its generator.
package uuid

// UUID is a UUID.
type UUID [16]byte

// NewV7 returns a new time-ordered random UUID.
func NewV7() (UUID, error) { return UUID{}, nil }

// FromBytesOrNil returns the UUID of 16 bytes, or the nil UUID.
func FromBytesOrNil(b []byte) UUID { var u UUID; copy(u[:], b); return u }

// FromString parses a UUID's text.
func FromString(s string) (UUID, error) { return UUID{}, nil }

// String formats the UUID.
func (u UUID) String() string { return string(u[:]) }
