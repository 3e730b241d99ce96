package render

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/perfloop/perfloop/internal/document"
)

// Fix writes what perfloop fix tried, round by round: the candidates it
// kept with their measured change, the ones it did not keep and why, the
// change of every kept patch together, and where the patches are
// (patterns are the packages to measure again, out the directory of
// the patches).
func Fix(w io.Writer, res *document.Fix, patterns []string, out string) error {
	if res.Rounds == 0 {
		fixRound(w, res.Kept, res.Rejected)
	}
	for r := 1; r <= res.Rounds; r++ {
		fmt.Fprintf(w, "round %d:\n", r)
		kept := slices.DeleteFunc(slices.Clone(res.Kept), func(k document.FixKept) bool { return k.Round != r })
		rejected := slices.DeleteFunc(slices.Clone(res.Rejected), func(k document.FixRejected) bool { return k.Round != r })
		if len(kept)+len(rejected) == 0 {
			fmt.Fprintf(w, "  no candidate at the report's root causes: the rounds stop\n\n")
			continue
		}
		fixRound(w, kept, rejected)
		fmt.Fprintln(w)
	}
	if len(res.Cumulative) > 0 {
		fmt.Fprintf(w, "every kept patch against %s (measured):\n", shortCommit(res.Commit))
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "\tbenchmark\tchange [95%% CI]\n")
		for _, m := range res.Cumulative {
			fmt.Fprintf(tw, "\t%s %s\t%s\n", m.Name, m.Unit, fixChange(m))
		}
		tw.Flush()
	}
	if len(res.BaselineFailures) > 0 {
		fmt.Fprintf(w, "\nfailing at %s before any edit (not held against the candidates):\n", shortCommit(res.Commit))
		for _, f := range res.BaselineFailures {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	if res.Together != "" {
		fmt.Fprintf(w, "\n%s\n", res.Together)
	}
	if len(res.Kept) > 0 {
		if res.Applied {
			fmt.Fprintf(w, "applied to the work tree (not committed); measure again with:\n  perfloop diff HEAD %s\n", strings.Join(patterns, " "))
		} else {
			fmt.Fprintf(w, "patches in %s: git apply %s/all.patch (or one NN-*.patch on its own), then perfloop diff HEAD\n", out, out)
		}
	}
	return nil
}

// fixRound writes the tables of kept and not kept candidates.
func fixRound(w io.Writer, kept []document.FixKept, rejected []document.FixRejected) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "kept\tsite\trewrite\tbenchmarks\tchange [95%% CI]\ttests\ttime\n")
	for _, k := range kept {
		review := ""
		if k.Review {
			review = " (review)"
		}
		for i, m := range k.Benchmarks {
			if !m.Significant && i > 0 {
				continue
			}
			site, rw, tests, took := "", "", "", ""
			if i == 0 {
				site, rw, tests, took = fmt.Sprintf("%s:%d", k.File, k.Line), k.Rewrite+review, fmt.Sprintf("%d package(s) pass", len(k.Tests)), fixTiming(k.Seconds)
				if k.Output != "" {
					tests += "; " + k.Output
				}
			}
			fmt.Fprintf(tw, "\t%s\t%s\t%s %s\t%s\t%s\t%s\n", site, rw, m.Name, m.Unit, fixChange(m), tests, took)
		}
	}
	tw.Flush()
	if len(kept) == 0 {
		fmt.Fprintln(w, "  (none kept)")
	}
	if len(rejected) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "not kept\tsite\trewrite\treason\ttime\n")
		for _, r := range rejected {
			fmt.Fprintf(tw, "\t%s:%d\t%s\t%s\t%s\n", r.File, r.Line, r.Rewrite, r.Reason, fixTiming(r.Seconds))
		}
		tw.Flush()
	}
}

// fixTiming says what a candidate cost: "build 1.2s, vet 0.4s, tests 2.0s,
// A/B 8.1s", the stages it did not reach left out.
func fixTiming(t document.FixTiming) string {
	var parts []string
	for _, st := range []struct {
		name string
		s    float64
	}{{"build", t.Build}, {"vet", t.Vet}, {"tests", t.Tests}, {"A/B", t.AB}} {
		switch {
		case st.s >= 0.1:
			parts = append(parts, fmt.Sprintf("%s %.1fs", st.name, st.s))
		case st.s > 0:
			parts = append(parts, st.name+" <0.1s")
		}
	}
	return strings.Join(parts, ", ")
}

// fixChange formats a measured row: "−33.3% [−33.3%, −33.3%]".
func fixChange(m document.FixMeasured) string {
	t := fmt.Sprintf("%+.1f%%", m.Delta*100)
	if m.CI != [2]float64{} && !math.IsNaN(m.CI[0]) {
		t += fmt.Sprintf(" [%+.1f%%, %+.1f%%]", m.CI[0]*100, m.CI[1]*100)
	}
	if !m.Significant {
		t += " (n.s.)"
	}
	return t
}
