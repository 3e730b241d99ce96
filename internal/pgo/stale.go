package pgo

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// Func is a function of the module's current code, as the compiler names
// it in profiles.
type Func struct {
	Name      string // "example.com/m/pkg.(*T).Method", "example.com/m/pkg.F", generic "example.com/m/pkg.G[...]"
	File      string // absolute path
	StartLine int    // the line of the func keyword
	EndLine   int    // the line of the closing brace
}

// Package is one package's import path, directory and Go files (non-test),
// as `go list` gives ImportPath, Dir and GoFiles.
type Package struct {
	ImportPath string   // "example.com/m/pkg"
	Dir        string   // the directory holding the files
	GoFiles    []string // file names, relative to Dir
}

// ModuleFuncs parses the Go files (not _test.go files) of the given
// packages and returns their functions by Name.
//
// Names are those of the compiler's symbols: the import path (its last
// element's dots escaped as %2e), then "F", "T.M", "(*T).M", with "[...]"
// for type parameters ("G[...]", "(*T[...]).M"), and "init.0", "init.1"…
// for init functions in the order of the files sorted by name, as the
// compiler numbers them. Each package also gets an entry "pkg.init" with
// no position (StartLine 0) for the initializer the compiler generates for
// package-level variables; it marks the package as present. A package main
// is named by its import path, as in its test binary; in a built command
// its functions are "main.F", which this does not match.
func ModuleFuncs(pkgs []Package) (map[string]Func, error) {
	funcs := make(map[string]Func)
	fset := token.NewFileSet()
	for _, pkg := range pkgs {
		prefix := staleSymPrefix(pkg.ImportPath)
		funcs[prefix+".init"] = Func{Name: prefix + ".init"}
		files := slices.Clone(pkg.GoFiles)
		slices.Sort(files)
		inits := 0
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			path := name
			if !filepath.IsAbs(path) {
				path = filepath.Join(pkg.Dir, name)
			}
			path, err := filepath.Abs(path)
			if err != nil {
				return nil, fmt.Errorf("parse %s: %w", name, err)
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, fmt.Errorf("parse %s: %w", path, err)
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				local := staleDeclName(fd)
				if local == "" {
					continue
				}
				if local == "init" {
					local = fmt.Sprintf("init.%d", inits)
					inits++
				}
				end := fd.End()
				if fd.Body != nil {
					end = fd.Body.Rbrace
				}
				fn := Func{
					Name:      prefix + "." + local,
					File:      path,
					StartLine: fset.Position(fd.Type.Func).Line,
					EndLine:   fset.Position(end).Line,
				}
				funcs[fn.Name] = fn
			}
		}
	}
	return funcs, nil
}

// staleDeclName returns the symbol name of fd within its package ("F",
// "G[...]", "T.M", "(*T[...]).M"), or "" for blank functions and receivers
// it cannot name.
func staleDeclName(fd *ast.FuncDecl) string {
	name := fd.Name.Name
	if name == "_" {
		return ""
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		if fd.Type.TypeParams.NumFields() > 0 {
			return name + "[...]"
		}
		return name
	}
	typ, star := fd.Recv.List[0].Type, false
	for {
		if p, ok := typ.(*ast.ParenExpr); ok {
			typ = p.X
		} else if s, ok := typ.(*ast.StarExpr); ok && !star {
			typ, star = s.X, true
		} else {
			break
		}
	}
	var recv string
	switch t := typ.(type) {
	case *ast.Ident:
		recv = t.Name
	case *ast.IndexExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			recv = id.Name + "[...]"
		}
	case *ast.IndexListExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			recv = id.Name + "[...]"
		}
	}
	switch {
	case recv == "":
		return ""
	case star:
		return "(*" + recv + ")." + name
	default:
		return recv + "." + name
	}
}

