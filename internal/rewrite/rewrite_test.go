package rewrite

import (
	"bytes"
	"flag"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestAnalyzers runs each rewrite as an analyzer over testdata/src/KIND,
// a package loaded by the go command: the want comments are its
// specification (the sites it must report, with what the code does
// there), the code without one its traps, and FILE.golden the file with
// every suggested fix applied, imports repaired and gofmt'd (go test
// -update writes them).
func TestAnalyzers(t *testing.T) {
	for i, a := range Analyzers {
		if KindOf(a) != Kinds[i] || a.Name == "" {
			t.Errorf("analyzer %d: name %q, kind %q; want the kind %q", i, a.Name, KindOf(a), Kinds[i])
		}
	}
	for i, kind := range Kinds {
		t.Run(kind, func(t *testing.T) {
			dir := testdir(kind)
			if *update {
				writeGoldens(t, Analyzers[i], dir)
			}
			analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), Analyzers[i], dir)
		})
	}
}

// testdir is the package of testdata/src a kind's cases are in: its
// name, but for strconv and bufio, which would be the standard library's.
func testdir(kind string) string {
	switch kind {
	case "strconv":
		return "conv"
	case "bufio":
		return "bufout"
	}
	return kind
}

// writeGoldens writes FILE.golden for every file of testdata/src/DIR
// the analyzer suggests a fix in, and removes the others'.
func writeGoldens(t *testing.T, a *analysis.Analyzer, kind string) {
	t.Helper()
	results := analysistest.Run(nopT{}, analysistest.TestData(), a, kind)
	byFile := map[string][]Change{}
	seen := map[string]bool{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					tf := r.Pass.Fset.File(e.Pos)
					c := Change{Start: tf.Offset(e.Pos), End: tf.Offset(e.End), New: e.NewText}
					byFile[tf.Name()] = append(byFile[tf.Name()], c)
				}
			}
		}
	}
	old, _ := filepath.Glob(filepath.Join(analysistest.TestData(), "src", kind, "*.golden"))
	for file, changes := range byFile {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		after, err := Apply(file, src, changes)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file+".golden", after, 0o644); err != nil {
			t.Fatal(err)
		}
		seen[file+".golden"] = true
	}
	for _, g := range old {
		if abs, _ := filepath.Abs(g); !seen[g] && !seen[abs] {
			os.Remove(g)
		}
	}
}

// nopT drops analysistest's complaints while goldens are written.
type nopT struct{}

func (nopT) Errorf(string, ...any) {}

// TestMerge: changes of two candidates of one file go together unless
// they edit the same bytes; the same import added by both is made once;
// insertions at one place are made in turn.
func TestMerge(t *testing.T) {
	src := []byte("package p\n\nimport (\n\t\"fmt\"\n)\n\nfunc F() string { return fmt.Sprint(1) }\n\nfunc G() string { return fmt.Sprint(2) }\n")
	imp := Change{Start: bytes.Index(src, []byte(`"fmt"`)), New: []byte("\"strconv\"\n\t")}
	imp.End = imp.Start
	one := bytes.Index(src, []byte("fmt.Sprint(1)"))
	two := bytes.Index(src, []byte("fmt.Sprint(2)"))
	f := []Change{imp, {Start: one, End: one + len("fmt.Sprint(1)"), New: []byte("strconv.Itoa(1)")}}
	g := []Change{imp, {Start: two, End: two + len("fmt.Sprint(2)"), New: []byte("strconv.Itoa(2)")}}
	both, err := Merge(f, g)
	if err != nil || len(both) != 3 {
		t.Fatalf("Merge = %v, %v; want 3 changes", both, err)
	}
	after, err := Apply("p.go", src, both)
	if err != nil {
		t.Fatal(err)
	}
	want := "package p\n\nimport (\n\t\"strconv\"\n)\n\nfunc F() string { return strconv.Itoa(1) }\n\nfunc G() string { return strconv.Itoa(2) }\n"
	if string(after) != want {
		t.Errorf("both applied:\n%s\nwant\n%s", after, want)
	}
	// The Sprint of F alone keeps fmt, which G still uses, and imports
	// strconv even when the change does not.
	after, err = Apply("p.go", src, f[1:])
	if err != nil || !bytes.Contains(after, []byte(`"fmt"`)) || !bytes.Contains(after, []byte(`"strconv"`)) {
		t.Errorf("F alone: %v\n%s", err, after)
	}
	clash := []Change{{Start: one, End: one + 3, New: []byte("x")}}
	if _, err := Merge(f, clash); err == nil {
		t.Error("overlapping changes merged")
	}
	ins := []Change{{Start: one, End: one, New: []byte("a")}}
	ins2 := []Change{{Start: one, End: one, New: []byte("b")}}
	if m, err := Merge(ins, ins2); err != nil || len(m) != 2 || string(m[0].New) != "a" {
		t.Errorf("two insertions at one place: %v, %v", m, err)
	}
}

