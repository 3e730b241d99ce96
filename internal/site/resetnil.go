package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ResetNil finds a local slice a loop appends to and resets to nil in the
// same loop (textDelete = append(textDelete, …) … textDelete = nil): each
// run of appends regrows it from nothing, where x = x[:0] keeps its array
// for the next run. It reports at the appends, where the allocations are,
// when the slice is only read between (converted, indexed, measured,
// resliced, or handed to the package's own functions): nothing else holds
// its array when it is reset.
var ResetNil = &analysis.Analyzer{
	Name: "resetnil",
	Doc:  "a local slice a loop appends to and resets to nil",
	Run:  runResetNil,
}

func runResetNil(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch l := n.(type) {
			case *ast.ForStmt:
				body = l.Body
			case *ast.RangeStmt:
				body = l.Body
			default:
				return true
			}
			appends := map[*types.Var][]*ast.AssignStmt{}
			resets := map[*types.Var]*ast.AssignStmt{}
			ast.Inspect(body, func(m ast.Node) bool {
				as, ok := m.(*ast.AssignStmt)
				if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
					return true
				}
				id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident)
				if !ok {
					return true
				}
				v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var)
				if !ok || !isSlice(v.Type()) || v.Pos() < fd.Body.Pos() || v.Pos() > fd.Body.End() {
					return true
				}
				switch rhs := ast.Unparen(as.Rhs[0]).(type) {
				case *ast.CallExpr:
					if isBuiltin(pass, rhs.Fun, "append") && len(rhs.Args) > 0 && identOf(rhs.Args[0]) != nil && pass.TypesInfo.ObjectOf(identOf(rhs.Args[0])) == v {
						appends[v] = append(appends[v], as)
					}
				case *ast.Ident:
					if rhs.Name == "nil" {
						resets[v] = as
					}
				}
				return true
			})
			for v, as := range appends {
				r := resets[v]
				if r == nil || !onlyRead(pass, fd.Body, v) {
					continue
				}
				for _, a := range as {
					pass.Report(analysis.Diagnostic{
						Category: "reset-nil",
						Pos:      a.Pos(),
						Message: fmt.Sprintf("%s appends to %s, which line %d sets to nil in the same loop: each run of appends regrows it from nothing",
							oneLine(types.ExprString(a.Lhs[0])+" = "+types.ExprString(a.Rhs[0])), v.Name(), pass.Fset.Position(r.Pos()).Line),
						SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
							"reset it with %s = %s[:0] at line %d: the next run reuses the array the last one grew (nothing else holds it)", v.Name(), v.Name(), pass.Fset.Position(r.Pos()).Line)}},
					})
				}
			}
			return true
		})
	})
	return nil, nil
}

// onlyRead reports whether every use of v in body reads it: the left of
// an assignment, append's first argument, a conversion's, len or cap,
// an index or a slice of it, or an argument of the package's own function.
// A use that may keep its array (stored, returned, handed to another
// package) is none of those.
func onlyRead(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	ok := true
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		defer func() { stack = append(stack, n) }()
		id, isID := n.(*ast.Ident)
		if !isID || pass.TypesInfo.Uses[id] != v || len(stack) == 0 {
			return true // not a use (its declaration is none)
		}
		switch p := stack[len(stack)-1].(type) {
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == id {
					return true
				}
			}
			ok = false
		case *ast.IndexExpr, *ast.SliceExpr:
			// v[i], v[a:b]: a read, or a reslice its parent judges.
		case *ast.CallExpr:
			switch {
			case isBuiltin(pass, p.Fun, "append") && len(p.Args) > 0 && p.Args[0] == id:
			case isBuiltin(pass, p.Fun, "len"), isBuiltin(pass, p.Fun, "cap"), isConversion(pass, p):
			default:
				if fn := calledFunc(pass, p); fn == nil || fn.Pkg() != pass.Pkg {
					ok = false
				}
			}
		default:
			ok = false
		}
		return true
	})
	return ok
}
