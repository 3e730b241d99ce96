package gotest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestBuildCancelledLeavesNoWorkDir cancels "go test -c" while it builds:
// the go command's go-build… work directory, which it does not remove when
// it is interrupted or killed mid-build, must not be left in TMPDIR.
func TestBuildCancelledLeavesNoWorkDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs Unix signals")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("GOTMPDIR", "")
	// An empty build cache makes the build long enough to be cancelled
	// in the middle.
	t.Setenv("GOCACHE", t.TempDir())
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOTOOLCHAIN", "local")
	mod := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":    "module example.com/slow\n\ngo 1.24\n",
		"a_test.go": "package slow\n\nimport (\n\t\"net/http\"\n\t\"testing\"\n)\n\nfunc BenchmarkA(b *testing.B) { _ = http.DefaultClient }\n",
	} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancel once the go command has made its work directory.
		for ctx.Err() == nil {
			direct, _ := filepath.Glob(filepath.Join(tmp, "go-build*"))
			nested, _ := filepath.Glob(filepath.Join(tmp, "*", "go-build*"))
			if len(direct)+len(nested) > 0 {
				time.Sleep(200 * time.Millisecond)
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	tc := &Toolchain{Dir: mod}
	_, err := tc.Build(ctx, Package{ImportPath: "example.com/slow", Dir: mod}, t.TempDir())
	if err == nil {
		t.Log("the build finished before the cancel")
	} else if !errors.Is(err, context.Canceled) {
		t.Errorf("Build = %v, want context.Canceled", err)
	}
	var left []string
	filepath.WalkDir(tmp, func(path string, d os.DirEntry, err error) error {
		if d != nil && d.IsDir() && path != tmp {
			left = append(left, strings.TrimPrefix(path, tmp))
			return filepath.SkipDir
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}
