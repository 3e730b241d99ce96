package gate

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/perfloop/perfloop/internal/gotest"
)

const baseSrc = `package ck

import "io"

// Limit is the largest frame.
const Limit = 1 << 20

// WriteFrame writes a frame.
func WriteFrame(w io.Writer, p []byte) error {
	_, err := w.Write(p)
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
	writeFiles(t, base, map[string]string{"codec/codec.go": baseSrc, "codec/codec_test.go": "package ck\n\nvar sink int\n"})
	writeFiles(t, head, map[string]string{"codec/codec.go": baseSrc, "codec/codec_test.go": "package ck\n\nvar sink int64\n"})
	dirs := [2]string{base, head}
	for _, tt := range []struct {
		name        string
		changes     []gotest.FileChange
		funcs       []string // HEAD's changed functions
		global      string
		testGlobals []string
	}{
		{name: "a line in a function", changes: []gotest.FileChange{{Path: "mod/codec/codec.go", Old: [][2]int{{10, 10}}, New: [][2]int{{10, 10}}}},
			funcs: []string{"example.com/ck/codec.WriteFrame"}},
		{name: "a method of a generic type", changes: []gotest.FileChange{{Path: "mod/codec/codec.go", Old: [][2]int{{17, 17}}, New: [][2]int{{17, 17}}}},
			funcs: []string{"example.com/ck/codec.(*Summer).Sum"}},
		{name: "a doc comment", changes: []gotest.FileChange{{Path: "mod/codec/codec.go", Old: [][2]int{{8, 8}}, New: [][2]int{{8, 8}}}}},
		{name: "an import", changes: []gotest.FileChange{{Path: "mod/codec/codec.go", Old: [][2]int{{3, 3}}, New: [][2]int{{3, 3}}}}},
		{name: "a constant", changes: []gotest.FileChange{{Path: "mod/codec/codec.go", Old: [][2]int{{6, 6}}, New: [][2]int{{6, 6}}}},
			global: "codec/codec.go:6"},
		{name: "a test variable", changes: []gotest.FileChange{{Path: "mod/codec/codec_test.go", Old: [][2]int{{3, 3}}, New: [][2]int{{3, 3}}}},
			testGlobals: []string{"codec"}},
		{name: "the README", changes: []gotest.FileChange{{Path: "mod/README.md", New: [][2]int{{1, 2}}}}},
		{name: "go.mod", changes: []gotest.FileChange{{Path: "mod/go.mod", New: [][2]int{{5, 5}}}}, global: "go.mod"},
		{name: "another module", changes: []gotest.FileChange{{Path: "other/go.mod", New: [][2]int{{5, 5}}}}},
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
	c := NewChange([]gotest.FileChange{{Path: "codec.go", New: [][2]int{{11, 11}}}}, "", [2]string{t.TempDir(), head}, "example.com/ck")
	want := []FuncSpan{{Package: "example.com/ck", Name: "example.com/ck.WriteFrame", File: "codec.go", Start: 9, End: 12}}
	if !reflect.DeepEqual(c.Funcs[1], want) {
		t.Errorf("spans = %+v, want %+v", c.Funcs[1], want)
	}
	if len(c.Funcs[0]) != 0 {
		t.Errorf("BASE has no codec.go, yet spans %+v", c.Funcs[0])
	}
}
