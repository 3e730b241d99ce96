package gate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/gotest"
)

// Change is what a change touched, as the gate weighs it: the functions
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
func NewChange(changes []gotest.FileChange, rel string, dirs [2]string, modPath string) *Change {
	c := &Change{}
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
		if !strings.HasSuffix(p, ".go") {
			if c.Global == "" && !harmless(p) {
				c.Global = p
			}
			continue
		}
		for side, ranges := range [2][][2]int{fc.Old, fc.New} {
			src, err := os.ReadFile(filepath.Join(dirs[side], filepath.FromSlash(p)))
			if err != nil {
				continue // not on this side: added or deleted
			}
			funcs, global := touchedFuncs(p, src, ranges, modPath)
			c.Funcs[side] = append(c.Funcs[side], funcs...)
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
	}
	return c
}

// harmless reports whether a changed file that is not Go source cannot
// change what a benchmark measures: documentation and CI configuration.
func harmless(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".rst", ".adoc":
		return true
	}
	base := strings.ToUpper(path.Base(p))
	return strings.HasPrefix(p, ".github/") || strings.HasPrefix(base, "LICENSE") || strings.HasPrefix(base, "AUTHORS")
}

// touchedFuncs returns the functions of a Go file that the line ranges
// touch, and where they touch code outside functions that is not an
// import ("" when they do not).
func touchedFuncs(file string, src []byte, ranges [][2]int, modPath string) ([]FuncSpan, string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, file // unparsable: anything may have changed
	}
	pkg := modPath
	if d := path.Dir(file); d != "." {
		pkg += "/" + d
	}
	if strings.HasSuffix(f.Name.Name, "_test") {
		pkg += "_test"
	}
	overlaps := func(n ast.Node) bool {
		start, end := fset.Position(n.Pos()).Line, fset.Position(n.End()).Line
		return slices.ContainsFunc(ranges, func(r [2]int) bool { return r[0] <= end && start <= r[1] })
	}
	var funcs []FuncSpan
	global := ""
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if overlaps(d) {
				funcs = append(funcs, FuncSpan{Package: pkg, Name: pkg + "." + funcName(d), File: file,
					Start: fset.Position(d.Pos()).Line, End: fset.Position(d.End()).Line, Test: strings.HasSuffix(file, "_test.go")})
			}
		case *ast.GenDecl:
			if d.Tok != token.IMPORT && overlaps(d) && global == "" {
				global = file + ":" + strconv.Itoa(fset.Position(d.Pos()).Line)
			}
		}
	}
	return funcs, global
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
