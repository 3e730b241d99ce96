package program

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestRenameMain checks the overlay's copy of each file in
// testdata/rename against its golden file: only func main's name changes,
// so every line keeps its number.
func TestRenameMain(t *testing.T) {
	files, err := filepath.Glob("testdata/rename/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out, ok, err := RenameMain(path, src)
			if err != nil {
				t.Fatal(err)
			}
			got := out
			if !ok {
				got = []byte("// no func main: unchanged\n")
			}
			golden := path + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("RenameMain(%s) =\n%s\nwant\n%s", path, got, want)
			}
			if !ok {
				if !bytes.Equal(out, src) {
					t.Errorf("a file without func main was changed")
				}
				return
			}
			if bytes.Count(out, []byte("\n")) != bytes.Count(src, []byte("\n")) {
				t.Errorf("line count changed")
			}
			if d := len(out) - len(src); d != len(UserMain)-len("main") {
				t.Errorf("length changed by %d, want %d", d, len(UserMain)-len("main"))
			}
		})
	}
}

func TestRenameMainSyntaxError(t *testing.T) {
	_, _, err := RenameMain("bad.go", []byte("package main\nfunc main( {"))
	if err == nil || !strings.Contains(err.Error(), "bad.go") {
		t.Errorf("err = %v, want a parse error naming bad.go", err)
	}
}

func TestInspect(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("plain.go", "package main\n\nfunc main() {}\n")
	own := write("own.go", `package main

import (
	"os"
	"os/signal"
	prof "runtime/pprof"
)

func start(f *os.File) {
	_ = signal.Ignored
	prof.StartCPUProfile(f)
}
`)
	pkgProfile := write("pkg.go", `package main

import "github.com/pkg/profile"

func init() {
	defer profile.Start().Stop()
}
`)
	for _, tc := range []struct {
		files   []string
		own     string
		signals bool
	}{
		{[]string{plain}, "", false},
		{[]string{plain, own}, "own.go:11", true},
		{[]string{pkgProfile}, "pkg.go:6", false},
	} {
		s, err := Inspect(tc.files)
		if err != nil {
			t.Fatal(err)
		}
		if s.OwnCPUProfile != tc.own || s.Signals != tc.signals {
			t.Errorf("Inspect(%v) = %+v, want own %q, signals %v", tc.files, s, tc.own, tc.signals)
		}
	}
}

func TestWrapperSignals(t *testing.T) {
	for _, on := range []bool{false, true} {
		src := string(Wrapper(WrapperOptions{Signals: on}))
		want := "const perfloopCatchSignals = false"
		if on {
			want = "const perfloopCatchSignals = true"
		}
		if !strings.Contains(src, want) {
			t.Errorf("Wrapper(Signals: %v) lacks %q", on, want)
		}
	}
}
