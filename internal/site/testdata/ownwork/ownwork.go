// Package ownwork has calls that are their function's own work on what it
// is given, and a result computed from a scalar input, which may recur.
package ownwork

import (
	"math/big"
	"strconv"
)

// Label converts its input: its own work.
func Label(id int) string { return "#" + strconv.Itoa(id) }

// Pow computes its result from a scalar: a memo fits.
func Pow(n int64) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil) }

// Square computes its result from a pointer: its own work.
func Square(x *big.Int) *big.Int { return new(big.Int).Mul(x, x) }

// Format is exported: formatting the float it is given is its API's.
func Format(buf []byte, f float64) []byte { return strconv.AppendFloat(buf, f, 'g', -1, 64) }

// encodeFloat is an encoder's helper: formatting the float it is given
// is its work.
func encodeFloat(b []byte, f float64) []byte { return strconv.AppendFloat(b, f, 'g', -1, 64) }

// Encode encodes.
func Encode(b []byte, f float64) []byte { return encodeFloat(b, f) }
