// Package gotest drives the go toolchain for perfloop: it lists packages,
// builds each package's test binary once (go test -c), lists its benchmarks
// (-test.list) and runs one benchmark per process, so a benchmark that
// panics, calls b.Fatal or hangs costs only its own results.
//
// It knows the test binary's flags and output (benchfmt lines on stdout,
// panics and goroutine dumps on stderr, "--- FAIL" blocks) and turns them
// into results and one-line errors; it knows nothing about statistics.
// It also pins a run to a quiet CPU (QuietCPU), reads the build settings
// that change a binary's code (CodeSettings), tells whether two test
// binaries hold the same machine code (SameCode), and runs every go
// command in a temporary directory of its own, removed afterwards
// (GoCommand). git is internal/git's.
package gotest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Package is a package matched by the user's patterns, as go list reports it.
type Package struct {
	ImportPath string
	Name       string
	Dir        string
	// ModulePath and ModuleDir describe the package's module; ModuleDir is
	// the root that reported file paths are relative to.
	ModulePath string
	ModuleDir  string
	// HasTests reports whether the package has _test.go files, without
	// which there is nothing to benchmark.
	HasTests bool
	// Error is go list's complaint about the package (it does not exist,
	// an import cannot be found), or "".
	Error string
}

// Toolchain runs the go command in a directory with a set of build flags.
type Toolchain struct {
	Dir  string // directory the go command runs in ("" for the current one)
	Tags string // -tags value
	// BuildFlags are extra go test -c flags, such as -trimpath.
	BuildFlags []string
	Env        []string // extra environment for every go command and binary
	// Stderr, if set, receives the go command's own progress output.
	Stderr io.Writer
}

// command returns the go command with args (see GoCommand); call done
// when it has finished.
func (tc *Toolchain) command(ctx context.Context, args ...string) (cmd *exec.Cmd, done func(), err error) {
	return GoCommand(ctx, tc.Dir, tc.Env, args...)
}

// GoVersion returns the version of the go command, e.g. "go1.26.8".
func (tc *Toolchain) GoVersion(ctx context.Context) (string, error) {
	cmd, done, err := tc.command(ctx, "env", "GOVERSION")
	if err != nil {
		return "", err
	}
	defer done()
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %w", exitDetail(err))
	}
	return strings.TrimSpace(string(out)), nil
}

// List resolves package patterns (such as ./...) to packages. A pattern that
// matches nothing, or a package with errors, is reported in the returned
// packages' Error fields where go list allows; a failure of go list itself
// is returned as an error.
func (tc *Toolchain) List(ctx context.Context, patterns []string) ([]Package, error) {
	args := []string{"list", "-e", "-json=ImportPath,Name,Dir,Module,TestGoFiles,XTestGoFiles,Error"}
	if tc.Tags != "" {
		args = append(args, "-tags", tc.Tags)
	}
	args = append(args, "--")
	args = append(args, patterns...)
	cmd, done, err := tc.command(ctx, args...)
	if err != nil {
		return nil, err
	}
	defer done()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("go list %s: %s", strings.Join(patterns, " "), firstLines(msg, 3))
	}
	var pkgs []Package
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			ImportPath, Name, Dir     string
			TestGoFiles, XTestGoFiles []string
			Module                    *struct{ Path, Dir string }
			Error                     *struct{ Err string }
		}
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("decode go list output: %w", err)
		}
		pkg := Package{
			ImportPath: p.ImportPath,
			Name:       p.Name,
			Dir:        p.Dir,
			HasTests:   len(p.TestGoFiles)+len(p.XTestGoFiles) > 0,
		}
		if p.Module != nil {
			pkg.ModulePath, pkg.ModuleDir = p.Module.Path, p.Module.Dir
		}
		if p.Error != nil {
			pkg.Error = strings.TrimSpace(p.Error.Err)
		}
		pkgs = append(pkgs, pkg)
	}
	// go list -e reports a pattern that matches nothing only on stderr.
	if len(pkgs) == 0 {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = "matched no packages"
		}
		return nil, fmt.Errorf("go list %s: %s", strings.Join(patterns, " "), firstLines(msg, 3))
	}
	return pkgs, nil
}

// BuildError is a package whose test binary did not compile.
type BuildError struct {
	Package string
	// Output is the go command's full output.
	Output string
}

// Error returns the first compiler error and how many more there are.
func (e *BuildError) Error() string {
	var errs []string
	for _, line := range strings.Split(e.Output, "\n") {
		if compilerErr.MatchString(line) {
			errs = append(errs, strings.TrimSpace(line))
		}
	}
	switch len(errs) {
	case 0:
		return fmt.Sprintf("build failed: %s", firstLines(strings.TrimSpace(e.Output), 2))
	case 1:
		return "build failed: " + errs[0]
	default:
		return fmt.Sprintf("build failed: %s (and %d more errors)", errs[0], len(errs)-1)
	}
}

var compilerErr = regexp.MustCompile(`^\S+\.go:\d+(:\d+)?: `)

// Build compiles pkg's test binary into dir and returns its path. A compile
// failure is a *BuildError carrying the compiler's output.
func (tc *Toolchain) Build(ctx context.Context, pkg Package, dir string) (string, error) {
	name := strings.ReplaceAll(pkg.ImportPath, "/", "_") + ".test"
	bin := filepath.Join(dir, name)
	args := []string{"test", "-c", "-o", bin}
	args = append(args, tc.BuildFlags...)
	if tc.Tags != "" {
		args = append(args, "-tags", tc.Tags)
	}
	args = append(args, pkg.ImportPath)
	cmd, done, err := tc.command(ctx, args...)
	if err != nil {
		return "", err
	}
	out, err := cmd.CombinedOutput()
	done()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if err != nil {
		return "", &BuildError{Package: pkg.ImportPath, Output: string(out)}
	}
	if _, err := os.Stat(bin); err != nil {
		// go test -c writes nothing for a package without test files.
		return "", fmt.Errorf("build %s: no test binary written: %w", pkg.ImportPath, err)
	}
	return bin, nil
}

// exitDetail adds the stderr of an *exec.ExitError to the error text.
func exitDetail(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, firstLines(strings.TrimSpace(string(ee.Stderr)), 2))
	}
	return err
}

// firstLines joins the first n lines of s into one: "; " between lines, a
// space after a line that ends in a colon (the go command's "to add it:"
// before the command to run), each line's indentation dropped.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	var b strings.Builder
	prev := ""
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		switch {
		case prev == "":
		case strings.HasSuffix(prev, ":"):
			b.WriteString(" ")
		default:
			b.WriteString("; ")
		}
		b.WriteString(l)
		prev = l
	}
	return b.String()
}
