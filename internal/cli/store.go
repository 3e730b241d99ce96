package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/history"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/stats"
	"github.com/perfloop/perfloop/internal/store"
)

// defaultStore is the store's place in a module when -store is not given.
const defaultStore = ".perfloop/history.db"

// openStore opens the -store DSN, by default the SQLite file at the module
// root, for writing or (readOnly) only for reading; it returns the DSN as
// the user should read it (no password).
func openStore(ctx context.Context, dsn, root string, readOnly bool) (*store.Store, string, error) {
	shown := dsn
	if dsn == "" {
		if root == "" {
			return nil, "", usageErrorf("no -store given and not inside a Go module: give -store FILE or -store postgres://…")
		}
		dsn = filepath.Join(root, defaultStore)
		shown = defaultStore
	}
	open := store.Open
	if readOnly {
		open = store.OpenReadOnly
	}
	st, err := open(ctx, dsn)
	if err != nil {
		return nil, "", usageError{err} // the error names the store
	}
	if shown != defaultStore {
		shown = st.Name()
	}
	return st, shown, nil
}

// moduleStore opens the -store DSN for reading, for the module the current
// directory is in (if any): the store, the DSN as shown, the module's root
// and path.
func moduleStore(ctx context.Context, dsn string) (st *store.Store, shown, root, module string, err error) {
	root, _ = findModuleRoot()
	if st, shown, err = openStore(ctx, dsn, root, true); err != nil {
		return nil, "", "", "", err
	}
	if root != "" {
		if module, err = modulePath(root); err != nil {
			st.Close()
			return nil, "", "", "", usageError{err}
		}
	}
	return st, shown, root, module, nil
}

// modulePath reads the module path from root's go.mod.
func modulePath(root string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", filepath.Join(root, "go.mod"))
}

// recordImport stores results measured elsewhere, each file under its
// commit, then computes the change points once. Every file is read and
// checked before anything is stored.
func recordImport(ctx context.Context, opts recordOptions, s Streams, st *store.Store, dsn, repo, root string) error {
	module, err := modulePath(root)
	if err != nil {
		return usageError{err}
	}
	type imported struct {
		run  *store.Run
		file string
		n    int
	}
	var runs []imported
	for i, file := range opts.importFiles {
		data, err := os.ReadFile(file)
		if err != nil {
			return usageError{fmt.Errorf("-import: %w", err)}
		}
		commit, err := git.CommitInfo(ctx, repo, opts.commits[i])
		if err != nil {
			return usageError{fmt.Errorf("-commit: %w", err)}
		}
		fp, n, err := importedFingerprint(file, data)
		if err != nil {
			return usageError{err}
		}
		if n == 0 {
			return usageErrorf("-import %s: no benchmark results in it (want go test -bench output or benchfmt)", file)
		}
		runs = append(runs, imported{&store.Run{Module: module, Commit: commit.Hash, CommitTime: commit.Time, Subject: commit.Subject,
			Fingerprint: fp, Started: time.Now().UTC(), Results: data}, file, n})
	}
	var last int64
	for _, r := range runs {
		id, err := st.Save(ctx, r.run)
		if err != nil {
			if last != 0 {
				// What is stored gets its change points.
				if uerr := updateHistory(ctx, st, module, repo, last, s); uerr != nil {
					fmt.Fprintf(s.Err, "perfloop: %v\n", uerr)
				}
			}
			return err
		}
		last = id
		fmt.Fprintf(s.Out, "recorded run %d: %s %q, %d results imported from %s, fingerprint %s, in %s\n",
			id, short(r.run.Commit), r.run.Subject, r.n, r.file, r.run.Fingerprint.Key(), dsn)
	}
	return updateHistory(ctx, st, module, repo, last, s)
}

