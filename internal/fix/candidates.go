package fix

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/rewrite"
	"github.com/perfloop/perfloop/internal/site"
)

// fixes loads the module at opts.Dir with the run's tags (site.Load: one
// type check per package) and returns the suggested fixes of every
// fixer (site.Fixers) over it, and the module functions each line calls.
func fixes(ctx context.Context, opts Options) ([]site.Fix, func(file string, line int) []site.Span, error) {
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	prog, err := site.Load(ctx, site.Config{Dir: opts.Dir, Tags: opts.Tags}, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("load the packages to rewrite: %w", err)
	}
	fs, err := prog.Fixes(nil)
	if err != nil {
		return nil, nil, err
	}
	return fs, prog.Callees, nil
}

// candidates are the suggested fixes at the report's root causes, the
// costliest cause first, one per site and rewrite: a fix that edits a
// line of the cause (its own line, its related lines, the lines of the
// shapes that explain it, the lines of the loops its own line is in) or
// lies in a module function a line of the cause calls. Within one cause, the rewrites of the shapes that explain
// it come first, then the other fixes at its lines, then those in its
// callees. Each candidate's file is the whole file after its edits
// (rewrite.Apply), read from opts.Dir.
func candidates(opts Options, all []site.Fix, callees func(file string, line int) []site.Span) ([]candidate, []document.FixRejected) {
	var out []candidate
	var rejected []document.FixRejected
	seen := map[string]bool{}
	byFile := map[string][]site.Fix{}
	for _, f := range all {
		byFile[f.File] = append(byFile[f.File], f)
	}
	for _, f := range opts.Doc.Findings {
		if f.Section != document.SectionFix || f.File == "" {
			continue
		}
		at := map[string]bool{} // "file:line" of the cause
		explaining := map[string]bool{}
		add := func(file string, line int64) { at[fmt.Sprintf("%s:%d", file, line)] = true }
		add(f.File, f.Line)
		for _, l := range f.Related {
			add(l.File, l.Line)
		}
		for _, s := range f.Shapes {
			add(s.File, s.Line)
			if s.Rewrite != "" {
				explaining[fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Rewrite)] = true
			}
		}
		// The loops the cause's own line is in: its cost is theirs,
		// whichever of their lines a short profile happened to sample.
		for _, s := range opts.Doc.Shapes {
			if s.Name != "loop" || s.File != f.File || len(s.Related) == 0 || f.Line < s.Line || f.Line > s.Related[0].Line {
				continue
			}
			for l := s.Line; l <= s.Related[0].Line; l++ {
				add(s.File, l)
			}
		}
		type pick struct {
			fix   site.Fix
			rank  int
			where string
		}
		var picks []pick
		wheres := slices.Sorted(maps.Keys(at))
		for _, where := range wheres {
			file, _, _ := strings.Cut(where, ":")
			for _, fx := range byFile[file] {
				if !slices.ContainsFunc(fx.Lines, func(l int) bool { return at[fmt.Sprintf("%s:%d", file, l)] }) {
					continue
				}
				rank := 1
				if explaining[fmt.Sprintf("%s:%d %s", fx.File, fx.Line, fx.Rewrite)] {
					rank = 0
				}
				picks = append(picks, pick{fx, rank, ""})
			}
		}
		if callees != nil {
			for _, where := range wheres {
				file, line := splitWhere(where)
				for _, sp := range callees(file, line) {
					if sp.Function == f.Function {
						continue // a recursive call: its lines are the cause's
					}
					for _, fx := range byFile[sp.File] {
						if sp.From <= fx.Line && fx.Line <= sp.To {
							picks = append(picks, pick{fx, 2, fmt.Sprintf(" (in %s, which %s calls)", document.ShortFunc(sp.Function), where)})
						}
					}
				}
			}
		}
		slices.SortStableFunc(picks, func(a, b pick) int {
			return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.fix.File, b.fix.File), cmp.Compare(a.fix.Line, b.fix.Line), cmp.Compare(a.fix.Rewrite, b.fix.Rewrite))
		})
		for _, p := range picks {
			fx := p.fix
			key := fmt.Sprintf("%s:%d %s", fx.File, fx.Line, fx.Rewrite)
			if seen[key] {
				continue
			}
			seen[key] = true
			c := candidate{Edit: Edit{Kind: fx.Rewrite, Description: oneLine(fx.Advice) + p.where, File: fx.File, Line: fx.Line,
				Review: rewrite.ForReview(fx.Rewrite), Changes: fx.Edits}, finding: f}
			if opts.Production != nil {
				fn := cmp.Or(fx.Function, f.Function)
				if share := opts.Production[document.PlainFunc(fn)]; share < opts.MinShare {
					rejected = append(rejected, reject(c, fmt.Sprintf("cold in production: %s is %.1f%% of the production profile (below -min-share %.1f%%): not rewritten", document.ShortFunc(document.PlainFunc(fn)), share*100, opts.MinShare*100)))
					continue
				}
			}
			path := filepath.Join(opts.Dir, filepath.FromSlash(fx.File))
			src, err := os.ReadFile(path)
			if err == nil {
				c.After, err = rewrite.Apply(fx.File, src, fx.Edits)
			}
			if err != nil {
				rejected = append(rejected, reject(c, "the edit does not apply: "+firstLine(err.Error())))
				continue
			}
			out = append(out, c)
		}
	}
	return out, rejected
}

func splitWhere(where string) (string, int) {
	i := strings.LastIndexByte(where, ':')
	line := 0
	fmt.Sscan(where[i+1:], &line)
	return where[:i], line
}

// oneLine is the first line of s.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
