package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// LookupChecked finds a function that asks one of its package's
// functions whether a key is in a package-level map (IsValid(code),
// whose body is _, ok := currencies[code]) and then reads the same key
// from the map itself (currencies[code].digits): the key is hashed and
// the map probed twice for one value. bojanz/currency's GetDigits does
// so on every Amount it makes. One lookup with its ok flag is both the
// check and the read.
var LookupChecked = &analysis.Analyzer{
	Name: "lookupchecked",
	Doc:  "a presence check through a helper, then the same map lookup again",
	Run:  runLookupChecked,
}

// presenceCheck is a package function that looks its parameter up in a
// package-level map and returns only a bool.
type presenceCheck struct {
	m     *types.Var // the map
	param int        // which parameter is the key
	at    ast.Node   // the lookup in the helper
}

func runLookupChecked(pass *analysis.Pass) (any, error) {
	checks := map[*types.Func]presenceCheck{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil || fd.Recv != nil {
			return
		}
		sig := fn.Type().(*types.Signature)
		if sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			ix, ok := n.(*ast.IndexExpr)
			if !ok {
				return
			}
			m, _ := objOf(pass, ix.X).(*types.Var)
			if m == nil || m.Parent() != pass.Pkg.Scope() {
				return
			}
			if _, isMap := m.Type().Underlying().(*types.Map); !isMap {
				return
			}
			key := objOf(pass, ix.Index)
			for i := range sig.Params().Len() {
				if sig.Params().At(i) == key {
					checks[fn] = presenceCheck{m: m, param: i, at: ix}
				}
			}
		})
	})
	if len(checks) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		var calls []*ast.CallExpr
		inspectBody(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.CallExpr:
				if fn := calledFunc(pass, x); fn != nil {
					if _, ok := checks[fn]; ok {
						calls = append(calls, x)
					}
				}
			case *ast.IndexExpr:
				for _, call := range calls {
					fn := calledFunc(pass, call)
					c := checks[fn]
					if objOf(pass, x.X) != c.m || c.param >= len(call.Args) || !pureArgs([]ast.Expr{x.Index}) || types.ExprString(x.Index) != types.ExprString(call.Args[c.param]) {
						continue
					}
					pass.Report(analysis.Diagnostic{
						Category: "lookup-checked",
						Pos:      x.Pos(),
						Related:  []analysis.RelatedInformation{{Pos: call.Pos(), Message: "the presence check"}, {Pos: c.at.Pos(), Message: "its lookup"}},
						Message: fmt.Sprintf("%s asks %s whether %s is in %s (a lookup at line %d), then looks it up again here: the key is hashed and the map probed twice for one value",
							fd.Name.Name, oneLine(types.ExprString(call)), oneLine(types.ExprString(x.Index)), c.m.Name(), pass.Fset.Position(c.at.Pos()).Line),
						SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
							"look it up once here, with its ok flag (v, ok := %s; if !ok { … }), and read v: the check and the read in one lookup", oneLine(types.ExprString(x)))}},
					})
					return
				}
			}
		})
	})
	return nil, nil
}
