package check

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/git"
)

// Change is what a change touched, as check weighs it: the functions
// whose code changed on each side, and anything outside functions that
// can act on every benchmark.
type Change struct {
	// Files are the module's changed files, relative to its root and
	// slash-separated.
	Files []string
	// Funcs are the changed functions of BASE's [0] and HEAD's [1]
	// version of the files.
	Funcs [2][]FuncSpan
	// Global says what changed outside functions in the module's code
	// that is not a comment, an import or documentation ("codec.go:3",
	// "go.mod"); "" when nothing did.
	Global string
	// TestGlobals are the directories whose _test.go files changed
	// outside functions: their benchmarks' fixtures may have changed.
	TestGlobals []string
	// Hunks are the diff's hunks per file (see git.FileChange).
	Hunks map[string][][4]int

	dirs    [2]string             // BASE's and HEAD's module directories
	modPath string                // the module path
	decls   map[string][]FuncSpan // HEAD's functions per file, read once
}

// funcAt returns the function of HEAD's file that holds line, or "".
func (c *Change) funcAt(file string, line int) string {
	if c == nil || c.dirs[1] == "" {
		return ""
	}
	if c.decls == nil {
		c.decls = map[string][]FuncSpan{}
	}
	spans, ok := c.decls[file]
	if !ok {
		if src, err := os.ReadFile(filepath.Join(c.dirs[1], filepath.FromSlash(file))); err == nil {
			spans, _, _, _ = touchedFuncs(file, src, [][2]int{{1, math.MaxInt}}, c.modPath)
		}
		c.decls[file] = spans
	}
	for _, s := range spans {
		if s.Start <= line && line <= s.End {
			return s.Name
		}
	}
	return ""
}

// headLine carries a line of BASE's version of file to HEAD's; ok is
// false for a line the change rewrote or removed. A nil Change maps
// nothing.
func (c *Change) headLine(file string, line int) (int, bool) {
	if c == nil {
		return 0, false
	}
	shift := 0
	for _, h := range c.Hunks[file] {
		oldStart, oldN, newN := h[0], h[1], h[3]
		switch {
		case oldN == 0 && line > oldStart, oldN > 0 && line >= oldStart+oldN:
			shift += newN - oldN // the hunk is above the line
		case oldN > 0 && line >= oldStart:
			return 0, false // inside it
		}
	}
	return line + shift, true
}

// changedInHead reports whether a line of HEAD's version of file is one
// the change wrote.
func (c *Change) changedInHead(file string, line int) bool {
	if c == nil {
		return false
	}
	for _, h := range c.Hunks[file] {
		if h[3] > 0 && line >= h[2] && line < h[2]+h[3] {
			return true
		}
	}
	return false
}

// inChangedFunc reports whether HEAD's function fn (as profiles name
// it) is one the change touched.
func (c *Change) inChangedFunc(fn string) bool {
	if c == nil {
		return false
	}
	fn = document.PlainFunc(fn)
	return slices.ContainsFunc(c.Funcs[1], func(s FuncSpan) bool { return document.PlainFunc(s.Name) == fn })
}

// touchedInHead reports whether a line of HEAD's version of file is one
// the change wrote or lies in a function it changed.
func (c *Change) touchedInHead(file string, line int) bool {
	if c == nil {
		return false
	}
	return c.changedInHead(file, line) || slices.ContainsFunc(c.Funcs[1], func(s FuncSpan) bool {
		return s.File == file && s.Start <= line && line <= s.End
	})
}

// mark fills what a compiler verdict's cause says about the change: the
// function its line is in (when HEAD's changed functions hold it), and
// whether the change touched that line or function.
func (c *Change) mark(k document.Cause) document.Cause {
	if c == nil {
		return k
	}
	for _, s := range c.Funcs[1] {
		if k.Function == "" && s.File == k.File && s.Start <= int(k.Line) && int(k.Line) <= s.End {
			k.Function = s.Name
		}
	}
	if k.Function == "" {
		k.Function = c.funcAt(k.File, int(k.Line))
	}
	k.Changed = c.touchedInHead(k.File, int(k.Line))
	k.Outside = !k.Changed
	return k
}

// FuncSpan is a function and the lines it spans in one side's file.
type FuncSpan struct {
	Package    string // import path, with "_test" for an external test package
	Name       string // as profiles name it: "example.com/m.(*T).M"
	File       string // relative to the module root
	Start, End int
	Test       bool // in a _test.go file
}

