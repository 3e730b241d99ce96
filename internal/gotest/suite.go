package gotest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
)

// Suite is the set of benchmarks selected by package patterns and a -bench
// pattern, with each package's test binary built once.
type Suite struct {
	dir string // temporary directory holding the binaries
	// Packages lists every package the patterns matched.
	Packages []Package
	// Targets lists the selected benchmarks, package by package in go list
	// order, and within a package in source order.
	Targets []Target
	// Failed lists the packages that matched but could not be benchmarked:
	// go list errors and build failures. The other packages are unaffected.
	Failed []PackageError
	// Sub is the part of the -bench pattern below the top level.
	Sub string
}

// Target is one top-level benchmark of one built test binary.
type Target struct {
	Binary *Binary
	Name   string // "BenchmarkEncode"
}

// PackageError is a package that could not be benchmarked.
type PackageError struct {
	Package string
	Err     error
}

// Prepare lists the packages matching patterns, builds the test binary of
// each package that has tests, and lists the benchmarks matching the -bench
// pattern bench. A package that does not compile is recorded in Failed and
// the others are still prepared; only a failure of go list itself, or
// cancellation, is an error. status, if not nil, is told what is happening.
// The caller must Close the suite to remove the binaries.
func (tc *Toolchain) Prepare(ctx context.Context, patterns []string, bench string, status func(string)) (*Suite, error) {
	if status == nil {
		status = func(string) {}
	}
	status("listing packages")
	pkgs, err := tc.List(ctx, patterns)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &ListError{err}
	}
	dir, err := os.MkdirTemp("", "perfloop-bin-")
	if err != nil {
		return nil, fmt.Errorf("create build directory: %w", err)
	}
	s := &Suite{dir: dir, Packages: pkgs}
	top, sub := SplitPattern(bench)
	s.Sub = sub
	// The test binaries build side by side, two at a time (each go
	// command links one binary, serially, after its compiles), and list
	// their benchmarks; the suite takes them in the packages' order.
	type built struct {
		bin   *Binary
		names []string
		err   error
	}
	out := make([]built, len(pkgs))
	sem := make(chan struct{}, buildParallel)
	var wg sync.WaitGroup
	for i, pkg := range pkgs {
		if pkg.Error != "" || !pkg.HasTests {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				out[i].err = ctx.Err()
				return
			}
			status(fmt.Sprintf("building %s (%d/%d)", pkg.ImportPath, i+1, len(pkgs)))
			path, err := tc.Build(ctx, pkg, dir)
			if err != nil {
				out[i].err = err
				return
			}
			out[i].bin = &Binary{Package: pkg, Path: path, Env: tc.Env}
			out[i].names, out[i].err = out[i].bin.Benchmarks(ctx, top)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		s.Close()
		return nil, err
	}
	for i, pkg := range pkgs {
		if pkg.Error != "" {
			s.Failed = append(s.Failed, PackageError{pkg.ImportPath, errors.New(pkg.Error)})
			continue
		}
		if !pkg.HasTests {
			continue
		}
		if out[i].err != nil {
			s.Failed = append(s.Failed, PackageError{pkg.ImportPath, out[i].err})
			continue
		}
		for _, n := range out[i].names {
			s.Targets = append(s.Targets, Target{Binary: out[i].bin, Name: n})
		}
	}
	return s, nil
}

// buildParallel is how many test binaries build at once.
const buildParallel = 2

// ListError is go list's refusal of the package patterns: they match
// nothing, or name no package. It is the user's input that is wrong.
type ListError struct{ Err error }

func (e *ListError) Error() string { return e.Err.Error() }
func (e *ListError) Unwrap() error { return e.Err }

// Close removes the suite's binaries.
func (s *Suite) Close() error {
	return os.RemoveAll(s.dir)
}

// Dir returns the directory holding the suite's binaries, where callers may
// keep scratch files such as profiles.
func (s *Suite) Dir() string { return s.dir }
