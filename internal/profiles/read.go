package profiles

import (
	"errors"
	"fmt"
	"os"

	"github.com/google/pprof/profile"
)

// ReadFile reads and parses a pprof profile (gzip-compressed or not). An
// empty file and a file pprof cannot parse are errors that say so.
func ReadFile(path string) (*profile.Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Parse parses a pprof profile from data. A corrupt profile is an error,
// never a panic: the parser's own panics on hostile input are recovered.
func Parse(data []byte) (p *profile.Profile, err error) {
	if len(data) == 0 {
		return nil, errors.New("empty profile (the process wrote nothing)")
	}
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("corrupt profile: %v", r)
		}
	}()
	p, err = profile.ParseData(data)
	if err != nil {
		return nil, fmt.Errorf("corrupt profile: %w", err)
	}
	return p, nil
}

// sampleIndex returns the index of the sample type named typ, or -1.
func sampleIndex(p *profile.Profile, typ string) int {
	for i, st := range p.SampleType {
		if st.Type == typ {
			return i
		}
	}
	return -1
}

// cpuIndex returns the sample value go tool pprof shows by default for a
// CPU profile: the default sample type if it is set, else the last one
// ("cpu" in profiles written by runtime/pprof).
func cpuIndex(p *profile.Profile) (int, error) {
	if len(p.SampleType) == 0 {
		return 0, errors.New("profile has no sample types")
	}
	if p.DefaultSampleType != "" {
		if i := sampleIndex(p, p.DefaultSampleType); i >= 0 {
			return i, nil
		}
	}
	return len(p.SampleType) - 1, nil
}
