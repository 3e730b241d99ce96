package conv

import (
	"fmt"
	"time"
)

// Any uses %v of a float: fmt's shortest form switches to an exponent
// at other magnitudes than strconv's.
func Any(x float64) string {
	return fmt.Sprintf("%v", x) // no rewrite
}

// AnyNamed uses %v of a type with a String method.
func AnyNamed(d time.Duration) string {
	return fmt.Sprintf("%v", d) // no rewrite
}

// Padded has a width.
func Padded(x int) string {
	return fmt.Sprintf("%5d", x) // no rewrite
}

// Stringer formats a type with a String method.
func Stringer(d time.Duration) string {
	return fmt.Sprintf("took %s", d) // no rewrite
}

// Month is an integer type with a Format method.
type Month int

// Format prints the month's name.
func (m Month) Format(f fmt.State, verb rune) { fmt.Fprint(f, "month") }

// Named formats a named integer type: fmt calls its Format method.
func Named(m Month) string {
	return fmt.Sprintf("%d", m) // no rewrite
}

// Dynamic has a format that is not a constant.
func Dynamic(format string, x int) string {
	return fmt.Sprintf(format, x) // no rewrite
}

// Many passes two operands to Sprint, which spaces them.
func Many(a, b int) string {
	return fmt.Sprint(a, b) // no rewrite
}
