package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/render"
)

// renderCheck prints the verdict, writes the Markdown and decides the
// exit status.
func renderCheck(s Streams, opts checkOptions, c *document.Check, res *abtest.Result) error {
	if opts.shard != "" {
		// The shard's part of the comparison table, for the merged
		// comment.
		c.Shard = opts.shard
		var err error
		if c.Comparison, err = render.CheckComparison(c, res.Tables, opts.alpha); err != nil {
			return err
		}
	}
	if opts.json {
		if err := render.WriteJSON(s.Out, c); err != nil {
			return err
		}
	} else if err := render.CheckText(s.Out, c); err != nil {
		return err
	}
	md := func(path string, appendTo bool) error {
		flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if appendTo {
			flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		}
		f, err := os.OpenFile(path, flags, 0o644)
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		if err := render.CheckMarkdown(f, c, res.Tables, opts.alpha); err != nil {
			f.Close()
			return fmt.Errorf("write %s: %w", path, err)
		}
		return f.Close()
	}
	if opts.markdown != "" {
		if err := md(opts.markdown, false); err != nil {
			return err
		}
	}
	if p := os.Getenv("GITHUB_STEP_SUMMARY"); p != "" {
		if err := md(p, true); err != nil {
			return err
		}
	}
	switch {
	case opts.shard != "" && c.Verdict != document.CheckInterrupted:
		// A shard's verdict is the merge's to give.
		return nil
	case c.Verdict == document.CheckFail:
		benchmarks := map[document.BenchKey]bool{}
		for _, r := range c.Regressions {
			benchmarks[document.BenchKey{Package: r.Package, Name: r.Benchmark}] = true
		}
		return failedError{fmt.Sprintf("check: %d regressed benchmark(s), %d broken budget(s), %d failure(s)", len(benchmarks), brokenBudgets(c), len(c.Failures))}
	case c.Verdict == document.CheckInconclusive && opts.strict:
		return failedError{fmt.Sprintf("check: inconclusive (%d row(s) too noisy) and -strict", len(c.Inconclusive))}
	}
	return nil
}

func brokenBudgets(c *document.Check) int {
	n := 0
	for _, b := range c.Budgets {
		if !b.OK {
			n++
		}
	}
	return n
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// findModuleRoot returns the directory of the go.mod above the current
// directory.
func findModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if exists(filepath.Join(dir, "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod")
		}
		dir = parent
	}
}
