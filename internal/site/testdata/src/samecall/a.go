package samecall

import "strings"

func Norm(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func Key(name string) string {
	if Norm(name) == "" { // want `Norm\(name\) is called on 2 lines with the same arguments`
		return "-"
	}
	return "k:" + Norm(name)
}

// Different arguments: no shape.
func Pair(a, b string) string { return Norm(a) + Norm(b) }

// Called for its effect: no shape.
func Write(b *strings.Builder, s string) {
	b.WriteString(s)
	b.WriteString(s)
}

type val struct{ next *val }

func (v *val) Field(name string) string { return name }
func (v *val) IsStruct() bool           { return v.next == nil }

// The same text on exclusive branches, the second after the receiver is
// reassigned: one call per access, no shape.
func FromStruct(v *val, name string) string {
	if v.IsStruct() {
		f := v.Field(name)
		return f
	} else if v.next != nil {
		v = v.next
		f := v.Field(name)
		return f
	}
	return ""
}

// The same text after the receiver is reassigned, on one path: no shape.
func Reassigned(v *val, name string) string {
	a := v.Field(name)
	v = v.next
	b := v.Field(name)
	return a + b
}

// The same text in the two arms of a switch: no shape.
func Switch(v *val, k int, name string) string {
	switch k {
	case 0:
		return "0" + v.Field(name)
	case 1:
		return "1" + v.Field(name)
	}
	return ""
}

// A shadowed variable of the same name is another value: no shape.
func Shadowed(v *val, name string) string {
	a := v.Field(name)
	{
		v := v.next
		return a + v.Field(name)
	}
}

// The first call in a branch that returns, the second after it: one run
// makes one of them, no shape.
func Upsert(v *val, name string, found bool) string {
	if found {
		s := v.Field(name)
		return s
	}
	return "new " + v.Field(name)
}

type quoteWriter interface{ WriteByte(c byte) error }

// quoted writes a quote before and after: two writes, not one result.
func quoted(w quoteWriter, s string) error {
	err := w.WriteByte('"')
	if err != nil {
		return err
	}
	err = w.WriteByte('"')
	return err
}

type closer struct{}

func (closer) check(n int) error { return nil }

// twice checks twice: a call made for its error, not a value to keep.
func twice(c closer) error {
	if err := c.check(1); err != nil {
		return err
	}
	return c.check(1)
}
