package results

import (
	"errors"
	"fmt"
	"math"
	"os"
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
}

// Read reads the result files at paths (each "path" or "label=path"; "-" is
// standard input). A missing or unreadable file is an error; a malformed
// line is recorded in File.Errors and reading goes on.
func Read(paths []string) (*File, error) {
	for _, p := range paths {
		path := p
		if i := strings.Index(p, "="); i >= 0 {
			if _, err := os.Stat(p); err != nil {
				path = p[i+1:]
			}
		}
		if path == "-" {
			continue
		}
		if _, err := os.Stat(path); err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
	f := &File{}
	files := benchfmt.Files{Paths: paths, AllowStdin: true, AllowLabels: true}
	seen := map[string]bool{}
	for files.Scan() {
		switch rec := files.Result().(type) {
		case *benchfmt.SyntaxError:
			e := *rec
			f.Errors = append(f.Errors, &e)
		case *benchfmt.Result:
			if bad := nonFinite(rec); bad != "" {
				// NaN and ±Inf are not measurements (go test prints NaN
				// for a benchmark that panicked), and they break the
				// rank statistics.
				file, line := rec.Pos()
				f.Errors = append(f.Errors, &benchfmt.SyntaxError{FileName: file, Line: line, Msg: "non-finite " + bad + " value"})
				continue
			}
			r := rec.Clone()
			label := r.GetConfig(".file")
			if !seen[label] {
				seen[label] = true
				f.Labels = append(f.Labels, label)
			}
			f.Results = append(f.Results, r)
		}
	}
	if err := files.Err(); err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	f.Units = files.Units()
	return f, nil
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
