package cmdbench

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// These tests start real processes (true, false, sh) and check what was
// run and recorded, never how long it took.

func commands(t *testing.T, spec Spec) []Command {
	t.Helper()
	cmds, err := spec.Commands()
	if err != nil {
		t.Fatal(err)
	}
	return cmds
}

func TestRunRecordsRusage(t *testing.T) {
	rep, err := Run(context.Background(), commands(t, Spec{Lines: []string{"true"}, NoShell: true}), Options{Warmup: 1, Runs: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Schema != "perfloop.exec/v1" || len(rep.Results) != 1 || rep.ShellSpawn != nil {
		t.Fatalf("report = %+v", rep)
	}
	r := rep.Results[0]
	if r.Runs != 3 || len(r.Times) != 3 || !reflect.DeepEqual(r.ExitCodes, []int{0}) || r.FailedRuns != 0 {
		t.Errorf("runs %d, times %v, exit codes %v, failed %d", r.Runs, r.Times, r.ExitCodes, r.FailedRuns)
	}
	if r.Wall.Min <= 0 || r.Wall.Min > r.Wall.Median || r.Wall.Median > r.Wall.Max {
		t.Errorf("wall = %+v", r.Wall)
	}
	if r.MaxRSSBytes <= 0 || r.MinorFaults <= 0 {
		t.Errorf("max RSS %d, minor faults %v: want both above zero", r.MaxRSSBytes, r.MinorFaults)
	}
	if r.ShellCorrected || len(rep.Comparisons) != 0 {
		t.Errorf("shell corrected %v, comparisons %v", r.ShellCorrected, rep.Comparisons)
	}
}

func TestRunFailure(t *testing.T) {
	_, err := Run(context.Background(), commands(t, Spec{Lines: []string{"exit 3"}}), Options{Runs: 2})
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 3 || ee.Role != "command" {
		t.Fatalf("err = %v, want an *ExitError with code 3", err)
	}
	if want := `command "exit 3" exited with code 3`; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}

	rep, err := Run(context.Background(), commands(t, Spec{Lines: []string{"false"}, NoShell: true}), Options{Runs: 2, IgnoreFailure: true})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if !reflect.DeepEqual(r.ExitCodes, []int{1}) || r.FailedRuns != 2 || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "2 of 2 runs exited non-zero") {
		t.Errorf("exit codes %v, failed %d, warnings %q", r.ExitCodes, r.FailedRuns, r.Warnings)
	}

	_, err = Run(context.Background(), commands(t, Spec{Lines: []string{"true"}, Prepare: "exit 4"}), Options{Runs: 1})
	if !errors.As(err, &ee) || ee.Code != 4 || ee.Role != "prepare command" {
		t.Errorf("err = %v, want the prepare command's exit code 4", err)
	}

	_, err = Run(context.Background(), commands(t, Spec{Lines: []string{"no-such-command-perfloop"}, NoShell: true}), Options{Runs: 1})
	if !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("err = %v, want exec.ErrNotFound", err)
	}
}

// log returns a shell command that appends word to the file log, and a
// function that reads the file back.
func logger(t *testing.T) (func(word string) string, func() string) {
	path := filepath.Join(t.TempDir(), "log")
	return func(word string) string { return "echo " + word + " >> " + path },
		func() string {
			b, _ := os.ReadFile(path)
			return strings.Join(strings.Fields(string(b)), " ")
		}
}

func TestRunOrder(t *testing.T) {
	for _, tt := range []struct {
		interleave bool
		want       string
	}{
		{true, "pA A pB B pA A pB B pA A pB B cA cB"},
		{false, "pA A pA A pA A cA pB B pB B pB B cB"},
	} {
		log, read := logger(t)
		var cmds []Command
		for _, w := range []string{"A", "B"} {
			cmds = append(cmds, commands(t, Spec{Lines: []string{log(w)}, Names: []string{w}, Prepare: log("p" + w), Cleanup: log("c" + w)})...)
		}
		rep, err := Run(context.Background(), cmds, Options{Warmup: 1, Runs: 2, Interleave: tt.interleave})
		if err != nil {
			t.Fatal(err)
		}
		if got := read(); got != tt.want {
			t.Errorf("interleave %v: ran %q, want %q", tt.interleave, got, tt.want)
		}
		if rep.Interleaved != tt.interleave {
			t.Errorf("interleaved = %v, want %v", rep.Interleaved, tt.interleave)
		}
		if rep.ShellSpawn == nil || rep.ShellSpawn.Runs != ShellCalibrationRuns || !rep.Results[0].ShellCorrected {
			t.Errorf("shell spawn = %+v, corrected %v", rep.ShellSpawn, rep.Results[0].ShellCorrected)
		}
	}
}

