package unbufferedwrite

import (
	"bufio"
	"fmt"
	"os"
)

func Print(lines []string) {
	for _, l := range lines {
		fmt.Fprintln(os.Stdout, l) // want `fmt.Fprintln writes to os.Stdout in a loop: an \*os.File is not buffered`
	}
}

func Save(f *os.File, recs [][]byte) {
	for _, r := range recs {
		f.Write(r) // want `f.Write writes to f in a loop`
		f.Write([]byte("\n"))
	}
}

// Buffered: no shape.
func PrintBuffered(lines []string) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// Once, outside a loop: no shape.
func Hello() { fmt.Fprintln(os.Stderr, "hello") }
