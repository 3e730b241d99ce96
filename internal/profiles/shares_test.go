package profiles

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
)

// TestFunctionShares: cum shares by function, each function once per
// sample.
func TestFunctionShares(t *testing.T) {
	fn := func(id uint64, name string) *profile.Function { return &profile.Function{ID: id, Name: name} }
	hot, cold, rec := fn(1, "example.com/m.Hot"), fn(2, "example.com/m.Cold"), fn(3, "example.com/m.rec")
	loc := func(id uint64, f *profile.Function) *profile.Location {
		return &profile.Location{ID: id, Line: []profile.Line{{Function: f}}}
	}
	lh, lc, lr := loc(1, hot), loc(2, cold), loc(3, rec)
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lr, lr, lh}, Value: []int64{9, 90}},
			{Location: []*profile.Location{lc}, Value: []int64{1, 10}},
		},
		Function: []*profile.Function{hot, cold, rec},
		Location: []*profile.Location{lh, lc, lr},
	}
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, err := FunctionShares(path)
	if err != nil {
		t.Fatal(err)
	}
	if got["example.com/m.Hot"] != 0.9 || got["example.com/m.rec"] != 0.9 || got["example.com/m.Cold"] != 0.1 {
		t.Errorf("shares %v", got)
	}
	if _, err := FunctionShares(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing profile: no error")
	}
}
