package site

import (
	"context"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/perfloop/perfloop/internal/gotest"
)

// Config says which build of the packages to load.
type Config struct {
	// Dir is where the go command runs ("" for the current directory).
	Dir string
	// Tags are the build tags, as -tags takes them ("a,b").
	Tags string
	// Facts loads the dependencies' syntax too (packages.LoadAllSyntax),
	// for analyzers that need facts about them; without it their types
	// come from export data. It type-checks every dependency from
	// source, the standard library's included: on ./examples/... 0.7 s
	// where export data takes 0.1 s (the cost of the whole load and
	// lint on a loaded machine: 2.7 s against 0.2 s).
	Facts bool
}

// Program is a module's packages, loaded once, with their tests.
type Program struct {
	// Packages are the packages that load and type-check: each package,
	// its in-package test variant and its external test package.
	Packages []*packages.Package
	// Broken names, one error each, the packages that do not load or
	// type-check; they are left out of Packages.
	Broken []error
	// Root is the module's directory: shapes' files are relative to it.
	Root string
	// Fset is the file set of every package's syntax.
	Fset *token.FileSet

	// How it was loaded, for WithFacts.
	cfg      Config
	patterns []string
}

// Facts reports whether the dependencies' syntax was loaded too
// (Config.Facts).
func (p *Program) Facts() bool { return p.cfg.Facts }

// WithFacts returns the program loaded again with its dependencies'
// syntax (Config.Facts), or p itself when it was loaded so: for
// analyzers that need facts about the dependencies, when their results
// without them say the facts matter (see lint.RunProgram).
func (p *Program) WithFacts(ctx context.Context) (*Program, error) {
	if p.cfg.Facts {
		return p, nil
	}
	cfg := p.cfg
	cfg.Facts = true
	return Load(ctx, cfg, p.patterns...)
}

// Load loads the packages patterns match (./... when none) with their
// tests. A package that does not load or compile is left out and named in
// Broken; err is for no package at all (or cancellation).
func Load(ctx context.Context, cfg Config, patterns ...string) (*Program, error) {
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	// The loader starts its go command even when ctx is done, and an
	// interrupted go command leaves its work directory: the command gets
	// a GOTMPDIR of its own, removed afterwards, and none starts after a
	// cancel.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tmp, removeTmp, err := gotest.GoTempDir()
	if err != nil {
		return nil, err
	}
	defer removeTmp()
	mode := packages.LoadSyntax | packages.NeedModule
	if cfg.Facts {
		mode = packages.LoadAllSyntax | packages.NeedModule
	}
	fset := token.NewFileSet()
	pcfg := &packages.Config{
		Context: ctx,
		Mode:    mode,
		Dir:     cfg.Dir,
		Env:     append(os.Environ(), "GOTMPDIR="+tmp),
		Tests:   true,
		Fset:    fset,
	}
	if cfg.Tags != "" {
		pcfg.BuildFlags = []string{"-tags", cfg.Tags}
	}
	pkgs, err := packages.Load(pcfg, patterns...)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", strings.Join(patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("load %s: no packages", strings.Join(patterns, " "))
	}
	prog := &Program{Fset: fset, cfg: cfg, patterns: patterns}
	seenBroken := map[string]bool{}
	for _, p := range pkgs {
		if prog.Root == "" && p.Module != nil {
			prog.Root = p.Module.Dir
		}
		var first error
		packages.Visit([]*packages.Package{p}, nil, func(q *packages.Package) {
			if len(q.Errors) > 0 && first == nil {
				first = firstError(q.Errors)
			}
		})
		if first == nil {
			prog.Packages = append(prog.Packages, p)
			continue
		}
		path := strings.TrimSuffix(strings.Fields(p.ID)[0], ".test")
		if !seenBroken[path] {
			seenBroken[path] = true
			prog.Broken = append(prog.Broken, fmt.Errorf("%s: %v", path, first))
		}
	}
	if len(prog.Packages) == 0 {
		return prog, fmt.Errorf("no package of %s compiles: %w", strings.Join(patterns, " "), prog.Broken[0])
	}
	return prog, nil
}

// firstError is the error that says best why a package does not load:
// the type checker's, which names the file and line, before the go
// command's, which for a package whose export data does not build is the
// compiler's output ("# example.com/p\nbroken.go:3:23: undefined: x"),
// kept to its first message.
func firstError(errs []packages.Error) error {
	for _, e := range errs {
		if e.Kind == packages.TypeError {
			return e
		}
	}
	e := errs[0]
	var lines []string
	for _, l := range strings.Split(e.Msg, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "# ") {
			lines = append(lines, l)
		}
	}
	if len(lines) > 0 {
		e.Msg = lines[0]
	}
	return e
}

// Rel returns file relative to the module root, slash-separated, or file
// itself when it is outside the module.
func (p *Program) Rel(file string) string {
	if p.Root == "" {
		return file
	}
	if r, err := filepath.Rel(p.Root, file); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return file
}
