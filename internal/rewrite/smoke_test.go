package rewrite

import (
	"os"
	"path/filepath"
	"testing"
)

// TestModule runs Package on every package of this module: no errors,
// and every After type-checks with the rest of its package (the
// rewrites proposed on real code compile).
func TestModule(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the whole module")
	}
	var dirs []string
	filepath.WalkDir(filepath.Join("..", ".."), func(path string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && (d.Name() == "testdata" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if err == nil && d.IsDir() {
			dirs = append(dirs, path)
		}
		return nil
	})
	n := 0
	for _, dir := range dirs {
		rs, err := pkgRewrites(dir, testLoader())
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		before := len(typeErrors(t, dir, nil)) // the module's own, if any
		for _, r := range rs {
			n++
			t.Logf("%s:%d: %s", r.File, r.Line, r.Description)
			if errs := typeErrors(t, dir, map[string][]byte{r.File: r.After}); len(errs) > before {
				t.Errorf("%s:%d: %s: After does not type-check: %v", r.File, r.Line, r.Kind, errs)
			}
		}
	}
	t.Logf("%d rewrites in %d directories", n, len(dirs))
}
