package resultmemo

import "math/big"

var ten = big.NewInt(10)

// pow10's input is a number: its results can be kept per input.
func pow10(n int64) *big.Int {
	return new(big.Int).Exp(ten, big.NewInt(n), nil) // want `new\(big.Int\).Exp\(ten, big.NewInt\(n\), nil\) computes the value pow10 returns`
}

// square's input is a *big.Int: nothing to keep per input.
func square(x *big.Int) *big.Int {
	return new(big.Int).Mul(x, x) // want `new\(big.Int\).Mul\(x, x\) computes the value square returns`
}

// Use calls both.
func Use(n int64) int {
	return pow10(n).BitLen() + square(big.NewInt(n)).BitLen()
}
