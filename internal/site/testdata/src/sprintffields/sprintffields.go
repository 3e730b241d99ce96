package sprintffields

import (
	"fmt"
	"io"
	"time"
)

type params struct {
	TimeStamp time.Time
	Status    int
	Latency   time.Duration
	Method    string
	Path      string
}

// A log line of several fields.
func format(p params, color string) string {
	return fmt.Sprintf("[GIN] %v |%s %3d | %8v | %-7s %#v\n", // want `format formats 6 fields with fmt on every call: it boxes 6 arguments into interfaces, parses the format, pads 3 of them to a width and returns a new string`
		p.TimeStamp.Format("2006/01/02 - 15:04:05"), color, p.Status, p.Latency, p.Method, p.Path)
}

func write(w io.Writer, p params) {
	fmt.Fprintf(w, "%s %s %d %v\n", p.Method, p.Path, p.Status, p.Latency) // want `write formats 4 fields`
}

// Few fields, a type it does not cover, an indexed argument, an error
// value: none of them.
func few(a, b string) string { return fmt.Sprintf("%s=%s", a, b) }

func other(p params, x any) string {
	return fmt.Sprintf("%s %s %d %v", p.Method, p.Path, p.Status, x)
}

func indexed(p params) string {
	return fmt.Sprintf("%[1]s %[2]s %[1]s %[2]s", p.Method, p.Path)
}

// A formatter held by a package-level variable.
var defaultFormatter = func(p params) string {
	return fmt.Sprintf("%v | %3d | %s %#v", p.Latency, p.Status, p.Method, p.Path) // want `defaultFormatter formats 4 fields`
}

func logged(out io.Writer, p params) {
	fmt.Fprint(out, format(p, ""))
	fmt.Fprint(out, "constant")
	fmt.Fprint(out, p.Status)
}
