package judge

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestAdviceLabels checks that every must-find cause of every corpus
// module says which advice fits it, and that the shapes the labels name
// are shapes perfloop's matchers report (internal/site's and
// internal/rewrite's), so a label cannot wait for a shape no matcher
// gives.
func TestAdviceLabels(t *testing.T) {
	shapes := shapeNames(t)
	dirs, err := filepath.Glob(filepath.Join("testdata", "corpus", "*", "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range dirs {
		l, err := ReadLabels(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range l.Causes {
			if c.MustFind && c.Advice == nil {
				t.Errorf("%s: must-find cause %s has no advice label", l.Name, c.ID)
			}
			if c.Advice == nil {
				continue
			}
			names := []string{c.Advice.Shape}
			for _, b := range c.Advice.Bad {
				names = append(names, b.Shape)
			}
			for _, n := range names {
				if n != "" && !shapes[n] {
					t.Errorf("%s: cause %s names shape %q, which no matcher reports (known: %v)", l.Name, c.ID, n, slices.Sorted(maps.Keys(shapes)))
				}
			}
		}
	}
}

// shapeNames reads the shape names perfloop's matchers report from their
// source: the Category of internal/site's diagnostics and the shape of
// internal/rewrite's candidates.
func shapeNames(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	add := func(key string, v ast.Expr) {
		if key != "Category" && key != "shape" {
			return
		}
		if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				names[s] = true
			}
		}
	}
	for _, dir := range []string{"../site", "../rewrite"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.KeyValueExpr:
					if id, ok := n.Key.(*ast.Ident); ok {
						add(id.Name, n.Value)
					}
				case *ast.AssignStmt:
					for i, lhs := range n.Lhs {
						if sel, ok := lhs.(*ast.SelectorExpr); ok && i < len(n.Rhs) {
							add(sel.Sel.Name, n.Rhs[i])
						}
					}
				}
				return true
			})
		}
	}
	if !names["regexp-twice"] || !names["append-unsized"] {
		t.Fatalf("shape names read from internal/site and internal/rewrite: %v, want regexp-twice and append-unsized among them", names)
	}
	return names
}
