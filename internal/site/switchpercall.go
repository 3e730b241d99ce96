package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// SwitchPerCall finds a function value made for a context that calls a
// method with that context, where the method chooses what to do by a
// type switch on it — on every call, though the context is fixed when
// the function value is made (an embedded database's comparator per
// B-tree):
//
//	func lessCtx(ctx interface{}) func(a, b interface{}) bool {
//		return func(a, b interface{}) bool {
//			return a.(*dbItem).Less(b.(*dbItem), ctx)   // every comparison
//		}
//	}
//	func (dbi *dbItem) Less(dbi2 *dbItem, ctx interface{}) bool {
//		switch ctx := ctx.(type) { … }   // decided again each time
//		…
//	}
//
// Switching once, where the function value is made, gives each context
// a comparator of its own, specialised to its case.
var SwitchPerCall = &analysis.Analyzer{
	Name: "switchpercall",
	Doc:  "a function value made for a fixed context that calls a method type-switching on that context every time",
	Run:  runSwitchPerCall,
}

func runSwitchPerCall(pass *analysis.Pass) (any, error) {
	// Methods and functions whose body type-switches on a parameter, by
	// the function and the parameter's index, with the switch.
	type switched struct {
		sw *ast.TypeSwitchStmt
		fd *ast.FuncDecl
	}
	byParam := map[*types.Func]map[int]switched{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok || len(fd.Body.List) == 0 {
			return
		}
		sw, ok := fd.Body.List[0].(*ast.TypeSwitchStmt)
		if !ok {
			return
		}
		var x ast.Expr
		switch a := sw.Assign.(type) {
		case *ast.AssignStmt:
			if ta, ok := a.Rhs[0].(*ast.TypeAssertExpr); ok {
				x = ta.X
			}
		case *ast.ExprStmt:
			if ta, ok := a.X.(*ast.TypeAssertExpr); ok {
				x = ta.X
			}
		}
		id := identOf(x)
		if id == nil {
			return
		}
		params := fn.Type().(*types.Signature).Params()
		for i := range params.Len() {
			if pass.TypesInfo.Uses[id] == params.At(i) {
				if byParam[fn] == nil {
					byParam[fn] = map[int]switched{}
				}
				byParam[fn][i] = switched{sw, fd}
			}
		}
	})
	if len(byParam) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok {
			return
		}
		params := fn.Type().(*types.Signature).Params()
		inspectAll(fd.Body, func(n ast.Node) {
			lit, ok := n.(*ast.FuncLit)
			if !ok {
				return
			}
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				callee := calleeFunc(pass, c)
				if callee == nil {
					return true
				}
				for i, a := range c.Args {
					s, ok := byParam[callee.Origin()][i]
					if !ok {
						continue
					}
					id := identOf(a)
					if id == nil {
						continue
					}
					v, ok := pass.TypesInfo.Uses[id].(*types.Var)
					if !ok || !slicesContainsVar(params, v) {
						continue // not the maker's own parameter: it may change
					}
					// The method's lines that run on every call: its
					// declaration, the switch, and what follows it.
					rel := []analysis.RelatedInformation{{Pos: c.Pos(), Message: "the call with the fixed value"}, {Pos: s.fd.Pos(), Message: "the method"}}
					tf := pass.Fset.File(s.fd.Pos())
					for _, st := range s.fd.Body.List[1:] {
						for l := tf.Line(st.Pos()); l <= tf.Line(st.End()); l++ {
							rel = append(rel, analysis.RelatedInformation{Pos: tf.LineStart(l), Message: "runs on every call"})
						}
					}
					pass.Report(analysis.Diagnostic{
						Category: "switch-per-call",
						Pos:      s.sw.Pos(), // the cost is the method's: its profile's function
						Related:  rel,
						Message: fmt.Sprintf("the function %s makes for %s calls %s with it, and %s type-switches on %s (line %d) on every call, though %s is fixed when %s makes the function",
							fd.Name.Name, v.Name(), s.fd.Name.Name, s.fd.Name.Name, v.Name(), pass.Fset.Position(s.sw.Pos()).Line, v.Name(), fd.Name.Name),
						SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("switch on %s once, in %s, and return a function specialised to each case (for the case with nothing to choose, the plain comparison alone): each call then runs only its own case's code", v.Name(), fd.Name.Name)}},
					})
					return false
				}
				return true
			})
		})
	})
	return nil, nil
}

// slicesContainsVar reports whether a tuple holds v.
func slicesContainsVar(t *types.Tuple, v *types.Var) bool {
	for i := range t.Len() {
		if t.At(i) == v {
			return true
		}
	}
	return false
}
