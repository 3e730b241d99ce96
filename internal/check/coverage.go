package check

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/cover"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/results"
)

// executor learns whether a benchmark executes a changed function on one
// side: for the module's code from the coverage of one iteration (a test
// binary built with -cover for the changed packages), for _test.go code
// from the side's profiles, which coverage does not see.
type executor struct {
	side    *abtest.Side
	funcs   []FuncSpan
	timeout time.Duration
	dir     string            // temporary directory of the coverage binaries
	bins    map[string]string // package import path → coverage binary ("" when it did not build)
}

// runsChanged returns the first changed function the benchmark executes on
// the side, "?" when it cannot tell (the coverage build or run failed), or
// "" when it executes none.
func (e *executor) runsChanged(ctx context.Context, t *gotest.Target, top, sub string, prof sideProfile) (string, error) {
	var pkgs []string
	for _, f := range e.funcs {
		if f.Test {
			if prof.calls(f.Name) {
				return f.Name, nil
			}
			continue
		}
		if !slices.Contains(pkgs, f.Package) {
			pkgs = append(pkgs, f.Package)
		}
	}
	if len(pkgs) == 0 {
		return "", nil
	}
	pkg := t.Binary.Package
	bin, ok := e.bins[pkg.ImportPath]
	if !ok {
		if e.dir == "" {
			d, err := os.MkdirTemp("", "perfloop-cover-")
			if err != nil {
				return "", err
			}
			e.dir = d
		}
		slices.Sort(pkgs)
		flags := append([]string{"-trimpath", "-cover", "-covermode=set", "-coverpkg=" + strings.Join(pkgs, ",")}, e.side.BuildFlags...)
		tc := &gotest.Toolchain{Dir: e.side.Dir, Tags: e.side.Tags, BuildFlags: flags}
		b, err := tc.Build(ctx, pkg, e.dir)
		if err != nil && ctx.Err() != nil {
			return "", ctx.Err()
		}
		bin = b // "" when it did not build
		e.bins[pkg.ImportPath] = bin
	}
	if bin == "" {
		return "?", nil
	}
	covPath := filepath.Join(e.dir, strings.ReplaceAll(pkg.ImportPath+" "+top, "/", "_")+".cover")
	b := &gotest.Binary{Package: pkg, Path: bin, Env: t.Binary.Env}
	o, err := b.Run(ctx, gotest.RunConfig{Name: top, Sub: sub, Benchtime: "1x", Timeout: e.timeout, Args: []string{"-test.coverprofile=" + covPath}})
	if err != nil {
		return "", err
	}
	if o.Status != results.StatusOK {
		return "?", nil
	}
	profs, err := cover.ParseProfiles(covPath)
	if err != nil {
		return "?", nil
	}
	for _, p := range profs {
		file, ok := strings.CutPrefix(p.FileName, pkg.ModulePath+"/")
		if !ok {
			continue
		}
		for _, f := range e.funcs {
			if f.File != file || f.Test {
				continue
			}
			for _, bl := range p.Blocks {
				if bl.Count > 0 && bl.StartLine <= f.End && f.Start <= bl.EndLine {
					return f.Name, nil
				}
			}
		}
	}
	return "", nil
}

// close removes the coverage binaries.
func (e *executor) close() {
	if e.dir != "" {
		os.RemoveAll(e.dir)
	}
}

// calls reports whether the side's profiles show function fn running
// (on a CPU sample's stack, or allocating).
func (p sideProfile) calls(fn string) bool {
	fn = document.PlainFunc(fn)
	if p.cpu != nil && slices.ContainsFunc(p.cpu.Functions, func(f profiles.Function) bool { return document.PlainFunc(f.Name) == fn }) {
		return true
	}
	return p.heap != nil && slices.ContainsFunc(p.heap.Sites, func(s profiles.Site) bool {
		return document.PlainFunc(s.Function) == fn || document.PlainFunc(s.Parent) == fn
	})
}
