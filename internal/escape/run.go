package escape

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/perfloop/perfloop/internal/gotest"
)

// Options says which build of which packages Run asks for verdicts on.
type Options struct {
	// Dir is the directory the go command runs in, inside the module whose
	// packages are analysed ("" for the current directory). Files are
	// reported relative to that module's root.
	Dir string
	// Tests compiles each package's test variant and its external test
	// package too (go list -test), so _test.go files get verdicts and
	// non-test files get the verdicts of the code a benchmark binary runs.
	Tests bool
	// Tags is the -tags value.
	Tags string
	// BuildFlags are extra build flags for the go command (such as -race).
	// They must not set -gcflags or -trimpath, which Run sets.
	BuildFlags []string
	// Env is extra environment for the go command.
	Env []string
	// Deps analyses the main module's packages the named ones import as
	// well: a benchmark in the module's root package spends its time and
	// makes its allocations in the module's other packages (an
	// interpreter's vm, a parser's lexer).
	Deps bool
}

// A PackageError is a package Run has no verdicts for: it did not compile,
// or go list could not load it. It is returned in Index.Warnings.
type PackageError struct {
	Package string
	// Err is the go command's words, usually "# pkg" and the first
	// compiler errors.
	Err string
}

// Error returns "package: error", on one line.
func (e *PackageError) Error() string {
	return e.Package + ": " + strings.Join(strings.Fields(strings.TrimSpace(e.Err)), " ")
}

// Run compiles the packages that patterns match with the compiler's escape
// analysis printed (-gcflags=-m=2) and indexes its verdicts, files relative
// to the root of the module in opts.Dir.
//
// It runs `go list -e -export -gcflags=-m=2` (with -test when opts.Tests
// is set), which compiles without linking and prints the compiler's
// diagnostics for the named packages only, not their dependencies. The go
// command caches compiles and replays the diagnostics of a cached compile,
// so a second Run is quick and says the same. Packages that do not compile
// are in the index's Warnings as *PackageError; the error is for a go
// command that could not run or patterns that match nothing.
func Run(ctx context.Context, opts Options, patterns ...string) (*Index, error) {
	dir, err := filepath.Abs(cmp.Or(opts.Dir, "."))
	if err != nil {
		return nil, fmt.Errorf("escape analysis: %w", err)
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	gcflags := []string{"-gcflags=-m=2"}
	if opts.Deps {
		mods, err := mainModules(ctx, dir, opts.Env)
		if err != nil {
			return nil, fmt.Errorf("escape analysis: %w", err)
		}
		// Every package of the main modules in the build, named or
		// imported (a workspace has several; the flag repeats).
		gcflags = gcflags[:0]
		for _, m := range mods {
			gcflags = append(gcflags, "-gcflags="+m+"/...=-m=2")
		}
	}
	args := append([]string{"list", "-e", "-export", "-json=ImportPath,ForTest,Module,Error,DepsErrors"},
		append(gcflags, "-trimpath=false")...)
	if opts.Tests {
		args = append(args, "-test")
	}
	if opts.Tags != "" {
		args = append(args, "-tags", opts.Tags)
	}
	args = append(args, opts.BuildFlags...)
	args = append(args, "--")
	args = append(args, patterns...)
	// gotest.GoCommand: a cancelled build leaves no work directory.
	cmd, done, err := gotest.GoCommand(ctx, dir, opts.Env, args...)
	if err != nil {
		return nil, fmt.Errorf("escape analysis: %w", err)
	}
	defer done()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	what := "go list -export -gcflags=-m=2 " + strings.Join(patterns, " ")
	if runErr != nil {
		// With -e, go list fails only when it cannot run at all.
		return nil, fmt.Errorf("%s: %w: %s", what, runErr, firstLine(stderr.String()))
	}
	type pkgErr struct{ Err string }
	var moduleDir string
	var warnings []error
	testMains := map[string]bool{}
	n := 0
	dec := json.NewDecoder(&stdout)
	for dec.More() {
		var p struct {
			ImportPath string
			ForTest    string
			Module     *struct {
				Dir  string
				Main bool
			}
			Error      *pkgErr
			DepsErrors []*pkgErr
		}
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("%s: decode package list: %w", what, err)
		}
		n++
		if moduleDir == "" && p.Module != nil && p.Module.Main {
			moduleDir = p.Module.Dir
		}
		if strings.HasSuffix(p.ImportPath, ".test") && p.ForTest == "" {
			testMains[p.ImportPath] = true // the generated test main
			continue
		}
		switch {
		case p.Error != nil:
			warnings = append(warnings, &PackageError{Package: p.ImportPath, Err: p.Error.Err})
		case len(p.DepsErrors) > 0:
			warnings = append(warnings, &PackageError{Package: p.ImportPath, Err: p.DepsErrors[0].Err})
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: matched no packages: %s", what, firstLine(stderr.String()))
	}
	if moduleDir == "" {
		moduleDir = dir
	}
	var diags []Diagnostic
	rd := NewReader(&stderr, "go list stderr")
	rd.SetRoot(dir, moduleDir)
	for rd.Scan() {
		switch rec := rd.Record().(type) {
		case *Diagnostic:
			if testMains[rec.Package] || rec.File == "<autogenerated>" {
				continue
			}
			d := *rec
			d.Flow = append([]string(nil), rec.Flow...)
			diags = append(diags, d)
		case *SyntaxError:
			if strings.HasPrefix(rec.Text, "go: downloading ") {
				continue
			}
			warnings = append(warnings, rec)
		}
	}
	if err := rd.Err(); err != nil {
		return nil, fmt.Errorf("%s: read compiler output: %w", what, err)
	}
	ix := NewIndex(diags)
	ix.Warnings = warnings
	return ix, nil
}

// firstLine returns the first non-empty line of s, trimmed.
func firstLine(s string) string {
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return "no output"
}

// mainModules returns the paths of the main modules of the go command run
// in dir: one, or a workspace's.
func mainModules(ctx context.Context, dir string, env []string) ([]string, error) {
	cmd, done, err := gotest.GoCommand(ctx, dir, env, "list", "-m", "-f", "{{.Path}}")
	if err != nil {
		return nil, err
	}
	defer done()
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m: %w", err)
	}
	var mods []string
	for _, m := range strings.Fields(string(out)) {
		if m != "command-line-arguments" {
			mods = append(mods, m)
		}
	}
	if len(mods) == 0 {
		return nil, fmt.Errorf("go list -m: no main module")
	}
	return mods, nil
}
