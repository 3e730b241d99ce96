package profiles

import (
	"testing"

	"github.com/google/pprof/profile"
)

// heapProfile builds a heap profile with one sample per (function, bytes).
func heapProfile(samples map[string]int64) *profile.Profile {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"}, Period: 1,
	}
	id := uint64(1)
	for name, bytes := range samples {
		fn := &profile.Function{ID: id, Name: name, Filename: "x.go"}
		loc := &profile.Location{ID: id, Line: []profile.Line{{Function: fn, Line: 1}}}
		p.Function = append(p.Function, fn)
		p.Location = append(p.Location, loc)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{1, bytes}})
		id++
	}
	return p
}

// TestSubtract: the difference of two runs is what the extra iterations
// allocated; package initialization, sampled at random, is left out, and
// nothing is negative.
func TestSubtract(t *testing.T) {
	// m.init.func28 is a func literal of a package-level var (a builtin
	// of a table), called by the loop long after initialization.
	a := heapProfile(map[string]int64{"m.Loop": 4000, "m.init": 512 * 1024, "m.Setup": 100, "m.init.func28": 8000})
	b := heapProfile(map[string]int64{"m.Loop": 1000, "m.Setup": 100, "m.Rare": 50, "m.init.func28": 2000})
	d, err := Subtract(a, b)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, s := range d.Sample {
		got[s.Location[0].Line[0].Function.Name] += s.Value[1]
	}
	if got["m.Loop"] != 3000 || got["m.init.func28"] != 6000 || got["m.init"] != 0 || got["m.Setup"] != 0 || got["m.Rare"] != 0 {
		t.Errorf("difference %v, want m.Loop 3000, m.init.func28 6000 and nothing else", got)
	}
}
