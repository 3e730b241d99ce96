package cli

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/history"
	"github.com/perfloop/perfloop/internal/render"
)

const historyUsage = `
usage: perfloop history [flags] [packages]

History prints every benchmark's series over the commits perfloop record
stored, in git order (HEAD's ancestry; commits not in it are left out),
and the change points: the commits where a series shifted, each with the
size of the shift and its confidence. Change points are found on all the
samples of every commit (e-divisive means with a permutation test:
docs/changepoint.md), so one noisy commit is not a shift.

Points are compared only within one machine fingerprint: the newest run's,
or -fingerprint KEY (perfloop history -json lists them).

perfloop record computes the change points of the series a run touches
and stores them; history reads them when they are current (the store's
commit order is HEAD's, and every run is taken in), and computes the rest.

-since REV shows the commits from REV on (REV and its descendants in git
order); the change points are still found on the whole series. -bench
REGEXP keeps the benchmarks it matches. -json prints perfloop.history/v1.

Exit status: 0, 2 on bad flags, a -since that is not in HEAD's history,
or a store that cannot be read.

Examples:

	perfloop history
	perfloop history -since v1.4.0 -bench 'Encode|Decode'
	perfloop history -bench Encode -json | jq '.benchmarks[].change_points'
	perfloop history -store postgres://ci@db/perf
`

type historyOptions struct {
	storeDSN    string
	bench       string
	since       string
	fingerprint string
	json        bool
	all         bool
	patterns    []string
}

func runHistory(ctx context.Context, args []string, s Streams) error {
	var opts historyOptions
	fs := newFlagSet("history", historyUsage, s)
	fs.StringVar(&opts.storeDSN, "store", "", "read `dsn`: a file path (SQLite) or postgres://… (default .perfloop/history.db at the module root)")
	fs.StringVar(&opts.bench, "bench", ".", "show only benchmarks matching `regexp`")
	fs.StringVar(&opts.since, "since", "", "show the commits from `rev` on (its change points found on the whole series)")
	fs.StringVar(&opts.fingerprint, "fingerprint", "", "show the runs of machine `key` (default: the newest run's)")
	fs.BoolVar(&opts.json, "json", false, "print perfloop.history/v1")
	fs.BoolVar(&opts.all, "all", false, "list every series, not only those that shifted")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	opts.patterns = pos
	return showHistory(ctx, opts, s)
}

func showHistory(ctx context.Context, opts historyOptions, s Streams) error {
	re, err := regexp.Compile(opts.bench)
	if err != nil {
		return usageErrorf("-bench %q: %v", opts.bench, err)
	}
	st, _, root, module, err := moduleStore(ctx, opts.storeDSN)
	if err != nil {
		return err
	}
	defer st.Close()
	hopts := history.Options{Order: historyOrder(ctx, root), Fingerprint: opts.fingerprint,
		Match: func(name string) bool {
			return re.MatchString(strings.TrimPrefix(name, "Benchmark")) || re.MatchString(name)
		}}
	if opts.since != "" {
		repo, err := git.RepoRoot(ctx, root)
		if err != nil {
			return usageErrorf("-since %s: %v", opts.since, err)
		}
		c, err := git.CommitInfo(ctx, repo, opts.since)
		if err != nil {
			return usageErrorf("-since %s: no such commit in %s: give a commit, tag or branch", opts.since, repo)
		}
		hopts.Since = c.Hash
	} else if !opts.json && !opts.all {
		// The text lists only the series that shifted: the others
		// need no points.
		hopts.Points = func(b *document.HistoryBenchmark) bool { return len(b.ChangePoints) > 0 }
	}
	in := inPackages(module, opts.patterns)
	var out *render.HistoryJSON
	if opts.json {
		// The series are written as they are read: a team's history
		// (thousands of series over a thousand commits) never sits in
		// memory whole.
		hopts.Each = func(h *document.History, b *document.HistoryBenchmark) error {
			if !in(b.Package) {
				return nil
			}
			if out == nil {
				out = render.NewHistoryJSON(s.Out)
				if err := out.Begin(h); err != nil {
					return err
				}
			}
			return out.Add(b)
		}
	}
	h, err := history.Load(ctx, st, module, hopts)
	if errors.Is(err, history.ErrNoCommit) {
		return usageErrorf("-since %s: not in HEAD's history: give one of its commits", opts.since)
	}
	if err != nil {
		return err
	}
	if opts.json {
		if out == nil {
			out = render.NewHistoryJSON(s.Out)
			if err := out.Begin(h); err != nil {
				return err
			}
		}
		return out.End()
	}
	h.Benchmarks = slices.DeleteFunc(h.Benchmarks, func(b document.HistoryBenchmark) bool { return !in(b.Package) })
	return render.HistoryText(s.Out, h, opts.all)
}

// inPackages says whether a benchmark of package pkg is in the packages
// patterns name ("./codec", "example.com/m/..."); none or ./... keep all.
func inPackages(module string, patterns []string) func(pkg string) bool {
	var prefixes []string
	for _, p := range patterns {
		if p == "./..." || p == "all" {
			return func(string) bool { return true }
		}
		p = strings.TrimSuffix(strings.TrimSuffix(p, "/..."), "/")
		if rel, ok := strings.CutPrefix(p, "./"); ok {
			p = module + "/" + rel
		} else if p == "." {
			p = module
		}
		prefixes = append(prefixes, p)
	}
	return func(pkg string) bool {
		if len(prefixes) == 0 {
			return true
		}
		for _, p := range prefixes {
			if pkg == p || strings.HasPrefix(pkg, p+"/") {
				return true
			}
		}
		return false
	}
}
