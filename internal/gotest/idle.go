package gotest

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"time"
)

// IdleMeter measures how much of the machine's CPU was idle over a span
// of time: the cores nothing ran on, on average. A benchmark whose CPU
// profile sampled little of a core while cores sat idle was waiting; on
// a machine with none idle, other processes may have taken its share.
type IdleMeter struct {
	start time.Time
	idle  uint64
	ok    bool
}

// userHZ is the unit of /proc/stat's times: USER_HZ, 100 on every Linux
// the go command supports.
const userHZ = 100

// StartIdle starts an IdleMeter. Where /proc/stat cannot be read (not
// Linux), its Spare says so.
func StartIdle() IdleMeter {
	idle, ok := idleTicks()
	return IdleMeter{start: time.Now(), idle: idle, ok: ok}
}

// Spare returns the cores that were idle since the meter started, on
// average (0 to the number of CPUs), and false when that is unknown.
func (m IdleMeter) Spare() (float64, bool) {
	idle, ok := idleTicks()
	wall := time.Since(m.start).Seconds()
	if !m.ok || !ok || wall <= 0 || idle < m.idle {
		return 0, false
	}
	return float64(idle-m.idle) / userHZ / wall, true
}

// idleTicks reads the idle and iowait times of all CPUs from /proc/stat.
func idleTicks() (uint64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	return parseIdle(b)
}

// parseIdle returns the idle plus iowait field of /proc/stat's first,
// aggregate line ("cpu  user nice system idle iowait …").
func parseIdle(b []byte) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) < 6 || string(f[0]) != "cpu" {
			continue
		}
		idle, err1 := strconv.ParseUint(string(f[4]), 10, 64)
		iowait, err2 := strconv.ParseUint(string(f[5]), 10, 64)
		if err1 != nil || err2 != nil {
			return 0, false
		}
		return idle + iowait, true
	}
	return 0, false
}
