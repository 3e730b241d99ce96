package dec

type Decimal struct {
	Coeff    []uint
	Exponent int32
}

func NewWithCoeff(c []uint, exp int32) *Decimal { return &Decimal{Coeff: c, Exponent: exp} }
