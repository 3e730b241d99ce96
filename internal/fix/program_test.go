package fix

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/document"
)

// TestMeasureProgram: fix -run keeps nothing whose program writes other
// bytes to stdout or exits otherwise than the commit's, on any run; the
// same program passes that check (whether a measure then differs is the
// statistics', at level alpha, and not asserted).
func TestMeasureProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	const base = `package main

import "fmt"

func main() {
	for i := range 50 {
		fmt.Println("line", i)
	}
}
`
	ctx := context.Background()
	tmp := t.TempDir()
	module := func(name, main string) string {
		dir := filepath.Join(tmp, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for file, text := range map[string]string{"go.mod": "module example.com/p\n\ngo 1.24\n", "main.go": main} {
			if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	opts := Options{Dir: module("base", base), Commit: "0123456789abcdef", Threshold: 0.03,
		Program: &Program{Package: ".", Variants: [][]string{nil}},
		AB:      abtest.Options{MinRounds: 2, MaxRounds: 3, Alpha: 0.05, Seed: 1}}
	if err := opts.program.build(ctx, opts, tmp); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, main, why string
	}{
		{"stdout", strings.Replace(base, `"line"`, `"line:"`, 1), "changed the program's stdout (run, run 1)"},
		{"exit", `package main

import (
	"fmt"
	"os"
)

func main() {
	for i := range 50 {
		fmt.Println("line", i)
	}
	os.Exit(3)
}
`, "changed the program's exit status (run, run 1): 3, not 0"},
		{"same", base, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &prepared{c: candidate{Edit: Edit{Kind: "bufio", File: "main.go", Line: 6}, finding: document.Finding{}},
				dir: filepath.Join(tmp, "c-"+tc.name), mod: module("cand-"+tc.name, tc.main)}
			kept, why, err := p.measureProgram(ctx, opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "same" {
				// The output check passes; what the measures then say
				// (no change, or a difference at level alpha on a busy
				// machine) is the statistics'.
				if strings.Contains(why, "changed the program's") {
					t.Errorf("why %q; the same program must pass the stdout and exit status check", why)
				}
				return
			}
			if kept != nil || why != tc.why {
				t.Errorf("kept %v, why %q; want not kept: %q", kept, why, tc.why)
			}
		})
	}
}
