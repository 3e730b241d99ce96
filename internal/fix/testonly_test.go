package fix

import (
	"context"
	"path/filepath"
	"testing"
)

// TestPrepareTestOnlyImporter: a package of the module with only test
// files (an external test package that imports the edited one) is
// tested, not built: `go build` of it fails with "no non-test Go files",
// which rejected every candidate of such a module as "build failed".
func TestPrepareTestOnlyImporter(t *testing.T) {
	repo, commit := gitRepo(t, map[string]string{
		"go.mod": "module example.com/g\n\ngo 1.24\n",
		"g.go": `package g

// Map maps ts through f.
func Map(ts []int, f func(int) int) []int {
	var out []int
	for _, x := range ts {
		out = append(out, f(x))
	}
	return out
}
`,
		"internal/use/use_test.go": `package use_test

import (
	"testing"

	"example.com/g"
)

func TestMap(t *testing.T) {
	if got := g.Map([]int{1, 2}, func(x int) int { return x * 2 }); len(got) != 2 || got[1] != 4 {
		t.Fatal(got)
	}
}
`,
	})
	after := []byte(`package g

// Map maps ts through f.
func Map(ts []int, f func(int) int) []int {
	out := make([]int, 0, len(ts))
	for _, x := range ts {
		out = append(out, f(x))
	}
	return out
}
`)
	opts := Options{Repo: repo, Commit: commit}
	c := candidate{Edit: Edit{Kind: "presize", File: "g.go", Line: 6, After: after}}
	p := prepare(context.Background(), opts, testFailures{}, c, filepath.Join(t.TempDir(), "c0"))
	defer p.close()
	if p.err != nil || p.why != "" {
		t.Fatalf("prepare: err %v, rejected %q; want the candidate built, vetted and tested", p.err, p.why)
	}
	want := []string{"example.com/g", "example.com/g/internal/use"}
	if len(p.pkgs) != 2 || p.pkgs[0] != want[0] || p.pkgs[1] != want[1] {
		t.Errorf("packages tested %q, want %q", p.pkgs, want)
	}
}
