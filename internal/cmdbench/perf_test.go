package cmdbench

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestParsePerfStat: counted and unsupported events, the note when no
// hardware counter is exposed, and malformed lines named.
func TestParsePerfStat(t *testing.T) {
	vm := `# started on Mon Nov 23 18:30:00 2026

<not supported>,,cycles,0,100.00,,
<not supported>,,instructions,0,100.00,,
<not counted>,,branch-misses,0,100.00,,
77,,page-faults,922905,100.00,,
2,,context-switches:u,922905,100.00,,
`
	c, err := ParsePerfStat(strings.NewReader(vm))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Events) != 5 || c.Note == "" {
		t.Fatalf("%+v: want 5 events and a note", c)
	}
	if v, ok := c.Value("page-faults"); !ok || v != 77 {
		t.Errorf("page-faults = %v, %v", v, ok)
	}
	if v, ok := c.Value("context-switches"); !ok || v != 2 {
		t.Errorf("context-switches:u = %v, %v; want the :u suffix dropped", v, ok)
	}
	if _, ok := c.Value("cycles"); ok {
		t.Error("cycles counted")
	}
	hw, err := ParsePerfStat(strings.NewReader("1000,,cycles,1,100.00,,\n2500,,instructions,1,100.00,,\n"))
	if err != nil || hw.Note != "" {
		t.Fatalf("%+v, %v: want no note where cycles are counted", hw, err)
	}
	if r, ok := ratioOf(hw, "instructions", "cycles"); !ok || r != 2.5 {
		t.Errorf("IPC = %v, %v; want 2.5", r, ok)
	}
	for _, bad := range []string{"12,,\n", "ten,,cycles,1,100,,\n", "-3,,cycles,1,100,,\n", "garbage\n"} {
		if _, err := ParsePerfStat(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("ParsePerfStat(%q) = %v; want an error naming line 1", bad, err)
		}
	}
}

// TestPerfRun runs a command under perf stat for real, where perf is
// installed: page faults are counted on every machine.
func TestPerfRun(t *testing.T) {
	if _, err := exec.LookPath("perf"); err != nil {
		t.Skip("perf is not installed")
	}
	rep, err := Execute(context.Background(), Request{Commands: []string{"true"}, NoShell: true, Options: Options{Runs: 2, Perf: true}})
	if err != nil {
		t.Skipf("perf stat cannot run here: %v", err)
	}
	c := rep.Results[0].Counters
	if c == nil {
		t.Fatal("no counters")
	}
	if v, ok := c.Value("page-faults"); !ok || v <= 0 {
		t.Errorf("page-faults = %v, %v; want a count", v, ok)
	}
}

func FuzzParsePerfStat(f *testing.F) {
	f.Add("77,,page-faults,922905,100.00,,\n<not supported>,,cycles,0,100.00,,\n")
	f.Add("# comment\n\n1e9,,instructions:u,5,50.00,1.2,insn per cycle\n")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParsePerfStat(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, e := range c.Events {
			if e.Name == "" || e.Value < 0 || !e.Supported && e.Value != 0 {
				t.Fatalf("bad event %+v", e)
			}
		}
	})
}
