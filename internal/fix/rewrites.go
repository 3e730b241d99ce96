package fix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"

	"github.com/perfloop/perfloop/internal/rewrite"
)

// NewRewriter returns the Rewriter of perfloop fix: the mechanical
// rewrites of package rewrite, with their preconditions checked from the
// code, listed once per package directory (one type check) and handed out
// by function.
func NewRewriter() Rewriter {
	byDir := map[string][]rewrite.Rewrite{}
	return func(path string, src []byte, line int) ([]Edit, error) {
		dir := filepath.Dir(path)
		rs, ok := byDir[dir]
		if !ok {
			var err error
			if rs, err = rewrite.Package(dir); err != nil {
				return nil, err
			}
			byDir[dir] = rs
		}
		from, to := funcRange(src, line)
		var out []Edit
		for _, r := range rs {
			if filepath.Base(r.File) != filepath.Base(path) || r.Line < from || r.Line > to {
				continue
			}
			out = append(out, Edit{Kind: r.Kind, Description: r.Description, Line: r.Line, Review: r.Review, After: r.After})
		}
		return out, nil
	}
}

// funcRange returns the lines of the function declaration that holds line
// (just line when none does).
func funcRange(src []byte, line int) (from, to int) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return line, line
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			from, to := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
			if from <= line && line <= to {
				return from, to
			}
		}
	}
	return line, line
}
