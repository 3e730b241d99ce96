package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// TestOutputDir checks outputDir's cases on their own: a link to a
// directory stays a link (the directory it names is replaced), the
// directory keeps its permissions, a run that wrote nothing leaves the
// earlier directory, and an interrupted run's files go beside an earlier
// output, under the temporary name when DIR.interrupted is taken.
func TestOutputDir(t *testing.T) {
	ours := func(name string, isDir bool) bool { return name != "mine.txt" }
	write := func(t *testing.T, path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			return "(" + err.Error() + ")"
		}
		return string(data)
	}

	t.Run("a link to a directory", func(t *testing.T) {
		t.Chdir(t.TempDir())
		write(t, "reports/r1/a.txt", "old")
		write(t, "reports/r1/stale.txt", "old")
		if err := os.Symlink("reports/r1", "latest"); err != nil {
			t.Skip(err)
		}
		d, err := newOutputDir("-out", "latest", ours)
		if err != nil {
			t.Fatal(err)
		}
		write(t, d.path("a.txt"), "new")
		if got := d.shown(d.path("a.txt")); got != "latest/a.txt" {
			t.Errorf("shown = %q, want latest/a.txt", got)
		}
		replaced, err := d.commit()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(replaced, []string{"a.txt"}) {
			t.Errorf("replaced %q, want [a.txt]", replaced)
		}
		if fi, err := os.Lstat("latest"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("latest is no longer a link: %v", err)
		}
		if got := read("latest/a.txt"); got != "new" {
			t.Errorf("latest/a.txt = %q", got)
		}
		if _, err := os.Stat("reports/r1/stale.txt"); err == nil {
			t.Error("the earlier output's stale.txt is still there")
		}
		if left, _ := filepath.Glob("reports/.*"); len(left) > 0 {
			t.Errorf("left behind: %v", left)
		}
	})

	t.Run("permissions kept", func(t *testing.T) {
		t.Chdir(t.TempDir())
		write(t, "out/a.txt", "old")
		if err := os.Chmod("out", 0o750); err != nil {
			t.Fatal(err)
		}
		d, err := newOutputDir("-out", "out", ours)
		if err != nil {
			t.Fatal(err)
		}
		write(t, d.path("a.txt"), "new")
		if _, err := d.commit(); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat("out"); err != nil || fi.Mode().Perm() != 0o750 {
			t.Errorf("out's mode: %v %v, want 0750", fi.Mode(), err)
		}
	})

	t.Run("nothing written", func(t *testing.T) {
		t.Chdir(t.TempDir())
		write(t, "out/a.txt", "old")
		d, err := newOutputDir("-out", "out", ours)
		if err != nil {
			t.Fatal(err)
		}
		if d.written() {
			t.Error("written before anything was")
		}
		d.discard()
		if got := read("out/a.txt"); got != "old" {
			t.Errorf("out/a.txt = %q", got)
		}
		if left, _ := filepath.Glob(".out.*"); len(left) > 0 {
			t.Errorf("left behind: %v", left)
		}
	})

	t.Run("interrupted, DIR.interrupted taken", func(t *testing.T) {
		t.Chdir(t.TempDir())
		write(t, "out/a.txt", "old")
		write(t, "out.interrupted/a.txt", "older")
		d, err := newOutputDir("-out", "out", ours)
		if err != nil {
			t.Fatal(err)
		}
		write(t, d.path("a.txt"), "partial")
		where, err := d.keepPartial()
		if err != nil {
			t.Fatal(err)
		}
		if where != d.tmp || read(filepath.Join(where, "a.txt")) != "partial" {
			t.Errorf("kept in %q (%q), want the temporary directory %q", where, read(filepath.Join(where, "a.txt")), d.tmp)
		}
		if read("out/a.txt") != "old" || read("out.interrupted/a.txt") != "older" {
			t.Errorf("an earlier output changed: %q, %q", read("out/a.txt"), read("out.interrupted/a.txt"))
		}
	})

	t.Run("other files refused", func(t *testing.T) {
		t.Chdir(t.TempDir())
		write(t, "out/mine.txt", "mine")
		if _, err := newOutputDir("-out", "out", ours); ExitCode(err) != ExitUsage {
			t.Errorf("err = %v, want a usage error", err)
		}
		if left, _ := filepath.Glob(".out.*"); len(left) > 0 {
			t.Errorf("left behind: %v", left)
		}
	})
}

// TestInterruptedFamilyKeepsFinishedRounds interrupts a report while a
// sub-benchmark family runs its rounds in one process: the sub-benchmarks
// that finished before the interruption are kept in bench.txt.
func TestInterruptedFamilyKeepsFinishedRounds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	t.Chdir(t.TempDir())
	writeFiles(t, map[string]string{
		"go.mod": "module example.com/rf\n\ngo 1.24\n",
		"rf_test.go": `package rf

import (
	"os"
	"testing"
	"time"
)

var sink []byte

func BenchmarkFam(b *testing.B) {
	b.Run("a", func(b *testing.B) {
		for b.Loop() {
			sink = make([]byte, 64)
		}
	})
	b.Run("hang", func(b *testing.B) {
		os.WriteFile("hanging", nil, 0o644)
		time.Sleep(time.Hour)
	})
}
`,
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- runReport(ctx, []string{"-count", "2", "-benchtime", "10ms", "-out", "out", "."}, Streams{Out: &bytes.Buffer{}, Err: &stderr})
	}()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat("hanging"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the family's second sub-benchmark did not start:\n%s", stderr.String())
		}
	}
	cancel()
	if err := <-done; ExitCode(err) != ExitInterrupted {
		t.Fatalf("report returned %v (exit %d), want an interruption", err, ExitCode(err))
	}
	data, err := os.ReadFile(filepath.Join("out", "bench.txt"))
	if err != nil {
		t.Fatalf("what finished is not kept: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(string(data), "BenchmarkFam/a-") {
		t.Errorf("bench.txt does not hold the finished sub-benchmark:\n%s", data)
	}
	if want := "the benchmarks that finished are in out"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr.String())
	}
}
