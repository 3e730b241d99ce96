package conv

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Version is a parsed version.
type Version struct {
	segments []int64
	pre      string
	meta     string
}

// String writes the version's parts into a buffer with Fprintf.
func (v *Version) String() string {
	var buf bytes.Buffer
	parts := make([]string, len(v.segments))
	for i, s := range v.segments {
		parts[i] = strconv.FormatInt(s, 10)
	}
	buf.WriteString(strings.Join(parts, "."))
	if v.pre != "" {
		fmt.Fprintf(&buf, "-%s", v.pre) // want `formats only strings and integers into a buffer`
	}
	if v.meta != "" {
		fmt.Fprint(&buf, v.meta) // want `formats only strings and integers into a buffer`
	}
	return buf.String()
}

// Row writes a row into a builder it is given.
func Row(sb *strings.Builder, name string, n int) {
	fmt.Fprintf(sb, "%s=%d;", name, n) // want `formats only strings and integers into a buffer`
}

// Stdout writes to a file: its writes can fail.
func Stdout(name string) {
	fmt.Fprintf(os.Stdout, "%s\n", name)
}

// Writer writes to an interface: what it does with the bytes is unknown.
func Writer(w io.Writer, name string) {
	fmt.Fprintf(w, "%s\n", name)
}

// Counted uses the count Fprintf returns.
func Counted(buf *bytes.Buffer, name string) int {
	n, _ := fmt.Fprintf(buf, "%s", name)
	return n
}

// Float writes a float.
func Float(buf *bytes.Buffer, f float64) {
	fmt.Fprintf(buf, "%v", f)
}