// std is an importer of the standard library's export data, shared by
// the fuzz targets: the go command is asked once per package.
var std = sync.OnceValue(func() types.Importer { return importer.Default() })

// check type-checks one file as a package, with the standard library.
func check(fset *token.FileSet, f *ast.File) *pkg {
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	names := map[string]bool{}
	addNames(names, f)
	conf := types.Config{Importer: std(), Error: func(error) {}}
	tp, _ := conf.Check(f.Name.Name, fset, []*ast.File{f}, info)
	return &pkg{fset: fset, files: []*ast.File{f}, info: info, types: tp, names: names}
}

// FuzzRules runs every rule on the testdata files, mutated: no panic, and
// every candidate's edits give a file that parses, is gofmt'd and, when
// the input type-checks, still type-checks.
func FuzzRules(f *testing.F) {
	files, _ := filepath.Glob("testdata/src/*/*.go")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "f.go", src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return
		}
		p := check(fset, file)
		typed := len(typeErrors(fset, file)) == 0
		u := p.unit(0, "f.go", src)
		for _, c := range u.candidates() {
			d, ok := u.diagnostic(c)
			if !ok {
				continue
			}
			var changes []Change
			for _, e := range d.SuggestedFixes[0].TextEdits {
				changes = append(changes, Change{Start: u.off(e.Pos), End: u.off(e.End), New: e.NewText})
			}
			after, err := Apply("f.go", src, changes)
			if err != nil {
				t.Fatalf("%s at %d: %v", c.kind, c.line, err)
			}
			if formatted, err := format.Source(after); err != nil || !bytes.Equal(formatted, after) {
				t.Fatalf("%s at %d: not gofmt'd", c.kind, c.line)
			}
			if !typed {
				continue
			}
			gset := token.NewFileSet()
			g, err := parser.ParseFile(gset, "f.go", after, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatalf("%s at %d: %v", c.kind, c.line, err)
			}
			if errs := typeErrors(gset, g); len(errs) > 0 {
				t.Fatalf("%s at %d: the rewrite does not type-check: %v\n%s", c.kind, c.line, errs, after)
			}
		}
	})
}

// typeErrors type-checks one file as a package.
func typeErrors(fset *token.FileSet, f *ast.File) []error {
	var errs []error
	conf := types.Config{Importer: std(), Error: func(err error) { errs = append(errs, err) }}
	conf.Check(f.Name.Name, fset, []*ast.File{f}, nil)
	return errs
}

func TestLowerFirst(t *testing.T) {
	for in, want := range map[string]string{"Parse": "parse", "URLPath": "urlPath", "ID": "id", "x": "x", "HTTP2": "http2"} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCompareGo: versions compare by their numbers.
func TestCompareGo(t *testing.T) {
	vs := []string{"go1.9", "go1.21", "go1.21.3", "go1.24"}
	if !slices.IsSortedFunc(vs, compareGo) {
		t.Errorf("%v not in order", vs)
	}
}

// TestRelatedCost: a Grow edits only the line before the loop, but the
// cost it removes is charged to the writes in the loop; fix takes a
// candidate at a root cause's lines, so the diagnostic names them.
func TestRelatedCost(t *testing.T) {
	grow := Analyzers[slices.Index(Kinds, "grow")]
	results := analysistest.Run(t, analysistest.TestData(), grow, "grow")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if r.Pass.Fset.Position(d.Pos).Line != 13 {
				continue
			}
			var lines []int
			for _, rel := range d.Related {
				lines = append(lines, r.Pass.Fset.Position(rel.Pos).Line)
			}
			if !slices.Contains(lines, 20) || !slices.Contains(lines, 16) {
				t.Errorf("Escape's Grow: related lines %v, want the writes at 16 and 20", lines)
			}
			return
		}
	}
	t.Fatal("no diagnostic at grow.go:13")
}
