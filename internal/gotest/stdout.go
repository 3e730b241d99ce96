package gotest

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// stdoutScanner reads a test binary's standard output as it is written
// and keeps only what the testing package printed for one benchmark: its
// result lines, its configuration header, its --- FAIL and --- SKIP blocks
// and the final PASS or FAIL. Everything else is the benchmark's own output
// and is never taken for a result, whatever it looks like.
//
// How the testing package prints (testing/benchmark.go): once, before the
// first benchmark it measures, the header "goos: …", "goarch: …",
// "pkg: …", "cpu: …" (pkg and cpu may be missing); then per benchmark
// measured the name padded with spaces and a tab, the benchmark's runs,
// and the numbers "%8d\t<value> <unit>\t…" and a newline. A benchmark
// that prints during its runs puts its output between the name and the
// numbers, on that line or on lines of their own; with -test.v the name
// is printed on a line by itself first. A benchmark that prints in its
// first run (b.N = 1), which comes before the header and before its name,
// can leave a partial line that the header or the name continues.
//
// So the scanner accepts a result only as a name of the benchmark being
// run (Name, Name-P, Name/sub…, followed by spaces and a tab) and, after
// it, the first line ending in the testing package's numbers; and takes as
// configuration only the header lines immediately before the first line
// that starts with the benchmark's name.
type stdoutScanner struct {
	name  string // "BenchmarkX"
	file  string // for benchfmt positions
	lines *lineWriter

	prev    [4][]byte // the last four lines, most recent last, bounded
	config  []string  // key, value, … from the header
	haveCfg bool

	pending []byte // full name whose numbers are awaited, or nil

	results   []*benchfmt.Result
	zeroIters bool // the testing package printed 0 iterations: the function did not return

	block     string // kind of the --- block being read: "FAIL", "SKIP", "BENCH" or ""
	failLines []string
	skipLines []string
	summary   string // "PASS" or "FAIL" once the testing package printed it

	reader *benchfmt.Reader
}

// maxBlockLines bounds the log lines kept of a --- FAIL or --- SKIP block.
const maxBlockLines = 20

func newStdoutScanner(name, file string) *stdoutScanner {
	s := &stdoutScanner{name: name, file: file}
	s.lines = newLineWriter(OutputLimit, s.line)
	return s
}

func (s *stdoutScanner) Write(p []byte) (int, error) { return s.lines.Write(p) }

// finish processes a last line without a newline.
func (s *stdoutScanner) finish() { s.lines.flush() }

func (s *stdoutScanner) line(line []byte, cut bool) {
	defer s.remember(line)

	if s.block != "" && bytes.HasPrefix(line, []byte("    ")) {
		// An indented log line of a --- block.
		msg := strings.TrimSpace(string(line))
		switch {
		case s.block == "FAIL" && len(s.failLines) < maxBlockLines:
			s.failLines = append(s.failLines, msg)
		case s.block == "SKIP" && len(s.skipLines) < maxBlockLines:
			s.skipLines = append(s.skipLines, msg)
		}
		return
	}
	s.block = ""

	if string(line) == "PASS" || string(line) == "FAIL" {
		s.summary = string(line)
		return
	}

	start := 0 // where the numbers may begin
	at, full, rest, found := s.findName(line)
	if found && at == 0 && !s.haveCfg {
		s.header()
	}
	if s.pending == nil {
		// While a name waits for its numbers, names on later lines
		// are the benchmark's output: the testing package prints a
		// name only after the last one got its numbers or failed.
		if !found {
			s.marker(line)
			return
		}
		if rest < 0 {
			return // -test.v's bare name line
		}
		s.pending = append(s.pending[:0], full...)
		start = rest
	}
	if s.marker(line[start:]) {
		// The benchmark failed or was skipped after its name was
		// printed: no numbers follow.
		s.pending = nil
		return
	}
	iters, values, ok := parseNumbers(line[start:])
	if !ok {
		return
	}
	s.result(iters, values)
	s.pending = nil
}

