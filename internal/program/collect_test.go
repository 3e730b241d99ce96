package program

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// synthetic returns a CPU profile of a wrapped program: the user's main
// (renamed) under the wrapper's main, a closure of it, and the wrapper's
// own rotation, each sampled value times.
func synthetic(value int64) *profile.Profile {
	fn := func(id uint64, name, file string) *profile.Function {
		return &profile.Function{ID: id, Name: name, SystemName: name, Filename: file}
	}
	rtMain := fn(1, "runtime.main", "/go/src/runtime/proc.go")
	wrapMain := fn(2, "main.main", "/m/cmd/app/"+WrapperFile)
	user := fn(3, "main."+UserMain, "/m/cmd/app/main.go")
	closure := fn(4, "main."+UserMain+".func1", "/m/cmd/app/main.go")
	rotate := fn(5, "main.perfloopRotate", "/m/cmd/app/"+WrapperFile)
	work := fn(6, "main.work", "/m/cmd/app/main.go")
	loc := func(id uint64, f *profile.Function, line int64) *profile.Location {
		return &profile.Location{ID: id, Address: 0x1000 + id, Line: []profile.Line{{Function: f, Line: line}}}
	}
	lRT, lWrap, lUser, lClosure, lRotate, lWork := loc(1, rtMain, 283), loc(2, wrapMain, 60), loc(3, user, 12), loc(4, closure, 14), loc(5, rotate, 170), loc(6, work, 30)
	// The user's main inlined into the wrapper's: one location, two lines.
	lInl := &profile.Location{ID: 7, Address: 0x2000, Line: []profile.Line{{Function: user, Line: 13}, {Function: wrapMain, Line: 61}}}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lWork, lUser, lWrap, lRT}, Value: []int64{value, value * 1e7}},
			{Location: []*profile.Location{lWork, lClosure, lUser, lWrap, lRT}, Value: []int64{1, 1e7}},
			{Location: []*profile.Location{lWork, lInl, lRT}, Value: []int64{1, 1e7}},
			{Location: []*profile.Location{lRotate}, Value: []int64{5, 5e7}},
		},
		Location: []*profile.Location{lRT, lWrap, lUser, lClosure, lRotate, lWork, lInl},
		Function: []*profile.Function{rtMain, wrapMain, user, closure, rotate, work},
	}
}

func TestClean(t *testing.T) {
	p := Clean(synthetic(3), false)
	var got []string
	for _, s := range p.Sample {
		var stack string
		for _, l := range s.Location {
			for _, ln := range l.Line {
				stack += ln.Function.Name + ":" + filepath.Base(ln.Function.Filename) + " "
			}
		}
		got = append(got, stack)
	}
	want := []string{
		"main.work:main.go main.main:main.go runtime.main:proc.go ",
		"main.work:main.go main.main.func1:main.go main.main:main.go runtime.main:proc.go ",
		"main.work:main.go main.main:main.go runtime.main:proc.go ",
	}
	if len(got) != len(want) {
		t.Fatalf("Clean kept %d samples, want %d:\n%q", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sample %d = %q, want %q", i, got[i], want[i])
		}
	}
	if err := p.CheckValid(); err != nil {
		t.Errorf("cleaned profile is not valid: %v", err)
	}
}

func TestMergeSegments(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, v := range []int64{3, 4, 5} {
		p := synthetic(v)
		p.TimeNanos = time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC).UnixNano()
		p.DurationNanos = int64(time.Second)
		path := filepath.Join(dir, "cpu-"+string(rune('1'+i))+".pprof")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Write(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
		paths = append(paths, path)
	}
	m, err := MergeSegments(paths)
	if err != nil {
		t.Fatal(err)
	}
	var samples int64
	for _, s := range m.Sample {
		samples += s.Value[0]
	}
	// 3+4+5 of the first stack, and 1+1+5 of each other stack, three times.
	if want := int64(3+4+5) + 3*(1+1+5); samples != want {
		t.Errorf("merged samples = %d, want %d", samples, want)
	}
	if m.DurationNanos != 3*int64(time.Second) {
		t.Errorf("merged duration = %v, want 3s", time.Duration(m.DurationNanos))
	}
	if _, err := MergeSegments([]string{filepath.Join(dir, "missing.pprof")}); err == nil {
		t.Error("MergeSegments of a missing file: no error")
	}
}
