package profiles

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/perfloop/perfloop/internal/document"
)

// Options says what a profile was measured on.
type Options struct {
	// ModuleDir is the root of the measured module: frames whose source
	// lies under it are the module's own code, and their files are
	// reported relative to it.
	ModuleDir string
	// ModulePath is the module's path, which names the module's files in
	// binaries built with -trimpath ("example.com/m/codec.go").
	ModulePath string
	// Benchmark is the top-level benchmark function's name
	// ("BenchmarkEncode"), where the dominant call path starts.
	Benchmark string
	// Untimed holds the lines of the benchmark's own code that run with
	// the timer stopped ("bench_test.go:42", relative to the module root):
	// between b.StopTimer and b.StartTimer, or setup before b.ResetTimer.
	// Samples that pass through them are not the benchmark's measured
	// work and are left out (see CPU.Untimed).
	Untimed map[string]bool
	// Changed says whether a line of the module (file relative to the
	// module root) is one a change touched. When it is set, CPU.Reach
	// charges the time of unchanged code to the changed frames that lead
	// to it.
	Changed func(file string, line int64) bool
	// Phases asks AnalyzeCPU for the run's phases (CPU.Phases), which
	// cost further passes over the samples: a program's run reads as its
	// phases, a benchmark as its lines.
	Phases bool
}

// frame is one frame of a stack: a function node and a line node.
type frame struct {
	fn   int32 // index into index.funcs
	line int32 // index into index.lines
	// inlined reports that the frame was inlined into the next frame of
	// the stack (a Location's Line entries but the last).
	inlined bool
}

// funcNode is a function, keyed by name as pprof's functions granularity
// keys it.
type funcNode struct {
	name  string
	file  string // as recorded in the profile
	class class
	// module reports whether the function's source is in the measured
	// module; inTest whether it is in a _test.go file.
	module, inTest bool
	runtime        bool // runtime or internal/runtime code
	bench          bool // the benchmark function or one of its closures
	preempt        bool // runtime.asyncPreempt, where preempted code is sampled
}

// lineNode is one line of one function.
type lineNode struct {
	fn   int32
	line int64
	file string
}

// index numbers a profile's functions and lines once, and flattens every
// Location into frames, so the per-sample loops index slices instead of
// building keys.
type index struct {
	opts   Options
	goroot string // GOROOT as it appears in file names, "" if unknown
	funcs  []funcNode
	lines  []lineNode
	// flat holds every location's frames, innermost first, one location
	// after another; a locSpan says where a location's are.
	flat []frame
	// byID maps a location ID to its span when IDs are dense; sparse maps
	// them otherwise.
	byID   []locSpan
	sparse map[uint64]locSpan
}

// locSpan locates one location's frames in index.flat.
type locSpan struct{ start, n int32 }

func newIndex(p *profile.Profile, opts Options) *index {
	ix := &index{opts: opts, goroot: findGOROOT(p)}
	funcByName := make(map[string]int32, len(p.Function))
	funcOf := make(map[*profile.Function]int32, len(p.Function))
	for _, f := range p.Function {
		id, ok := funcByName[f.Name]
		if !ok {
			id = int32(len(ix.funcs))
			funcByName[f.Name] = id
			ix.funcs = append(ix.funcs, ix.newFunc(f.Name, f.Filename))
		} else if fn := &ix.funcs[id]; !fn.module && ix.inModule(f.Filename) {
			// One function, several entries (a generic function's
			// instantiations, inlined copies): it is the module's when
			// any of its files is.
			*fn = ix.newFunc(f.Name, f.Filename)
		}
		funcOf[f] = id
	}
	lineByKey := make(map[uint64]int32)
	maxID := uint64(0)
	for _, l := range p.Location {
		maxID = max(maxID, l.ID)
	}
	if maxID <= uint64(2*len(p.Location)+64) {
		ix.byID = make([]locSpan, maxID+1)
	} else {
		ix.sparse = make(map[uint64]locSpan, len(p.Location))
	}
	ix.flat = make([]frame, 0, len(p.Location)+len(p.Location)/4)
	for _, l := range p.Location {
		span := locSpan{start: int32(len(ix.flat))}
		if len(l.Line) == 0 {
			// Unsymbolized: pprof shows the address as the node.
			name := fmt.Sprintf("%#x", l.Address)
			id, ok := funcByName[name]
			if !ok {
				id = int32(len(ix.funcs))
				funcByName[name] = id
				ix.funcs = append(ix.funcs, ix.newFunc(name, ""))
			}
			ix.flat = append(ix.flat, frame{fn: id, line: ix.lineID(lineByKey, id, 0, "")})
		}
		for i, ln := range l.Line {
			fid := funcOf[ln.Function]
			ix.flat = append(ix.flat, frame{fn: fid, line: ix.lineID(lineByKey, fid, ln.Line, ln.Function.Filename), inlined: i < len(l.Line)-1})
		}
		span.n = int32(len(ix.flat)) - span.start
		if ix.byID != nil {
			ix.byID[l.ID] = span
		} else {
			ix.sparse[l.ID] = span
		}
	}
	return ix
}