// updateHistory computes, after run id was saved, the change points of
// the series it touched (history.Update), so that history and serve read
// them rather than compute them. The commits are in the git order of
// HEAD's history; in a shallow clone, whose history is a few commits, the
// store's order is kept and the new commit goes after its newest. When the
// update fails the run stays stored, and history computes what the store
// does not hold.
func updateHistory(ctx context.Context, st *store.Store, module, repo string, id int64, s Streams) error {
	var order []string
	if git.IsShallow(ctx, repo) {
		fmt.Fprintf(s.Err, "perfloop: record: %s is a shallow clone: the commit goes after the store's newest (fetch the whole history, as actions/checkout's fetch-depth: 0 does, to put commits in git order)\n", repo)
	} else {
		order = ancestry(ctx, repo)
	}
	if _, err := history.Update(ctx, st, module, order); err != nil {
		return fmt.Errorf("record: run %d is stored, but not its change points (history computes them until the next record stores them): %w", id, err)
	}
	return nil
}

// importedFingerprint reads the machine from a results file's
// configuration lines (goos, goarch, cpu) and the benchmarks' -GOMAXPROCS
// suffix; a malformed line is an error naming it.
func importedFingerprint(name string, data []byte) (store.Fingerprint, int, error) {
	var fp store.Fingerprint
	n := 0
	r := benchfmt.NewReader(bytes.NewReader(data), name)
	for r.Scan() {
		switch x := r.Result().(type) {
		case *benchfmt.SyntaxError:
			return fp, n, fmt.Errorf("-import %s", x)
		case *benchfmt.Result:
			n++
			fp.GOOS, fp.GOARCH, fp.CPU = x.GetConfig("goos"), x.GetConfig("goarch"), x.GetConfig("cpu")
			if _, procs := stats.SplitProcs(x.Name); procs > 0 {
				fp.GOMAXPROCS = procs
			}
		}
	}
	return fp, n, r.Err()
}

// historyOrder is the git order history shows: HEAD's ancestry, or nil
// outside a repository or in a shallow clone (whose history is a few
// commits), where the store's order (the recorders') is used.
func historyOrder(ctx context.Context, dir string) []string {
	repo, err := git.RepoRoot(ctx, dir)
	if err != nil || git.IsShallow(ctx, repo) {
		return nil
	}
	return ancestry(ctx, repo)
}

// ancestry is the commits of HEAD's history oldest first, or nil outside
// a repository.
func ancestry(ctx context.Context, dir string) []string {
	repo, err := git.RepoRoot(ctx, dir)
	if err != nil {
		return nil
	}
	order, err := git.Ancestry(ctx, repo, "HEAD")
	if err != nil {
		return nil
	}
	return order
}

// shardOf parses -shard i/n and balances it on the durations of the
// store (-store, or the module's default store when it exists; without
// one, benchmarks count alike), of any machine.
func shardOf(ctx context.Context, shard, dsn string) (*loop.Shard, error) {
	if shard == "" {
		return nil, nil
	}
	sh, err := loop.ParseShard(shard)
	if err != nil {
		return nil, usageErrorf("-shard: %v", err)
	}
	root, _ := findModuleRoot()
	if dsn == "" && (root == "" || !exists(filepath.Join(root, defaultStore))) {
		return &sh, nil
	}
	st, _, err := openStore(ctx, dsn, root, true)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	module := ""
	if root != "" {
		module, _ = modulePath(root)
	}
	if sh.Durations, err = st.Durations(ctx, module, ""); err != nil {
		return nil, err
	}
	return &sh, nil
}

// recordShard parses record's -shard i/n and balances it on the durations
// the store keeps for the shards of commit (store.ShardDurations): every
// shard of the commit gets the same, so they split the benchmarks alike
// even when one starts after another has stored its run.
func recordShard(ctx context.Context, st *store.Store, shard, module, commit string) (*loop.Shard, error) {
	if shard == "" {
		return nil, nil
	}
	sh, err := loop.ParseShard(shard)
	if err != nil {
		return nil, usageErrorf("-shard: %v", err)
	}
	if sh.Durations, err = st.ShardDurations(ctx, module, commit); err != nil {
		return nil, err
	}
	return &sh, nil
}
