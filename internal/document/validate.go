package document

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// Validate checks the document's invariants (see the package doc) and
// returns every violation found.
func (r *Report) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if r.Schema != Schema {
		bad("schema %q, want %q", r.Schema, Schema)
	}
	names := map[string]bool{}
	for _, b := range r.Benchmarks {
		names[b.Name] = true
		if !strings.HasPrefix(b.Name, "Benchmark") && r.Run == nil {
			bad("benchmark %q: name without the Benchmark prefix", b.Name)
		}
		switch b.Status {
		case "ok", "skipped":
		case "failed", "timeout":
			if b.Error == "" {
				bad("benchmark %s: status %s without an error", b.Name, b.Status)
			}
		default:
			bad("benchmark %s: unknown status %q", b.Name, b.Status)
		}
		for unit, m := range b.Metrics {
			if m.Low != nil && m.High != nil && !(*m.Low <= m.Median && m.Median <= *m.High) {
				bad("benchmark %s %s: median %g outside [%g, %g]", b.Name, unit, m.Median, *m.Low, *m.High)
			}
		}
		if b.TestAllocShare != nil {
			share(&errs, "benchmark "+b.Name+" test_alloc_share", *b.TestAllocShare)
		}
		if b.CallPath != nil {
			share(&errs, "benchmark "+b.Name+" call path", b.CallPath.Share)
		}
	}
	known := func(what, bench string) {
		if !names[bench] {
			bad("%s names benchmark %q, which the document does not list", what, bench)
		}
	}
	for _, h := range r.Hotspots {
		known("hotspot "+h.Function, h.Benchmark)
		share(&errs, "hotspot "+h.Function+" flat", h.Flat)
		share(&errs, "hotspot "+h.Function+" cum", h.Cum)
		if h.Flat > h.Cum+1e-9 {
			bad("hotspot %s: flat %g above cum %g", h.Function, h.Flat, h.Cum)
		}
		file(&errs, "hotspot "+h.Function, h.File)
	}
	for _, c := range r.Categories {
		known("category "+string(c.Category), c.Benchmark)
		share(&errs, "category "+string(c.Category), c.Share)
	}
	for _, a := range r.Allocations {
		where := fmt.Sprintf("allocation %s:%d", a.File, a.Line)
		known(where, a.Benchmark)
		share(&errs, where+" bytes", a.BytesShare)
		share(&errs, where+" objects", a.ObjectsShare)
		file(&errs, where, a.File)
	}
	for _, f := range r.Findings {
		switch f.Severity {
		case SeverityHigh, SeverityMedium, SeverityLow, SeverityInfo:
		default:
			bad("finding %q: unknown severity %q", f.Message, f.Severity)
		}
		file(&errs, "finding "+string(f.Kind), f.File)
	}
	for _, g := range r.Gate {
		switch g.Verdict {
		case VerdictFirst, VerdictConsider, VerdictDontTouch:
		default:
			bad("gate row %q: unknown verdict %q", g.Rule, g.Verdict)
		}
	}
	return errors.Join(errs...)
}

func share(errs *[]error, what string, v float64) {
	if !(v >= 0 && v <= 1+1e-9) {
		*errs = append(*errs, fmt.Errorf("%s: share %g outside [0, 1]", what, v))
	}
}

func file(errs *[]error, what, f string) {
	if path.IsAbs(f) || strings.Contains(f, `\`) || strings.HasPrefix(f, "/") {
		*errs = append(*errs, fmt.Errorf("%s: file %q is not relative and slash-separated", what, f))
	}
}
