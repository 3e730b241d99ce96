package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReportInterrupted interrupts perfloop report once a benchmark has
// finished and the next one hangs: the finished benchmark is kept, in
// -out when there was no report there, and beside it when there was, so
// the earlier report stays whole. No temporary directory is left.
func TestReportInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	for _, earlier := range []bool{false, true} {
		t.Run(map[bool]string{false: "no earlier report", true: "an earlier report"}[earlier], func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			writeFiles(t, map[string]string{
				"go.mod": "module example.com/ri\n\ngo 1.24\n",
				"ri_test.go": `package ri

import (
	"testing"
	"time"
)

var sink int

func BenchmarkA(b *testing.B) {
	for b.Loop() {
		sink++
	}
}

func BenchmarkHangs(b *testing.B) { time.Sleep(time.Hour) }
`,
			})
			if earlier {
				writeFiles(t, map[string]string{"rep/report.md": "the earlier report\n", "rep/bench.txt": "BenchmarkOld-2 1 1 ns/op\n",
					"rep/profiles/BenchmarkOld.cpu.pprof": "old"})
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var stderr syncBuffer
			done := make(chan error, 1)
			go func() {
				done <- runReport(ctx, []string{"-count", "1", "-benchtime", "10ms", "-profiletime", "20ms", "-out", "rep", "."}, Streams{Out: &bytes.Buffer{}, Err: &stderr})
			}()
			// Wait for BenchmarkA's result, wherever it is written, then
			// interrupt.
			for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
				if anyFileHolds(t, ".", "BenchmarkA-") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("BenchmarkA did not finish:\n%s", stderr.String())
				}
			}
			cancel()
			if err := <-done; ExitCode(err) != ExitInterrupted {
				t.Fatalf("report returned %v (exit %d), want an interruption", err, ExitCode(err))
			}
			kept := "rep/bench.txt"
			if earlier {
				kept = "rep.interrupted/bench.txt"
				if data, _ := os.ReadFile("rep/report.md"); string(data) != "the earlier report\n" {
					t.Errorf("rep/report.md is %q, want the earlier report", data)
				}
				if data, _ := os.ReadFile("rep/bench.txt"); string(data) != "BenchmarkOld-2 1 1 ns/op\n" {
					t.Errorf("rep/bench.txt is %q, want the earlier report's", data)
				}
				if _, err := os.Stat("rep/profiles/BenchmarkOld.cpu.pprof"); err != nil {
					t.Errorf("the earlier report's profile: %v", err)
				}
			}
			if data, err := os.ReadFile(kept); err != nil || !strings.Contains(string(data), "BenchmarkA-") {
				t.Errorf("%s: %v\n%s", kept, err, data)
			}
			if !strings.Contains(stderr.String(), "the benchmarks that finished are in "+kept) {
				t.Errorf("stderr does not say where the finished benchmarks are:\n%s", stderr.String())
			}
			if left, _ := filepath.Glob(".rep.tmp-*"); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// anyFileHolds reports whether a file under dir holds text.
func anyFileHolds(t *testing.T, dir, text string) bool {
	found := false
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !found {
			data, _ := os.ReadFile(path)
			found = strings.Contains(string(data), text)
		}
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
