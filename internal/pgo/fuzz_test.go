package pgo

import (
	"bytes"
	"testing"

	"github.com/google/pprof/profile"
)

// FuzzProfile feeds arbitrary bytes, as a default.pgo given to -check or
// a profile a benchmark wrote, through everything perfloop pgo does with
// a profile: parse, prune, merge, staleness, heat. None may panic, and a
// pruned profile must be valid and keep its sample count.
func FuzzProfile(f *testing.F) {
	var buf bytes.Buffer
	cpuProfile("a.test", map[int64][]string{
		3: {"/m/s.go:12:example.com/m.(*Rect).Area", "/m/s.go:28:example.com/m.Total"},
		1: {"/m/s.go:28:example.com/m.Total"},
	}).Write(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte{})
	f.Add([]byte("\x1f\x8b"))
	funcs := map[string]Func{"example.com/m.Total": {Name: "example.com/m.Total", File: "/m/s.go", StartLine: 27, EndLine: 33}}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := profile.ParseData(data)
		if err != nil {
			return
		}
		Stale(p, "example.com/m", funcs)
		q, err := Prune(p)
		if err != nil {
			return
		}
		if err := q.CheckValid(); err != nil {
			t.Fatalf("pruned profile invalid: %v", err)
		}
		if Samples(q) != Samples(p) && len(p.SampleType) > 0 && p.SampleType[0].Type == "samples" {
			// Pruning drops only samples of no weight.
			var zero int64
			for _, s := range p.Sample {
				w := int64(0)
				for _, v := range s.Value {
					w += v
				}
				if w == 0 && len(s.Value) > 0 {
					zero += s.Value[0]
				}
			}
			if Samples(q) != Samples(p)-zero {
				t.Fatalf("samples %d after pruning, %d before", Samples(q), Samples(p))
			}
		}
		Heat(q, "s.go", 28)
		RenameMain(q, "example.com/m")
		var out bytes.Buffer
		if err := q.Write(&out); err != nil {
			t.Fatalf("write: %v", err)
		}
	})
}
