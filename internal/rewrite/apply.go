package rewrite

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"slices"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"
)

// A Change replaces the bytes [Start, End) of a file with New: one
// TextEdit of a suggested fix, as offsets, so that changes made by
// different analyzers (or in different type checks of one file) can be
// put together.
type Change struct {
	Start, End int
	New        []byte
}

// ErrOverlap is returned by Merge and Apply when two changes edit the
// same bytes differently.
var ErrOverlap = errors.New("two changes edit the same bytes")

// Merge returns the changes of a and b together, sorted; a change both
// have (an import both add) is kept once, and insertions at one place
// are made one after the other, a's first (two imports, two package
// variables). It fails with ErrOverlap when a change replaces bytes
// another change also edits: the two edits cannot both be made.
func Merge(a, b []Change) ([]Change, error) {
	all := append(slices.Clone(a), b...)
	slices.SortStableFunc(all, func(x, y Change) int {
		return cmp.Or(cmp.Compare(x.Start, y.Start), cmp.Compare(x.End, y.End))
	})
	var out []Change
	for _, c := range all {
		if n := len(out); n > 0 {
			last := out[n-1]
			if slices.ContainsFunc(out, func(o Change) bool {
				return o.Start == c.Start && o.End == c.End && bytes.Equal(o.New, c.New)
			}) {
				continue
			}
			if c.Start < last.End {
				return nil, fmt.Errorf("%w: [%d,%d) and [%d,%d)", ErrOverlap, last.Start, last.End, c.Start, c.End)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// Apply makes the changes in src (the file at path, for messages) and
// returns the file after them, with its imports repaired and gofmt'd:
// an import the changes left unused is removed, and a standard package
// the new code names without an import (strconv.Itoa where only fmt was
// imported) is imported. Changes that overlap, or a result that does not
// parse, are an error.
func Apply(path string, src []byte, changes []Change) ([]byte, error) {
	sorted, err := Merge(changes, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []byte
	at := 0
	for _, c := range sorted {
		if c.Start < at || c.End > len(src) || c.Start > c.End {
			return nil, fmt.Errorf("%s: a change [%d,%d) outside the file (%d bytes)", path, c.Start, c.End, len(src))
		}
		out = append(append(out, src[at:c.Start]...), c.New...)
		at = c.End
	}
	out = append(out, src[at:]...)
	return repairImports(path, src, out)
}

// stdNames are the standard packages an edit may name without importing
// them, by the name code uses: what fix's candidates write.
var stdNames = map[string]string{
	"bufio": "bufio", "bytes": "bytes", "cmp": "cmp", "errors": "errors", "fmt": "fmt",
	"hex": "encoding/hex", "io": "io", "maps": "maps", "os": "os", "regexp": "regexp",
	"slices": "slices", "sort": "sort", "strconv": "strconv", "strings": "strings",
	"sync": "sync", "utf8": "unicode/utf8",
}

// repairImports removes the imports of after that before used and after
// does not, imports the standard packages after names as qualifiers that
// before did not and nothing declares, and formats after.
func repairImports(path string, before, after []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, after, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("%s after the edit: %w", path, err)
	}
	bf, err := parser.ParseFile(token.NewFileSet(), path, before, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, s := range slices.Clone(f.Imports) {
		p, err := strconv.Unquote(s.Path.Value)
		if err != nil || (s.Name != nil && (s.Name.Name == "_" || s.Name.Name == ".")) {
			continue
		}
		if astutil.UsesImport(bf, p) && !astutil.UsesImport(f, p) {
			if s.Name != nil {
				astutil.DeleteNamedImport(fset, f, s.Name.Name, p)
			} else {
				astutil.DeleteImport(fset, f, p)
			}
		}
	}
	had := qualifiers(bf)
	for name := range qualifiers(f) {
		p, ok := stdNames[name]
		if !ok || had[name] || imports(f, name) || declared(f, name) {
			continue
		}
		astutil.AddImport(fset, f, p)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, fmt.Errorf("%s after the edit: %w", path, err)
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s after the edit: %w", path, err)
	}
	return out, nil
}

// qualifiers are the names used as X in X.Sel selections.
func qualifiers(f *ast.File) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				out[id.Name] = true
			}
		}
		return true
	})
	return out
}

// imports reports whether f imports a package under name.
func imports(f *ast.File, name string) bool {
	for _, s := range f.Imports {
		p, _ := strconv.Unquote(s.Path.Value)
		if s.Name != nil && s.Name.Name == name || s.Name == nil && defaultName(p) == name {
			return true
		}
	}
	return false
}

// declared reports whether f declares name anywhere (a variable, a
// parameter, a type): then name.X is not the package.
func declared(f *ast.File, name string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for _, id := range n.Names {
				found = found || id.Name == name
			}
		case *ast.TypeSpec:
			found = found || n.Name.Name == name
		case *ast.FuncDecl:
			found = found || n.Name.Name == name
		case *ast.Field:
			for _, id := range n.Names {
				found = found || id.Name == name
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == name {
						found = true
					}
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && id.Name == name && n.Tok == token.DEFINE {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
