// Package record measures a commit for the store: the report pipeline's
// results, report.json and profiles as one store.Run, with the machine's
// fingerprint, and the paired change against the commit recorded before
// it as the run's steps.
//
// This package is opinionated:
//
//   - An empty run is never stored: a -bench that selects nothing is an
//     input error (NoBenchmarksError), results that all failed a failure,
//     and a shard with nothing to run, or benchmarks that all skipped, a
//     note and no run.
//   - A run that lost some benchmarks is stored with the others, and the
//     loss is a FailedError beside it.
package record

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/store"
)

// NoBenchmarksError says that -bench selects no benchmark in the
// packages: nothing ran and nothing is stored.
type NoBenchmarksError struct {
	Bench    string
	Patterns []string
}

func (e *NoBenchmarksError) Error() string {
	return fmt.Sprintf("record: no benchmarks match -bench %q in %s; nothing recorded", e.Bench, strings.Join(e.Patterns, " "))
}

// FailedError says that something measured failed: a benchmark, or a
// package that did not build. The run returned beside it, if any, holds
// the others.
type FailedError struct{ Msg string }

func (e *FailedError) Error() string { return e.Msg }

// Options are how Measure runs the report pipeline.
type Options struct {
	// ProfileTime is the report's -profiletime.
	ProfileTime time.Duration
	// Bar shows the progress; Stage is called with each stage's name;
	// Log receives the failures and notes, one line each.
	Bar   *progress.Bar
	Stage func(string)
	Log   io.Writer
}

// Measure runs the report pipeline into a temporary directory and returns
// the run to store (without its commit), and with it a *FailedError when a
// benchmark failed or a package did not build: the run holds the others.
// A run that measured nothing is never returned: a -bench that selects
// nothing is a *NoBenchmarksError, a build or benchmark failure that left
// no results a *FailedError, and a shard with nothing to run, or
// benchmarks that all skipped, are said on Log and give a nil run and no
// error.
func Measure(ctx context.Context, cfg loop.Config, opts Options) (*store.Run, error) {
	tmp, err := os.MkdirTemp("", "perfloop-record-out-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var buf bytes.Buffer
	w := results.NewWriter(&buf)
	durations := map[document.BenchKey]time.Duration{}
	started := time.Now()
	rr, err := loop.Report(ctx, cfg, loop.ReportOptions{
		ProfileTime: opts.ProfileTime,
		Profiles:    filepath.Join(tmp, "profiles"),
		Each: func(b *results.Benchmark, o *gotest.Outcome) error {
			durations[document.BenchKey{Package: b.Package, Name: b.Name}] += o.Elapsed
			return o.Write(w, b)
		},
		Stage: opts.Stage,
	}, opts.Bar)
	if rr == nil || err != nil {
		return nil, err
	}
	if err := w.Trailer(rr.Bench.Env); err != nil {
		return nil, err
	}
	for _, l := range rr.Bench.FailureLines() {
		fmt.Fprintf(opts.Log, "perfloop: %s\n", l)
	}
	if b := rr.Bench; len(b.Benchmarks) == 0 {
		switch {
		case len(b.BuildErrors) > 0:
			return nil, &FailedError{fmt.Sprintf("record: %d package(s) did not build and no benchmark ran; nothing recorded", len(b.BuildErrors))}
		case cfg.Shard != nil && b.Matched > 0:
			fmt.Fprintf(opts.Log, "perfloop: record: shard %s has no benchmarks (the %d that -bench %q selects fall in the other shards); nothing recorded\n",
				cfg.Shard, b.Matched, cfg.Bench)
			return nil, nil
		default:
			return nil, &NoBenchmarksError{Bench: cfg.Bench, Patterns: cfg.Patterns}
		}
	}
	if ResultLines(buf.Bytes()) == 0 {
		if n := rr.Bench.Failed(); n > 0 {
			return nil, &FailedError{fmt.Sprintf("record: %d of %d benchmarks failed and none gave results; nothing recorded", n, len(rr.Bench.Benchmarks))}
		}
		fmt.Fprintf(opts.Log, "perfloop: record: no benchmark gave results (every one skipped); nothing recorded\n")
		return nil, nil
	}
	run := &store.Run{Started: started.UTC(), Results: buf.Bytes(), Durations: durations, Profiles: map[string][]byte{}}
	if rr.Doc != nil {
		if run.Report, err = json.Marshal(rr.Doc); err != nil {
			return nil, err
		}
	}
	entries, _ := os.ReadDir(filepath.Join(tmp, "profiles"))
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(tmp, "profiles", e.Name())); err == nil {
			run.Profiles[e.Name()] = data
		}
	}
	run.Fingerprint = Fingerprint(rr.Bench.Env)
	switch b := rr.Bench; {
	case b.Failed() > 0:
		return run, &FailedError{fmt.Sprintf("record: %d of %d benchmarks failed; the others were recorded", b.Failed(), len(b.Benchmarks))}
	case len(b.BuildErrors) > 0:
		return run, &FailedError{fmt.Sprintf("record: %d package(s) did not build; the others were recorded", len(b.BuildErrors))}
	}
	return run, nil
}

// Fingerprint is the machine a run was measured on, and how its code was
// built.
func Fingerprint(env results.Env) store.Fingerprint {
	kernel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return store.Fingerprint{CPU: env.CPU, GOMAXPROCS: runtime.GOMAXPROCS(0), GoVersion: env.GoVersion,
		GOOS: env.GOOS, GOARCH: env.GOARCH, Kernel: strings.TrimSpace(string(kernel)), Build: env.Build}
}

// ResultLines counts the benchmark result lines of benchfmt text.
func ResultLines(data []byte) int {
	n := 0
	for _, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(l, []byte("Benchmark")) {
			n++
		}
	}
	return n
}