// NewChange reads what changed in a module between its two checkouts.
// changes are git's, relative to the repository's top directory; rel is
// the module's directory in the repository ("" or "." at the top); dirs
// are BASE's and HEAD's module directories; modPath is the module path.
func NewChange(changes []git.FileChange, rel string, dirs [2]string, modPath string) *Change {
	c := &Change{dirs: dirs, modPath: modPath}
	names := map[string]*[2][]string{} // package directory → changed names per side
	rel = strings.Trim(filepath.ToSlash(rel), "/")
	for _, fc := range changes {
		p := fc.Path
		if rel != "" && rel != "." {
			var ok bool
			if p, ok = strings.CutPrefix(p, rel+"/"); !ok {
				continue // another module's file
			}
		}
		c.Files = append(c.Files, p)
		if len(fc.Hunks) > 0 {
			if c.Hunks == nil {
				c.Hunks = map[string][][4]int{}
			}
			c.Hunks[p] = fc.Hunks
		}
		if !strings.HasSuffix(p, ".go") {
			if c.Global == "" && !harmless(p) {
				c.Global = p
			}
			continue
		}
		var globals, decls [2]string // per side: where, and what
		for side, ranges := range sideRanges(fc.Hunks) {
			src, err := os.ReadFile(filepath.Join(dirs[side], filepath.FromSlash(p)))
			if err != nil {
				continue // not on this side: added or deleted
			}
			funcs, values, global, decl := touchedFuncs(p, src, ranges, modPath)
			globals[side], decls[side] = global, decl
			c.Funcs[side] = append(c.Funcs[side], funcs...)
			if len(values) > 0 {
				d := path.Dir(p)
				if names[d] == nil {
					names[d] = new([2][]string)
				}
				names[d][side] = append(names[d][side], values...)
			}
		}
		// Named in HEAD's lines; a declaration only BASE has was deleted.
		global := globals[1]
		if global == "" && globals[0] != "" {
			global = p + ": " + decls[0] + " (deleted)"
		}
		switch {
		case global == "":
		case strings.HasSuffix(p, "_test.go"):
			if d := path.Dir(p); !slices.Contains(c.TestGlobals, d) {
				c.TestGlobals = append(c.TestGlobals, d)
			}
		case c.Global == "":
			c.Global = global
		}
	}
	// A changed constant or variable changes the functions that use it,
	// whose own lines did not change.
	for d, sides := range names {
		for side, ns := range sides {
			if len(ns) > 0 {
				c.Funcs[side] = append(c.Funcs[side], referencing(dirs[side], modPath, d, ns)...)
			}
		}
	}
	for side := range c.Funcs {
		slices.SortStableFunc(c.Funcs[side], func(a, b FuncSpan) int { return strings.Compare(a.File+" "+a.Name, b.File+" "+b.Name) })
		c.Funcs[side] = slices.CompactFunc(c.Funcs[side], func(a, b FuncSpan) bool { return a == b })
	}
	return c
}

// sideRanges turns hunks into the lines they touch on each side, as
// inclusive [first, last] ranges. A side with no lines touches no line
// but the gap after line p: the inverted range [p+1, p], which overlaps
// a declaration exactly when the declaration spans both p and p+1 (the
// insertion is inside it).
func sideRanges(hunks [][4]int) [2][][2]int {
	var out [2][][2]int
	for _, h := range hunks {
		for side := range 2 {
			start, n := h[2*side], h[2*side+1]
			r := [2]int{start, start + n - 1}
			if n == 0 {
				r = [2]int{start + 1, start}
			}
			out[side] = append(out[side], r)
		}
	}
	return out
}

// harmless reports whether a changed file that is not Go source cannot
// change what a benchmark measures: documentation and CI configuration.
func harmless(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".rst", ".adoc":
		return true
	}
	base := strings.ToUpper(path.Base(p))
	switch strings.ToLower(p) {
	case ".travis.yml", "appveyor.yml", ".appveyor.yml", ".gitlab-ci.yml", ".golangci.yml", ".golangci.yaml", "codecov.yml", ".codecov.yml":
		return true
	}
	return strings.HasPrefix(p, ".github/") || strings.HasPrefix(p, ".circleci/") || strings.HasPrefix(base, "LICENSE") || strings.HasPrefix(base, "AUTHORS")
}

