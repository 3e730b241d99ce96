package formatboxed

import "bytes"

type TrackedBuffer struct {
	*bytes.Buffer
	hook func(buf *TrackedBuffer, node any)
}

// Myprintf is a hand-written formatter: no fmt.Fprintf.
func (buf *TrackedBuffer) Myprintf(format string, values ...interface{}) {
	for i, v := range values {
		_ = i
		switch v := v.(type) {
		case string:
			buf.WriteString(v)
		case interface{ Format(*TrackedBuffer) }:
			v.Format(buf)
		}
	}
	_ = format
}

type ColIdent struct{ val, lowered string }

func (c ColIdent) Format(buf *TrackedBuffer) { buf.WriteString(c.val) }

type ColName struct{ Name ColIdent }

type Expr interface{ Format(*TrackedBuffer) }

func formatID(buf *TrackedBuffer, original string) {
	buf.Myprintf("%s", original) // want `formatID calls Myprintf, the package's own formatter, with the format "%s" and original: each value is boxed into its ...any, an allocation per call`
}

func (node *ColName) Format(buf *TrackedBuffer, q ColIdent) {
	buf.Myprintf("%v.%v", q, node.Name) // want `Format calls Myprintf, the package's own formatter, with the format "%v.%v" and q, node.Name`
}

// Interfaces and pointers box for free.
func exprs(buf *TrackedBuffer, e Expr, n *ColName) {
	buf.Myprintf("%v = %v", e, n)
}

// A computed format is not the shape.
func dyn(buf *TrackedBuffer, f, s string) {
	buf.Myprintf(f, s)
}
