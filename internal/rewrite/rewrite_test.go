package rewrite

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// testLoader is shared by the tests: the go command is asked for each
// import's export data once.
var testLoader = sync.OnceValue(newLoader)

// A mark is a `// want rewrite: KIND` or `// want no rewrite` comment.
type mark struct {
	file string
	line int
	kind string // "" for no rewrite
}

var markRE = regexp.MustCompile(`// want (?:rewrite: ([a-z-]+)|(no rewrite))`)

// marks reads the marks of every Go file of dir.
func marks(t *testing.T, dir string) []mark {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []mark
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := markRE.FindStringSubmatch(line); m != nil {
				out = append(out, mark{file: file, line: i + 1, kind: m[1]})
			}
		}
	}
	return out
}

// TestGolden runs At on every marked line of testdata/KIND/*.go: a
// `want rewrite: KIND` line must give exactly that rewrite, whose After
// is FILE.golden, gofmt'd, and type-checks with the rest of the package;
// a `want no rewrite` line must give none. Package on the directory must
// find exactly the marked rewrites.
func TestGolden(t *testing.T) {
	for _, kind := range Kinds {
		dir := filepath.Join("testdata", kind)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		t.Run(kind, func(t *testing.T) {
			if errs := typeErrors(t, dir, nil); len(errs) > 0 {
				t.Fatalf("the input does not type-check: %v", errs)
			}
			ms := marks(t, dir)
			positive := map[string]int{}
			for _, m := range ms {
				if m.kind != "" {
					positive[m.file]++
					if m.kind != kind {
						t.Errorf("%s:%d: a %s mark in testdata/%s", m.file, m.line, m.kind, kind)
					}
				}
			}
			for file, n := range positive {
				if n > 1 {
					t.Errorf("%s: %d rewrites marked, at most one per file (its golden)", file, n)
				}
			}
			for _, m := range ms {
				checkMark(t, dir, m)
			}
			goldens, _ := filepath.Glob(filepath.Join(dir, "*.golden"))
			for _, g := range goldens {
				if positive[strings.TrimSuffix(g, ".golden")] == 0 {
					t.Errorf("%s: no marked rewrite in its file", g)
				}
			}

			rs, err := pkgRewrites(dir, testLoader())
			if err != nil {
				t.Fatal(err)
			}
			var got, want []string
			for _, r := range rs {
				got = append(got, fmt.Sprintf("%s:%d: %s", r.File, r.Line, r.Kind))
			}
			for _, m := range ms {
				if m.kind != "" {
					want = append(want, fmt.Sprintf("%s:%d: %s", m.file, m.line, m.kind))
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("Package(%s):\n got %q\nwant %q", dir, got, want)
			}
		})
	}
}

func checkMark(t *testing.T, dir string, m mark) {
	t.Helper()
	src, err := os.ReadFile(m.file)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := at(m.file, src, m.line, testLoader())
	if err != nil {
		t.Errorf("%s:%d: %v", m.file, m.line, err)
		return
	}
	if m.kind == "" {
		for _, r := range rs {
			t.Errorf("%s:%d: want no rewrite, got %s: %s", m.file, m.line, r.Kind, r.Description)
		}
		return
	}
	var found []Rewrite
	for _, r := range rs {
		if r.Kind == m.kind {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		t.Errorf("%s:%d: want one %s rewrite, got %d", m.file, m.line, m.kind, len(found))
		return
	}
	r := found[0]
	if r.Review != (r.Kind == "field") {
		t.Errorf("%s:%d: Review = %v", m.file, m.line, r.Review)
	}
	if r.Line != m.line || r.File != m.file || !bytes.Equal(r.Before, src) || r.Description == "" {
		t.Errorf("%s:%d: rewrite at %s:%d, description %q", m.file, m.line, r.File, r.Line, r.Description)
	}
	if formatted, err := format.Source(r.After); err != nil || !bytes.Equal(formatted, r.After) {
		t.Errorf("%s:%d: After is not gofmt'd (%v)", m.file, m.line, err)
	}
	if errs := typeErrors(t, dir, map[string][]byte{m.file: r.After}); len(errs) > 0 {
		t.Errorf("%s:%d: After does not type-check: %v\n%s", m.file, m.line, errs, r.After)
	}
	golden := m.file + ".golden"
	if *update {
		if err := os.WriteFile(golden, r.After, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(r.After, want) {
		t.Errorf("%s:%d: After differs from %s:\n%s", m.file, m.line, golden, r.After)
	}
	t.Logf("%s:%d: %s", m.file, m.line, r.Description)
}

// typeErrors type-checks the package in dir, with the files in replace
// standing for their contents.
func typeErrors(t *testing.T, dir string, replace map[string][]byte) []error {
	t.Helper()
	names, err := goFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		path := filepath.Join(dir, name)
		src, ok := replace[path]
		if !ok {
			if src, err = os.ReadFile(path); err != nil {
				t.Fatal(err)
			}
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return []error{err}
		}
		files = append(files, f)
	}
	return testLoader().check(fset, dir, files, map[string]bool{}).errs
}

// TestAtOtherLines: At proposes nothing on a line that no rewrite
// touches (the package and import clauses, a comment).
func TestAtOtherLines(t *testing.T) {
	path := filepath.Join("testdata", "presize", "slice.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []int{0, 1, 3, 5, 8, 9, 1000} {
		rs, err := at(path, src, line, testLoader())
		if err != nil || len(rs) != 0 {
			t.Errorf("line %d: %d rewrites, %v", line, len(rs), err)
		}
	}
	// The declaration's line proposes the same rewrite as the append's.
	rs, err := at(path, src, 10, testLoader())
	if err != nil || len(rs) != 1 || rs[0].Line != 13 || !slices.Equal(rs[0].Lines, []int{10, 13}) {
		t.Errorf("declaration line: %+v, %v", rs, err)
	}
}

func TestAtUnparsable(t *testing.T) {
	_, err := At("x.go", []byte("package x\nfunc {"), 2)
	if err == nil || !strings.Contains(err.Error(), "x.go") {
		t.Errorf("err = %v, want a parse error naming the file", err)
	}
}

func TestLowerFirst(t *testing.T) {
	for in, want := range map[string]string{"Parse": "parse", "URLPath": "urlPath", "ID": "id", "x": "x", "HTTP2": "http2"} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzAt runs At on the testdata files, mutated, at any line: it must
// not panic, return an error only for source that does not parse, and
// every After must parse and be gofmt'd.
func FuzzAt(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.go")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, "// want") {
				f.Add(src, i+1)
			}
		}
	}
	// Resolve the imports the seeds use once, then never call the go
	// command again: mutated import paths stay unresolved.
	ld := newLoader()
	ld.list(filepath.Join("testdata", "fuzzsrc"), []string{"bytes", "fmt", "html/template", "io", "regexp", "strconv", "strings", "text/template", "time", "encoding/binary", "unicode/utf8"})
	ld.offline = true
	f.Fuzz(func(t *testing.T, src []byte, line int) {
		path := filepath.Join("testdata", "fuzzsrc", "f.go") // no such directory: no other files
		rs, err := at(path, src, line, ld)
		if err != nil {
			if _, perr := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution); perr == nil {
				t.Fatalf("source parses but At fails: %v", err)
			}
			return
		}
		for _, r := range rs {
			if _, err := parser.ParseFile(token.NewFileSet(), path, r.After, parser.ParseComments); err != nil {
				t.Fatalf("%s at %d: After does not parse: %v\n%s", r.Kind, r.Line, err, r.After)
			}
			if formatted, err := format.Source(r.After); err != nil || !bytes.Equal(formatted, r.After) {
				t.Fatalf("%s at %d: After not gofmt'd", r.Kind, r.Line)
			}
		}
	})
}
