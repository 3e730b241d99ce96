package fprintstring

import (
	"fmt"
	"io"
)

func line(name string) string { return name + "\n" }

func logged(out io.Writer, name string, n int) {
	fmt.Fprint(out, line(name)) // want `logged writes the string line\(name\) with fmt.Fprint: fmt boxes it into an interface`
	fmt.Fprint(out, "constant")
	fmt.Fprint(out, n)
	fmt.Fprint(out, name, n)
}
