package appendvariant

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A logger's tags: each formatted into a string, then copied.
func tag(buf *bytes.Buffer, t time.Time, n int, name string) {
	buf.WriteString(t.Format(time.RFC3339Nano)) // want `t.Format\(time.RFC3339Nano\) makes a new string only to copy it into buf`
	buf.WriteString(strconv.Itoa(n))            // want `strconv.Itoa\(n\) makes a new string only to copy it into buf`
	buf.WriteString(name)
}

func line(b []byte, id int64, v any) []byte {
	b = append(b, strconv.FormatInt(id, 16)...) // want `strconv.FormatInt\(id, 16\) makes a new string only to copy it into b`
	b = append(b, fmt.Sprintf("%v", v)...)      // want `fmt.Sprintf\("%v", v\) makes a new string`
	return b
}

func built(sb *strings.Builder, t time.Time) {
	sb.WriteString(t.Format(time.Kitchen)) // want `t.Format\(time.Kitchen\) makes a new string only to copy it into sb`
}

// Kept, or no append form: no report.
func kept(buf *bytes.Buffer, t time.Time) string {
	s := t.Format(time.RFC3339)
	buf.WriteString(s)
	buf.WriteString(strings.ToLower(s))
	return s
}
