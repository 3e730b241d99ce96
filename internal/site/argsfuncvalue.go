package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ArgsForFuncValue finds a slice or a map a function makes to pass to a
// call through a func value (a field or a variable of func type: a
// template engine's Callable.Fn(args, kwargs)). The compiler cannot see
// what the callee does with its arguments, so they escape, and no array
// on the stack can hold them: one allocation each per call, whoever
// calls, since the signature takes them. The cost of the API, not of the line: reuse would need a callee
// that never keeps them, and only a signature change (a fixed-size array,
// arguments the callee must copy to keep) removes them. jinja's
// evalCallExpr: an args slice and, with keyword arguments, a map per
// filter or function call (named by both hand analyses as the Callable
// signature's cost).
var ArgsForFuncValue = &analysis.Analyzer{
	Name: "argsfuncvalue",
	Doc:  "a slice or map made per call to pass through a func value",
	Run:  runArgsForFuncValue,
}

func runArgsForFuncValue(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		made := map[types.Object]*ast.CallExpr{} // locals set from make
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, call.Fun, "make") {
				return
			}
			if o := objOf(pass, as.Lhs[0]); o != nil {
				made[o] = call
			}
		})
		if len(made) == 0 {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || !funcValue(pass, call.Fun) {
				return
			}
			var names []string
			var related []analysis.RelatedInformation
			var first *ast.CallExpr
			for _, a := range call.Args {
				o := objOf(pass, a)
				mk := made[o]
				if mk == nil {
					continue
				}
				names = append(names, o.Name())
				if first == nil {
					first = mk
				} else {
					related = append(related, analysis.RelatedInformation{Pos: mk.Pos(), Message: "made to pass"})
				}
				// A map's allocation shows at its first store.
				related = append(related, storesInto(pass, fd.Body, o)...)
			}
			if first == nil {
				return
			}
			related = append(related, analysis.RelatedInformation{Pos: call.Pos(), Message: "the call through a func value"})
			pass.Report(analysis.Diagnostic{
				Category: "args-for-func-value",
				Pos:      first.Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s makes %s on every call to pass to %s, a func value (line %d): the compiler cannot see what the callee does with its arguments, so they escape and no array on the stack can hold them: one allocation each per call",
					fd.Name.Name, strings.Join(names, " and "), oneLine(types.ExprString(call.Fun)), pass.Fset.Position(call.Pos()).Line),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "the cost of a signature that takes them through a func value, whoever calls it: reusing them would need every callee never to keep them, and only a change of the signature (a fixed-size array of arguments, or arguments a callee must copy to keep) removes the allocations; pass nil where there are none"}},
			})
		})
	})
	return nil, nil
}

// storesInto returns the stores into map o in body (o[k] = v), as
// related locations: where a map made without its first group allocates.
func storesInto(pass *analysis.Pass, body *ast.BlockStmt, o types.Object) []analysis.RelatedInformation {
	if _, ok := o.Type().Underlying().(*types.Map); !ok {
		return nil
	}
	var out []analysis.RelatedInformation
	inspectBody(body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return
		}
		for _, l := range as.Lhs {
			if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && objOf(pass, ix.X) == o {
				out = append(out, analysis.RelatedInformation{Pos: as.Pos(), Message: "a store"})
			}
		}
	})
	return out
}

// funcValue reports whether fun is a func value the call goes through: a
// variable of func type, or a field of one (c.Fn) — not a function, a
// method (an interface's included: its callee is a method set's), a
// builtin or a conversion.
func funcValue(pass *analysis.Pass, fun ast.Expr) bool {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		v, ok := pass.TypesInfo.Uses[f].(*types.Var)
		return ok && isFuncValue(pass, f) && !v.IsField()
	case *ast.SelectorExpr:
		sel, ok := pass.TypesInfo.Selections[f]
		return ok && sel.Kind() == types.FieldVal && isFuncValue(pass, f)
	}
	return false
}
