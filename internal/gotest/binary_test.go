package gotest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/results"
)

// fakeBinary writes a shell script that stands in for a test binary.
func fakeBinary(t *testing.T, script string) *Binary {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("needs a POSIX shell")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.test")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &Binary{Package: Package{ImportPath: "example.com/m", Dir: dir, ModuleDir: "/mod"}, Path: path}
}

const (
	fakeHeader = `printf 'goos: linux\ngoarch: amd64\npkg: example.com/m\n'`
	// The testing package's line for a benchmark that did not return.
	fakeZero  = `printf 'BenchmarkX-2   \t       0\t               NaN ns/op\t       0 B/op\t       0 allocs/op\n'`
	fakePanic = `printf 'panic: boom\n\ngoroutine 7 [running]:\nexample.com/m.BenchmarkX(0xc000)\n\t/mod/x_test.go:7 +0x1d\n' >&2; exit 2`
)

func TestRunClassifies(t *testing.T) {
	tests := []struct {
		name   string
		script string
		sub    string
		status results.Status
		err    string
	}{
		{
			// The testing package printed the zero-iteration line and
			// PASS and exited 0 before the runtime printed the panic;
			// on one CPU the panic is printed.
			name: "panic message lost to the exit race",
			script: `if [ "$GOMAXPROCS" = 1 ]; then ` + fakeHeader + `; ` + fakePanic + `; fi
` + fakeHeader + `; ` + fakeZero + `; echo PASS`,
			status: results.StatusFailed,
			err:    "panic: boom (x_test.go:7)",
		},
		{
			name:   "panic message never printed",
			script: fakeHeader + `; ` + fakeZero + `; echo PASS`,
			status: results.StatusFailed,
			err:    "the benchmark function did not return: it panicked or called runtime.Goexit, and the process exited before printing why",
		},
		{
			name:   "panic",
			script: fakeHeader + `; ` + fakeZero + `; ` + fakePanic,
			status: results.StatusFailed,
			err:    "panic: boom (x_test.go:7)",
		},
		{
			name:   "os.Exit(0) under -test.paniconexit0",
			script: `case "$*" in *-test.paniconexit0*) printf 'panic: unexpected call to os.Exit(0) during test\n\ngoroutine 7 [running]:\nos.Exit(0x0)\n\t/go/src/os/proc.go:67 +0x1d\nexample.com/m.BenchmarkX(0xc000)\n\t/mod/x_test.go:9 +0x1d\n' >&2; exit 2;; esac; exit 0`,
			status: results.StatusFailed,
			err:    "the benchmark called os.Exit(0) (x_test.go:9)",
		},
		{
			name:   "exit 0 without the testing package's summary",
			script: fakeHeader + `; printf 'BenchmarkX-2   \t'; exit 0`,
			status: results.StatusFailed,
			err:    "the benchmark or TestMain called os.Exit (the process ended without the testing package's summary)",
		},
		{
			name:   "panic text on stderr of a run that passed is output",
			script: `echo 'panic: not really' >&2; ` + fakeHeader + `; printf 'BenchmarkX-2   \t     100\t        10.00 ns/op\n'; echo PASS`,
			status: results.StatusOK,
		},
		{
			name:   "b.Fatal",
			script: `printf -- '--- FAIL: BenchmarkX\n    x_test.go:3: fixture missing\nFAIL\n'; exit 1`,
			status: results.StatusFailed,
			err:    "x_test.go:3: fixture missing",
		},
		{
			name:   "exit status",
			script: `echo 'out of memory' >&2; exit 3`,
			status: results.StatusFailed,
			err:    "exit status 3: out of memory",
		},
		{
			name:   "no results",
			script: fakeHeader + `; echo PASS`,
			status: results.StatusFailed,
			err:    "produced no results (does the -bench pattern match its sub-benchmarks?)",
		},
		{
			name:   "no sub-benchmark matches",
			sub:    "^canada$",
			script: fakeHeader + `; echo PASS`,
			status: results.StatusSkipped,
			err:    `no sub-benchmark matches "^canada$"`,
		},
		{
			name:   "skipped",
			script: `printf -- '--- SKIP: BenchmarkX\n    x_test.go:3: needs a GPU\nPASS\n'`,
			status: results.StatusSkipped,
			err:    "skipped: x_test.go:3: needs a GPU",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := fakeBinary(t, tt.script)
			o, err := b.Run(context.Background(), RunConfig{Name: "BenchmarkX", Sub: tt.sub})
			if err != nil {
				t.Fatal(err)
			}
			if o.Status != tt.status || o.Error != tt.err {
				t.Errorf("Run = %s %q, want %s %q", o.Status, o.Error, tt.status, tt.err)
			}
		})
	}
}

// TestRunBoundsOutput checks that a benchmark printing far more than
// OutputLimit costs perfloop bounded memory, keeps its real result and
// ignores the fake ones.
func TestRunBoundsOutput(t *testing.T) {
	const mib = 64
	b := fakeBinary(t, `printf 'BenchmarkFake-2 1000 1.00 ns/op\npkg: other/pkg\ngoos: plan9\n'
`+fakeHeader+`
printf 'BenchmarkX-2   \t'
head -c `+strconv.Itoa(mib<<20)+` /dev/zero | tr '\0' 'y'
printf '     100\t        10.00 ns/op\n'
head -c `+strconv.Itoa(mib<<20)+` /dev/zero | tr '\0' 'e' >&2
echo PASS`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	o, err := b.Run(context.Background(), RunConfig{Name: "BenchmarkX"})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if o.Status != results.StatusOK || len(o.Results) != 1 {
		t.Fatalf("Run = %s %q with %d results, want one result", o.Status, o.Error, len(o.Results))
	}
	r := o.Results[0]
	if r.Name.String() != "X-2" || r.Iters != 100 || r.GetConfig("pkg") != "example.com/m" || r.GetConfig("goos") != "linux" {
		t.Errorf("result %s %d pkg=%s goos=%s, want X-2 100 pkg=example.com/m goos=linux", r.Name, r.Iters, r.GetConfig("pkg"), r.GetConfig("goos"))
	}
	if len(o.Stdout) > 3*OutputLimit || len(o.Stderr) > 3*OutputLimit {
		t.Errorf("kept %d bytes of stdout and %d of stderr", len(o.Stdout), len(o.Stderr))
	}
	if !strings.Contains(string(o.Stdout), "bytes of output left out") {
		t.Errorf("stdout does not say that output was left out")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("reading %d MiB of output allocated %d MiB", 2*mib, alloc>>20)
	}
}
