package program

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

const endingsMain = `package main

import (
	"fmt"
	"log"
	"os"
	"runtime/pprof"
	"syscall"
	"time"
)

var sink []byte

// spin works for d of CPU time, allocating: on a busy machine that can
// take several times d of wall time, and the profile still has samples.
func spin(d time.Duration) int {
	n := 0
	for start := cpuTime(); cpuTime()-start < d; {
		for range 1000 {
			sink = make([]byte, 64)
			n += len(sink)
		}
	}
	return n
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	spin(300 * time.Millisecond)
	fmt.Println("worked")
	switch os.Args[1] {
	case "return":
	case "exit":
		os.Exit(3)
	case "fatal":
		log.Fatal("fatal")
	case "logger":
		log.New(os.Stderr, "", 0).Fatal("fatal")
	case "panic":
		panic("boom")
	case "term":
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(10 * time.Second)
	case "own":
		if err := pprof.StartCPUProfile(os.Stderr); err != nil {
			fmt.Println("own profile:", err)
		}
	}
}
`

// TestRunEndings builds a program with the wrapper and ends it every way
// a program ends: the profiles survive each, and the exit status is the
// program's.
func TestRunEndings(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	if runtime.GOOS == "windows" {
		t.Skip("signals")
	}
	dir := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/endings\n\ngo 1.24\n")
	write("cmd/app/main.go", endingsMain)
	ctx := context.Background()
	pkg, err := List(ctx, dir, "", "./cmd/app")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	bin, err := Build(ctx, pkg, BuildOptions{Dir: dir, Work: work, Wrapper: WrapperOptions{Signals: true}})
	if err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "cmd/app")); len(entries) != 1 {
		t.Errorf("the package directory holds %d files, want only main.go", len(entries))
	}
	for _, tc := range []struct {
		arg    string
		code   int
		end    string
		lost   bool
		stdout string
	}{
		{"return", 0, EndReturn, false, "worked\n"},
		// os.Exit and log.Fatal in the module's code go through the
		// exit hook: nothing is lost.
		{"exit", 3, EndExit, false, "worked\n"},
		{"fatal", 1, EndExit, false, "worked\n"},
		// A Logger's Fatal calls os.Exit in the standard library: the
		// segment under way is lost.
		{"logger", 1, EndExit, true, "worked\n"},
		{"panic", 2, EndPanic, false, "worked\n"},
		{"term", 128 + 15, EndSignal, false, "worked\n"},
		{"own", 0, EndReturn, false, "worked\nown profile: cpu profiling already in use\n"},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			profiles := t.TempDir()
			var stdout, stderr bytes.Buffer
			r, err := Run(ctx, RunOptions{Binary: bin, Args: []string{tc.arg}, Stdout: &stdout, Stderr: &stderr,
				Profiles: profiles, MemProfileRate: 4096, Segment: 50 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if r.ExitCode != tc.code || r.End != tc.end || r.Lost != tc.lost {
				t.Errorf("exit %d, end %q, lost %v; want %d, %q, %v (stderr: %s)", r.ExitCode, r.End, r.Lost, tc.code, tc.end, tc.lost, stderr.String())
			}
			if tc.arg == "own" && r.CPUOff != "" {
				// The program started its profile between two of the
				// wrapper's segments: the wrapper's stopped instead.
				tc.stdout = "worked\n"
			}
			if stdout.String() != tc.stdout {
				t.Errorf("stdout = %q, want %q", stdout.String(), tc.stdout)
			}
			if r.Segments == 0 || r.CPU == nil {
				t.Fatalf("no CPU profile segment after 300ms of work in 50ms segments")
			}
			// An os.Exit the wrapper does not see leaves the heap
			// profile of the last segment whose end the budget let
			// write one (a hundredth of the run so far): on a busy
			// machine, a program that allocates fast counts what it
			// allocated during a long mark as live, and no segment of a
			// short run may have written one. The CPU segments are
			// there whatever the load.
			if r.Heap == nil && !tc.lost {
				t.Error("no heap profile")
			}
			var spin bool
			for _, f := range r.CPU.Function {
				if strings.Contains(f.Name, "perfloop") || strings.HasSuffix(f.Filename, WrapperFile) {
					t.Errorf("the CPU profile names the wrapper: %s (%s)", f.Name, f.Filename)
				}
				spin = spin || f.Name == "main.spin"
			}
			if !spin {
				t.Error("the CPU profile does not name main.spin")
			}
			if r.MaxRSS <= 0 && runtime.GOOS == "linux" {
				t.Errorf("max RSS %d", r.MaxRSS)
			}
		})
	}
}

