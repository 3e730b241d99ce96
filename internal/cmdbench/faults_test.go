//go:build unix

package cmdbench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunCanceledStopsHangingCommand cancels while a command hangs: Run
// must stop it, and the process it started, at once instead of waiting
// for it to end.
func TestRunCanceledStopsHangingCommand(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs Unix signals")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	// The shell's child ignores SIGINT (a background job of a
	// non-interactive shell does), so only the group's SIGKILL stops it.
	line := fmt.Sprintf("sleep 120 & echo $! > %s; wait", pidFile)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	_, err := Run(ctx, commands(t, Spec{Lines: []string{line}}), Options{Runs: 1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 60*time.Second {
		t.Errorf("Run returned %v after the cancel: it waited for the command", d)
	}
	b, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the command's child %d still runs", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(f) == 0 || f[0] != "Z"
}

func TestRunTimeout(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs Unix signals")
	}
	dir := t.TempDir()
	// The first run is quick, the second hangs.
	line := fmt.Sprintf("if [ -e %[1]s ]; then sleep 120; else touch %[1]s; fi", filepath.Join(dir, "first"))
	rep, err := Run(context.Background(), commands(t, Spec{Lines: []string{line}}), Options{Runs: 3, Timeout: time.Second})
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Timeout != time.Second {
		t.Fatalf("err = %v, want an *ExitError with the timeout", err)
	}
	if want := fmt.Sprintf("command %q timed out after 1s (-timeout)", line); err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if rep == nil || len(rep.Results) != 1 || rep.Results[0].Runs != 1 || rep.Error != err.Error() {
		t.Errorf("report %+v: want the one run that finished and the error", rep)
	}
}

// TestRunFailureKeepsFinishedRuns checks that a failing run or cleanup
// command stops the benchmark without losing the runs that finished.
func TestRunFailureKeepsFinishedRuns(t *testing.T) {
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	// Fails on its third run.
	third := fmt.Sprintf("n=$(cat %[1]s 2>/dev/null || echo 0); n=$((n+1)); echo $n > %[1]s; [ $n -lt 3 ]", count)
	rep, err := Run(context.Background(), commands(t, Spec{Lines: []string{"true", third}}), Options{Runs: 5, Interleave: true})
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Role != "command" || ee.Code != 1 {
		t.Fatalf("err = %v, want the third run's exit code", err)
	}
	if rep == nil || len(rep.Results) != 2 || rep.Results[0].Runs != 3 || rep.Results[1].Runs != 2 || !strings.Contains(rep.Error, "exited with code 1") {
		t.Fatalf("report %+v: want 3 runs of true and 2 of the failing command", rep)
	}

	rep, err = Run(context.Background(), commands(t, Spec{Lines: []string{"true"}, Cleanup: "exit 5"}), Options{Runs: 2})
	if !errors.As(err, &ee) || ee.Role != "cleanup command" {
		t.Fatalf("err = %v, want the cleanup command's failure", err)
	}
	if rep == nil || len(rep.Results) != 1 || rep.Results[0].Runs != 2 {
		t.Errorf("report %+v: want the 2 runs", rep)
	}
}
