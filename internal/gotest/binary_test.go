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

const fakeHeader = `printf 'goos: linux\ngoarch: amd64\npkg: example.com/m\n'`

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
