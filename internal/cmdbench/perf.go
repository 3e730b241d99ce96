package cmdbench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// perfEvents are the events perf stat is asked for.
var perfEvents = []string{"cycles", "instructions", "cache-references", "cache-misses", "branches", "branch-misses",
	"page-faults", "major-faults", "minor-faults", "context-switches", "cpu-migrations"}

// hardwareEvents are those that need the CPU's performance counters.
var hardwareEvents = map[string]bool{"cycles": true, "instructions": true, "cache-references": true, "cache-misses": true,
	"branches": true, "branch-misses": true}

// ErrNoPerf means perf is not installed.
var ErrNoPerf = errors.New("-perf needs perf (Debian: apt-get install linux-perf)")

// LookPerf returns the path of the perf command.
func LookPerf() (string, error) {
	p, err := exec.LookPath("perf")
	if err != nil {
		return "", ErrNoPerf
	}
	return p, nil
}

// ParsePerfStat reads perf stat's CSV output (perf stat -x,): one line per
// event, "value,unit,event,run time,percentage,…". Comment lines (#) and
// blank lines are skipped; a line with fewer than three fields or a value
// that is neither a number nor "<not supported>"/"<not counted>" is an
// error naming it.
func ParsePerfStat(r io.Reader) (*document.ExecCounters, error) {
	c := &document.ExecCounters{Events: []document.ExecCounter{}}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, ",")
		if len(f) < 3 || f[2] == "" {
			return nil, fmt.Errorf("perf stat output line %d: want value,unit,event,…: %q", n, line)
		}
		e := document.ExecCounter{Name: strings.TrimSuffix(strings.TrimSuffix(f[2], ":u"), ":k")}
		if e.Name == "" {
			return nil, fmt.Errorf("perf stat output line %d: no event name: %q", n, line)
		}
		switch v := strings.TrimSpace(f[0]); v {
		case "<not supported>", "<not counted>":
		default:
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x >= 0) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("perf stat output line %d: count %q is not a number", n, v)
			}
			e.Value, e.Supported = x, true
		}
		c.Events = append(c.Events, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read perf stat output: %w", err)
	}
	hw, hwOK := 0, 0
	for _, e := range c.Events {
		if hardwareEvents[e.Name] {
			hw++
			if e.Supported {
				hwOK++
			}
		}
	}
	if hw > 0 && hwOK == 0 {
		c.Note = "this machine exposes no hardware counters (a virtual machine without PMU access, or perf_event_paranoid): cycles, instructions, cache and branch misses are not counted; the software counters are"
	}
	return c, nil
}

// perf runs b once under perf stat and parses its counts. The run is
// separate from the timed ones, as strace's is.
func (e *engine) perf(b *bench) (*document.ExecCounters, error) {
	path, err := LookPerf()
	if err != nil {
		return nil, err
	}
	data, code, err := e.underTool(b, "perf stat", "perfloop-perf-*.csv", func(out string) []string {
		return []string{path, "stat", "-x,", "-o", out, "-e", strings.Join(perfEvents, ","), "--"}
	})
	if err != nil {
		return nil, err
	}
	c, err := ParsePerfStat(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("perf stat %q: %w", b.cmd.Line, err)
	}
	if len(c.Events) == 0 {
		return nil, fmt.Errorf("perf stat %q counted nothing (exit code %d): check that perf_event_open is permitted by running perf stat by hand", b.cmd.Line, code)
	}
	return c, nil
}
