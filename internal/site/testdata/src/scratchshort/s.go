package scratchshort

import "strconv"

// Int holds a value.
type Int struct{ v uint64 }

// Append appends the value in base, after its sign.
func (z *Int) Append(buf []byte, base int) []byte {
	if z.v == 0 {
		buf = append(buf, '-')
	}
	return strconv.AppendUint(buf, z.v, base)
}

// Text formats into 16 bytes: a uint64 in base 10 needs 21 with its sign.
func Text(z *Int) string {
	var scratch [16]byte
	return string(z.Append(scratch[:0], 10)) // want `Text passes scratch\[:0\], a \[16\]byte, to z.Append, which appends up to 21 bytes \(strconv.AppendUint of a uint64 in base 10, after a byte appended before it\): a longer text makes the append copy it to the heap`
}

// Wide has room for the longest.
func Wide(z *Int) string {
	var scratch [24]byte
	return string(z.Append(scratch[:0], 10))
}

// Float formats a float64 into 16 bytes: 24 are the longest.
func Float(f float64) string {
	var buf [16]byte
	return string(strconv.AppendFloat(buf[:0], f, 'g', -1, 64)) // want `Float passes buf\[:0\], a \[16\]byte, to strconv.AppendFloat, which appends up to 24 bytes`
}

// Fixed formats with a precision the analyzer does not bound: no shape.
func Fixed(f float64) string {
	var buf [16]byte
	return string(strconv.AppendFloat(buf[:0], f, 'f', 2, 64))
}

// Hex has a base it is given: unknown, no shape.
func Hex(v uint64, base int) string {
	var buf [8]byte
	return string(strconv.AppendUint(buf[:0], v, base))
}
