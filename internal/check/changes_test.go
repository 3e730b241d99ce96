package check

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/git"
)

const baseSrc = `package ck

import "io"

// Limit is the largest frame.
const Limit = 1 << 20

// WriteFrame writes a frame.
func WriteFrame(w io.Writer, p []byte) error {
	_, err := w.Write(p[:min(len(p), limit)])
	return err
}

// Sum adds xs.
func (s *Summer[T]) Sum(xs []T) T {
	var t T
	for _, x := range xs {
		t += x
	}
	return t
}

var limit = Limit / 2

type Summer[T int | float64] struct{}
`

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestNewChange(t *testing.T) {
	base, head := t.TempDir(), t.TempDir()
	test := "package ck\n\nvar sink int\n\ntype fixture struct{ n int }\n\nfunc BenchmarkLimit(b *testing.B) { sink = Limit }\n"
	other := "package wire\n\nimport \"example.com/ck/codec\"\n\nfunc Max() int { return codec.Limit }\n\nfunc Min() int { return 0 }\n"
	for _, dir := range []string{base, head} {
		writeFiles(t, dir, map[string]string{"codec/codec.go": baseSrc, "codec/codec_test.go": test, "wire/wire.go": other})
	}
	dirs := [2]string{base, head}
	for _, tt := range []struct {
		name        string
		changes     []git.FileChange
		funcs       []string // HEAD's changed functions
		global      string
		testGlobals []string
	}{
		{name: "a line in a function", changes: []git.FileChange{{Path: "mod/codec/codec.go", Hunks: [][4]int{{10, 1, 10, 1}}}},
			funcs: []string{"example.com/ck/codec.WriteFrame"}},
		{name: "a method of a generic type", changes: []git.FileChange{{Path: "mod/codec/codec.go", Hunks: [][4]int{{17, 1, 17, 1}}}},
			funcs: []string{"example.com/ck/codec.(*Summer).Sum"}},
		{name: "a doc comment", changes: []git.FileChange{{Path: "mod/codec/codec.go", Hunks: [][4]int{{8, 1, 8, 1}}}}},
		{name: "an import", changes: []git.FileChange{{Path: "mod/codec/codec.go", Hunks: [][4]int{{3, 1, 3, 1}}}}},
		// Limit's users: WriteFrame through limit, the benchmark, and
		// wire.Max through the selector.
		{name: "a constant", changes: []git.FileChange{{Path: "mod/codec/codec.go", Hunks: [][4]int{{6, 1, 6, 1}}}},
			funcs: []string{"example.com/ck/codec.WriteFrame", "example.com/ck/codec.BenchmarkLimit", "example.com/ck/wire.Max"}},
		{name: "a type", changes: []git.FileChange{{Path: "mod/codec/codec.go", Hunks: [][4]int{{25, 1, 25, 1}}}},
			global: "codec/codec.go:25"},
		{name: "a test variable", changes: []git.FileChange{{Path: "mod/codec/codec_test.go", Hunks: [][4]int{{3, 1, 3, 1}}}},
			funcs: []string{"example.com/ck/codec.BenchmarkLimit"}},
		{name: "a test type", changes: []git.FileChange{{Path: "mod/codec/codec_test.go", Hunks: [][4]int{{5, 1, 5, 1}}}},
			testGlobals: []string{"codec"}},
		{name: "the README", changes: []git.FileChange{{Path: "mod/README.md", Hunks: [][4]int{{0, 0, 1, 2}}}}},
		{name: "go.mod", changes: []git.FileChange{{Path: "mod/go.mod", Hunks: [][4]int{{5, 1, 5, 1}}}}, global: "go.mod"},
		{name: "another module", changes: []git.FileChange{{Path: "other/go.mod", Hunks: [][4]int{{5, 1, 5, 1}}}}},
	} {
		c := NewChange(tt.changes, "mod", dirs, "example.com/ck")
		var funcs []string
		for _, f := range c.Funcs[1] {
			funcs = append(funcs, f.Name)
		}
		if !reflect.DeepEqual(funcs, tt.funcs) || c.Global != tt.global || !reflect.DeepEqual(c.TestGlobals, tt.testGlobals) {
			t.Errorf("%s: funcs %q global %q test globals %q; want %q %q %q", tt.name, funcs, c.Global, c.TestGlobals, tt.funcs, tt.global, tt.testGlobals)
		}
	}
}

// A function's span covers its body, so coverage of any of its blocks
// says the benchmark runs it.
func TestFuncSpan(t *testing.T) {
	head := t.TempDir()
	writeFiles(t, head, map[string]string{"codec.go": baseSrc})
	c := NewChange([]git.FileChange{{Path: "codec.go", Hunks: [][4]int{{0, 0, 11, 1}}}}, "", [2]string{t.TempDir(), head}, "example.com/ck")
	want := []FuncSpan{{Package: "example.com/ck", Name: "example.com/ck.WriteFrame", File: "codec.go", Start: 9, End: 12}}
	if !reflect.DeepEqual(c.Funcs[1], want) {
		t.Errorf("spans = %+v, want %+v", c.Funcs[1], want)
	}
	if len(c.Funcs[0]) != 0 {
		t.Errorf("BASE has no codec.go, yet spans %+v", c.Funcs[0])
	}
}

