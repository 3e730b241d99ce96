package copiedfresh

import "math/big"

type Int struct{ big *big.Int }

// MakeBigInt returns an Int holding a copy of x: the caller may modify x.
func MakeBigInt(x *big.Int) Int {
	z := new(big.Int).Set(x) // want `MakeBigInt copies the \*big.Int it is given before keeping it, and 3 of its 4 calls in the package pass one made in the call itself \(lines \d+, \d+, \d+\)`
	return Int{z}
}

func (x Int) Add(y Int) Int { return MakeBigInt(new(big.Int).Add(x.big, y.big)) }
func (x Int) Sub(y Int) Int { return MakeBigInt(new(big.Int).Sub(x.big, y.big)) }
func (x Int) Mul(y Int) Int { return MakeBigInt(new(big.Int).Mul(x.big, y.big)) }

// A caller that keeps its argument: the copy is for it.
func keep(b *big.Int) Int { return MakeBigInt(b) }

// Copies for callers that pass what they keep: no shape.
func Clone(x *big.Int) *big.Int { return new(big.Int).Set(x) }

func use(a, b *big.Int) (*big.Int, *big.Int) { return Clone(a), Clone(b) }
