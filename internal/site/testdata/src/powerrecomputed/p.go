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

type u128 struct{ hi, lo uint64 }

// ToBigInt makes a new Int of the value.
func (u u128) ToBigInt() *big.Int {
	return new(big.Int).SetUint64(u.lo)
}

var pow10 = [3]u128{{0, 1}, {0, 10}, {0, 100}}

var pow10Big = [2]*big.Int{big.NewInt(1), big.NewInt(10)}

// Scale multiplies by an entry converted at every call.
func Scale(d *big.Int, factor int) *big.Int {
	return d.Mul(d, pow10[factor].ToBigInt()) // want `Scale converts pow10\[factor\], an entry of the package's table pow10, to a new big.Int at every call`
}

// One converts a value of its own: no table.
func One(u u128) *big.Int {
	return u.ToBigInt()
}
