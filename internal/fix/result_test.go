package fix

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// TestAnnotate: each root cause gets what fix tried at it, matched by
// the cause's file and line — a kept patch with its best significant
// gain (sec/op first) and its file under the -from-fix directory, a
// rejected candidate with its reason — and a finding fix tried nothing
// at gets nothing; nor does one a later round's cause names.
func TestAnnotate(t *testing.T) {
	parse := document.FixCause{File: "parse.go", Line: 12}
	res := &document.Fix{Schema: document.FixSchema,
		Kept: []document.FixKept{{File: "parse.go", Line: 14, Rewrite: "presize", Patch: "/elsewhere/fixes/01-presize-parse-14.patch", Cause: parse,
			Benchmarks: []document.FixMeasured{
				{Name: "BenchmarkParse", Unit: "allocs/op", Delta: -0.5, Significant: true},
				{Name: "BenchmarkParse", Unit: "sec/op", Delta: -0.10, CI: [2]float64{-0.12, -0.08}, Significant: true},
				{Name: "BenchmarkParseLong", Unit: "sec/op", Delta: -0.164, CI: [2]float64{-0.19, -0.132}, Significant: true},
				{Name: "BenchmarkOther", Unit: "sec/op", Delta: -0.30, Significant: false},
			}}},
		Rejected: []document.FixRejected{
			{File: "parse.go", Line: 20, Rewrite: "strconv", Reason: "no significant change (could detect ±3.0%)", Cause: parse},
			{File: "emit.go", Line: 3, Rewrite: "builder", Reason: "tests failed: TestEmit", Cause: document.FixCause{File: "emit.go", Line: 2}},
			// Round 2's cause is a line of the tree with round 1's
			// patches made: not the commit's parse.go:12.
			{File: "parse.go", Line: 13, Rewrite: "presize", Reason: "no significant change", Cause: parse, Round: 2},
			// The report measured again names this cause by another
			// of its lines: the site is one of the finding's shapes.
			{File: "load.go", Line: 12, Rewrite: "hoist-alloc", Reason: "no significant change", Cause: document.FixCause{File: "load.go", Line: 3}},
			// Nothing of the report's holds this cause or site.
			{File: "gone.go", Line: 1, Rewrite: "builder", Reason: "no significant change", Cause: document.FixCause{File: "gone.go", Line: 1}},
		}}
	doc := &document.Report{Findings: []document.Finding{
		{File: "parse.go", Line: 12},
		{File: "parse.go", Line: 40}, // no candidate
		{File: "emit.go", Line: 2},
		{File: "load.go", Line: 9, Related: []document.Location{{File: "load.go", Line: 10}},
			Shapes: []document.ShapeRef{{Name: "make-invariant", File: "load.go", Line: 12, Rewrite: "hoist-alloc"}}},
	}}
	Annotate(doc, res, "fixes")
	want := [][]document.Tried{
		{
			{Rewrite: "presize", File: "parse.go", Line: 14, Kept: true, Patch: filepath.Join("fixes", "01-presize-parse-14.patch"),
				Gain: &document.FixMeasured{Name: "BenchmarkParseLong", Unit: "sec/op", Delta: -0.164, CI: [2]float64{-0.19, -0.132}, Significant: true}},
			{Rewrite: "strconv", File: "parse.go", Line: 20, Reason: "no significant change (could detect ±3.0%)"},
		},
		nil,
		{{Rewrite: "builder", File: "emit.go", Line: 3, Reason: "tests failed: TestEmit"}},
		{{Rewrite: "hoist-alloc", File: "load.go", Line: 12, Reason: "no significant change"}},
	}
	for i, f := range doc.Findings {
		if !reflect.DeepEqual(f.Tried, want[i]) {
			t.Errorf("%s:%d: tried %+v, want %+v", f.File, f.Line, f.Tried, want[i])
		}
	}
}

func TestReadResult(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ResultFile), []byte(`{"schema": "perfloop.fix/v1", "commit": "abc", "kept": [], "rejected": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.json")
	if err := os.WriteFile(other, []byte(`{"schema": "perfloop.report/v1"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, err string
	}{
		{dir, ""},
		{filepath.Join(dir, ResultFile), ""},
		{filepath.Join(dir, "nowhere"), "give the -out directory of perfloop fix"},
		{other, `is not a perfloop fix result (schema "perfloop.report/v1"`},
	} {
		res, err := ReadResult(tc.path)
		switch {
		case tc.err == "" && (err != nil || res.Commit != "abc"):
			t.Errorf("ReadResult(%s) = %v, %v", tc.path, res, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ReadResult(%s) error %v, want one containing %q", tc.path, err, tc.err)
		}
	}
}