const deafMain = `package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

var sink []byte

func main() {
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	// 300ms of CPU time, however busy the machine.
	for start := cpuTime(); cpuTime()-start < 300*time.Millisecond; {
		for range 1000 {
			sink = make([]byte, 64)
		}
	}
	fmt.Println("worked")
	time.Sleep(60 * time.Second)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
`

// TestRunStopsAProgramThatIgnoresSignals cancels the run of a program
// that ignores SIGINT and SIGTERM: Run forwards the signal, kills the
// program when it has not ended KillAfter later, or at once when Kill is
// closed (a second Ctrl-C), and returns what it collected.
func TestRunStopsAProgramThatIgnoresSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	if runtime.GOOS == "windows" {
		t.Skip("signals")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/deaf\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(deafMain), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg, err := List(context.Background(), dir, "", ".")
	if err != nil {
		t.Fatal(err)
	}
	// The program imports os/signal: the wrapper leaves signals to it.
	bin, err := Build(context.Background(), pkg, BuildOptions{Dir: dir, Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		killAfter time.Duration
		again     bool // close Kill right after the cancel
		killed    string
	}{
		{"forwarded, then killed", 200 * time.Millisecond, false, "the program did not end within 200ms of the SIGINT perfloop forwarded: perfloop killed it"},
		// An hour's KillAfter: only Kill can end the run in time.
		{"second interrupt", time.Hour, true, "perfloop killed the program at the second interrupt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stdout := &signalWriter{seen: make(chan struct{})}
			kill := make(chan struct{})
			type ran struct {
				r   *Result
				err error
			}
			done := make(chan ran, 1)
			go func() {
				r, err := Run(ctx, RunOptions{Binary: bin, Stdout: stdout, Profiles: t.TempDir(),
					Segment: 50 * time.Millisecond, Grace: 100 * time.Millisecond, KillAfter: tc.killAfter, Kill: kill})
				done <- ran{r, err}
			}()
			<-stdout.seen
			cancel()
			if tc.again {
				close(kill)
			}
			var got ran
			select {
			case got = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("Run has not returned 30s after the cancel: it waits for a program that ignores the interrupt")
			}
			if got.err != nil {
				t.Fatal(got.err)
			}
			if got.r.Killed != tc.killed {
				t.Errorf("Killed = %q, want %q", got.r.Killed, tc.killed)
			}
			if got.r.Signal == "" || got.r.CPU == nil || got.r.Segments == 0 {
				t.Errorf("signal %q, %d segments (CPU profile %v): want the program killed and its segments kept", got.r.Signal, got.r.Segments, got.r.CPU != nil)
			}
		})
	}
}

// signalWriter closes seen at the first write.
type signalWriter struct {
	once sync.Once
	seen chan struct{}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.seen) })
	return len(p), nil
}

const smallMain = `package main

import "fmt"

var keep []byte

func main() {
	// About 5 MiB, touched.
	keep = make([]byte, 5<<20)
	for i := range keep {
		keep[i] = byte(i)
	}
	fmt.Println(len(keep))
}
`

// ballast is memory the test process touches, so that its resident set
// is well above the program's.
var ballast []byte

// TestRunMaxRSSIsTheProgramsOwn runs a program of about 5 MiB from a
// process of more than 50 MiB: the peak RSS and the page faults are the
// program's, not its parent's (the kernel's rusage of a child carries the
// high-water mark of the memory it was forked from).
func TestRunMaxRSSIsTheProgramsOwn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the parent's peak shows in its child's rusage on Linux")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/small\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(smallMain), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pkg, err := List(ctx, dir, "", ".")
	if err != nil {
		t.Fatal(err)
	}
	bin, err := Build(ctx, pkg, BuildOptions{Dir: dir, Work: t.TempDir(), Wrapper: WrapperOptions{Signals: true}})
	if err != nil {
		t.Fatal(err)
	}
	ballast = make([]byte, 50<<20)
	for i := range ballast {
		ballast[i] = byte(i)
	}
	defer func() { ballast = nil }()
	var stdout bytes.Buffer
	r, err := Run(ctx, RunOptions{Binary: bin, Stdout: &stdout, Profiles: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if stdout.String() != "5242880\n" {
		t.Fatalf("stdout = %q", stdout.String())
	}
	const mib = 1 << 20
	t.Logf("peak RSS %.1f MiB, %d minor faults, %d major", float64(r.MaxRSS)/mib, r.MinorFaults, r.MajorFaults)
	if r.MaxRSS < 5*mib || r.MaxRSS > 30*mib {
		t.Errorf("peak RSS %.1f MiB, want the program's own: more than 5 MiB, well under its parent's 50", float64(r.MaxRSS)/mib)
	}
	// 50 MiB of pages is 12,800 faults; the program's own are a few
	// thousand.
	if r.MinorFaults > 8000 {
		t.Errorf("%d minor page faults, want the program's own", r.MinorFaults)
	}
}
