package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/record"
	"github.com/perfloop/perfloop/internal/store"
)

const recordUsage = `
usage: perfloop record [flags] [packages]

Record runs the report pipeline (perfloop report) on the work tree's
commit, or on -rev REV checked out apart, and stores under that commit the
benchmark results, report.json and the profiles, with the machine's
fingerprint (CPU model, GOMAXPROCS, Go version, OS, kernel, and the build
settings that change the code: -race, -gcflags, -tags, CGO_ENABLED,
GOAMD64…): perfloop history compares points only within one fingerprint.

The store (-store) is by default an SQLite file, .perfloop/history.db at
the module root; postgres://user:pass@host/db?sslmode=disable keeps a
team's or a CI fleet's history in PostgreSQL. Concurrent recorders (CI
jobs) each store whole runs or nothing.

The work tree must have no uncommitted changes to tracked files: the
results are filed under the commit. -import FILE -commit REV stores results
already measured (go test -bench output or benchfmt) without running;
repeated (-import a.txt -commit v1.0 -import b.txt -commit v1.1), it
stores each file under its commit and computes the change points once.
-shard i/n runs one of n parts of the benchmarks, balanced by the
durations the store has seen; perfloop history merges the shards. A shard
with nothing to run (more shards than benchmarks) says so and stores
nothing.

An empty run is never stored: a -bench that selects nothing is exit 2, and
benchmarks that all failed exit 1, with nothing stored.

Each record also measures its commit against the commit recorded before it
(in git order), interleaved in the same job, with the A/B engine of
perfloop diff (short pinned runs, a paired test at a 1% false discovery
rate), and stores the paired change of every benchmark with the run: a
loaded machine moves the level of a whole run, so the change between two
commits recorded apart, but it moves both sides of a pair alike. history
reports a paired change as a change point (docs/changepoint.md).
-pair=false records without it; -pair-time bounds it.

After storing the run, record computes the change points of the series it
touched and stores them too, for history and serve to read.

Exit status: 0 recorded, 1 a benchmark failed (the run is still recorded,
without it), 2 bad flags, input or store, 130 when interrupted.

Examples:

	perfloop record ./...
	perfloop record -count 10 -rev v1.4.0 ./codec
	perfloop record -store postgres://ci@db/perf -shard 2/4 ./...
	perfloop record -import old.txt -commit 1ae5dc2
`

type recordOptions struct {
	benchConfig
	storeDSN    string
	rev         string
	importFiles stringList
	commits     stringList
	shard       string
	profileTime time.Duration
	pair        bool
	pairTime    time.Duration
}

func runRecord(ctx context.Context, args []string, s Streams) error {
	var opts recordOptions
	fs := newFlagSet("record", recordUsage, s)
	opts.addBenchFlags(fs, 5)
	fs.StringVar(&opts.storeDSN, "store", "", "record into `dsn`: a file path (SQLite) or postgres://… (default .perfloop/history.db at the module root)")
	fs.StringVar(&opts.rev, "rev", "", "record `rev` (checked out into a temporary work tree) instead of the work tree")
	fs.Var(&opts.importFiles, "import", "store the results in `file` (go test -bench output) instead of running; needs -commit; repeat for more commits")
	fs.Var(&opts.commits, "commit", "the `rev` -import's results were measured on (the nth -commit goes with the nth -import)")
	fs.StringVar(&opts.shard, "shard", "", "run only part `i/n` of the benchmarks, balanced by past durations")
	fs.DurationVar(&opts.profileTime, "profiletime", time.Second, "profile each benchmark's CPU for at least `d`")
	fs.BoolVar(&opts.pair, "pair", true, "also measure the commit against the one recorded before it, interleaved, and store the paired changes")
	fs.DurationVar(&opts.pairTime, "pair-time", 5*time.Minute, "stop the paired measurement after about `d` and keep what it decided")
	if err := opts.parse(fs, args); err != nil {
		return err
	}
	if len(opts.importFiles) != len(opts.commits) {
		return usageErrorf("-import and -commit go together, one -commit per -import: -import FILE -commit REV")
	}
	if len(opts.importFiles) > 0 && opts.rev != "" {
		return usageErrorf("-import stores results already measured; -rev runs a commit: use one")
	}
	if opts.shard != "" {
		// Before the store is opened or anything built.
		if _, err := loop.ParseShard(opts.shard); err != nil {
			return usageErrorf("-shard: %v", err)
		}
	}
	return recordCommit(ctx, opts, s)
}

