package scanone

import (
	"fmt"
	"math/big"
)

func ParseBig(num string) (*big.Rat, error) {
	val := &big.Rat{}
	_, err := fmt.Sscanf(num, "%f", val) // want `fmt.Sscanf\(num, "%f", val\) reads one value from a string through fmt's scanner`
	return val, err
}

func ParseFloat(s string) (f float64, err error) {
	_, err = fmt.Sscan(s, &f) // want `fmt.Sscan\(s, &f\) reads one value`
	return f, err
}

// Two values and literal text: the format does work a single parser
// does not.
func ParsePair(s string) (a, b int, err error) {
	_, err = fmt.Sscanf(s, "%d-%d", &a, &b)
	return a, b, err
}
