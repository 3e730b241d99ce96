package results

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// File is the content of one or more result files read together.
type File struct {
	// Results holds every result, in input order. Each Result's ".file"
	// is its file's label (the path, or LABEL from a LABEL=path argument).
	Results []*benchfmt.Result
	// Units holds the unit metadata lines ("Unit B/s better=higher").
	Units benchfmt.UnitMetadataMap
	// Errors lists malformed lines, each a *benchfmt.SyntaxError naming
	// its file and line; the lines around them were still read.
	Errors []error
	// Labels lists the file labels in the order given.
	Labels []string
	// Empty lists the arguments, as given, whose files held no result.
	Empty []string
}

// MaxLine is the longest line, in bytes without its newline, that Read
// reads. A longer line cannot be a result (benchfmt's reader stops at it);
// Read skips it and records it in File.Errors with its line number.
const MaxLine = 64<<10 - 1

// input is one argument of Read.
type input struct {
	arg, path, label string
}

// Read reads the result files at paths (each "path" or "label=path"; "-" is
// standard input, also when paths is empty). A path given twice without a
// label is read twice as "path#0" and "path#1", as benchstat does. A
// missing or unreadable file, a directory, or one label for two files, is
// an error; a
// malformed line is recorded in File.Errors and reading goes on; a file
// without results is listed in File.Empty.
func Read(paths []string) (*File, error) {
	inputs, err := parseInputs(paths)
	if err != nil {
		return nil, err
	}
	f := &File{}
	var r benchfmt.Reader
	for _, in := range inputs {
		n, err := f.read(&r, in)
		if err != nil {
			return nil, err
		}
		f.Labels = append(f.Labels, in.label)
		if n == 0 {
			f.Empty = append(f.Empty, in.arg)
		}
	}
	f.Units = r.Units()
	return f, nil
}

// parseInputs splits the arguments into paths and labels and checks that
// the files exist and the labels differ.
func parseInputs(args []string) ([]input, error) {
	if len(args) == 0 {
		args = []string{"-"}
	}
	var inputs []input
	count := map[string]int{}
	for _, a := range args {
		in := input{arg: a, path: a, label: a}
		if label, path, ok := strings.Cut(a, "="); ok {
			// A file whose name has "=" in it is still a file.
			if _, err := os.Stat(a); err != nil {
				in.path, in.label = path, label
			}
		}
		if in.path != "-" {
			fi, err := os.Stat(in.path)
			if err != nil {
				var pe *os.PathError
				if errors.As(err, &pe) {
					err = pe.Err
				}
				return nil, fmt.Errorf("read %s: %w", in.path, err)
			}
			if fi.IsDir() {
				return nil, fmt.Errorf("%s is a directory; give results files", in.path)
			}
		}
		if in.label == in.arg {
			count[in.path]++
		}
		inputs = append(inputs, in)
	}
	seen := map[string]string{} // label → argument
	n := map[string]int{}
	for i := range inputs {
		in := &inputs[i]
		if in.label == in.arg && count[in.path] > 1 {
			in.label = fmt.Sprintf("%s#%d", in.path, n[in.path])
			n[in.path]++
		}
		if prev, ok := seen[in.label]; ok {
			return nil, fmt.Errorf("label %q names both %s and %s: give each file a label of its own", in.label, prev, in.arg)
		}
		seen[in.label] = in.arg
	}
	return inputs, nil
}

// read reads one input into f and returns how many results it held.
func (f *File) read(r *benchfmt.Reader, in input) (int, error) {
	var src io.Reader = os.Stdin
	if in.path != "-" {
		file, err := os.Open(in.path)
		if err != nil {
			return 0, fmt.Errorf("read %s: %w", in.path, err)
		}
		defer file.Close()
		src = file
	}
	lf := &lineFilter{r: bufio.NewReaderSize(src, MaxLine+1)}
	r.Reset(lf, in.path, ".file", in.label)
	n := 0
	var errs []*benchfmt.SyntaxError
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			e := *rec
			errs = append(errs, &e)
		case *benchfmt.Result:
			if bad := nonFinite(rec); bad != "" {
				// NaN and ±Inf are not measurements (go test prints NaN
				// for a benchmark that panicked), and they break the
				// rank statistics.
				file, line := rec.Pos()
				errs = append(errs, &benchfmt.SyntaxError{FileName: file, Line: line, Msg: "non-finite " + bad + " value"})
				continue
			}
			f.Results = append(f.Results, rec.Clone())
			n++
		}
	}
	if err := r.Err(); err != nil {
		return 0, fmt.Errorf("read %s: %w", in.path, err)
	}
	for _, line := range lf.long {
		errs = append(errs, &benchfmt.SyntaxError{FileName: in.path, Line: line, Msg: fmt.Sprintf("line longer than %d bytes skipped", MaxLine)})
	}
	slices.SortStableFunc(errs, func(a, b *benchfmt.SyntaxError) int { return a.Line - b.Line })
	for _, e := range errs {
		f.Errors = append(f.Errors, e)
	}
	return n, nil
}

// lineFilter passes its input on with every line longer than MaxLine
// replaced by an empty line, so that the reader after it counts lines
// right, and records those lines' numbers.
type lineFilter struct {
	r    *bufio.Reader // of size MaxLine+1: a line that fits has its newline in the buffer
	line int           // lines passed on
	long []int
	rest []byte // of the current line, not yet returned
	err  error
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.rest) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		f.next()
	}
	n := copy(p, f.rest)
	f.rest = f.rest[n:]
	return n, nil
}

// next reads the next line into f.rest.
func (f *lineFilter) next() {
	line, err := f.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		f.line++
		f.long = append(f.long, f.line)
		for err == bufio.ErrBufferFull {
			_, err = f.r.ReadSlice('\n')
		}
		f.rest = []byte("\n")
		if err != nil {
			f.err = err
		}
		return
	}
	if len(line) > 0 {
		f.line++
	}
	f.rest, f.err = line, err
}

// nonFinite returns the unit of the first NaN or infinite value of r, or "".
func nonFinite(r *benchfmt.Result) string {
	for _, v := range r.Values {
		if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
			return v.Unit
		}
	}
	return ""
}
