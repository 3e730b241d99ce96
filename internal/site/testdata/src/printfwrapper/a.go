package printfwrapper

import (
	"bufio"
	"fmt"
	"io"
)

type Encoder struct {
	w      *bufio.Writer
	out    io.Writer
	indent string
}

func (enc *Encoder) writef(format string, v ...any) {
	if _, err := fmt.Fprintf(enc.w, format, v...); err != nil { // want `writef hands its format and arguments to fmt.Fprintf\(enc.w, …\), and 2 calls of it pass a constant format of strings only \(line 32, 33\)`
		panic(err)
	}
}

func (enc *Encoder) outf(format string, v ...interface{}) {
	fmt.Fprintf(enc.out, format, v...) // want `outf hands its format and arguments to fmt.Fprintf\(enc.out, …\), and 1 call of it passes`
}

type name string

func (n name) String() string { return "<" + string(n) + ">" }

type plain string

func (enc *Encoder) key(k string, p plain) {
	enc.writef("%s%s = ", enc.indent, k) // want `key calls writef, a wrapper of fmt.Fprintf \(line 16\), with the format "%s%s = " and 2 strings: each call boxes every argument into an interface and parses the format`
	enc.writef("%v\n", p)                // want `key calls writef, a wrapper of fmt.Fprintf \(line 16\), with the format "%v\\n" and 1 string`
	enc.outf("[%s]", k)                  // want `key calls outf`
	enc.writef("%d", len(k))             // an integer: not this shape
	enc.writef("%s", name(k))            // printed by its String method
	enc.writef("%q", k)                  // quoting
	enc.writef("\n")                     // no argument: nothing boxed
}

var logw io.Writer

func logf(format string, args ...any) { fmt.Fprintf(logw, format, args...) } // want `logf hands its format`

func use(s string) {
	logf("%s: done", s) // want `use calls logf, a wrapper of fmt.Fprintf \(line 43\)`
}