// touchedFuncs returns the functions of a Go file that the line ranges
// touch, the package-level constants and variables they touch, and where
// they touch a type declaration ("" when they do not) and which ("type
// header"): a type's layout reaches code that never names it.
func touchedFuncs(file string, src []byte, ranges [][2]int, modPath string) (funcs []FuncSpan, names []string, global, decl string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, file, "its code" // unparsable: anything may have changed
	}
	pkg := pkgPath(modPath, file, f)
	overlaps := func(n ast.Node) bool {
		start, end := fset.Position(n.Pos()).Line, fset.Position(n.End()).Line
		return slices.ContainsFunc(ranges, func(r [2]int) bool { return r[0] <= end && start <= r[1] })
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if overlaps(d) {
				funcs = append(funcs, span(fset, pkg, file, d))
			}
		case *ast.GenDecl:
			switch {
			case d.Tok == token.IMPORT || !overlaps(d):
			case d.Tok == token.TYPE:
				if global == "" {
					global = file + ":" + strconv.Itoa(fset.Position(d.Pos()).Line)
					decl = "a type"
					if len(d.Specs) > 0 {
						decl = "type " + d.Specs[0].(*ast.TypeSpec).Name.Name
					}
				}
			default:
				// Every name of the block: inserting a constant in an
				// iota block changes the ones after it.
				for _, sp := range d.Specs {
					for _, n := range sp.(*ast.ValueSpec).Names {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return funcs, names, global, decl
}

// pkgPath is the import path of a file's package, with "_test" for an
// external test package.
func pkgPath(modPath, file string, f *ast.File) string {
	pkg := modPath
	if d := path.Dir(file); d != "." {
		pkg += "/" + d
	}
	if strings.HasSuffix(f.Name.Name, "_test") {
		pkg += "_test"
	}
	return pkg
}

func span(fset *token.FileSet, pkg, file string, d *ast.FuncDecl) FuncSpan {
	return FuncSpan{Package: pkg, Name: pkg + "." + funcName(d), File: file,
		Start: fset.Position(d.Pos()).Line, End: fset.Position(d.End()).Line, Test: strings.HasSuffix(file, "_test.go")}
}

// referencing returns the functions of the module in dir that use one of
// the changed package-level names of package directory pkgDir: by name
// in that package, by selector anywhere (conservatively: any selector of
// that name), and through package-level values whose initializers use
// them.
func referencing(dir, modPath, pkgDir string, changed []string) []FuncSpan {
	type parsed struct {
		file string
		fset *token.FileSet
		f    *ast.File
	}
	var files []parsed
	_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.IsDir() {
			n := e.Name()
			if p != dir && (n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || exists(filepath.Join(p, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		fset := token.NewFileSet()
		if f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution); err == nil {
			files = append(files, parsed{filepath.ToSlash(rel), fset, f})
		}
		return nil
	})
	set := map[string]bool{}
	for _, n := range changed {
		set[n] = true
	}
	local := func(file string) bool { return path.Dir(file) == pkgDir }
	uses := func(file string, n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if set[x.Sel.Name] {
					found = true
				}
				if id, ok := x.X.(*ast.Ident); ok && local(file) && set[id.Name] {
					found = true
				}
				return !found && !local(file) // in other packages only selectors count
			case *ast.Ident:
				if local(file) && set[x.Name] {
					found = true
				}
			}
			return !found
		})
		return found
	}
	// Package-level values of the package computed from changed ones
	// change too.
	for grew := true; grew; {
		grew = false
		for _, pf := range files {
			if !local(pf.file) {
				continue
			}
			for _, d := range pf.f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok == token.IMPORT || g.Tok == token.TYPE {
					continue
				}
				for _, sp := range g.Specs {
					vs := sp.(*ast.ValueSpec)
					for _, v := range vs.Values {
						if !uses(pf.file, v) {
							continue
						}
						for _, n := range vs.Names {
							if !set[n.Name] {
								set[n.Name], grew = true, true
							}
						}
					}
				}
			}
		}
	}
	var out []FuncSpan
	for _, pf := range files {
		for _, d := range pf.f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && uses(pf.file, fd.Body) {
				out = append(out, span(pf.fset, pkgPath(modPath, pf.file, pf.f), pf.file, fd))
			}
		}
	}
	return out
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// funcName is a declared function's name as profiles write it after the
// package path: "F", "T.M", "(*T).M" (type parameters dropped).
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	ptr := false
	if s, ok := t.(*ast.StarExpr); ok {
		t, ptr = s.X, true
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	if ptr {
		return "(*" + name + ")." + d.Name.Name
	}
	return name + "." + d.Name.Name
}
