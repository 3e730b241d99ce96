package bufout

import (
	"fmt"
	"os"
)

// WriteLines writes one line per entry into a file it creates: the
// buffer is flushed after the loop, before the deferred Close.
func WriteLines(path string, lines []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	for i, l := range lines {
		fmt.Fprintf(f, "%d %s\n", i, l) // want `the loop writes to f without a buffer \(fmt.Fprintf\)`
	}
	return nil
}

// Appended writes raw bytes with the file's own Write, and stops early.
func Appended(path string, chunks [][]byte) error {
	out, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	for _, c := range chunks {
		if len(c) == 0 {
			return out.Close()
		}
		out.Write(c) // want `the loop writes to out without a buffer \(out.Write\)`
	}
	return out.Close()
}

// Synced syncs the file in the loop: the file is used otherwise than
// written, so nothing is buffered.
func Synced(path string, lines []string) {
	f, _ := os.Create(path)
	for _, l := range lines {
		fmt.Fprintln(f, l)
		f.Sync()
	}
	f.Close()
}

// Given writes to a file it was handed, which may be os.Stderr.
func Given(f *os.File, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(f, l)
	}
}

// Aliased writes to a variable that holds os.Stdout or a created file.
func Aliased(path string, lines []string, toStdout bool) {
	f := os.Stdout
	if !toStdout {
		f, _ = os.Create(path)
	}
	for _, l := range lines {
		fmt.Fprintln(f, l)
	}
}
