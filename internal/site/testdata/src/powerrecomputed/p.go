package powerrecomputed

import "math/big"

var bigTen = big.NewInt(10)

const maxPrec = 19

// Pow divides by 10^factor, computed at every call.
func Pow(d *big.Int, prec uint8, e int32) *big.Int {
	factor := int32(prec)*e - maxPrec
	m := new(big.Int).Exp(bigTen, big.NewInt(int64(factor)), nil) // want `Pow computes bigTen to the power factor with big.Int's Exp at every call`
	return new(big.Int).Quo(d, m)
}

// Raise raises its argument: the base varies, nothing recurs.
func Raise(d *big.Int, e int64) *big.Int {
	return new(big.Int).Exp(d, big.NewInt(e), nil)
}

// Mod is modular exponentiation: another computation.
func Mod(e int64, m *big.Int) *big.Int {
	return new(big.Int).Exp(bigTen, big.NewInt(e), m)
}

// Fixed is a constant power: computed once by whoever keeps it.
func Fixed() *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
}
