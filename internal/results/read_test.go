package results

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

func write(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadMalformedLineNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "old.txt", "goos: linux\nBenchmarkA-2 100 10 ns/op\nBenchmarkB-2 x 10 ns/op\nBenchmarkC-2 100 12 ns/op\n")
	f, err := Read([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Results) != 2 {
		t.Errorf("read %d results, want the 2 well-formed ones", len(f.Results))
	}
	if len(f.Errors) != 1 || !strings.Contains(f.Errors[0].Error(), "old.txt:3:") {
		t.Errorf("errors = %v, want one naming old.txt:3", f.Errors)
	}
}

func TestReadMissingFile(t *testing.T) {
	_, err := Read([]string{filepath.Join(t.TempDir(), "nope.txt")})
	if err == nil || !strings.Contains(err.Error(), "nope.txt") {
		t.Fatalf("err = %v, want one naming nope.txt", err)
	}
}

func TestReadLabels(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "a.txt", "BenchmarkA 1 1 ns/op\n")
	f, err := Read([]string{"before=" + p})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Results[0].GetConfig(".file"); got != "before" {
		t.Errorf(".file = %q, want before", got)
	}
}

// TestWriteRoundTrip checks that what Writer writes reads back identically,
// that failures are invisible to benchfmt readers, and that the trailer
// configures no result (so benchstat does not split tables by date).
func TestWriteRoundTrip(t *testing.T) {
	in := "goos: linux\npkg: example.com/m\nBenchmarkA-2 100 10 ns/op 5 B/op 1 allocs/op\nBenchmarkA-2 100 11 ns/op 5 B/op 1 allocs/op\n"
	var buf bytes.Buffer
	w := NewWriter(&buf)
	r := benchfmt.NewReader(strings.NewReader(in), "in")
	for r.Scan() {
		if err := w.Result(r.Result().(*benchfmt.Result)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Failure(&Benchmark{Name: "BenchmarkB", Status: StatusFailed, Error: "panic: boom\nmore"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Trailer(Env{GoVersion: "go1.26.8", Commit: "abc", Dirty: true, Date: "2026-11-21T00:00:00Z", Perfloop: "v0"}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"--- FAIL: BenchmarkB (failed): panic: boom …\n", "commit: abc-dirty\n", "date: 2026-11-21T00:00:00Z\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	rr := benchfmt.NewReader(strings.NewReader(out), "out")
	n := 0
	for rr.Scan() {
		res, ok := rr.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("unexpected record %v", rr.Result())
		}
		n++
		if res.GetConfig("date") != "" || res.GetConfig("commit") != "" {
			t.Errorf("result %s carries trailer metadata", res.Name)
		}
		if res.GetConfig("pkg") != "example.com/m" {
			t.Errorf("result %s lost its pkg", res.Name)
		}
	}
	if n != 2 {
		t.Errorf("read back %d results, want 2", n)
	}
}

// FuzzRead feeds arbitrary bytes to the result reader: it must return
// results and errors, never panic.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"../stats/testdata/old.txt", "../../internal/report/testdata/throughput-old.txt"} {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("BenchmarkX 1 NaN ns/op\nUnit x/op better=higher assume=exact\nBenchmarkX 0 1 x/op\n"))
	f.Add([]byte("key: value\nBenchmark\nBenchmarkA-2 9999999999999999999999 1 ns/op\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "in.txt")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := Read([]string{p})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range file.Errors {
			if !strings.Contains(e.Error(), "in.txt:") {
				t.Errorf("error %q does not name the file and line", e)
			}
		}
	})
}
