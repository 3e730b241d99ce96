package gotest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

const header = "goos: linux\ngoarch: amd64\npkg: example.com/m\ncpu: AMD EPYC\n"

// result formats a result line's numbers as the testing package does.
func numbers(n int, ns float64) string {
	return fmt.Sprintf("%8d\t%10.2f ns/op\t       0 B/op\t       0 allocs/op", n, ns)
}

func TestStdoutScanner(t *testing.T) {
	long := strings.Repeat("x", 3*OutputLimit)
	tests := []struct {
		name    string
		bench   string
		out     string
		want    []string // "fullname iters pkg goos"
		zero    bool
		summary string
		fail    string
		skip    string
	}{
		{
			name: "plain", bench: "BenchmarkA",
			out:     header + "BenchmarkA-2   \t" + numbers(100, 10) + "\nPASS\n",
			want:    []string{"A-2 100 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "fake lines before the header are output", bench: "BenchmarkA",
			out: "BenchmarkFake-2 1000 1.00 ns/op\nBenchmarkFake-2\t1000\t1.00 ns/op\npkg: other/pkg\ngoos: plan9\n" +
				header + "BenchmarkA-2   \t" + numbers(100, 10) + "\nPASS\n",
			want:    []string{"A-2 100 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "config lines during the runs are output", bench: "BenchmarkA",
			out:     header + "BenchmarkA-2   \tgoos: plan9\npkg: other/pkg\nBenchmarkFake-2 1 1 ns/op\n" + numbers(100, 10) + "\nPASS\n",
			want:    []string{"A-2 100 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "numbers printed by the benchmark are output", bench: "BenchmarkA",
			out:     header + "BenchmarkA-2   \tBenchmarkFake-2\t1000\t1.00 ns/op\n1000\t1.00 ns/op\n 7\t1 ns/op\n" + numbers(100, 10) + "\nPASS\n",
			want:    []string{"A-2 100 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "partial line before the header", bench: "BenchmarkA",
			out:     "no newline" + header + "BenchmarkA-2   \t" + numbers(100, 10) + "\nPASS\n",
			want:    []string{"A-2 100 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "partial line between name and numbers", bench: "BenchmarkA",
			out:     header + "BenchmarkA-2   \t....." + numbers(100, 10) + "\nPASS\n",
			want:    []string{"A-2 100 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "output lines between name and numbers", bench: "BenchmarkA",
			out:     header + "BenchmarkA-2   \tline one\nline two\n" + numbers(100, 10) + "\nPASS\n",
			want:    []string{"A-2 100 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "sub-benchmarks with a partial line before a name", bench: "BenchmarkA",
			out:     header + "BenchmarkA/n=1-2 \t" + numbers(100, 10) + "\nno newline" + "BenchmarkA/n=2-2 \t" + numbers(50, 20) + "\nPASS\n",
			want:    []string{"A/n=1-2 100 example.com/m linux", "A/n=2-2 50 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "another benchmark's name is output", bench: "BenchmarkA",
			out:     "BenchmarkAB-2 \t" + numbers(7, 1) + "\nBenchmarkA-x\t" + numbers(7, 1) + "\n" + header + "BenchmarkA-2   \t" + numbers(100, 10) + "\nBenchmarkAB-2 \t" + numbers(7, 1) + "\nPASS\n",
			want:    []string{"A-2 100 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "-test.v", bench: "BenchmarkA",
			out: header + "BenchmarkA\nsome output\nBenchmarkA-2   \t" + numbers(100, 10) +
				"\n--- BENCH: BenchmarkA-2\n    a_test.go:5: BenchmarkA-2\t" + numbers(9, 9) + "\nPASS\n",
			want:    []string{"A-2 100 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "-test.cpu list", bench: "BenchmarkA",
			out:     header + "BenchmarkA     \t" + numbers(100, 10) + "\nBenchmarkA-2   \t" + numbers(200, 5) + "\nPASS\n",
			want:    []string{"A 100 example.com/m linux", "A-2 200 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "zero iterations: the function did not return", bench: "BenchmarkPanic",
			out:     header + "BenchmarkPanic-2   \t       0\t               NaN ns/op\t       0 B/op\t       0 allocs/op\nPASS\n",
			zero:    true,
			summary: "PASS",
		},
		{
			name: "b.Fatal in the first run", bench: "BenchmarkFatal",
			out:     "--- FAIL: BenchmarkFatal\n    x_test.go:12: fixture missing\n    x_test.go:13: second\nFAIL\n",
			summary: "FAIL",
			fail:    "x_test.go:12: fixture missing; x_test.go:13: second",
		},
		{
			name: "b.Fatal after the name", bench: "BenchmarkFatal",
			out:     header + "BenchmarkFatal-2   \t--- FAIL: BenchmarkFatal-2\n    x_test.go:12: late\nFAIL\n",
			summary: "FAIL",
			fail:    "x_test.go:12: late",
		},
		{
			name: "another benchmark's --- FAIL is output", bench: "BenchmarkA",
			out:     "--- FAIL: BenchmarkOther\n    x_test.go:1: no\n" + header + "BenchmarkA-2   \t" + numbers(100, 10) + "\n--- FAIL: BenchmarkOther\n    x_test.go:1: no\nPASS\n",
			want:    []string{"A-2 100 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "skip", bench: "BenchmarkS",
			out:     "--- SKIP: BenchmarkS\n    s_test.go:5: needs a GPU\nPASS\n",
			summary: "PASS",
			skip:    "skipped: s_test.go:5: needs a GPU",
		},
		{
			name: "long lines", bench: "BenchmarkA",
			out:     long + "\n" + header + "BenchmarkA-2   \t" + long + numbers(100, 10) + "\n" + long + "\nPASS\n",
			want:    []string{"A-2 100 example.com/m linux"},
			summary: "PASS",
		},
		{
			name: "no newline at the end", bench: "BenchmarkA",
			out:  header + "BenchmarkA-2   \t" + numbers(100, 10),
			want: []string{"A-2 100 example.com/m linux"},
		},
	}
	for _, tt := range tests {
		for _, chunk := range []int{0, 1, 7} {
			t.Run(fmt.Sprintf("%s/chunk=%d", tt.name, chunk), func(t *testing.T) {
				s := newStdoutScanner(tt.bench, "test")
				write(s, tt.out, chunk)
				s.finish()
				var got []string
				for _, r := range s.results {
					got = append(got, fmt.Sprintf("%s %d %s %s", r.Name, r.Iters, r.GetConfig("pkg"), r.GetConfig("goos")))
					for _, c := range r.Config {
						if !c.File {
							t.Errorf("%s: configuration %s is not file configuration: writers would drop it", r.Name, c.Key)
						}
					}
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("results = %q, want %q", got, tt.want)
				}
				if s.zeroIters != tt.zero {
					t.Errorf("zeroIters = %v, want %v", s.zeroIters, tt.zero)
				}
				if s.summary != tt.summary {
					t.Errorf("summary = %q, want %q", s.summary, tt.summary)
				}
				if got := s.failMessage(); got != tt.fail {
					t.Errorf("failMessage = %q, want %q", got, tt.fail)
				}
				if tt.skip != "" {
					if got := s.skipMessage(); got != tt.skip {
						t.Errorf("skipMessage = %q, want %q", got, tt.skip)
					}
				}
			})
		}
	}
}

// write writes out to w in pieces of chunk bytes (all at once for 0).
func write(w interface{ Write([]byte) (int, error) }, out string, chunk int) {
	if chunk <= 0 {
		w.Write([]byte(out))
		return
	}
	for len(out) > 0 {
		n := min(chunk, len(out))
		w.Write([]byte(out[:n]))
		out = out[n:]
	}
}

func TestCaptureIsBounded(t *testing.T) {
	for _, chunk := range []int{1, 1000, OutputLimit - 1, OutputLimit, 3*OutputLimit + 5} {
		c := newCapture(OutputLimit)
		var total int
		for i := 0; total < 10*OutputLimit; i++ {
			p := []byte(strings.Repeat(string(rune('a'+i%26)), chunk))
			c.Write(p)
			total += len(p)
			if cap(c.head) > 2*OutputLimit || cap(c.tail) > 4*OutputLimit {
				t.Fatalf("chunk %d: capture holds %d+%d bytes", chunk, cap(c.head), cap(c.tail))
			}
		}
		b := c.Bytes()
		if len(b) > 2*OutputLimit+100 {
			t.Errorf("chunk %d: Bytes() is %d bytes", chunk, len(b))
		}
		if !strings.Contains(string(b), fmt.Sprintf("[… %d bytes of output left out …]", total-2*OutputLimit)) {
			t.Errorf("chunk %d: Bytes() does not say what was left out", chunk)
		}
	}
	c := newCapture(10)
	c.Write([]byte("0123456789abcdefghij"))
	if got := string(c.Bytes()); got != "0123456789abcdefghij" {
		t.Errorf("what fits is kept whole: %q", got)
	}
	c.Write([]byte("X"))
	if got, want := string(c.Bytes()), "0123456789\n[… 1 bytes of output left out …]\nbcdefghijX"; got != want {
		t.Errorf("Bytes() = %q, want %q", got, want)
	}
}

func TestLineWriterKeepsHeadAndTail(t *testing.T) {
	var got []string
	var cuts []bool
	w := newLineWriter(4, func(line []byte, cut bool) {
		got = append(got, string(line))
		cuts = append(cuts, cut)
	})
	write(w, "abcdefgh\nabcdefghi\r\nab", 3)
	w.flush()
	want := []string{"abcdefgh", "abcdfghi", "ab"}
	if !slices.Equal(got, want) || !slices.Equal(cuts, []bool{false, true, false}) {
		t.Errorf("lines = %q (cut %v), want %q (cut only the second)", got, cuts, want)
	}
}

// FuzzStdoutScanner feeds arbitrary output to the scanner: it must never
// take another benchmark's name for a result, and it must read the same
// whether the output arrives at once or byte by byte.
func FuzzStdoutScanner(f *testing.F) {
	f.Add([]byte(header + "BenchmarkA-2   \t" + numbers(100, 10) + "\nPASS\n"))
	f.Add([]byte("BenchmarkFake-2 1000 1.00 ns/op\n" + header + "BenchmarkA/x-2 \tjunk\n" + numbers(3, 1) + "\n--- FAIL: BenchmarkA\n    x\nFAIL\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		whole := newStdoutScanner("BenchmarkA", "fuzz")
		whole.Write(out)
		whole.finish()
		bytewise := newStdoutScanner("BenchmarkA", "fuzz")
		write(bytewise, string(out), 1)
		bytewise.finish()
		if len(whole.results) != len(bytewise.results) {
			t.Fatalf("%d results written at once, %d byte by byte", len(whole.results), len(bytewise.results))
		}
		for i, r := range whole.results {
			name := "Benchmark" + r.Name.String()
			if !strings.HasPrefix(name, "BenchmarkA-") && !strings.HasPrefix(name, "BenchmarkA/") && name != "BenchmarkA" {
				t.Errorf("result %q is not BenchmarkA's", name)
			}
			if bytewise.results[i].Name.String() != r.Name.String() || r.Iters <= 0 {
				t.Errorf("result %d: %s %d vs %s", i, r.Name, r.Iters, bytewise.results[i].Name)
			}
		}
	})
}

func TestSkipReason(t *testing.T) {
	out := "goos: linux\nBenchmarkWords\n    snappy_test.go:1248: skipping: /usr/share/dict/words not found\n--- SKIP: BenchmarkWords\nPASS\n"
	got, ok := skipReason([]byte(out))
	if !ok || got != "skipped: snappy_test.go:1248: skipping: /usr/share/dict/words not found" {
		t.Errorf("skipReason = %q, %v", got, ok)
	}
	if _, ok := skipReason([]byte("BenchmarkX\t100\t1 ns/op\nPASS\n")); ok {
		t.Error("skipReason found a skip in a run that did not skip")
	}
}
