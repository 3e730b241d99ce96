package profiles

import "fmt"

// Analysis is what one benchmark's CPU and heap profiles say.
type Analysis struct {
	CPU  *CPU
	Heap *Heap
}

// Analyze reads and analyses a benchmark's CPU profile and heap profile.
// Errors name the profile at fault: "cpu profile: empty profile …".
func Analyze(cpuPath, heapPath string, opts Options) (*Analysis, error) {
	cp, err := ReadFile(cpuPath)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	cpu, err := AnalyzeCPU(cp, opts)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	hp, err := ReadFile(heapPath)
	if err != nil {
		return nil, fmt.Errorf("heap profile: %w", err)
	}
	heap, err := AnalyzeHeap(hp, opts)
	if err != nil {
		return nil, fmt.Errorf("heap profile: %w", err)
	}
	return &Analysis{CPU: cpu, Heap: heap}, nil
}

// DefaultMinShare is the share below which functions and sites are not
// shown, as pprof's default -nodefraction hides nodes at 0.5%.
const DefaultMinShare = 0.005

// Shown returns the functions worth showing: the top n by flat and by cum
// (see Top), without those below minShare in both (0 means
// DefaultMinShare).
func (c *CPU) Shown(n int, minShare float64) []Function {
	if minShare == 0 {
		minShare = DefaultMinShare
	}
	var fs []Function
	for _, f := range c.Top(n) {
		if f.FlatShare >= minShare || f.CumShare >= minShare {
			fs = append(fs, f)
		}
	}
	return fs
}

// Shown returns the sites worth showing: the top n by bytes and by objects
// (see Top), without those below minShare in both (0 means
// DefaultMinShare).
func (h *Heap) Shown(n int, minShare float64) []Site {
	if minShare == 0 {
		minShare = DefaultMinShare
	}
	var ss []Site
	for _, s := range h.Top(n) {
		if s.BytesShare >= minShare || s.ObjectsShare >= minShare {
			ss = append(ss, s)
		}
	}
	return ss
}
