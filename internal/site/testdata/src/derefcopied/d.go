package derefcopied

import "derefcopied/dec"

type Amount struct {
	number dec.Decimal
	code   string
}

func NewAmount(c []uint, code string) Amount {
	number := dec.NewWithCoeff(c, -2) // want `NewAmount takes dec.NewWithCoeff's new \*Decimal only to copy its value out \(\*number, line 12\)`
	return Amount{*number, code}
}

// The pointer is kept: the allocation is the value's.
func NewRef(c []uint) *dec.Decimal {
	d := dec.NewWithCoeff(c, 0)
	d.Exponent++
	return d
}
