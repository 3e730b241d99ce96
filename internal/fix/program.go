package fix

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/program"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/stats"
)

// Program says which program fix -run measures instead of benchmarks:
// its root causes come from perfloop run's analysis of it
// (internal/runprog), and each candidate's binary runs against the
// commit's, paired and interleaved.
type Program struct {
	// Package is the main package ("./cmd/wc"); Variants the argument
	// lists it runs with (one nil list: no arguments).
	Package  string
	Variants [][]string
	// Runs is how many times perfloop run runs each variant for the
	// report (at least 1).
	Runs int
}

// Units of a program's comparison rows: its wall time, its CPU time
// (user and system) and the objects it allocated, per run.
const (
	UnitWall   = "wall-sec"
	UnitCPU    = "cpu-sec"
	UnitAllocs = "allocs"
)

// programRun is one run of a program binary: what it cost, what it wrote
// to stdout (a hash) and how it exited.
type programRun struct {
	wall, cpu, allocs float64
	stdout            [sha256.Size]byte
	exit              int
}

// buildProgram builds the main package of the module at dir with
// perfloop run's wrapper (which counts the allocations) into work.
func buildProgram(ctx context.Context, dir, tags, pkgPath, work string) (string, error) {
	if err := os.MkdirAll(work, 0o755); err != nil {
		return "", err
	}
	pkg, err := program.List(ctx, dir, tags, pkgPath)
	if err != nil {
		return "", err
	}
	return program.Build(ctx, pkg, program.BuildOptions{Dir: dir, Tags: tags, Work: work})
}

// runProgram runs a program binary once with args, its stdout kept (as a
// hash) and its stderr dropped.
func runProgram(ctx context.Context, bin string, args []string, work string) (programRun, error) {
	prof, err := os.MkdirTemp(work, "run-")
	if err != nil {
		return programRun{}, err
	}
	defer os.RemoveAll(prof)
	var out bytes.Buffer
	res, err := program.Run(ctx, program.RunOptions{Binary: bin, Args: args, Stdout: &out, Stderr: io.Discard,
		Profiles: prof, NoCPU: true, Grace: 500 * time.Millisecond})
	if err != nil {
		return programRun{}, err
	}
	r := programRun{wall: res.Wall.Seconds(), cpu: (res.User + res.Sys).Seconds(), stdout: sha256.Sum256(out.Bytes()), exit: res.ExitCode}
	if res.Collected != nil {
		r.allocs = float64(res.AllocObjects)
	}
	return r, nil
}

// measureProgram runs the commit's binary and the candidate's, paired:
// in every round each variant runs once on each side, in random order,
// until a look (stats.Looks, the levels spent as stats.SpendFraction
// does) finds a row decided or the rounds or opts.AB.Budget run out.
// The candidate is kept only when the program's stdout and exit status
// are byte-identical on every run of both sides, and a row of wall, CPU
// time or allocations is significantly better with none significantly
// worse by more than opts.Threshold.
func (p *prepared) measureProgram(ctx context.Context, opts Options, bar *progress.Bar) (*document.FixKept, string, error) {
	c := p.c
	t := time.Now()
	defer func() { p.took.AB = seconds(time.Since(t)) }()
	measured, n, why, err := comparePrograms(ctx, opts, opts.program.baseBin, p.mod, p.dir+"-bin", fmt.Sprintf("%s:%d", c.File, c.Line), uint64(len(c.File)+c.Line), bar)
	if err != nil || why != "" {
		return nil, why, err
	}
	gain := false
	for _, m := range measured {
		switch {
		case m.Significant && m.Delta > opts.Threshold:
			return nil, fmt.Sprintf("made %s worse: %+.1f%% %s", m.Name, m.Delta*100, m.Unit), nil
		case m.Significant && m.Delta < 0:
			gain = true
		}
	}
	if !gain {
		return nil, "no significant change in wall time, CPU time or allocations (stdout and exit status identical)", nil
	}
	return &document.FixKept{File: c.File, Line: c.Line, Rewrite: c.Kind, Description: c.Description, Patch: p.patch,
		Review: c.Review, Benchmarks: measured, Tests: p.pkgs, Finding: c.finding.Message, Cause: causeOf(c.finding),
		Output: fmt.Sprintf("stdout and exit status identical on all %d runs", n)}, "", nil
}

