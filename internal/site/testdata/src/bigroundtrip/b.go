package bigroundtrip

import "math/big"

// Encode writes the magnitude of v.
func Encode(dst []byte, v *big.Int) []byte {
	vbi := *v
	bi := new(big.Int).SetBytes(vbi.Bytes()) // want `new\(big.Int\).SetBytes\(vbi.Bytes\(\)\) turns vbi's magnitude into a new byte slice and back into a new big.Int`
	return append(dst, bi.Bytes()...)
}

// Parse reads bytes from input: no round trip.
func Parse(b []byte) *big.Int {
	return new(big.Int).SetBytes(b)
}