func (ix *index) lineID(byKey map[uint64]int32, fid int32, line int64, file string) int32 {
	key := uint64(uint32(fid))<<32 | uint64(uint32(line))
	id, ok := byKey[key]
	if !ok {
		id = int32(len(ix.lines))
		byKey[key] = id
		ix.lines = append(ix.lines, lineNode{fn: fid, line: line, file: file})
	}
	return id
}

func (ix *index) newFunc(name, file string) funcNode {
	name = FuncName(name)
	f := funcNode{name: name, file: file}
	f.module = ix.inModule(file) || ix.lineDirected(name, file)
	f.inTest = f.module && strings.HasSuffix(file, "_test.go")
	f.runtime = isRuntime(name)
	f.class = classify(name, f.module)
	f.preempt = strings.HasPrefix(name, "runtime.asyncPreempt")
	if b := ix.opts.Benchmark; b != "" {
		f.bench = strings.HasSuffix(name, "."+b) || strings.Contains(name, "."+b+".func")
	}
	return f
}

// untimed reports whether a stack passes through a line of the benchmark's
// code that runs with the timer stopped.
func (ix *index) untimed(stack []frame) bool {
	if len(ix.opts.Untimed) == 0 {
		return false
	}
	for _, f := range stack {
		if !ix.funcs[f.fn].inTest {
			continue
		}
		ln := ix.lines[f.line]
		if ix.opts.Untimed[ix.relFile(ln.file)+":"+strconv.FormatInt(ln.line, 10)] {
			return true
		}
	}
	return false
}

// stack appends the frames of sample s to buf, leaf first.
func (ix *index) stack(buf []frame, s *profile.Sample) []frame {
	buf = buf[:0]
	for _, l := range s.Location {
		var span locSpan
		if ix.byID != nil {
			span = ix.byID[l.ID]
		} else {
			span = ix.sparse[l.ID]
		}
		// Most locations have one frame: append it without a copy call.
		if span.n == 1 {
			buf = append(buf, ix.flat[span.start])
			continue
		}
		buf = append(buf, ix.flat[span.start:span.start+span.n]...)
	}
	return buf
}

// inModule reports whether file is source of the measured module.
func (ix *index) inModule(file string) bool {
	if file == "" {
		return false
	}
	if d := ix.opts.ModuleDir; d != "" && strings.HasPrefix(file, strings.TrimSuffix(d, "/")+"/") {
		return true
	}
	// -trimpath names the main module's files by module path.
	if mp := ix.opts.ModulePath; mp != "" && !path.IsAbs(file) && strings.HasPrefix(file, mp+"/") {
		return true
	}
	return false
}

