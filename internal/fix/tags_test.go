package fix

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// writeModule writes files (name → contents) into a new directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCandidatesHonourTags: a root cause in a file only the run's build
// tags select gets its candidates, read with those tags (the file was
// left out, and so was every candidate in it).
func TestCandidatesHonourTags(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/tagged\n\ngo 1.24\n",
		"fast.go": `//go:build fast

package tagged

// Keys is what -tags fast builds.
func Keys(m map[string]int) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
`,
		"slow.go": `//go:build !fast

package tagged

// Keys is what the default build builds.
func Keys(m map[string]int) []string { return nil }
`,
	})
	doc := &document.Report{Findings: []document.Finding{
		{Section: "fix", Kind: "alloc", File: "fast.go", Line: 9, Function: "example.com/tagged.Keys"},
	}}
	opts := Options{Dir: dir, Doc: doc, Tags: "fast"}
	all, callees, err := fixes(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	cands, rej := candidates(opts, all, callees)
	if len(cands) != 1 || cands[0].Kind != "presize" || cands[0].Line != 9 || len(rej) != 0 {
		t.Fatalf("candidates %+v, rejected %+v; want presize at fast.go:9", cands, rej)
	}
}
