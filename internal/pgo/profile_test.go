package pgo

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/perfloop/perfloop/internal/escape"
)

// cpuProfile returns a CPU profile of one binary: each stack is leaf
// first, as "file:line:function" frames of one line each, with count
// samples; addresses and labels as a real profile has them.
func cpuProfile(binary string, stacks map[int64][]string) *profile.Profile {
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x800000, File: binary}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10000000,
		Mapping: []*profile.Mapping{m},
	}
	funcs := map[string]*profile.Function{}
	addr := uint64(0x401000)
	for _, n := range slices.Sorted(maps.Keys(stacks)) {
		s := &profile.Sample{Value: []int64{n, n * 10000000}, Label: map[string][]string{"k": {"v"}}}
		for _, fr := range stacks[n] {
			parts := strings.SplitN(fr, ":", 3)
			file, name := parts[0], parts[2]
			line, _ := strconv.ParseInt(parts[1], 10, 64)
			f := funcs[name]
			if f == nil {
				f = &profile.Function{ID: uint64(len(funcs) + 1), Name: name, SystemName: name, Filename: file, StartLine: line - 1}
				funcs[name] = f
				p.Function = append(p.Function, f)
			}
			addr += 0x10
			loc := &profile.Location{ID: uint64(len(p.Location) + 1), Mapping: m, Address: addr, Line: []profile.Line{{Function: f, Line: line}}}
			p.Location = append(p.Location, loc)
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

// TestMergePrune: two binaries' profiles of the same code merge into one
// with no addresses, mappings or labels; the same call stacks fold
// together, and the compiler's samples add up.
func TestMergePrune(t *testing.T) {
	dir := t.TempDir()
	stack := []string{"/src/m/shape/shape.go:12:example.com/m/shape.(*Rect).Area", "/src/m/shape/shape.go:28:example.com/m/shape.Total"}
	other := []string{"/src/m/shape/shape.go:28:example.com/m/shape.Total"}
	a := cpuProfile("a.test", map[int64][]string{7: stack, 3: other})
	b := cpuProfile("b.test", map[int64][]string{5: stack})
	var paths []string
	for i, p := range []*profile.Profile{a, b} {
		path := filepath.Join(dir, string(rune('a'+i))+".pprof")
		if _, err := Write(p, path); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	m, err := Merge(paths)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.CheckValid(); err != nil {
		t.Fatal(err)
	}
	if n := Samples(m); n != 15 {
		t.Errorf("Samples = %d, want 15", n)
	}
	if len(m.Mapping) != 0 {
		t.Errorf("%d mappings kept", len(m.Mapping))
	}
	if len(m.Sample) != 2 {
		t.Errorf("%d samples, want the 2 distinct stacks", len(m.Sample))
	}
	for _, s := range m.Sample {
		if len(s.Label) > 0 {
			t.Errorf("labels kept: %v", s.Label)
		}
	}
	for _, l := range m.Location {
		if l.Address != 0 {
			t.Errorf("address kept: %#x", l.Address)
		}
	}
	if got := Heat(m, "shape/shape.go", 28); got != 1 {
		t.Errorf("Heat(shape.go:28) = %v, want 1 (every stack passes through it)", got)
	}
	if got := Heat(m, "shape/shape.go", 12); got != 12.0/15 {
		t.Errorf("Heat(shape.go:12) = %v, want 12/15", got)
	}
	if got := Heat(m, "hape/shape.go", 12); got != 0 {
		t.Errorf("Heat of a partial file name = %v, want 0", got)
	}
	// Merging nothing but empty profiles is an error, not an empty file.
	empty := filepath.Join(dir, "empty.pprof")
	if _, err := Write(cpuProfile("c.test", nil), empty); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge([]string{empty}); err == nil {
		t.Error("Merge of a profile without samples: no error")
	}
	// A file that is not a profile names itself.
	junk := filepath.Join(dir, "junk.pprof")
	os.WriteFile(junk, []byte("not a profile"), 0o644)
	if _, err := Merge([]string{junk}); err == nil || !strings.Contains(err.Error(), "junk.pprof") {
		t.Errorf("Merge(junk) = %v, want an error naming the file", err)
	}
}

// TestWriteLeavesNoTemporary: Write replaces the file whole and leaves
// nothing beside it.
func TestWriteLeavesNoTemporary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "default.pgo")
	os.WriteFile(path, []byte("old"), 0o644)
	p := cpuProfile("a.test", map[int64][]string{1: {"/x.go:3:m.F"}})
	n, err := Write(p, path)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d files, want 1", len(entries))
	}
	st, _ := os.Stat(path)
	if st.Size() != n || st.Mode().Perm() != 0o644 {
		t.Errorf("size %d mode %v, want %d 0644", st.Size(), st.Mode().Perm(), n)
	}
	if _, err := Read(path); err != nil {
		t.Error(err)
	}
	if _, err := Write(p, filepath.Join(dir, "missing", "default.pgo")); err == nil {
		t.Error("Write into a missing directory: no error")
	}
}

// TestRenameMain: a main package's functions, named by import path in
// its test binary, get the names the program's build gives them.
func TestRenameMain(t *testing.T) {
	p := cpuProfile("app.test", map[int64][]string{1: {"/m/cmd/app/main.go:9:example.com/m/cmd/app.run", "/m/cmd/app/main.go:5:example.com/m/cmd/app.main", "/m/lib/l.go:3:example.com/m/cmd/application.F"}})
	RenameMain(p, "example.com/m/cmd/app")
	var names []string
	for _, f := range p.Function {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	want := []string{"example.com/m/cmd/application.F", "main.main", "main.run"}
	if !slices.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
}

// TestCallSites: only inlined calls and PGO devirtualizations are call
// sites, keyed so that two package variants saying the same count once.
func TestCallSites(t *testing.T) {
	diags := []escape.Diagnostic{
		{Package: "m", File: "s.go", Line: 28, Col: 14, Kind: escape.KindDevirtualize, Name: "(*Rect).Area", PGO: true, Message: "PGO devirtualizing interface call s.Area to (*Rect).Area"},
		{Package: "m [m.test]", File: "s.go", Line: 28, Col: 14, Kind: escape.KindDevirtualize, Name: "(*Rect).Area", PGO: true, Message: "PGO devirtualizing interface call s.Area to (*Rect).Area"},
		{Package: "m", File: "s.go", Line: 28, Col: 14, Kind: escape.KindInlineCall, Name: "(*Rect).Area", Message: "inlining call to (*Rect).Area"},
		{Package: "m", File: "s.go", Line: 11, Col: 6, Kind: escape.KindCanInline, Name: "(*Rect).Area", Message: "can inline (*Rect).Area"},
		{Package: "m", File: "s.go", Line: 12, Col: 2, Kind: escape.KindMovedToHeap, Name: "x", Message: "moved to heap: x"},
	}
	got := callSites(diags)
	if len(got) != 2 {
		t.Errorf("%d call sites, want 2: %v", len(got), got)
	}
}
