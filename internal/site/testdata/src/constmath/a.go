package constmath

import "math"

const ten = 10

// NumDigits divides by the same logarithm on every call.
func NumDigits(bits int) int {
	return int(float64(bits) / math.Log2(10)) // want `math.Log2\(10\) computes the same number on every call of NumDigits`
}

// Named constants are constants too.
func Scale(x float64) float64 {
	return x * math.Pow(ten, 3) // want `math.Pow\(ten, 3\) computes the same number on every call of Scale`
}

// A variable argument is work per call: no shape.
func Log(x float64) float64 {
	return math.Log2(x)
}

// math.Abs and math.Sqrt are single instructions: no shape.
func Abs() float64 {
	return math.Abs(-2) + math.Sqrt(2)
}

// Computed once at package level already: no shape.
var log2of10 = math.Log2(10)

// Digits uses the package-level value.
func Digits(bits int) int {
	return int(float64(bits) / log2of10)
}
