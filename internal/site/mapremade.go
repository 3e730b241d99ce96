package site

import (
	"fmt"
	"go/ast"
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
