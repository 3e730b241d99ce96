package profiles

import (
	"fmt"

	"github.com/perfloop/perfloop/internal/document"
)

// FunctionShares reads a CPU or heap profile (of the real program, for
// perfloop fix and report -production) and returns each function's share
// of its cost (cum: the samples with the
// function anywhere on the stack); a heap profile is read by allocated
// bytes.
func FunctionShares(path string) (map[string]float64, error) {
	p, err := ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w (want a CPU or heap profile, such as default.pgo)", path, err)
	}
	idx := len(p.SampleType) - 1
	for i, st := range p.SampleType {
		if st.Type == "cpu" || st.Type == "alloc_space" {
			idx = i
		}
	}
	if idx < 0 {
		return nil, fmt.Errorf("%s: a profile with no sample types", path)
	}
	shares := map[string]float64{}
	var total float64
	for _, s := range p.Sample {
		v := float64(s.Value[idx])
		total += v
		seen := map[string]bool{}
		for _, loc := range s.Location {
			for _, ln := range loc.Line {
				if ln.Function == nil || seen[ln.Function.Name] {
					continue
				}
				seen[ln.Function.Name] = true
				shares[document.PlainFunc(FuncName(ln.Function.Name))] += v
			}
		}
	}
	if total == 0 {
		return nil, fmt.Errorf("%s: the profile has no samples", path)
	}
	for k := range shares {
		shares[k] /= total
	}
	return shares, nil
}
