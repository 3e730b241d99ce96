package cmdbench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// StraceSyntaxError is a line of strace -c output that is not part of its
// table.
type StraceSyntaxError struct {
	Line int
	Text string
	Msg  string
}

// Error names the line and quotes it.
func (e *StraceSyntaxError) Error() string {
	return fmt.Sprintf("strace output line %d: %s: %q", e.Line, e.Msg, e.Text)
}

// StraceReader reads the summary table that strace -c writes:
//
//	% time     seconds  usecs/call     calls    errors syscall
//	------ ----------- ----------- --------- --------- ----------------
//	 38.89    0.000056          28         2           vfork
//	...
//	100.00    0.000144           0       362        60 total
//
// It is used like bufio.Scanner: for r.Scan() { c := r.Count() … }; r.Err().
// The total row is returned like the others, named "total". Headers,
// separator lines and the per-personality titles ("System call usage
// summary for 32 bit mode:") are skipped.
type StraceReader struct {
	s    *bufio.Scanner
	line int
	row  document.ExecSyscallCount
	err  error
}

// NewStraceReader returns a reader of the strace -c table in r.
func NewStraceReader(r io.Reader) *StraceReader {
	return &StraceReader{s: bufio.NewScanner(r)}
}

// Scan advances to the next row and reports whether there is one.
func (r *StraceReader) Scan() bool {
	if r.err != nil {
		return false
	}
	for r.s.Scan() {
		r.line++
		text := r.s.Text()
		t := strings.TrimSpace(text)
		switch {
		case t == "",
			strings.HasPrefix(t, "% time"),
			strings.HasPrefix(t, "------"),
			strings.HasPrefix(t, "System call usage summary"):
			continue
		}
		if err := r.parse(t); err != "" {
			r.err = &StraceSyntaxError{Line: r.line, Text: text, Msg: err}
			return false
		}
		return true
	}
	r.err = r.s.Err()
	return false
}

// parse reads one table row: % time, seconds, usecs/call, calls, an
// optional errors count and the name.
func (r *StraceReader) parse(t string) string {
	var f [7]string
	n := 0
	for w := range strings.FieldsSeq(t) {
		if n == len(f) {
			return "too many columns"
		}
		f[n] = w
		n++
	}
	if n != 5 && n != 6 {
		return "want 5 or 6 columns"
	}
	if _, err := strconv.ParseFloat(f[0], 64); err != nil {
		return "bad % time"
	}
	secs, err := strconv.ParseFloat(f[1], 64)
	if err != nil || secs < 0 {
		return "bad seconds"
	}
	if _, err := strconv.ParseUint(f[2], 10, 64); err != nil {
		return "bad usecs/call"
	}
	calls, err := strconv.ParseInt(f[3], 10, 64)
	if err != nil || calls < 0 {
		return "bad calls"
	}
	var errs int64
	if n == 6 {
		errs, err = strconv.ParseInt(f[4], 10, 64)
		if err != nil || errs < 0 {
			return "bad errors"
		}
	}
	r.row = document.ExecSyscallCount{Name: f[n-1], Calls: calls, Errors: errs, Seconds: secs}
	return ""
}

// Count returns the current row. It is overwritten by the next Scan.
func (r *StraceReader) Count() *document.ExecSyscallCount { return &r.row }

// Err returns the first error met, nil at a clean end of input.
func (r *StraceReader) Err() error { return r.err }

// ParseStrace reads a whole strace -c table. Rows of the same system call
// (one table per personality) are added up; the total is recomputed when
// the output has no total row.
func ParseStrace(r io.Reader) (*document.ExecSyscalls, error) {
	sr := NewStraceReader(r)
	sc := &document.ExecSyscalls{BySyscall: []document.ExecSyscallCount{}}
	idx := map[string]int{}
	sawTotal := false
	for sr.Scan() {
		c := sr.Count()
		if c.Name == "total" {
			sc.Calls += c.Calls
			sc.Errors += c.Errors
			sc.Seconds += c.Seconds
			sawTotal = true
			continue
		}
		if i, ok := idx[c.Name]; ok {
			sc.BySyscall[i].Calls += c.Calls
			sc.BySyscall[i].Errors += c.Errors
			sc.BySyscall[i].Seconds += c.Seconds
			continue
		}
		idx[c.Name] = len(sc.BySyscall)
		sc.BySyscall = append(sc.BySyscall, *c)
	}
	if err := sr.Err(); err != nil {
		return nil, err
	}
	if !sawTotal {
		for _, c := range sc.BySyscall {
			sc.Calls += c.Calls
			sc.Errors += c.Errors
			sc.Seconds += c.Seconds
		}
	}
	slices.SortStableFunc(sc.BySyscall, func(a, b document.ExecSyscallCount) int {
		if a.Calls != b.Calls {
			if a.Calls > b.Calls {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return sc, nil
}

// ErrNoStrace says that strace is not installed.
var ErrNoStrace = errors.New("strace not found in $PATH: install it (e.g. apt-get install strace) or drop -strace")

// LookStrace returns the path of strace, or ErrNoStrace.
func LookStrace() (string, error) {
	p, err := exec.LookPath("strace")
	if err != nil {
		return "", ErrNoStrace
	}
	return p, nil
}

// strace runs b once under strace -c -f and parses the table. The run is
// separate from the timed ones because tracing slows every system call.
func (e *engine) strace(b *bench) (*document.ExecSyscalls, error) {
	path, err := LookStrace()
	if err != nil {
		return nil, err
	}
	data, code, err := e.underTool(b, "strace", "perfloop-strace-*.txt", func(out string) []string {
		return []string{path, "-c", "-f", "-o", out, "--"}
	})
	if err != nil {
		return nil, err
	}
	sc, err := ParseStrace(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("strace %q: %w", b.cmd.Line, err)
	}
	if len(sc.BySyscall) == 0 {
		return nil, fmt.Errorf("strace %q wrote no syscall table (exit code %d): check that ptrace is permitted by running strace -c -f by hand", b.cmd.Line, code)
	}
	return sc, nil
}

// underTool runs b once behind a measuring tool: prefix(out) is the
// tool's command line up to b's own, with out the file it writes its
// report to. It returns the report and the run's exit code.
func (e *engine) underTool(b *bench, tool, pattern string, prefix func(out string) []string) ([]byte, int, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return nil, 0, fmt.Errorf("%s %q: %w", tool, b.cmd.Line, err)
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	argv := append(append(prefix(name), b.proc.path), b.proc.argv[1:]...)
	p, err := newProcess(argv, e.io)
	if err != nil {
		return nil, 0, fmt.Errorf("%s %q: %w", tool, b.cmd.Line, err)
	}
	if err := e.io.rewind(); err != nil {
		return nil, 0, err
	}
	m, err := p.run(e.ctl, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("%s %q: %w", tool, b.cmd.Line, err)
	}
	if e.ctl.isCanceled() {
		return nil, 0, context.Canceled
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, 0, fmt.Errorf("%s %q: %w", tool, b.cmd.Line, err)
	}
	return data, m.ExitCode, nil
}
