package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// ErrorDropped finds an error value a function builds on a failure path
// (&UnexpectedTokenError{…}, errors.New, fmt.Errorf) when a caller in its
// package calls it in a loop of alternatives and keeps at most one of the
// errors: a backtracking parser's disjunction trying each branch and
// remembering the deepest failure, a loop trying formats until one
// parses. Every failing alternative pays for an error that is dropped;
// the fix is to build it only where it is kept.
var ErrorDropped = &analysis.Analyzer{
	Name: "errordropped",
	Doc:  "an error built for each failing alternative of a caller's loop that keeps at most one",
	Run:  runErrorDropped,
}

func runErrorDropped(pass *analysis.Pass) (any, error) {
	sinks := callerSinks(pass, errorsDroppedInLoops)
	if sinks.empty() {
		return nil, nil
	}
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	for fd := range funcDecls(pass) {
		sink, _, ok := sinks.of(pass, fd)
		if !ok {
			continue
		}
		inspectBody(fd.Body, func(n ast.Node) {
			ret, ok := n.(*ast.ReturnStmt)
			if !ok || len(ret.Results) == 0 {
				return
			}
			e := ret.Results[len(ret.Results)-1]
			what, ok := newError(pass, e, errType)
			if !ok {
				return
			}
			at := pass.Fset.Position(sink.pos)
			pass.Report(analysis.Diagnostic{
				Category: "error-per-alternative",
				Pos:      e.Pos(),
				Message:  fmt.Sprintf("%s builds %s for each failure, and %s calls it in a loop of alternatives (line %d) that keeps at most one of the errors: every other failing alternative pays for an error that is dropped", fd.Name.Name, what, sink.caller, at.Line),
				Related:  []analysis.RelatedInformation{{Pos: sink.pos, Message: "the loop's call"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"build the error only where it is kept: return what it is made from (the position, the token: a small value or a sentinel error) and let %s make the one error it reports, after its loop; or make the error cheap to build (a pointer to what it describes, not a copy)", sink.caller)}},
			})
		})
	}
	return nil, nil
}

// errorsDroppedInLoops returns the functions body calls in a loop whose
// error result the loop keeps at most one of, with the call: the error is
// compared with nil, or stored in a variable declared outside the loop
// (the deepest failure, the last one), never returned from inside the
// loop nor appended to a list.
func errorsDroppedInLoops(pass *analysis.Pass, body *ast.BlockStmt) map[*types.Func]token.Pos {
	out := map[*types.Func]token.Pos{}
	inspectBody(body, func(n ast.Node) {
		var loop *ast.BlockStmt
		switch x := n.(type) {
		case *ast.ForStmt:
			loop = x.Body
		case *ast.RangeStmt:
			loop = x.Body
		default:
			return
		}
		calls := map[types.Object]*ast.CallExpr{} // err := f(…)
		inspectBody(loop, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || len(as.Lhs) < 2 {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return
			}
			v := objOf(pass, as.Lhs[len(as.Lhs)-1])
			if v == nil || !isErrorType(v.Type()) {
				return
			}
			calls[v] = call
		})
		for v, call := range calls {
			fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
			if !ok || fn.Pkg() != pass.Pkg || !droppedInLoop(pass, loop, v) {
				continue
			}
			if p, seen := out[fn]; !seen || call.Pos() < p {
				// The first call in the source: calls is a map,
				// and two error variables may take one function's.
				out[fn] = call.Pos()
			}
		}
	})
	return out
}

// droppedInLoop reports whether the loop keeps at most one of the errors
// v takes: v is compared with nil, never appended to a list, and never
// returned on every failure — a return of it is guarded by another
// condition (the branch went too far to try the next one), and what
// else happens to it (stored outside the loop as the deepest failure,
// passed to a check) keeps one.
func droppedInLoop(pass *analysis.Pass, loop *ast.BlockStmt, v types.Object) bool {
	compared, kept := false, false
	var parents []ast.Node
	ast.Inspect(loop, func(n ast.Node) bool {
		if n == nil {
			parents = parents[:len(parents)-1]
			return true
		}
		if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v && len(parents) > 0 {
			switch p := parents[len(parents)-1].(type) {
			case *ast.BinaryExpr:
				if (p.Op == token.EQL || p.Op == token.NEQ) && (isNil(pass, p.X) || isNil(pass, p.Y)) {
					compared = true
				}
			case *ast.CallExpr:
				if isBuiltin(pass, p.Fun, "append") {
					kept = true // every error collected
				}
			case *ast.ReturnStmt:
				if !guarded(pass, parents, v) {
					kept = true // every failure returned
				}
			}
		}
		parents = append(parents, n)
		return true
	})
	return compared && !kept
}

// guarded reports whether the innermost statement of parents runs under
// a condition other than v's comparison with nil.
func guarded(pass *analysis.Pass, parents []ast.Node, v types.Object) bool {
	for i := len(parents) - 1; i >= 0; i-- {
		switch x := parents[i].(type) {
		case *ast.IfStmt:
			if !comparesWithNil(pass, x.Cond, v) {
				return true
			}
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			return true
		}
	}
	return false
}

// comparesWithNil reports whether cond is v == nil or v != nil.
func comparesWithNil(pass *analysis.Pass, cond ast.Expr, v types.Object) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ {
		return false
	}
	return objOf(pass, b.X) == v && isNil(pass, b.Y) || objOf(pass, b.Y) == v && isNil(pass, b.X)
}

// isNil reports whether e is the predeclared nil.
func isNil(pass *analysis.Pass, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := pass.TypesInfo.Uses[id].(*types.Nil)
	return isNil
}

// isErrorType reports whether t is the error interface.
func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// newError reports whether e builds a new error value, and its text: a
// composite literal (or its address) of a type implementing error,
// errors.New or fmt.Errorf.
func newError(pass *analysis.Pass, e ast.Expr, errType *types.Interface) (string, bool) {
	x, star := ast.Unparen(e), ""
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x, star = ast.Unparen(u.X), "*"
	}
	switch y := x.(type) {
	case *ast.CompositeLit:
		t := pass.TypesInfo.TypeOf(y)
		if t == nil || !(types.Implements(t, errType) || types.Implements(types.NewPointer(t), errType)) {
			return "", false
		}
		return "a " + star + types.TypeString(t, types.RelativeTo(pass.Pkg)), true
	case *ast.CallExpr:
		if isFunc(pass, y, "errors", "", "New") || isFunc(pass, y, "fmt", "", "Errorf") {
			return "an error (" + text(pass, y.Fun) + ")", true
		}
	}
	return "", false
}