// lineDirected reports whether a function of the module's packages has
// its positions set by //line directives to a file named without a
// directory: generated code, whose lines point at its generator's input
// (goyacc's parser as "yaccpar" and the grammar's actions as "sql.y" in
// xwb1989/sqlparser). The compiler names real source files with their
// directory (absolute, or the module path under -trimpath), and its own
// wrappers "<autogenerated>".
func (ix *index) lineDirected(name, file string) bool {
	mp := ix.opts.ModulePath
	if mp == "" || file == "" || strings.ContainsAny(file, "/\\<") || file == "?" {
		return false
	}
	return strings.HasPrefix(name, mp+".") || strings.HasPrefix(name, mp+"/")
}

// relFile returns file as perfloop reports it: relative to the module root
// for the module's files, slash-separated; for the standard library and the
// module cache, the path -trimpath would give ("fmt/print.go",
// "golang.org/x/text@v0.1.0/width.go").
func (ix *index) relFile(file string) string {
	file = strings.ReplaceAll(file, `\`, "/")
	if d := strings.ReplaceAll(strings.TrimSuffix(ix.opts.ModuleDir, "/"), `\`, "/"); d != "" {
		if rel, ok := strings.CutPrefix(file, d+"/"); ok {
			return rel
		}
	}
	if mp := ix.opts.ModulePath; mp != "" && !path.IsAbs(file) {
		if rel, ok := strings.CutPrefix(file, mp+"/"); ok {
			return rel
		}
	}
	if ix.goroot != "" {
		if rel, ok := strings.CutPrefix(file, ix.goroot+"/src/"); ok {
			return rel
		}
	}
	if i := strings.LastIndex(file, "/pkg/mod/"); i >= 0 {
		return file[i+len("/pkg/mod/"):]
	}
	return file
}

// findGOROOT finds the GOROOT the profiled binary was built from in the
// file names of its runtime functions.
func findGOROOT(p *profile.Profile) string {
	for _, f := range p.Function {
		if !strings.HasPrefix(f.Name, "runtime.") {
			continue
		}
		if i := strings.LastIndex(f.Filename, "/src/runtime/"); i > 0 {
			return f.Filename[:i]
		}
	}
	return ""
}

// FuncName returns a profile's function name as Go source names it: the
// linker escapes a dot in the last element of a package path, and a few
// other bytes, as %XX ("gopkg.in/yaml%2ev3.(*parser).node"); the name
// has its package's path as the go command and the compiler write it
// ("gopkg.in/yaml.v3.(*parser).node"). A Go identifier has no %, so every
// valid %XX in a symbol is such an escape.
func FuncName(name string) string {
	if !strings.Contains(name, "%") {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if name[i] == '%' && i+2 < len(name) {
			if h, l := unhex(name[i+1]), unhex(name[i+2]); h >= 0 && l >= 0 {
				b.WriteByte(byte(h<<4 | l))
				i += 2
				continue
			}
		}
		b.WriteByte(name[i])
	}
	return b.String()
}

// unhex is the value of a hexadecimal digit, -1 for another byte.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// isRuntime reports whether the function is the Go runtime's.
func isRuntime(name string) bool {
	return strings.HasPrefix(name, "runtime.") || strings.HasPrefix(name, "internal/runtime/") ||
		strings.HasPrefix(name, "runtime/internal/") || !strings.Contains(name, ".")
}

// ShortName returns a function's name as a person writes it in a call
// path: the module's own functions by bare name ("Find", closures as
// "Build.func1"), others with their package's last element
// ("runtime.mapaccess2_faststr", "strings.Builder.WriteString").
func ShortName(name string, module bool) string {
	name = document.PlainFunc(name)
	pkg, rest := document.SplitFunc(name)
	if pkg == "" {
		return name
	}
	pkg = pkg[strings.LastIndexByte(pkg, '/')+1:]
	rest = strings.NewReplacer("(*", "", ")", "").Replace(rest)
	if !module {
		return pkg + "." + rest
	}
	parts := strings.Split(rest, ".")
	// Drop the receiver: "Index.Count" → "Count", but keep the function
	// a closure belongs to: "Build.func1".
	if len(parts) >= 2 && !isClosurePart(parts[1]) {
		parts = parts[1:]
	}
	return strings.Join(parts, ".")
}

func isClosurePart(s string) bool {
	s = strings.TrimPrefix(s, "func")
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
