package render

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/perfloop/perfloop/internal/document"
)

// PGOText writes a perfloop pgo run for the terminal: the profile and
// where it went, the benchmarks off and on with their intervals, the
// build cost and the compiler's changed decisions.
func PGOText(w io.Writer, d *document.PGO) error {
	bw := &errWriter{w: w}
	p := d.Profile
	if d.Check && d.Stale != nil {
		st := d.Stale
		fmt.Fprintf(bw, "profile %s: %s of its samples in the module's code; of those %s in functions that no longer exist, %s in functions edited since (sampled lines beyond their body now)\n",
			st.Path, percent0(st.Module), percent0(st.Missing), percent0(st.Shifted))
		if len(st.MissingFuncs) > 0 {
			fmt.Fprintf(bw, "  gone: %s\n", strings.Join(st.MissingFuncs, ", "))
		}
		if len(st.ShiftedFuncs) > 0 {
			fmt.Fprintf(bw, "  edited: %s\n", strings.Join(st.ShiftedFuncs, ", "))
		}
		fmt.Fprintf(bw, "fresh profile from %s: %d samples, %s\n\n", p.Source, p.Samples, formatBytes(p.Bytes))
	} else {
		path := p.Path
		if path == "" {
			path = "(measured, not installed)"
		}
		fmt.Fprintf(bw, "profile %s: %d samples from %s (%d profile(s), %s merged and pruned to %s)\n",
			path, p.Samples, p.Source, p.Profiles, formatBytes(p.RawBytes), formatBytes(p.Bytes))
		for _, wr := range d.Written {
			switch {
			case wr.Kept:
				fmt.Fprintf(bw, "  kept %s: not written by perfloop (-replace overwrites it)\n", wr.Path)
			case wr.Replaced:
				fmt.Fprintf(bw, "  replaced %s\n", wr.Path)
			default:
				fmt.Fprintf(bw, "  wrote %s\n", wr.Path)
			}
		}
		fmt.Fprintf(bw, "applies to %s\n\n", d.AppliesTo)
	}

	if len(d.Benchmarks) == 0 {
		fmt.Fprintf(bw, "no benchmark was compared\n")
	} else {
		// Names left-aligned (padded alike), numbers right-aligned. The
		// change is the paired estimate (each round's ratio), so the
		// table shows it beside one side's median, not two medians
		// that noise can set apart.
		width := len("benchmark")
		for _, b := range d.Benchmarks {
			width = max(width, len(b.Name))
		}
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "%-*s\t%s\tchange\t95%% interval\tverdict\t\n", width, "benchmark", d.Sides[0])
		for _, b := range d.Benchmarks {
			fmt.Fprintf(tw, "%-*s\t%s\t%s\t%s\t%s\t\n", width, b.Name, scaled(b.Off, b.Unit),
				signed(b.Delta), "["+signed(b.Low)+", "+signed(b.High)+"]", b.Verdict)
		}
		tw.Flush()
		what := "pgo on vs off"
		if d.Check {
			what = "fresh vs current profile"
		}
		unchanged := len(d.Benchmarks) - d.Faster - d.Slower - d.Inconclusive
		fmt.Fprintf(bw, "\n%s: geomean %s, %d faster, %d slower, %d unchanged, %d inconclusive (%d rounds, %.1fs, paired)\n",
			what, signed(d.Geomean), d.Faster, d.Slower, unchanged, d.Inconclusive, d.Rounds, d.WallSeconds)
	}
	if b, r := d.BuildSeconds, d.BuildRuns; b != nil && r != nil && d.BinaryBytes != nil && len(r.Off) == 2 && len(r.PGO) == 2 {
		r1, r2 := ratio(r.PGO[0], r.Off[0]), ratio(r.PGO[1], r.Off[1])
		verdict := fmt.Sprintf("%s to %s", signed(min(r1, r2)), signed(max(r1, r2)))
		if r1*r2 <= 0 {
			verdict += ": no clear difference"
		}
		fmt.Fprintf(bw, "build from an empty cache (2 builds each, alternated): %.1fs off, %.1fs with the profile (%s); binaries %s → %s (%s) [%s]\n",
			b.Off, b.PGO, verdict, formatBytes(int64(d.BinaryBytes.Off)), formatBytes(int64(d.BinaryBytes.PGO)),
			signed(ratio(d.BinaryBytes.PGO, d.BinaryBytes.Off)), strings.Join(d.BuildOf, " "))
	}
	if !d.Check {
		pgoDecisions(bw, d.Compiler)
	}
	for _, f := range d.Failures {
		fmt.Fprintf(bw, "failed: %s\n", f)
	}
	for _, n := range d.Notes {
		fmt.Fprintf(bw, "note: %s\n", n)
	}
	return bw.err
}

