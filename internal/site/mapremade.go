package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// MapRemade finds a method that replaces a map field of its receiver
// with a new map and fills it, on every call:
//
//	t.lastMergeState = make(map[int]tw.MergeState)
//	for i, c := range cells { t.lastMergeState[i] = c.Merge }
//
// The previous map becomes garbage each time; clearing it keeps its table
// for the next entries, when nothing else holds the old map.
var MapRemade = &analysis.Analyzer{
	Name: "mapremade",
	Doc:  "a method that replaces a map field of its receiver with a new map and fills it",
	Run:  runMapRemade,
}

func runMapRemade(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 || isConstructorName(fd.Name.Name) {
			return
		}
		recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			sel, ok := as.Lhs[0].(*ast.SelectorExpr)
			if !ok {
				return
			}
			if x, ok := sel.X.(*ast.Ident); !ok || pass.TypesInfo.Uses[x] != recv {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, call.Fun, "make") {
				return
			}
			if _, isMap := pass.TypesInfo.TypeOf(call).Underlying().(*types.Map); !isMap {
				return
			}
			field := pass.TypesInfo.Uses[sel.Sel]
			// Filled here after it is made: where it grows.
			var stores []analysis.RelatedInformation
			inspectBody(fd.Body, func(m ast.Node) {
				st, ok := m.(*ast.AssignStmt)
				if !ok || st.Pos() < as.End() || len(st.Lhs) != 1 {
					return
				}
				if ix, ok := st.Lhs[0].(*ast.IndexExpr); ok {
					if s, ok := ix.X.(*ast.SelectorExpr); ok && pass.TypesInfo.Uses[s.Sel] == field {
						stores = append(stores, analysis.RelatedInformation{Pos: st.Pos(), Message: "a store"})
					}
				}
			})
			if len(stores) == 0 {
				return
			}
			f := text(pass, sel)
			if nilGuarded(pass, fd.Body, as, field) {
				// Made only when the field is nil: once per receiver,
				// unless something drops it (a reset that sets it to
				// nil for every reuse of the receiver).
				drop := droppedAt(pass, field)
				if drop == nil {
					return
				}
				pass.Report(analysis.Diagnostic{
					Category: "map-remade",
					Pos:      as.Pos(),
					Related:  append(stores, analysis.RelatedInformation{Pos: drop.Pos(), Message: "the map dropped"}),
					Message: fmt.Sprintf("%s makes %s when it is nil, and %s sets it to nil (line %d) each time the receiver is made ready again: every use makes a new map and its table, and drops the last to the collector",
						fd.Name.Name, f, enclosingFunc(pass, drop), pass.Fset.Position(drop.Pos()).Line),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("at line %d, clear the map and keep it for the next use instead of dropping it (clear(%s): its table stays), or, where code relies on %s being nil after that point, keep the cleared map in a spare field that %s takes instead of making one; only when nothing holds the old map past that point: a caller that kept it would see it cleared and refilled", pass.Fset.Position(drop.Pos()).Line, types.ExprString(drop.Lhs[0]), f, fd.Name.Name)}},
				})
				return
			}
			pass.Report(analysis.Diagnostic{
				Category:       "map-remade",
				Pos:            as.Pos(),
				Related:        stores,
				Message:        fmt.Sprintf("%s replaces %s with a new map and fills it on every call: the previous map and its table become garbage each time", fd.Name.Name, f),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("clear(%s) and fill it again (its table stays for the next entries), when nothing else keeps the old map; with small integer keys, a slice reused with [:0]", f)}},
			})
		})
	})
	return nil, nil
}

// nilGuarded reports whether as runs only under an if that tests field
// against nil: a map made lazily.
func nilGuarded(pass *analysis.Pass, body *ast.BlockStmt, as *ast.AssignStmt, field types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		is, ok := n.(*ast.IfStmt)
		if !ok || found {
			return !found
		}
		be, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
		if ok && be.Op == token.EQL && as.Pos() >= is.Body.Pos() && as.End() <= is.Body.End() {
			for _, side := range [2][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
				if s, ok := ast.Unparen(side[0]).(*ast.SelectorExpr); ok && pass.TypesInfo.Uses[s.Sel] == field && isNil(pass, side[1]) {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// droppedAt returns an assignment of nil to field in the package, or nil.
func droppedAt(pass *analysis.Pass, field types.Object) *ast.AssignStmt {
	var out *ast.AssignStmt
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || out != nil || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isNil(pass, as.Rhs[0]) {
				return
			}
			if s, ok := as.Lhs[0].(*ast.SelectorExpr); ok && pass.TypesInfo.Uses[s.Sel] == field {
				out = as
			}
		})
	})
	return out
}

// enclosingFunc names the function declaration that holds n.
func enclosingFunc(pass *analysis.Pass, n ast.Node) string {
	name := ""
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if n.Pos() >= fd.Pos() && n.End() <= fd.End() {
			name = fd.Name.Name
		}
	})
	return name
}

// isConstructorName reports whether a function's name says it makes or
// resets its value (New…, Reset, Init…, Clear…): a map made there once is
// not remade per operation.
func isConstructorName(name string) bool {
	for _, p := range []string{"New", "new", "Reset", "reset", "Init", "init", "Clear", "clear"} {
		if len(name) >= len(p) && name[:len(p)] == p {
			return true
		}
	}
	return false
}
