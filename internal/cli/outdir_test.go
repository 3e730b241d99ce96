package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInterruptedKeepsEarlierOutput interrupts perfloop report, profile
// and trace once a benchmark has finished and the next one hangs: what
// finished is kept, in the output directory when it held nothing, and
// beside it (DIR.interrupted) when it held an earlier output, which stays
// whole. No temporary directory is left.
func TestInterruptedKeepsEarlierOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	for _, tc := range []struct {
		command string
		run     func(context.Context, []string, Streams) error
		args    []string
		// earlier is an earlier output; finished the file that shows
		// BenchmarkA finished, and what the message calls the files.
		earlier        map[string]string
		finished, what string
	}{
		{"report", runReport, []string{"-count", "1", "-benchtime", "10ms", "-profiletime", "20ms", "-out", "out", "."},
			map[string]string{"out/report.md": "the earlier report\n", "out/bench.txt": "BenchmarkOld-2 1 1 ns/op\n", "out/profiles/BenchmarkOld.cpu.pprof": "old"},
			"bench.txt", "benchmarks"},
		{"profile", runProfile, []string{"-benchtime", "10ms", "-out", "out", "."},
			map[string]string{"out/BenchmarkOld.cpu.pprof": "old", "out/BenchmarkA.mem.pprof": "old"},
			"BenchmarkA.mem.pprof", "profiles"},
		{"trace", runTrace, []string{"-tracetime", "100x", "-o", "out", "."},
			map[string]string{"out/BenchmarkOld.trace": "old", "out/BenchmarkA.trace": "old"},
			"BenchmarkA.trace", "traces"},
	} {
		for _, earlier := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/earlier=%v", tc.command, earlier), func(t *testing.T) {
				t.Chdir(t.TempDir())
				writeFiles(t, map[string]string{
					"go.mod": "module example.com/ri\n\ngo 1.24\n",
					"ri_test.go": `package ri

import (
	"testing"
	"time"
)

var sink []byte

func BenchmarkA(b *testing.B) {
	for b.Loop() {
		sink = make([]byte, 64)
	}
}

func BenchmarkHangs(b *testing.B) { time.Sleep(time.Hour) }
`,
				})
				if earlier {
					writeFiles(t, tc.earlier)
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var stderr syncBuffer
				done := make(chan error, 1)
				go func() { done <- tc.run(ctx, tc.args, Streams{Out: &bytes.Buffer{}, Err: &stderr}) }()
				// Wait for BenchmarkA to finish, wherever its file is
				// written, then interrupt.
				for deadline := time.Now().Add(2 * time.Minute); !finished(t, tc.finished); time.Sleep(50 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("BenchmarkA did not finish:\n%s", stderr.String())
					}
				}
				cancel()
				if err := <-done; ExitCode(err) != ExitInterrupted {
					t.Fatalf("%s returned %v (exit %d), want an interruption", tc.command, err, ExitCode(err))
				}
				kept := "out"
				if earlier {
					kept = "out.interrupted"
					for name, data := range tc.earlier {
						if got, _ := os.ReadFile(name); string(got) != data {
							t.Errorf("%s is %q, want the earlier output's %q", name, got, data)
						}
					}
				}
				if _, err := os.Stat(filepath.Join(kept, tc.finished)); err != nil {
					t.Errorf("what finished is not kept: %v", err)
				}
				if want := fmt.Sprintf("the %s that finished are in %s", tc.what, kept); !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr does not say %q:\n%s", want, stderr.String())
				}
				if left, _ := filepath.Glob(".out.tmp-*"); len(left) > 0 {
					t.Errorf("left behind: %v", left)
				}
			})
		}
	}
}

// finished reports whether a file named name that is not an earlier
// output's ("old") exists under the current directory, and for
// bench.txt, whether it holds BenchmarkA's result.
func finished(t *testing.T, name string) bool {
	found := false
	filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || found || !strings.HasPrefix(filepath.Base(path), strings.TrimSuffix(name, ".txt")) {
			return nil
		}
		data, _ := os.ReadFile(path)
		found = string(data) != "old" && (name != "bench.txt" || strings.Contains(string(data), "BenchmarkA-"))
		return nil
	})
	return found
}

// writeFiles writes files (slash-separated names) under the current
// directory.
func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.FromSlash(name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