// staleSymPrefix is the prefix of the compiler's symbols for the package
// with import path path, as cmd/internal/objabi.PathToPrefix makes it:
// dots in the last element, '%', '"', spaces and controls escaped as %xx.
func staleSymPrefix(path string) string {
	slash := strings.LastIndex(path, "/")
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c <= ' ' || (c == '.' && i > slash) || c == '%' || c == '"' || c >= 0x7f {
			fmt.Fprintf(&b, "%%%02x", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Staleness is how much of a profile's weight still matches the code.
//
// The compiler matches a profile's call edges by function name and line
// offset from the function's start, so a function that only moved still
// matches. Shifted counts the frames that cannot match any more: their
// offset lies beyond the function's current body (it was edited), or, for
// a closure, its lines lie outside the function it is written in. An edit
// that keeps a function's length is not seen.
type Staleness struct {
	Total        int64    // sum of the profile's sample values (the value index PGO uses)
	Module       int64    // weight of samples with at least one frame in the module's non-test code
	Missing      int64    // weight of module samples with a frame in a function that no longer exists
	Shifted      int64    // weight of module samples (not Missing) with a frame whose line offset lies beyond its function's current body
	MissingFuncs []string // up to 10 names of missing functions, heaviest first
	ShiftedFuncs []string // up to 10 names of shifted functions, heaviest first
}

// staleTopFuncs is how many function names Staleness lists.
const staleTopFuncs = 10

// Stale compares profile p with the module's current functions funcs (as
// ModuleFuncs returns them). module is the module path.
//
// Every Line of every Location is a frame, so inlined calls count. A frame
// is the module's when its function's name begins with the module path
// ("mod/" or "mod.") and its file is not a _test.go file. A closure
// ("F.func1", "F.func1.2", "F-range1", "(*T).M.func3", "init.func1",
// "glob..func1", and inlined copies such as "G.F.func1") is judged by the
// function it is written in: present when that function is, shifted when
// its start or line falls outside that function. Other frames are shifted
// when their offset from the profile's start line (if recorded; else
// their line) falls outside the function's current [StartLine, EndLine]. Frames of compiler
// wrappers ("<autogenerated>") and assembly (".s") are not judged by line.
// Function lists weigh each function by the samples it appears in.
//
// If p has no sample type that PGO reads, the compiler rejects it and
// Stale returns the zero Staleness.
func Stale(p *profile.Profile, module string, funcs map[string]Func) Staleness {
	var s Staleness
	idx := staleValueIndex(p)
	if idx < 0 {
		return s
	}
	r := staleResolver{
		funcs:      funcs,
		rootPrefix: staleSymPrefix(module) + ".",
		subPrefix:  module + "/",
	}
	missingW := make(map[string]int64)
	shiftedW := make(map[string]int64)
	var missing, shifted []string // this sample's, each name once
	for _, smp := range p.Sample {
		if idx >= len(smp.Value) {
			continue
		}
		w := smp.Value[idx]
		s.Total += w
		inModule := false
		missing, shifted = missing[:0], shifted[:0]
		for _, loc := range smp.Location {
			if loc == nil {
				continue
			}
			for _, ln := range loc.Line {
				v := r.judge(ln)
				inModule = inModule || v.module
				if v.missing != "" && !slices.Contains(missing, v.missing) {
					missing = append(missing, v.missing)
				}
				if v.shifted != "" && !slices.Contains(shifted, v.shifted) {
					shifted = append(shifted, v.shifted)
				}
			}
		}
		if !inModule {
			continue
		}
		s.Module += w
		for _, n := range missing {
			missingW[n] += w
		}
		for _, n := range shifted {
			shiftedW[n] += w
		}
		if len(missing) > 0 {
			s.Missing += w
		} else if len(shifted) > 0 {
			s.Shifted += w
		}
	}
	s.MissingFuncs = staleHeaviest(missingW)
	s.ShiftedFuncs = staleHeaviest(shiftedW)
	return s
}

// staleValueIndex returns the index of the sample value PGO reads, or -1.
// It follows cmd/internal/pgo.FromPProf (Go 1.26, src/cmd/internal/pgo/pprof.go):
// the first sample type that is "samples/count" or "cpu/nanoseconds",
// whichever comes first, as one is a scaled copy of the other.
func staleValueIndex(p *profile.Profile) int {
	for i, st := range p.SampleType {
		if (st.Type == "samples" && st.Unit == "count") ||
			(st.Type == "cpu" && st.Unit == "nanoseconds") {
			return i
		}
	}
	return -1
}

// staleHeaviest returns up to staleTopFuncs names of w, heaviest first,
// then by name.
func staleHeaviest(w map[string]int64) []string {
	names := make([]string, 0, len(w))
	for n := range w {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(w[b], w[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	if len(names) > staleTopFuncs {
		names = names[:staleTopFuncs]
	}
	if len(names) == 0 {
		return nil
	}
	return names
}

// staleResolver judges a profile's frames against the module's functions.
type staleResolver struct {
	funcs      map[string]Func
	rootPrefix string // the module's root package's symbol prefix and "."
	subPrefix  string // the module path and "/"
}

// staleVerdict is what one frame says: whether it is the module's, and
// the name of its function if that is missing or shifted.
type staleVerdict struct {
	module           bool
	missing, shifted string
}

// judge returns the verdict on one frame.
func (r staleResolver) judge(ln profile.Line) staleVerdict {
	fn := ln.Function
	if fn == nil ||
		!(strings.HasPrefix(fn.Name, r.rootPrefix) || strings.HasPrefix(fn.Name, r.subPrefix)) ||
		strings.HasSuffix(fn.Filename, "_test.go") {
		return staleVerdict{}
	}
	v := staleVerdict{module: true}
	if fn.Filename == "<autogenerated>" {
		return v
	}
	name, closure := r.resolve(fn.Name)
	cur, ok := r.funcs[name]
	switch {
	case !ok:
		v.missing = name
		return v
	case cur.StartLine == 0 || strings.HasSuffix(fn.Filename, ".s"):
		return v
	}
	inside := func(line int64) bool {
		return line == 0 || (int64(cur.StartLine) <= line && line <= int64(cur.EndLine))
	}
	if closure {
		if !inside(fn.StartLine) || !inside(ln.Line) {
			v.shifted = name
		}
	} else if fn.StartLine != 0 {
		// The compiler matches call sites by their offset from the
		// function's start: a function that only moved still matches;
		// an offset beyond its current body does not.
		if off := ln.Line - fn.StartLine; off < 0 || int64(cur.StartLine)+off > int64(cur.EndLine) {
			v.shifted = name
		}
	} else if !inside(ln.Line) {
		v.shifted = name
	}
	return v
}

// resolve returns the name of the function a profile's function name is
// written in, as ModuleFuncs names it, and whether name is a closure
// (or another body the compiler outlined from it, as a range-over-func
// loop body) rather than that function itself. When the function does
// not exist, the name returned is the best guess of what it was.
func (r staleResolver) resolve(name string) (string, bool) {
	n := staleElideTypeArgs(name)
	slash := strings.LastIndex(n, "/")
	dot := strings.IndexByte(n[slash+1:], '.')
	if dot < 0 {
		return n, false
	}
	pkg, rest := n[:slash+1+dot], n[slash+1+dot+1:]
	toks := staleSplit(rest)
	closure := false
	for i, t := range toks {
		// "F-range1": a loop body; "T.M-fm": a method value's wrapper.
		if before, after, ok := strings.Cut(t, "-"); ok {
			toks[i] = before
			closure = closure || strings.HasPrefix(after, "range")
		}
	}
	// Drop the closure suffixes: "func1", "gowrap1", "deferwrap1", and the
	// numbers of nested closures ("func1.2.1"), but not "init.0".
	end := len(toks)
	for end > 1 {
		t := toks[end-1]
		if staleIsClosureTok(t) ||
			(staleIsDigits(t) && end >= 2 && (staleIsClosureTok(toks[end-2]) || staleIsDigits(toks[end-2]))) {
			end--
			continue
		}
		break
	}
	closure = closure || end < len(toks)
	toks = toks[:end]
	last := toks[len(toks)-1]
	if len(toks) == 2 && toks[0] == "glob" && toks[1] == "" { // "glob..func1"
		return pkg + ".init", true
	}
	if len(toks) >= 2 {
		method := pkg + "." + toks[len(toks)-2] + "." + last
		if strings.HasPrefix(toks[len(toks)-2], "(") || !closure {
			return method, closure
		}
		if _, ok := r.funcs[method]; ok {
			return method, closure
		}
		fn := pkg + "." + last
		if _, ok := r.funcs[fn]; ok {
			return fn, closure
		}
		// Missing: "T.M.func1" is a method's closure unless T is a
		// function into which M was inlined.
		if _, ok := r.funcs[pkg+"."+toks[0]]; len(toks) == 2 && !ok {
			return method, closure
		}
		return fn, closure
	}
	return pkg + "." + last, closure
}

// staleElideTypeArgs replaces the contents of each outermost bracket pair
// of name with "...": pprof names "G[go.shape.int]" become "G[...]".
func staleElideTypeArgs(name string) string {
	if !strings.Contains(name, "[") {
		return name
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '[':
			if depth == 0 {
				b.WriteString("[...")
			}
			depth++
		case c == ']' && depth > 0:
			depth--
			if depth == 0 {
				b.WriteByte(']')
			}
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// staleSplit splits s at the dots outside parentheses and brackets.
func staleSplit(s string) []string {
	var toks []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '.':
			if depth == 0 {
				toks = append(toks, s[start:i])
				start = i + 1
			}
		}
	}
	return append(toks, s[start:])
}

// staleIsClosureTok reports whether t names a closure or a go or defer
// statement's wrapper: "func1", "gowrap2", "deferwrap1".
func staleIsClosureTok(t string) bool {
	for _, p := range []string{"func", "gowrap", "deferwrap"} {
		if rest, ok := strings.CutPrefix(t, p); ok && staleIsDigits(rest) {
			return true
		}
	}
	return false
}

// staleIsDigits reports whether t is a non-empty run of decimal digits.
func staleIsDigits(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}
