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