// pgoDecisions lists the compiler's changed decisions by call site,
// devirtualizations first, then the hottest: one line per site however
// many inlines nest there.
func pgoDecisions(w io.Writer, ds []document.PGODecision) {
	if len(ds) == 0 {
		fmt.Fprintf(w, "\nthe compiler made no different decision at a call site the benchmarks run\n")
		return
	}
	type site struct {
		pos        string
		kinds      []string
		what       []string
		share      float64
		devirt     bool
		benchmarks []string
	}
	var sites []*site
	byPos := map[string]*site{}
	for _, c := range ds {
		pos := fmt.Sprintf("%s:%d", c.File, c.Line)
		st := byPos[pos]
		if st == nil {
			st = &site{pos: pos, benchmarks: c.Benchmarks}
			byPos[pos] = st
			sites = append(sites, st)
		}
		if !slices.Contains(st.kinds, c.Kind) {
			st.kinds = append(st.kinds, c.Kind)
		}
		switch c.Kind {
		case "devirtualize":
			st.devirt = true
			st.what = append(st.what, "devirtualized to "+shortGeneric(c.Callee))
		case "inline":
			st.what = append(st.what, "inlined "+shortGeneric(c.Callee))
		default:
			st.what = append(st.what, "no longer inlines "+shortGeneric(c.Callee))
		}
		if w := st.what[len(st.what)-1]; slices.Contains(st.what[:len(st.what)-1], w) {
			st.what = st.what[:len(st.what)-1] // the same callee inlined twice in a line
		}
		st.share = max(st.share, c.Share)
	}
	slices.SortStableFunc(sites, func(a, b *site) int {
		if a.devirt != b.devirt {
			if a.devirt {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.share, a.share)
	})
	width := 0
	for _, st := range sites {
		width = max(width, len(st.pos))
	}
	fmt.Fprintf(w, "\nwhat the compiler did with the profile, by call site (devirtualized first, then hottest; share = of a benchmark's CPU samples passing there):\n")
	for i, st := range sites {
		if i == 10 {
			fmt.Fprintf(w, "  … %d more in -json\n", len(sites)-10)
			break
		}
		of := "the profile"
		if len(st.benchmarks) > 0 {
			of = strings.Join(st.benchmarks, ", ")
		}
		fmt.Fprintf(w, "  %-*s  %4s of %s: %s\n", width, st.pos, percent0(st.share), of, cut(strings.Join(st.what, "; "), 140))
	}
}

// shortGeneric shortens the compiler's instantiated names for reading:
// "(*node[go.shape.interface { Less(btree.Item) bool }]).insert" becomes
// "(*node[…]).insert".
func shortGeneric(name string) string {
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '[':
			if depth == 0 {
				b.WriteString("[…")
			}
			depth++
		case r == ']':
			depth--
			if depth == 0 {
				b.WriteByte(']')
			}
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func signed(f float64) string {
	if math.IsNaN(f) {
		return "?"
	}
	return fmt.Sprintf("%+.1f%%", 100*f)
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a/b - 1
}

// errWriter keeps the first write error, so a renderer checks once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