func TestRunReference(t *testing.T) {
	cmds := commands(t, Spec{Lines: []string{"true", "true"}, Names: []string{"a", "b"}, NoShell: true})
	rep, err := Run(context.Background(), cmds, Options{Runs: 2, Reference: 1, Interleave: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Reference != 1 || len(rep.Comparisons) != 1 {
		t.Fatalf("reference %d, comparisons %+v", rep.Reference, rep.Comparisons)
	}
	c := rep.Comparisons[0]
	if c.A != "a" || c.B != "b" || !c.Paired || c.Ratio <= 0 || c.Low > c.Ratio || c.High < c.Ratio {
		t.Errorf("comparison = %+v", c)
	}
}

func TestRunInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.WriteFile(in, []byte("12345"), 0o666); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	// Each run must read the whole file: the input is rewound.
	cmds := commands(t, Spec{Lines: []string{"wc -c >> " + out}})
	if _, err := Run(context.Background(), cmds, Options{Runs: 3, Input: in}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if got := strings.Fields(string(b)); !reflect.DeepEqual(got, []string{"5", "5", "5"}) {
		t.Errorf("runs read %q bytes, want 5 each time", got)
	}
}

func TestRunParameters(t *testing.T) {
	cmds := commands(t, Spec{Lines: []string{"exit {code}"}, Lists: []ParameterList{{"code", []string{"0", "2"}}}})
	rep, err := Run(context.Background(), cmds, Options{Runs: 1, IgnoreFailure: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 2 || rep.Results[1].Command != "exit 2" ||
		!reflect.DeepEqual(rep.Results[1].Parameters, map[string]string{"code": "2"}) ||
		!reflect.DeepEqual(rep.Results[1].ExitCodes, []int{2}) {
		t.Errorf("results = %+v", rep.Results)
	}
}

func TestRunCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, commands(t, Spec{Lines: []string{"true"}, NoShell: true}), Options{Runs: 1})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}

	// Canceled after some runs: those runs are kept.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	n := 0
	opts := Options{Runs: 100, Progress: func(p Progress) {
		if p.Phase == "run" {
			if n++; n == 4 {
				cancel()
			}
		}
	}}
	rep, err := Run(ctx, commands(t, Spec{Lines: []string{"true"}, NoShell: true}), opts)
	if !errors.Is(err, context.Canceled) || rep == nil || rep.Results[0].Runs != 3 {
		t.Errorf("err = %v, report %+v; want the 3 runs finished before the cancel", err, rep)
	}
}

func TestAutoRuns(t *testing.T) {
	b := func(wall, prep time.Duration) *bench {
		return &bench{runs: []Measurement{{Wall: wall}}, prep: prep}
	}
	e := &engine{opts: Options{MinRuns: 10, MinTime: 3 * time.Second}}
	for _, tt := range []struct {
		name  string
		bs    []*bench
		runs  int
		fixed int
	}{
		{"3s of 10ms runs", []*bench{b(10*time.Millisecond, 0)}, 300, 0},
		{"prepare counts", []*bench{b(10*time.Millisecond, 20*time.Millisecond)}, 100, 0},
		{"slow: at least MinRuns", []*bench{b(2*time.Second, 0)}, 10, 0},
		{"interleaved: 3s per command", []*bench{b(100*time.Millisecond, 0), b(200*time.Millisecond, 0)}, 20, 0},
		{"-runs wins", []*bench{b(time.Millisecond, 0)}, 7, 7},
	} {
		e.opts.Runs = tt.fixed
		if got := e.autoRuns(tt.bs); got != tt.runs {
			t.Errorf("%s: %d runs, want %d", tt.name, got, tt.runs)
		}
	}
}

func TestRunStrace(t *testing.T) {
	if _, err := LookStrace(); err != nil {
		t.Skip(err)
	}
	rep, err := Run(context.Background(), commands(t, Spec{Lines: []string{"cat /nonexistent-perfloop"}, NoShell: true}),
		Options{Runs: 1, IgnoreFailure: true, Strace: true})
	if err != nil {
		t.Fatal(err)
	}
	sc := rep.Results[0].Syscalls
	if sc == nil {
		t.Fatal("no syscalls recorded")
	}
	var execve, openatErrs int64
	for _, c := range sc.BySyscall {
		switch c.Name {
		case "execve":
			execve = c.Calls
		case "openat":
			openatErrs = c.Errors
		}
	}
	if execve != 1 || openatErrs < 1 {
		t.Errorf("execve %d, openat errors %d; want 1 execve and the failed open: %+v", execve, openatErrs, sc)
	}
}
