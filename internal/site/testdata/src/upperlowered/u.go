package upperlowered

import (
	"strconv"
	"strings"
)

// Decimal is a parsed number.
type Decimal struct{ text string }

// SetFloat64 formats with 'E', which setString lowers.
func (d *Decimal) SetFloat64(f float64) *Decimal {
	var buf [32]byte
	d.SetString(string(strconv.AppendFloat(buf[:0], f, 'E', -1, 64))) // want `SetFloat64 formats with 'E' \(its letters in upper case\) and passes the text to SetString, which lowers it with strings.ToLower\(s\) \(line 28\): the upper case makes ToLower copy the text on every call`
	return d
}

// SetLower formats with 'e': nothing to lower.
func (d *Decimal) SetLower(f float64) *Decimal {
	d.SetString(strconv.FormatFloat(f, 'e', -1, 64))
	return d
}

// SetString parses s.
func (d *Decimal) SetString(s string) { d.setString(s) }

func (d *Decimal) setString(s string) {
	s = strings.ToLower(s)
	d.text = s
}

// Hex formats in upper case for a function that keeps it as it is.
func Hex(v int64) string {
	return keep(strconv.FormatInt(v, 16) + strconv.FormatFloat(float64(v), 'X', -1, 64))
}

func keep(s string) string { return s }