// A constant added above a type declaration touches the type on neither
// side: the gap between BASE's lines is not the type's line.
func TestNewChangeInsertion(t *testing.T) {
	base, head := t.TempDir(), t.TempDir()
	writeFiles(t, base, map[string]string{"c.go": "package c\n\ntype cache struct{ vs []int }\n\nfunc (c *cache) get() int { return len(c.vs) }\n"})
	writeFiles(t, head, map[string]string{"c.go": "package c\n\nconst maxValues = 1 << 30\n\ntype cache struct{ vs []int }\n\nfunc (c *cache) get() int { return min(len(c.vs), maxValues) }\n"})
	// @@ -2,0 +3,2 @@ and @@ -5 +7 @@
	c := NewChange([]git.FileChange{{Path: "c.go", Hunks: [][4]int{{2, 0, 3, 2}, {5, 1, 7, 1}}}}, "", [2]string{base, head}, "example.com/c")
	if c.Global != "" {
		t.Errorf("Global = %q: the type did not change", c.Global)
	}
	var names []string
	for _, f := range c.Funcs[1] {
		names = append(names, f.Name)
	}
	if want := []string{"example.com/c.(*cache).get"}; !reflect.DeepEqual(names, want) {
		t.Errorf("HEAD's changed functions = %q, want get (its line, and its use of the new constant)", names)
	}
}

// A compiler verdict's cause names its function, changed or not, and says
// whether the change touched it.
func TestMark(t *testing.T) {
	dir := t.TempDir()
	src := "package m\n\nfunc A() {\n\t_ = 1\n}\n\nfunc (t *T) B() {\n\t_ = 2\n}\n\ntype T struct{}\n"
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ch := NewChange([]git.FileChange{{Path: "m.go", Hunks: [][4]int{{4, 1, 4, 1}}}}, "", [2]string{dir, dir}, "example.com/m")
	for _, tt := range []struct {
		line             int64
		fn               string
		changed, outside bool
	}{
		{4, "example.com/m.A", true, false},
		{8, "example.com/m.(*T).B", false, true},
	} {
		got := ch.mark(document.Cause{Kind: "escape", File: "m.go", Line: tt.line})
		if got.Function != tt.fn || got.Changed != tt.changed || got.Outside != tt.outside {
			t.Errorf("mark(m.go:%d) = %q changed %v outside %v; want %q %v %v", tt.line, got.Function, got.Changed, got.Outside, tt.fn, tt.changed, tt.outside)
		}
	}
}

// What changed outside functions is named in HEAD's lines, and a
// declaration HEAD no longer has is named as deleted.
func TestNewChangeGlobalInHead(t *testing.T) {
	pad := strings.Repeat("// filler\n", 20)
	base, head := t.TempDir(), t.TempDir()
	writeFiles(t, base, map[string]string{
		"a.go": "package c\n\n" + pad + "type header struct{ n int }\n",                 // line 23
		"b.go": "package c\n\n" + pad + "type trailer struct{ n int }\n\nfunc F() {}\n", // line 23
	})
	writeFiles(t, head, map[string]string{
		"a.go": "package c\n\ntype header struct{ n, m int }\n", // line 3: the filler is gone
		"b.go": "package c\n\n" + pad + "\nfunc F() {}\n",
	})
	for _, tt := range []struct {
		change git.FileChange
		want   string
	}{
		// @@ -3,21 +3 @@: the filler removed, the type rewritten.
		{git.FileChange{Path: "a.go", Hunks: [][4]int{{3, 21, 3, 1}}}, "a.go:3"},
		// @@ -23 +22,0 @@: the type removed.
		{git.FileChange{Path: "b.go", Hunks: [][4]int{{23, 1, 22, 0}}}, "b.go: type trailer (deleted)"},
	} {
		c := NewChange([]git.FileChange{tt.change}, "", [2]string{base, head}, "example.com/c")
		if c.Global != tt.want {
			t.Errorf("%s: Global = %q, want %q", tt.change.Path, c.Global, tt.want)
		}
	}
}

// Documentation and CI configuration cannot change what a benchmark
// measures; data files and build files can.
func TestHarmless(t *testing.T) {
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"README.md", true}, {"docs/x.rst", true}, {"LICENSE.txt", true}, {".github/workflows/ci.yml", true},
		{".travis.yml", true}, {".circleci/config.yml", true}, {"appveyor.yml", true}, {".gitlab-ci.yml", true},
		{".golangci.yml", true}, {"codecov.yml", true},
		{"testdata/in.json", false}, {"go.mod", false}, {"Makefile", false}, {"data.bin", false},
	} {
		if got := harmless(tt.path); got != tt.want {
			t.Errorf("harmless(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