// comparePrograms builds the program of the module at mod into work and
// runs it against the binary baseBin, paired: in every round each variant
// runs once on each side, in random order, until a look (stats.Looks,
// the levels spent as stats.SpendFraction does) finds a row decided or
// the rounds or opts.AB.Budget run out. It returns the rows and how many
// runs there were, or why there are none: a build that failed, a stdout
// or exit status that differs from the commit's first run on any run of
// either side.
func comparePrograms(ctx context.Context, opts Options, baseBin, mod, work, label string, seed uint64, bar *progress.Bar) ([]document.FixMeasured, int, string, error) {
	prog := opts.Program
	bar.Status(fmt.Sprintf("%s: building %s", label, prog.Package))
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, 0, "", err
	}
	defer os.RemoveAll(work)
	bin, err := buildProgram(ctx, mod, opts.Tags, prog.Package, work)
	if err != nil {
		if ctx.Err() != nil {
			return nil, 0, "", ctx.Err()
		}
		return nil, 0, "build failed: " + firstLine(err.Error()), nil
	}
	minRounds := max(opts.AB.MinRounds, 8)
	maxRounds := max(opts.AB.MaxRounds, minRounds)
	looks := stats.Looks(minRounds, maxRounds)
	alpha := opts.AB.Alpha
	if alpha <= 0 {
		alpha = 0.05
	}
	// One run of each side first, not measured: the first run of a
	// binary pays for loading it.
	for _, args := range prog.Variants {
		for _, b := range []string{baseBin, bin} {
			if _, err := runProgram(ctx, b, args, work); err != nil {
				if ctx.Err() != nil {
					return nil, 0, "", ctx.Err()
				}
				return nil, 0, "not measured: " + firstLine(err.Error()), nil
			}
		}
	}
	rows := 3 * len(prog.Variants)
	type sides struct{ base, cand []programRun }
	runs := make([]sides, len(prog.Variants))
	rng := rand.New(rand.NewPCG(opts.AB.Seed, seed))
	start := time.Now()
	refs := make([]*programRun, len(prog.Variants)) // each variant's first run at the commit
	prevFrac := 0.0
	var measured []document.FixMeasured
	decided := false
	for round := 1; round <= maxRounds && !decided; round++ {
		bar.Status(fmt.Sprintf("%s: round %d against %s", label, round, short(opts.Commit)))
		for v, args := range prog.Variants {
			order := []bool{false, true}
			if rng.IntN(2) == 1 {
				order = []bool{true, false}
			}
			for _, cand := range order {
				b := baseBin
				if cand {
					b = bin
				}
				r, err := runProgram(ctx, b, args, work)
				if err != nil {
					if ctx.Err() != nil {
						return nil, 0, "", ctx.Err()
					}
					return nil, 0, "not measured: " + firstLine(err.Error()), nil
				}
				if refs[v] == nil && !cand {
					refs[v] = &r
				}
				if cand {
					runs[v].cand = append(runs[v].cand, r)
				} else {
					runs[v].base = append(runs[v].base, r)
				}
			}
			// Every run of both sides must write what the commit's
			// first run wrote and exit as it did.
			ref := refs[v]
			name := variantName(prog.Variants, v)
			for _, r := range runs[v].base {
				if r.stdout != ref.stdout || r.exit != ref.exit {
					return nil, 0, fmt.Sprintf("not measured: the program's stdout or exit status differs between runs of %s itself (%s), so a change cannot be told from it", short(opts.Commit), name), nil
				}
			}
			for i, r := range runs[v].cand {
				switch {
				case r.exit != ref.exit:
					return nil, 0, fmt.Sprintf("changed the program's exit status (%s, run %d): %d, not %d", name, i+1, r.exit, ref.exit), nil
				case r.stdout != ref.stdout:
					return nil, 0, fmt.Sprintf("changed the program's stdout (%s, run %d)", name, i+1), nil
				}
			}
		}
		frac := float64(round) / float64(maxRounds)
		if opts.AB.Budget > 0 {
			frac = max(frac, float64(time.Since(start))/float64(opts.AB.Budget))
		}
		last := round == maxRounds || frac >= 1
		if !containsInt(looks, round) && !last {
			continue
		}
		level := stats.SpendFraction(alpha, prevFrac, min(frac, 1)) / float64(rows)
		if last {
			level = max(level, (alpha-alpha*prevFrac*prevFrac)/float64(rows))
		}
		prevFrac = min(frac, 1)
		measured = measured[:0]
		for v := range prog.Variants {
			name := variantName(prog.Variants, v)
			for _, u := range []struct {
				unit string
				get  func(programRun) float64
			}{{UnitWall, func(r programRun) float64 { return r.wall }}, {UnitCPU, func(r programRun) float64 { return r.cpu }}, {UnitAllocs, func(r programRun) float64 { return r.allocs }}} {
				a, b := values(runs[v].base, u.get), values(runs[v].cand, u.get)
				pr := stats.ComparePaired(a, b, alpha)
				m := document.FixMeasured{Name: name, Unit: u.unit, Delta: pr.Delta, CI: [2]float64{pr.Low, pr.High}, Significant: pr.N > 0 && pr.P < level}
				for k := range m.CI {
					if math.IsNaN(m.CI[k]) || math.IsInf(m.CI[k], 0) {
						m.CI[k] = 0
					}
				}
				if math.IsNaN(m.Delta) || math.IsInf(m.Delta, 0) {
					m.Delta = 0
				}
				measured = append(measured, m)
				if m.Significant {
					decided = true
				}
			}
		}
		if last {
			break
		}
	}
	n := 0
	for _, r := range runs {
		n += len(r.base) + len(r.cand)
	}
	return measured, n, "", nil
}

// variantName names a variant as perfloop run does: "run" for one,
// "run ARGS" for several.
func variantName(variants [][]string, i int) string {
	if len(variants) == 1 {
		return "run"
	}
	return strings.TrimSpace("run " + strings.Join(variants[i], " "))
}

func values(rs []programRun, get func(programRun) float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = get(r)
	}
	return out
}

func containsInt(xs []int, x int) bool {
	for _, e := range xs {
		if e == x {
			return true
		}
	}
	return false
}

// programBase is the commit's binary of fix -run, built once for every
// candidate.
type programBase struct {
	baseBin string
}

// build builds the commit's binary into dir.
func (pb *programBase) build(ctx context.Context, opts Options, dir string) error {
	bin, err := buildProgram(ctx, opts.Dir, opts.Tags, opts.Program.Package, filepath.Join(dir, "base-bin"))
	if err != nil {
		return fmt.Errorf("build %s at %s: %w", opts.Program.Package, short(opts.Commit), err)
	}
	pb.baseBin = bin
	return nil
}
