package result

import (
	"io"
	"unsafe"
)

// unsafeString reinterprets b's bytes as a string.
func unsafeString(b []byte) string { return *(*string)(unsafe.Pointer(&b)) }

// toString does the same the Go 1.20 way.
func toString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) } // want `toString's result is what the exported ReadString2 returns`

// copyString copies: its result is not b's memory.
func copyString(b []byte) string { return string(b) } // want `string\(b\) makes the string copyString returns` `copyString's result is what the exported ReadCopy returns`

// ReadString reads n bytes into the memory that becomes the string it
// returns: the make is the result.
func ReadString(r io.Reader, n int) (s string, err error) {
	out := make([]byte, n) // want `make\(\[\]byte, n\) computes out, which ReadString returns`
	if _, err = io.ReadFull(r, out); err != nil {
		return
	}
	s = unsafeString(out)
	return
}

// ReadString2 returns the reinterpretation directly.
func ReadString2(r io.Reader, n int) (string, error) {
	out := make([]byte, n) // want `make\(\[\]byte, n\) computes out, which ReadString2 returns`
	_, err := io.ReadFull(r, out)
	return toString(out), err // want `ReadString2 returns toString's result`
}

// ReadString3 reinterprets in place.
func ReadString3(r io.Reader, n int) (string, error) {
	out := make([]byte, n) // want `make\(\[\]byte, n\) computes out, which ReadString3 returns`
	_, err := io.ReadFull(r, out)
	return unsafe.String(&out[0], len(out)), err
}

// ReadCopy copies the bytes into the string: the make is a scratch
// buffer, not the result.
func ReadCopy(r io.Reader, n int) (string, error) {
	out := make([]byte, n)
	_, err := io.ReadFull(r, out)
	return copyString(out), err // want `ReadCopy returns copyString's result`
}

var pooled []byte

// Marshal copies the pooled buffer into the slice it returns.
func Marshal(n int) ([]byte, error) {
	pooled = append(pooled[:0], make([]byte, n)...)
	b := make([]byte, len(pooled)) // want `make\(\[\]byte, len\(pooled\)\) computes b, which Marshal returns`
	copy(b, pooled)                // want `copy\(b, pooled\) fills b, which Marshal returns`
	return b, nil
}

// Scratch copies into a buffer it does not return.
func Scratch(n int) int {
	b := make([]byte, n)
	copy(b, pooled)
	return len(b)
}

// CopyInput copies part of what it is given into the slice it returns:
// the input stored, not a fill of the result to name here.
func CopyInput(data []byte) []byte {
	dst := make([]byte, len(data)/2) // want `make\(\[\]byte, len\(data\) / 2\) computes dst, which CopyInput returns`
	copy(dst, data[len(data)/2:])
	return dst
}
