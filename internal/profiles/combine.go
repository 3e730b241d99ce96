package profiles

import (
	"fmt"
	"os"
	"strings"

	"github.com/google/pprof/profile"
)

// Merge reads the profiles at paths and merges them into one, as
// `go tool pprof` merges several files: samples with the same stack add up.
func Merge(paths []string) (*profile.Profile, error) {
	ps := make([]*profile.Profile, 0, len(paths))
	for _, path := range paths {
		p, err := ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("no profiles to merge")
	}
	if len(ps) == 1 {
		return ps[0], nil
	}
	p, err := profile.Merge(ps)
	if err != nil {
		return nil, fmt.Errorf("merge profiles: %w", err)
	}
	return p, nil
}

// Subtract returns a − b, as `go tool pprof -diff_base b a` computes it,
// with every stack whose difference is negative set to zero. For two heap
// profiles recorded with every allocation (-memprofilerate=1) of one
// benchmark at iteration counts Na > Nb, the difference is what Na − Nb
// iterations of the timed loop allocate: setup and the testing package's
// own allocations are the same in both and cancel.
//
// Allocations during package initialization are left out of both: they
// happen before the testing package sets the profiling rate, so they are
// sampled at the default rate and differ at random between two runs.
func Subtract(a, b *profile.Profile) (*profile.Profile, error) {
	neg := withoutInit(b.Copy())
	neg.Scale(-1)
	d, err := profile.Merge([]*profile.Profile{withoutInit(a.Copy()), neg})
	if err != nil {
		return nil, fmt.Errorf("subtract profiles: %w", err)
	}
	for _, s := range d.Sample {
		for i, v := range s.Value {
			if v < 0 {
				s.Value[i] = 0
			}
		}
	}
	return d, nil
}

// WriteFile writes p to path in pprof's gzip-compressed format.
func WriteFile(path string, p *profile.Profile) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	if err := p.Write(f); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// AnalyzeProfiles analyses a benchmark's parsed CPU and heap profiles.
func AnalyzeProfiles(cpu, heap *profile.Profile, opts Options) (*Analysis, error) {
	c, err := AnalyzeCPU(cpu, opts)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	h, err := AnalyzeHeap(heap, opts)
	if err != nil {
		return nil, fmt.Errorf("heap profile: %w", err)
	}
	return &Analysis{CPU: c, Heap: h}, nil
}

// SampleTotal returns the sum of p's samples' values of the given sample
// type ("cpu" for a CPU profile's nanoseconds), or 0 when p has no such
// type.
func SampleTotal(p *profile.Profile, typ string) int64 {
	i := sampleIndex(p, typ)
	if i < 0 {
		return 0
	}
	var t int64
	for _, s := range p.Sample {
		t += s.Value[i]
	}
	return t
}

// withoutInit drops the samples taken during package initialization.
func withoutInit(p *profile.Profile) *profile.Profile {
	kept := p.Sample[:0]
	for _, s := range p.Sample {
		if !inInit(s) {
			kept = append(kept, s)
		}
	}
	p.Sample = kept
	return p
}

// inInit reports whether a sample's stack runs package initialization:
// runtime.doInit, or a package's init function. A func literal of a
// package-level var ("m.init.func28", one builtin of a table) runs
// whenever it is called: only under those frames is it initialization.
func inInit(s *profile.Sample) bool {
	for _, l := range s.Location {
		for _, ln := range l.Line {
			if ln.Function == nil {
				continue
			}
			n := ln.Function.Name
			if strings.HasPrefix(n, "runtime.doInit") || strings.HasSuffix(n, ".init") {
				return true
			}
		}
	}
	return false
}
