package lint_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/lint"
	"github.com/perfloop/perfloop/internal/site"
)

// TestRunCancelledLeavesNoWorkDir cancels the package loading (go list
// -compiled, which runs cgo) while it runs, and before it starts: the go
// command's go-build… work directory, which it does not remove when it is
// interrupted, must not be left in TMPDIR (a Ctrl-C in perfloop report's
// first half second left one: report lints in the background, and the
// loader starts the go command even when the context is done). Run
// cancelled before it starts runs no go command.
func TestRunCancelledLeavesNoWorkDir(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages from an empty build cache")
	}
	if runtime.GOOS == "windows" {
		t.Skip("needs Unix signals")
	}
	for _, early := range []bool{false, true} {
		t.Run(map[bool]string{false: "while loading", true: "before loading"}[early], func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			t.Setenv("GOTMPDIR", "")
			// An empty build cache makes go list run cgo long enough
			// to be cancelled in the middle.
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
			if early {
				cancel()
			}
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
			_, _, err := lint.Run(ctx, lint.Options{Dir: mod}, nil, "./...")
			switch {
			case early && !errors.Is(err, context.Canceled):
				t.Errorf("Run after the cancel = %v, want context.Canceled before any go command starts", err)
			case err == nil:
				t.Log("the packages loaded before the cancel")
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
		})
	}
}

// TestRunProgramFactsFromDependencies analyzes a program loaded without
// its dependencies' syntax: discard's finding at a function whose only
// call is into the standard library's assembly (strings.IndexByte, which
// the compiler cannot delete) needs the facts, so RunProgram loads them
// and the finding goes; the one at a pure function stays.
func TestRunProgramFactsFromDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the standard library from source")
	}
	mod := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/facts\n\ngo 1.24\n",
		"f.go": `package facts

import "strings"

// Find calls assembly.
func Find(s string) int { return strings.IndexByte(s, 'x') }

// Add is pure.
func Add(a, b int) int { return a + b }
`,
		"f_test.go": `package facts

import "testing"

func BenchmarkFind(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Find("abcx")
	}
}

func BenchmarkAdd(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Add(i, 1)
	}
}
`,
	} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	prog, err := site.Load(ctx, site.Config{Dir: mod}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if prog.Facts() {
		t.Fatal("loaded with the dependencies' syntax; want export data")
	}
	diags, err := lint.RunProgram(ctx, prog, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.Analyzer+" "+d.Benchmark)
	}
	if want := []string{"discard BenchmarkAdd"}; !slices.Equal(got, want) {
		t.Errorf("RunProgram = %q, want %q", got, want)
	}
}
