package cmdbench

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// The fixtures are real strace -c -f output; testdata/gen-strace.sh has the
// commands that produced them.
func TestParseStraceFixtures(t *testing.T) {
	tests := []struct {
		file                 string
		calls, errs, rows    int64
		first                document.ExecSyscallCount // most called
		check                string                    // a syscall that must be there
		checkCalls, checkErr int64
	}{
		{"strace-c-f.sh-ls.txt", 362, 60, 36, document.ExecSyscallCount{Name: "openat", Calls: 72, Errors: 30}, "execve", 3, 0},
		{"strace-c-f.go-version.txt", 341, 41, 28, document.ExecSyscallCount{Name: "rt_sigaction", Calls: 114}, "futex", 13, 1},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc, err := ParseStrace(f)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Calls != tt.calls || sc.Errors != tt.errs || int64(len(sc.BySyscall)) != tt.rows {
				t.Errorf("total %d calls, %d errors, %d syscalls; want %d, %d, %d",
					sc.Calls, sc.Errors, len(sc.BySyscall), tt.calls, tt.errs, tt.rows)
			}
			if got := sc.BySyscall[0]; got.Name != tt.first.Name || got.Calls != tt.first.Calls || got.Errors != tt.first.Errors {
				t.Errorf("most called = %+v, want %+v", sc.BySyscall[0], tt.first)
			}
			var sum, sumErr int64
			found := false
			for _, c := range sc.BySyscall {
				sum += c.Calls
				sumErr += c.Errors
				if c.Name == tt.check {
					found = c.Calls == tt.checkCalls && c.Errors == tt.checkErr
				}
			}
			if sum != sc.Calls || sumErr != sc.Errors {
				t.Errorf("rows add up to %d calls, %d errors; total row says %d, %d", sum, sumErr, sc.Calls, sc.Errors)
			}
			if !found {
				t.Errorf("%s: want %d calls, %d errors", tt.check, tt.checkCalls, tt.checkErr)
			}
		})
	}
}

func TestStraceReaderRows(t *testing.T) {
	in := `System call usage summary for 64 bit mode:
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 60.00    0.000030          10         3         1 openat
 40.00    0.000020           5         4           read
------ ----------- ----------- --------- --------- ----------------
100.00    0.000050           7         7         1 total

System call usage summary for 32 bit mode:
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
100.00    0.000010          10         1           read
------ ----------- ----------- --------- --------- ----------------
100.00    0.000010          10         1           total
`
	r := NewStraceReader(strings.NewReader(in))
	var rows []document.ExecSyscallCount
	for r.Scan() {
		rows = append(rows, *r.Count())
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	want := []document.ExecSyscallCount{
		{Name: "openat", Calls: 3, Errors: 1, Seconds: 0.000030}, {Name: "read", Calls: 4, Errors: 0, Seconds: 0.000020}, {Name: "total", Calls: 7, Errors: 1, Seconds: 0.000050},
		{Name: "read", Calls: 1, Errors: 0, Seconds: 0.000010}, {Name: "total", Calls: 1, Errors: 0, Seconds: 0.000010},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows = %+v, want %+v", rows, want)
	}
	for i := range rows {
		if rows[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, rows[i], want[i])
		}
	}

	// Both personalities are added up.
	sc, err := ParseStrace(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Calls != 8 || sc.Errors != 1 || len(sc.BySyscall) != 2 ||
		sc.BySyscall[0].Name != "read" || sc.BySyscall[0].Calls != 5 || !near(sc.BySyscall[0].Seconds, 0.000030) {
		t.Errorf("ParseStrace = %+v", sc)
	}
}

func TestParseStraceNoTotal(t *testing.T) {
	sc, err := ParseStrace(strings.NewReader(" 50.00 0.000001 1 2 1 close\n 50.00 0.000001 1 3 mmap\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Calls != 5 || sc.Errors != 1 {
		t.Errorf("computed total = %d calls, %d errors; want 5, 1", sc.Calls, sc.Errors)
	}
}

func TestStraceReaderErrors(t *testing.T) {
	tests := []struct {
		in   string
		line int
		msg  string
	}{
		{"strace: exec: No such file or directory\n", 1, "want 5 or 6 columns"},
		{"% time\n 1.0 0.1 1 x read\n", 2, "bad calls"},
		{" 1.0 0.1 1 1 -1 read\n", 1, "bad errors"},
		{" 1.0 -0.1 1 1 read\n", 1, "bad seconds"},
		{" x 0.1 1 1 read\n", 1, "bad % time"},
		{" 1.0 0.1 1.5 1 read\n", 1, "bad usecs/call"},
		{" 1 2 3 4 5 6 7 8\n", 1, "too many columns"},
	}
	for _, tt := range tests {
		_, err := ParseStrace(strings.NewReader(tt.in))
		var se *StraceSyntaxError
		if !errors.As(err, &se) || se.Line != tt.line || se.Msg != tt.msg {
			t.Errorf("ParseStrace(%q) error = %v, want line %d: %s", tt.in, err, tt.line, tt.msg)
		}
	}
}

// FuzzStraceReader checks that the parser of strace's output never panics,
// that errors name a line, and that rows it accepts are sane.
func FuzzStraceReader(f *testing.F) {
	for _, name := range []string{"strace-c-f.sh-ls.txt", "strace-c-f.go-version.txt"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(" 1.0 0.1 1 1 read\n")
	f.Fuzz(func(t *testing.T, s string) {
		r := NewStraceReader(strings.NewReader(s))
		for r.Scan() {
			c := r.Count()
			if c.Calls < 0 || c.Errors < 0 || c.Seconds < 0 || c.Name == "" {
				t.Fatalf("accepted a bad row: %+v", c)
			}
		}
		var se *StraceSyntaxError
		if err := r.Err(); errors.As(err, &se) && se.Line < 1 {
			t.Fatalf("syntax error without a line: %v", err)
		}
		if _, err := ParseStrace(strings.NewReader(s)); err != nil && r.Err() == nil {
			t.Fatalf("ParseStrace failed where the reader did not: %v", err)
		}
	})
}
