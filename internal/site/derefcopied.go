package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// DerefCopied finds a pointer a constructor of another package returns
// (p := pkg.NewX(…), a *T) that the function only dereferences, copying
// the value out (return Amount{*p, code}): the constructor allocates the
// value on the heap to hand back its address, and the copy drops it at
// once. bojanz/currency's NewAmountFromBigInt takes apd.NewWithBigInt's
// *Decimal only to copy *number into the Amount it returns: one
// allocation per call, none when the Decimal is filled in place.
var DerefCopied = &analysis.Analyzer{
	Name: "derefcopied",
	Doc:  "a constructor's new pointer only dereferenced, its value copied out",
	Run:  runDerefCopied,
}

func runDerefCopied(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg() == pass.Pkg {
				return
			}
			sig := fn.Type().(*types.Signature)
			if sig.Recv() != nil || sig.Results().Len() != 1 {
				return
			}
			ptr, ok := sig.Results().At(0).Type().(*types.Pointer)
			if !ok {
				return
			}
			named, ok := ptr.Elem().(*types.Named)
			if !ok || named.Obj().Pkg() != fn.Pkg() {
				return
			}
			if _, isStruct := named.Underlying().(*types.Struct); !isStruct {
				return
			}
			p := objOf(pass, as.Lhs[0])
			if p == nil {
				return
			}
			var derefs []ast.Node
			other := false
			inspectBody(fd.Body, func(m ast.Node) {
				switch x := m.(type) {
				case *ast.StarExpr:
					if id, ok := ast.Unparen(x.X).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == p {
						derefs = append(derefs, x)
					}
				case *ast.Ident:
					if pass.TypesInfo.Uses[x] == p && !inDeref(derefs, x) {
						other = true
					}
				}
			})
			if other || len(derefs) == 0 {
				return
			}
			var related []analysis.RelatedInformation
			for _, d := range derefs {
				related = append(related, analysis.RelatedInformation{Pos: d.Pos(), Message: "its value copied"})
			}
			typ := types.TypeString(named, func(p *types.Package) string {
				if p == pass.Pkg {
					return ""
				}
				return p.Name()
			})
			pass.Report(analysis.Diagnostic{
				Category: "deref-copied",
				Pos:      call.Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s takes %s's new *%s only to copy its value out (*%s, line %d): the constructor allocates the %s on the heap to return its address, and the copy drops it at once",
					fd.Name.Name, oneLine(types.ExprString(call.Fun)), named.Obj().Name(), p.Name(), pass.Fset.Position(derefs[0].Pos()).Line, typ),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"fill a value of your own in place (var v %s, then the type's setters on &v, as the constructor does inside) and copy that: no allocation", typ)}},
			})
		})
	})
	return nil, nil
}

// inDeref reports whether id is the operand of one of the *p expressions.
func inDeref(derefs []ast.Node, id *ast.Ident) bool {
	for _, d := range derefs {
		if s, ok := d.(*ast.StarExpr); ok && ast.Unparen(s.X) == ast.Expr(id) {
			return true
		}
	}
	return false
}
