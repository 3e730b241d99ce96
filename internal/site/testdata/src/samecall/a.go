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