func recordCommit(ctx context.Context, opts recordOptions, s Streams) error {
	root, err := findModuleRoot()
	if err != nil {
		return usageErrorf("record: run it inside a Go module: %v", err)
	}
	if opts.storeDSN == "" {
		// The default store's directory, made with its .gitignore.
		if _, err := loop.MakeStateDir(root); err != nil {
			return err
		}
	}
	repo, err := git.RepoRoot(ctx, root)
	if err != nil {
		return usageError{err}
	}
	st, dsn, err := openStore(ctx, opts.storeDSN, root, false)
	if err != nil {
		return err
	}
	defer st.Close()
	if len(opts.importFiles) > 0 {
		return recordImport(ctx, opts, s, st, dsn, repo, root)
	}
	cfg := opts.loopConfig()
	rev := opts.rev
	if rev == "" {
		if vcs := git.ReadVCS(ctx, root); vcs.Dirty {
			return usageErrorf("record: the work tree has uncommitted changes to tracked files, and the results would be filed under %s: commit them, or record a commit with -rev", short(vcs.Commit))
		}
		rev = "HEAD"
	}
	commit, err := git.CommitInfo(ctx, repo, rev)
	if err != nil {
		return usageError{err}
	}
	if opts.rev != "" {
		tmp, err := os.MkdirTemp("", "perfloop-record-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		rm, err := git.CheckoutWorktree(ctx, repo, commit.Hash, filepath.Join(tmp, "src"))
		if err != nil {
			return err
		}
		defer rm()
		rel, _ := filepath.Rel(repo, root)
		cfg.Dir = filepath.Join(tmp, "src", rel)
	}
	module, err := modulePath(root)
	if err != nil {
		return usageError{err}
	}
	if cfg.Shard, err = recordShard(ctx, st, opts.shard, module, commit.Hash); err != nil {
		return err
	}
	bar := bar(s)
	run, failed := record.Measure(ctx, cfg, record.Options{
		ProfileTime: opts.profileTime, Bar: bar, Log: s.Err,
		Stage: func(stage string) { bar.Done(); fmt.Fprintf(s.Err, "perfloop: %s\n", stage) },
	})
	bar.Done()
	var none *record.NoBenchmarksError
	if errors.As(failed, &none) {
		return usageError{failed}
	}
	if run == nil {
		return failed // interrupted, or nothing to store
	}
	run.Module, run.Commit, run.CommitTime, run.Subject, run.Shard = module, commit.Hash, commit.Time, commit.Subject, opts.shard
	if opts.pair {
		if run.Steps, err = pairWithPrevious(ctx, opts, st, module, repo, commit.Hash, run, s); err != nil {
			return err
		}
	}
	id, err := st.Save(ctx, run)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "recorded run %d: %s %q, %d result lines, fingerprint %s, in %s\n",
		id, short(commit.Hash), commit.Subject, record.ResultLines(run.Results), fingerprintText(run.Fingerprint), dsn)
	if err := updateHistory(ctx, st, module, repo, id, s); err != nil {
		return err
	}
	return failed
}

// fingerprintText is fp's key, and its build settings when it has any.
func fingerprintText(fp store.Fingerprint) string {
	if fp.Build == "" {
		return fp.Key()
	}
	return fmt.Sprintf("%s (built with %s)", fp.Key(), fp.Build)
}

// pairWithPrevious measures the recorded commit against the commit
// recorded before it in git order, interleaved (the A/B engine: the
// iteration count calibrated once, short runs pinned to a quiet CPU,
// rounds until every benchmark is decided, at most -pair-time), and
// returns the paired change of every benchmark the run measured. Whatever
// keeps it from measuring (no earlier commit, a shallow clone, a base
// that does not build) is said on stderr: the run is recorded without
// steps. Only an interrupt is an error.
func pairWithPrevious(ctx context.Context, opts recordOptions, st *store.Store, module, repo, commit string, run *store.Run, s Streams) ([]store.Step, error) {
	base, err := record.Previous(ctx, st, module, repo, commit)
	if err != nil || base == "" {
		if err != nil {
			fmt.Fprintf(s.Err, "perfloop: record: not measured against the commit recorded before: %v\n", err)
		}
		return nil, nil
	}
	bench := opts.bench
	if opts.shard != "" {
		// This shard's benchmarks only.
		bench = record.ShardPattern(run.Results, opts.bench)
	}
	bar := bar(s)
	defer bar.Done()
	fmt.Fprintf(s.Err, "perfloop: record: measuring %s against %s (the commit recorded before), interleaved\n", short(commit), short(base))
	revs, err := buildRevisions(ctx, base, opts.rev, opts.tags, opts.patterns, bench, bar)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		fmt.Fprintf(s.Err, "perfloop: record: not measured against %s: %v\n", short(base), err)
		return nil, nil
	}
	defer revs.close()
	ab := abtest.Options{Benchtime: "10ms", CPU: opts.cpu, Timeout: opts.timeout, MinRounds: 6, MaxRounds: 100,
		Budget: opts.pairTime, Alpha: record.PairAlpha, Settle: 0.03, Seed: uint64(time.Now().UnixNano())}
	if opts.cpu == "" {
		if c := gotest.QuietCPU(); c >= 0 {
			ab.Pin = []int{c}
		}
	}
	res, err := abtest.Run(ctx, revs.sides, ab, bar)
	bar.Done()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		fmt.Fprintf(s.Err, "perfloop: record: not measured against %s: %v\n", short(base), err)
		return nil, nil
	}
	steps := record.Steps(res, base)
	var changed []string
	for _, st := range steps {
		if st.Significant {
			changed = append(changed, fmt.Sprintf("%s %s %+.1f%%", strings.TrimPrefix(st.Key.Name, "Benchmark"), st.Key.Unit, 100*st.Delta))
		}
	}
	summary := "no change"
	if len(changed) > 0 {
		summary = strings.Join(changed, ", ")
	}
	fmt.Fprintf(s.Err, "perfloop: record: against %s, %d rounds: %s\n", short(base), res.Rounds, summary)
	return steps, nil
}
