package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// VariantPerCall finds a function that copies a shared value (v := *p,
// p a package-level value or one a function returns), sets its fields
// from constants or from a table of constant entries, and returns &v: the
// copy is on the heap on every call, though the variants it can make are
// few (one per value of the table's key). bojanz/currency's
// roundingContext copies one of two decimal contexts and sets its
// rounding mode from a four-entry table for every rounding: eight
// contexts made once, −44…−60% and no allocation, measured by hand.
var VariantPerCall = &analysis.Analyzer{
	Name: "variantpercall",
	Doc:  "a shared value copied, its fields set from a constant table, and returned by address on every call",
	Run:  runVariantPerCall,
}

func runVariantPerCall(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		tables := constantTables(pass, fd)
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			star, ok := ast.Unparen(as.Rhs[0]).(*ast.StarExpr)
			if !ok || !sharedSource(pass, star.X) {
				return
			}
			v := objOf(pass, as.Lhs[0])
			if v == nil {
				return
			}
			if _, ok := v.Type().Underlying().(*types.Struct); !ok {
				return
			}
			var fields []string
			var writes []ast.Node
			var ret ast.Node
			fine := true
			inspectBody(fd.Body, func(m ast.Node) {
				switch x := m.(type) {
				case *ast.AssignStmt:
					for i, l := range x.Lhs {
						sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
						if !ok || objOf(pass, sel.X) != v {
							continue
						}
						if len(x.Lhs) != len(x.Rhs) || !fromTable(pass, x.Rhs[i], tables) {
							fine = false
						}
						writes = append(writes, x)
						fields = append(fields, sel.Sel.Name)
					}
				case *ast.ReturnStmt:
					for _, r := range x.Results {
						if u, ok := ast.Unparen(r).(*ast.UnaryExpr); ok && u.Op == token.AND && objOf(pass, u.X) == v {
							ret = x
						}
					}
				}
			})
			if !fine || len(writes) == 0 || ret == nil {
				return
			}
			related := []analysis.RelatedInformation{{Pos: ret.Pos(), Message: "returned by address"}}
			for _, w := range writes {
				related = append(related, analysis.RelatedInformation{Pos: w.Pos(), Message: "a field set from a constant table"})
			}
			lines := fmt.Sprintf("line %d", pass.Fset.Position(writes[0].Pos()).Line)
			if last := pass.Fset.Position(writes[len(writes)-1].Pos()).Line; last != pass.Fset.Position(writes[0].Pos()).Line {
				lines = fmt.Sprintf("lines %d–%d", pass.Fset.Position(writes[0].Pos()).Line, last)
			}
			pass.Report(analysis.Diagnostic{
				Category: "variant-per-call",
				Pos:      as.Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s copies *%s, sets %s from constants (%s) and returns &%s: a new heap copy on every call, though the copies it can make are few, one per value of what it sets",
					fd.Name.Name, oneLine(types.ExprString(star.X)), strings.Join(fields, ", "), lines, v.Name()),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "make each variant once, beside the values it copies (a table of them indexed by what selects the field's value), and return the one that fits: no copy and no allocation per call, as long as callers only read what they get"}},
			})
		})
	})
	return nil, nil
}

// sharedSource reports whether e is a package-level variable or a call
// of a package function with no receiver (a value the package keeps and
// hands out, dereferenced by the caller to copy it).
func sharedSource(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := pass.TypesInfo.Uses[x].(*types.Var)
		return ok && v.Parent() == pass.Pkg.Scope()
	case *ast.CallExpr:
		fn := calledFunc(pass, x)
		return fn != nil && fn.Pkg() == pass.Pkg && fn.Type().(*types.Signature).Recv() == nil
	}
	return false
}

// constantTables returns the function's local maps built from literals
// of constant entries (see constantEntries).
func constantTables(pass *analysis.Pass, fd *ast.FuncDecl) map[types.Object]bool {
	out := map[types.Object]bool{}
	inspectBody(fd.Body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return
		}
		lit, ok := ast.Unparen(as.Rhs[0]).(*ast.CompositeLit)
		if !ok || !constantEntries(pass, fd, lit) {
			return
		}
		if o := objOf(pass, as.Lhs[0]); o != nil {
			out[o] = true
		}
	})
	return out
}

// fromTable reports whether e is a constant or an index into one of the
// constant tables.
func fromTable(pass *analysis.Pass, e ast.Expr, tables map[types.Object]bool) bool {
	if tv, ok := pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		return true
	}
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	return ok && tables[objOf(pass, ix.X)]
}
