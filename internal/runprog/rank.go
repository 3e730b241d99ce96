package runprog

import (
	"cmp"
	"slices"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/findings"
)

// allocPlaces is how many places of the report's first screen a run that
// allocates heavily keeps for the allocation sites with the most bytes.
const allocPlaces = 3

// allocFirst reorders a run's "fix" findings so that the allocPlaces
// allocation sites that allocate the most bytes per run are among the
// first document.FirstScreen, when the gate puts allocations first (the
// collector and the allocator take more than Thresholds.GateAllocs of a
// variant's CPU) and each site holds at least Thresholds.SiteMin of the
// run's bytes (of the heap profile's, when it is partial: see
// document.RunVariant.HeapPartial).
//
// The rules rank an allocation site by the CPU it costs, which suits a
// benchmark, whose sites repeat per op. A run's few large allocations (a
// file read into a growing buffer, nodes allocated in batches) cost
// little CPU each, yet they make the heap the collector marks and the
// peak RSS, and they are what someone reading `go tool pprof
// -sample_index=alloc_space -top` changes first. A site that ranks below
// the first screen takes the place of the lowest-ranked finding on it that
// is not such a site; that finding and those after it move down one.
// The order is otherwise the rules'.
func allocFirst(doc *document.Report) {
	t := findings.DefaultThresholds
	heavy := false
	gcMem := map[string]float64{}
	for _, c := range doc.Categories {
		if c.Category == "gc" || c.Category == "memory" {
			gcMem[c.Benchmark] += c.Share
			heavy = heavy || gcMem[c.Benchmark] > t.GateAllocs
		}
	}
	if !heavy {
		return
	}
	runBytes := map[string]float64{}
	for _, b := range doc.Benchmarks {
		if m := b.Metrics["B/op"]; m != nil {
			runBytes[b.Name] = m.Median
		}
	}
	if doc.Run != nil {
		for _, v := range doc.Run.Variants {
			if v.HeapPartial() {
				// The sites' bytes are what the heap profile holds
				// (the run's completed collection cycles): a share of
				// that, not of the run's.
				runBytes[v.Name] = float64(v.HeapProfileBytes)
			}
		}
	}
	var fix []int // indices of the "fix" findings, in rank order
	for i, f := range doc.Findings {
		if f.Section == document.SectionFix {
			fix = append(fix, i)
		}
	}
	if len(fix) <= document.FirstScreen {
		return
	}
	var sites []int // positions in fix
	for p, i := range fix {
		f := doc.Findings[i]
		if f.Kind != document.KindAlloc {
			continue
		}
		b := findingBytes(f)
		if total := runBytes[f.Benchmark]; total > 0 && b < t.SiteMin*total {
			continue
		}
		if b > 0 {
			sites = append(sites, p)
		}
	}
	slices.SortStableFunc(sites, func(a, b int) int {
		return cmp.Compare(findingBytes(doc.Findings[fix[b]]), findingBytes(doc.Findings[fix[a]]))
	})
	if len(sites) > allocPlaces {
		sites = sites[:allocPlaces]
	}
	if len(sites) == 0 || slices.Max(sites) < document.FirstScreen {
		return
	}
	reserved := make(map[int]bool, len(sites))
	for _, p := range sites {
		reserved[p] = true
	}
	var screen, promoted, rest []document.Finding
	others := 0
	for p, i := range fix {
		f := doc.Findings[i]
		switch {
		case reserved[p] && p < document.FirstScreen:
			screen = append(screen, f)
		case reserved[p]:
			promoted = append(promoted, f)
		case others < document.FirstScreen-len(sites):
			others++
			screen = append(screen, f)
		default:
			rest = append(rest, f)
		}
	}
	order := append(append(screen, promoted...), rest...)
	for p, i := range fix {
		doc.Findings[i] = order[p]
	}
}

// findingBytes is what a finding's sites allocate per run in the
// benchmark (program variant) it costs most.
func findingBytes(f document.Finding) float64 {
	for _, c := range f.Costs {
		if c.Benchmark == f.Benchmark {
			return c.BytesPerOp
		}
	}
	return 0
}
