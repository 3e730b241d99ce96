package results

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// Writer writes results in the Go benchmark format as they arrive, so an
// interrupted run keeps everything finished so far.
type Writer struct {
	buf *bufio.Writer
	bw  *benchfmt.Writer
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer {
	buf := bufio.NewWriter(w)
	return &Writer{buf: buf, bw: benchfmt.NewWriter(buf)}
}

// Result writes one result line, preceded by any configuration lines
// (goos, pkg, …) that changed since the last result, and flushes.
func (w *Writer) Result(r *benchfmt.Result) error {
	if err := w.bw.Write(r); err != nil {
		return err
	}
	return w.buf.Flush()
}

// Failure writes a line recording that b failed, in the form go test uses
// ("--- FAIL: BenchmarkX …"), which benchfmt readers skip.
func (w *Writer) Failure(b *Benchmark) error {
	msg := oneLine(b.Error)
	fmt.Fprintf(w.buf, "--- FAIL: %s (%s): %s\n", b.Name, b.Status, msg)
	return w.buf.Flush()
}

// Trailer writes env as configuration lines after the last result (see the
// package documentation for why they come last) and flushes.
func (w *Writer) Trailer(env Env) error {
	fmt.Fprintln(w.buf)
	kv := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w.buf, "%s: %s\n", k, oneLine(v))
		}
	}
	kv("perfloop-version", env.Perfloop)
	kv("go-version", env.GoVersion)
	commit := env.Commit
	if commit != "" && env.Dirty {
		commit += "-dirty"
	}
	kv("commit", commit)
	kv("date", env.Date)
	return w.buf.Flush()
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}