// findName finds the first place in line where the testing package may
// have printed the name of the benchmark being run before its numbers:
// the name (or a sub-benchmark's or the -P form), then spaces and a tab.
// It returns where the name starts, the full name and where the text after
// the tab starts; rest is -1 for a line that is just the name, as -test.v
// prints it.
func (s *stdoutScanner) findName(line []byte) (at int, full []byte, rest int, ok bool) {
	if string(line) == s.name || bytes.HasPrefix(line, []byte(s.name+"/")) && bytes.IndexAny(line, " \t") < 0 {
		return 0, line, -1, true
	}
	for off := 0; off < len(line); {
		i := bytes.Index(line[off:], []byte(s.name))
		if i < 0 {
			return 0, nil, 0, false
		}
		at = off + i
		off = at + 1
		end := at + len(s.name)
		if end < len(line) && line[end] == '-' {
			j := end + 1
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j == end+1 {
				continue
			}
			end = j
		} else if end < len(line) && line[end] == '/' {
			for end < len(line) && line[end] != ' ' && line[end] != '\t' {
				end++
			}
		}
		j := end
		for j < len(line) && line[j] == ' ' {
			j++
		}
		if j < len(line) && line[j] == '\t' {
			return at, line[at:end], j + 1, true
		}
	}
	return 0, nil, 0, false
}

// marker notes a "--- FAIL: X", "--- SKIP: X" or "--- BENCH: X" line of
// the benchmark being run, which starts a block of indented log lines, and
// reports whether line was one.
func (s *stdoutScanner) marker(line []byte) bool {
	for _, kind := range []string{"FAIL", "SKIP", "BENCH"} {
		tag := "--- " + kind + ": "
		i := bytes.Index(line, []byte(tag))
		if i < 0 {
			continue
		}
		name := line[i+len(tag):]
		if j := bytes.IndexAny(name, " \t"); j >= 0 {
			name = name[:j]
		}
		if !s.isOwnName(name) {
			continue
		}
		s.block = kind
		switch {
		case kind == "FAIL" && s.failLines == nil:
			s.failLines = []string{strings.TrimSpace(string(line[i:]))}
		case kind == "SKIP" && s.skipLines == nil:
			s.skipLines = []string{strings.TrimSpace(string(line[i:]))}
		}
		return true
	}
	return false
}

