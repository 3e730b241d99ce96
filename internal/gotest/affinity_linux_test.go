//go:build linux

package gotest

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestStartOnPinsTheChild checks that a child started with startOn may run
// only on the CPU asked for, and that the parent's own affinity is restored.
func TestStartOnPinsTheChild(t *testing.T) {
	cpu := QuietCPU()
	if cpu < 0 {
		t.Skip("fewer than two CPUs: nothing to pin")
	}
	before := allowedCPUs(t, exec.Command("cat", "/proc/self/status"))
	var out strings.Builder
	cmd := exec.Command("cat", "/proc/self/status")
	cmd.Stdout = &out
	if err := startOn(cmd, []int{cpu}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if got, want := cpusAllowed(out.String()), fmt.Sprint(cpu); got != want {
		t.Errorf("pinned child may run on %q, want %q", got, want)
	}
	if after := allowedCPUs(t, exec.Command("cat", "/proc/self/status")); after != before {
		t.Errorf("unpinned child after pinning may run on %q, before on %q", after, before)
	}
}

func allowedCPUs(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return cpusAllowed(string(out))
}

func cpusAllowed(status string) string {
	for _, line := range strings.Split(status, "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
