package results

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	for _, name := range []string{"../stats/testdata/old.txt", "../../internal/render/testdata/throughput-old.txt"} {
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

// TestReadLongLines checks that a line too long for benchfmt's reader is
// skipped and named with its own line number, and that the lines after it
// are still read.
func TestReadLongLines(t *testing.T) {
	dir := t.TempDir()
	fits := "BenchmarkFits/" + strings.Repeat("x", MaxLine-len("BenchmarkFits/ 1 1 ns/op")) + " 1 1 ns/op"
	if len(fits) != MaxLine {
		t.Fatalf("fits is %d bytes", len(fits))
	}
	text := "BenchmarkA 1 1 ns/op\n" +
		strings.Repeat("j", MaxLine+1) + "\n" +
		fits + "\n" +
		strings.Repeat("k", 5*MaxLine) + "\r\n" +
		"BenchmarkB 1 2 ns/op\n" +
		"BenchmarkC x 1 ns/op\n" +
		strings.Repeat("z", 2*MaxLine)
	p := write(t, dir, "long.txt", text)
	f, err := Read([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range f.Results {
		names = append(names, strings.TrimRight(r.Name.String(), "x"))
	}
	if strings.Join(names, " ") != "A Fits/ B" {
		t.Errorf("results %v, want A Fits/x… B", names)
	}
	var lines []string
	for _, e := range f.Errors {
		_, line := e.(*benchfmt.SyntaxError).Pos()
		lines = append(lines, fmt.Sprint(line))
	}
	if got := strings.Join(lines, " "); got != "2 4 6 7" {
		t.Errorf("errors on lines %s, want 2 4 6 7: %v", got, f.Errors)
	}
	if !strings.Contains(f.Errors[0].Error(), "long.txt:2: line longer than 65535 bytes skipped") {
		t.Errorf("error %q", f.Errors[0])
	}
}

func TestReadInputs(t *testing.T) {
	dir := t.TempDir()
	good := write(t, dir, "good.txt", "BenchmarkA 1 1 ns/op\n")
	empty := write(t, dir, "empty.txt", "nothing to see here\n")
	garbage := write(t, dir, "garbage.bin", string([]byte{0, 1, 2, 0xff, '\n', 0x7f}))
	other := write(t, dir, "other.txt", "BenchmarkA 1 2 ns/op\n")
	tests := []struct {
		args   []string
		labels []string
		empty  []string
		err    string
	}{
		{args: []string{good, good}, labels: []string{good + "#0", good + "#1"}},
		{args: []string{empty, good, garbage}, labels: []string{empty, good, garbage}, empty: []string{empty, garbage}},
		{args: []string{"x=" + good, "y=" + other}, labels: []string{"x", "y"}},
		{args: []string{"x=" + good, "x=" + other}, err: `label "x" names both x=` + good + ` and x=` + other},
		{args: []string{good, good + "=" + other}, err: `label "` + good + `" names both`},
		// A directory is not a results file: named, not read as line 0.
		{args: []string{good, dir}, err: dir + " is a directory; give results files"},
		{args: []string{"x=" + dir}, err: dir + " is a directory; give results files"},
	}
	for _, tt := range tests {
		f, err := Read(tt.args)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Read(%q) error = %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Read(%q): %v", tt.args, err)
			continue
		}
		if !slices.Equal(f.Labels, tt.labels) || !slices.Equal(f.Empty, tt.empty) {
			t.Errorf("Read(%q): labels %q, empty %q; want %q, %q", tt.args, f.Labels, f.Empty, tt.labels, tt.empty)
		}
	}
}