// isOwnName reports whether name is the benchmark's, a sub-benchmark's or
// either with a -P suffix.
func (s *stdoutScanner) isOwnName(name []byte) bool {
	rest, ok := bytes.CutPrefix(name, []byte(s.name))
	if !ok {
		return false
	}
	if len(rest) == 0 || rest[0] == '/' {
		return true
	}
	if rest[0] != '-' || len(rest) == 1 {
		return false
	}
	for _, c := range rest[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// remember keeps the last lines (bounded) for the header, which is known
// for what it is only when the benchmark's name follows it.
func (s *stdoutScanner) remember(line []byte) {
	const keep = 4 << 10
	if len(line) > keep {
		line = line[len(line)-keep:]
	}
	first := s.prev[0]
	copy(s.prev[:], s.prev[1:])
	s.prev[len(s.prev)-1] = append(first[:0], line...)
}

// header reads the testing package's header from the lines just before
// the first line that starts with the benchmark's name: cpu and pkg if
// present, goarch, and goos, which a partial line of the benchmark's own
// output may precede.
func (s *stdoutScanner) header() {
	i := len(s.prev) - 1
	var cfg []string
	take := func(key string) bool {
		if i >= 0 {
			if v, ok := bytes.CutPrefix(s.prev[i], []byte(key+": ")); ok {
				cfg = append([]string{key, string(v)}, cfg...)
				i--
				return true
			}
		}
		return false
	}
	take("cpu")
	take("pkg")
	if !take("goarch") || i < 0 {
		return
	}
	j := bytes.LastIndex(s.prev[i], []byte("goos: "))
	if j < 0 {
		return
	}
	s.config = append([]string{"goos", string(s.prev[i][j+len("goos: "):])}, cfg...)
	s.haveCfg = true
}

// parseNumbers parses the testing package's numbers at the end of seg:
// the iteration count ("%8d") and one or more "\t<value> <unit>" fields.
// What precedes the count is the benchmark's own output.
func parseNumbers(seg []byte) (iters int64, values []byte, ok bool) {
	start := len(seg)
	for {
		i := bytes.LastIndexByte(seg[:start], '\t')
		if i < 0 || !isValueField(seg[i+1:start]) {
			break
		}
		start = i
	}
	if start == len(seg) {
		return 0, nil, false
	}
	// The count is printed "%8d": right-aligned in eight columns. A
	// count without that padding is the benchmark's own output.
	j := start
	for j > 0 && seg[j-1] >= '0' && seg[j-1] <= '9' {
		j--
	}
	if j == start {
		return 0, nil, false
	}
	for pad := 8 - (start - j); pad > 0; pad-- {
		if j == 0 || seg[j-1] != ' ' {
			return 0, nil, false
		}
		j--
	}
	n, err := strconv.ParseInt(string(bytes.TrimLeft(seg[j:start], " ")), 10, 64)
	if err != nil {
		return 0, nil, false
	}
	return n, seg[start:], true
}

// isValueField reports whether f is "  <number> <unit>".
func isValueField(f []byte) bool {
	f = bytes.TrimLeft(f, " ")
	num, unit, ok := bytes.Cut(f, []byte(" "))
	if !ok || len(unit) == 0 || bytes.ContainsAny(unit, " \t") {
		return false
	}
	_, err := strconv.ParseFloat(string(num), 64)
	return err == nil
}

// result records the pending benchmark's numbers as a result, or notes a
// zero-iteration line: the testing package prints one for a benchmark
// whose function did not return (it panicked, or called runtime.Goexit
// without failing), and it is not a measurement.
func (s *stdoutScanner) result(iters int64, values []byte) {
	if iters == 0 {
		s.zeroIters = true
		return
	}
	// The header as file configuration lines (so writers copy them),
	// then the result line.
	var text []byte
	for i := 0; i+1 < len(s.config); i += 2 {
		text = append(append(append(append(text, s.config[i]...), ": "...), s.config[i+1]...), '\n')
	}
	text = append(text, s.pending...)
	text = append(text, ' ')
	text = strconv.AppendInt(text, iters, 10)
	text = append(text, values...)
	if s.reader == nil {
		s.reader = benchfmt.NewReader(nil, s.file)
	}
	s.reader.Reset(bytes.NewReader(text), s.file)
	for s.reader.Scan() {
		if r, ok := s.reader.Result().(*benchfmt.Result); ok && !hasNaN(r) {
			s.results = append(s.results, r.Clone())
		}
	}
}

func hasNaN(r *benchfmt.Result) bool {
	for _, v := range r.Values {
		if math.IsNaN(v.Value) {
			return true
		}
	}
	return false
}

// failMessage returns the log lines of the benchmark's first --- FAIL
// block joined into one line, or the marker line itself when it has none.
func (s *stdoutScanner) failMessage() string { return blockMessage(s.failLines) }

// skipMessage says why the benchmark was skipped.
func (s *stdoutScanner) skipMessage() string {
	msg := blockMessage(s.skipLines)
	if len(s.skipLines) <= 1 {
		return "skipped"
	}
	return "skipped: " + msg
}

func blockMessage(lines []string) string {
	switch len(lines) {
	case 0:
		return ""
	case 1:
		return lines[0]
	}
	return strings.Join(lines[1:], "; ")
}

// skipAt matches the file:line the testing package puts before a skip's
// message ("x_test.go:12: dict missing").
var skipAt = regexp.MustCompile(`([A-Za-z0-9_./-]+_test\.go):(\d+):`)

// SkipSite returns the file:line a skipped benchmark's message names
// ("skipped: x_test.go:12: dict missing").
func SkipSite(msg string) (file string, line int64, ok bool) {
	m := skipAt.FindStringSubmatch(msg)
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.ParseInt(m[2], 10, 64)
	return m[1], n, err == nil
}
