package site_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/perfloop/perfloop/internal/site"
)

// TestFixerShapes: the analyzers fix takes candidates from run beside the
// matchers, and a shape whose diagnostic carries an edit names the
// analyzer that makes it as its rewrite.
func TestFixerShapes(t *testing.T) {
	prog, err := site.Load(context.Background(), site.Config{Dir: "testdata/fixers"})
	if err != nil {
		t.Fatal(err)
	}
	shapes, err := prog.Shapes(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range shapes {
		if s.Rewrite != "" {
			got = append(got, fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Rewrite))
		}
	}
	for _, want := range []string{
		"fixers.go:14 builder",
		"fixers.go:21 perfsprint",
		"fixers.go:26 fmtappendf",
		"fixers.go:32 stringsseq",
		"fixers.go:40 slicessort",
		"fixers.go:46 minmax",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no shape %q among the shapes with a rewrite:\n%q", want, got)
		}
	}
	// A fixer whose fix says what its diagnostic says shows its edit:
	// the code before and after.
	for _, s := range shapes {
		if s.Rewrite == "fmtappendf" && s.Advice != `[]byte(fmt.Sprintf("n=%d", n)) → fmt.Appendf(nil, "n=%d", n)` {
			t.Errorf("fmtappendf at %s:%d advises %q, want its edit", s.File, s.Line, s.Advice)
		}
	}
	// Of two rewrites that make one edit, one is kept (docs/fix.md):
	// strconv for integers and strings, perfsprint for the rest.
	if !slices.Contains(got, "fixers.go:54 strconv") || slices.Contains(got, "fixers.go:54 perfsprint") {
		t.Errorf("at fixers.go:54 want strconv alone among the shapes with a rewrite:\n%q", got)
	}
	// builder, which measured better than modernize's stringsbuilder.
	if a := site.Fixer("stringsbuilder"); a != nil {
		t.Errorf("Fixer(%q) = %v, want none: builder makes its edit", "stringsbuilder", a)
	}
	for _, name := range []string{"presize", "hoist-const", "builder", "perfsprint", "grow", "sortfunc", "regexp-once", "outside-lock"} {
		if a := site.Fixer(name); a == nil || site.RewriteOf(a) != name {
			t.Errorf("Fixer(%q) = %v", name, a)
		}
	}
}

// TestOwnWorkShapes: the shapes whose line is their function's own work
// on what it is given (a call on its inputs, a result computed from
// inputs that hardly recur) say so in a field, not in their name; a
// result computed from a scalar, which may recur, does not.
func TestOwnWorkShapes(t *testing.T) {
	prog, err := site.Load(context.Background(), site.Config{Dir: "testdata/ownwork"})
	if err != nil {
		t.Fatal(err)
	}
	shapes, err := prog.Shapes([]*analysis.Analyzer{site.CallInputs, site.Result}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, s := range shapes {
		got[fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Name)] = s.OwnWork
	}
	for k, want := range map[string]bool{
		"ownwork.go:11 call-on-inputs":  true,
		"ownwork.go:14 result-computed": false,
		"ownwork.go:17 result-computed": true,
		"ownwork.go:20 input-converted": false,
		"ownwork.go:24 input-converted": true,
	} {
		if own, ok := got[k]; !ok || own != want {
			t.Errorf("%s: own work %v (found %v), want %v; shapes: %v", k, own, ok, want, got)
		}
	}
}

// TestPanickingMatcher: a matcher that panics on code it did not expect
// (go/types asserts on the size of a type parameter) loses its own
// shapes; the others' stay, and Shapes returns.
func TestPanickingMatcher(t *testing.T) {
	prog, err := site.Load(context.Background(), site.Config{Dir: "testdata/ownwork"})
	if err != nil {
		t.Fatal(err)
	}
	panics := &analysis.Analyzer{Name: "panics", Doc: "panics", Run: func(*analysis.Pass) (any, error) { panic("assertion failed") }}
	shapes, err := prog.Shapes([]*analysis.Analyzer{panics, site.CallInputs}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(shapes) == 0 {
		t.Error("no shapes: the other matcher's were lost with the one that panicked")
	}
}

// TestBenchmarkShapes: the shapes whose site is a benchmark's own code
// are kept from _test.go files, where every other shape is left out.
func TestBenchmarkShapes(t *testing.T) {
	prog, err := site.Load(context.Background(), site.Config{Dir: "testdata/benchshapes"})
	if err != nil {
		t.Fatal(err)
	}
	shapes, err := prog.Shapes([]*analysis.Analyzer{site.FilePerOp}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range shapes {
		if s.Name == "file-per-op" && s.File == "b_test.go" && s.Line == 11 {
			return
		}
	}
	t.Errorf("shapes %v: want file-per-op at b_test.go:11", shapes)
}

// TestSetupOnlyShapes: the functions only a constructor reaches, whose
// value the benchmarks use in their loops, are setup-only shapes (seen
// with the package's own benchmarks); a function a method of the value
// calls too is not, nor is the constructor.
func TestSetupOnlyShapes(t *testing.T) {
	prog, err := site.Load(context.Background(), site.Config{Dir: "testdata/setuponly"})
	if err != nil {
		t.Fatal(err)
	}
	shapes, err := prog.Shapes([]*analysis.Analyzer{site.SetupOnly}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range shapes {
		if s.Name == "setup-only" {
			got = append(got, fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Says))
		}
	}
	want := []string{
		"p.go:17 lex runs only under Compile, which makes the Pattern the benchmarks then use in their loops (Match at p_test.go:14), and no method of Pattern calls it: it is paid once per Pattern made, not per use",
		"p.go:19 parse runs only under Compile, which makes the Pattern the benchmarks then use in their loops (Match at p_test.go:14), and no method of Pattern calls it: it is paid once per Pattern made, not per use",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("setup-only shapes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
