package conv

import "fmt"

// Attr is an HTML attribute, a name and maybe a value.
type Attr struct {
	name  string
	value *string
}

// Render writes the attribute with %v, which of a string is %s.
func (a *Attr) Render() string {
	if a.value == nil {
		return fmt.Sprintf(" %v", a.name) // want `formats only strings and integers`
	}
	return fmt.Sprintf(` %v="%v"`, a.name, *a.value) // want `formats only strings and integers`
}

// Line writes an integer with %v, which of an int is %d.
func Line(file string, n int) string {
	return fmt.Sprintf("%v:%v", file, n) // want `formats only strings and integers`
}
