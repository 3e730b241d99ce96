package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// RangeCopied finds a loop that ranges over a method's copy of its
// receiver's elements, made for that one pass:
//
//	for index, element := range list.Values() { // Values makes a slice
//		if element == value {                  // of every element
//			return index
//		}
//	}
//
// The method makes a new slice and fills it with a loop over the
// receiver's own storage (a linked list's nodes, a map); the caller then
// reads each element once, and stops at a match before it needs the
// rest. Walking the storage in place, as the method's own loop does,
// reads the same elements with no allocation and no copy. A loop that
// changes the receiver while it ranges needs the copy and is not
// reported.
var RangeCopied = &analysis.Analyzer{
	Name: "rangecopied",
	Doc:  "a loop over a method's fresh copy of its receiver's elements",
	Run:  runRangeCopied,
}

func runRangeCopied(pass *analysis.Pass) (any, error) {
	decls := declsByFunc(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			rs, ok := n.(*ast.RangeStmt)
			if !ok {
				return true
			}
			call, ok := ast.Unparen(rs.X).(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			recv, ok := ast.Unparen(sel.X).(*ast.Ident)
			if !ok {
				return true
			}
			m := decls[calledFunc(pass, call)]
			if m == nil || m.Recv == nil {
				return true
			}
			mk := copyMaker(pass, m)
			if mk == nil || changes(pass, rs.Body, pass.TypesInfo.Uses[recv]) {
				return true
			}
			name := m.Name.Name
			pass.Report(analysis.Diagnostic{
				Category: "range-copied",
				Pos:      rs.Pos(),
				Message: fmt.Sprintf("%s ranges over %s, which makes a new slice of every element (line %d) for this one pass over them",
					fd.Name.Name, text(pass, call), pass.Fset.Position(mk.Pos()).Line),
				Related: []analysis.RelatedInformation{{Pos: mk.Pos(), Message: "the copy"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"walk %s's own elements in place, as %s's loop does, instead of copying them first: no allocation, no copy, and a loop that stops early stops before the rest is read", recv.Name, name)}},
			})
			return true
		})
	})
	return nil, nil
}

// copyMaker returns the make call of a method whose body makes a slice,
// fills it in a loop and returns it (func (l *List) Values() []T { s :=
// make([]T, l.size); for … { s[i] = e.value }; return s }), or nil.
func copyMaker(pass *analysis.Pass, m *ast.FuncDecl) *ast.CallExpr {
	if m.Body == nil || len(m.Body.List) < 3 {
		return nil
	}
	as, ok := m.Body.List[0].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.DEFINE {
		return nil
	}
	mk, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || !isBuiltin(pass, mk.Fun, "make") {
		return nil
	}
	if _, ok := pass.TypesInfo.TypeOf(mk).Underlying().(*types.Slice); !ok {
		return nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	s := pass.TypesInfo.ObjectOf(id)
	switch m.Body.List[1].(type) {
	case *ast.ForStmt, *ast.RangeStmt:
	default:
		return nil
	}
	ret, ok := m.Body.List[len(m.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	if r, ok := ast.Unparen(ret.Results[0]).(*ast.Ident); !ok || pass.TypesInfo.Uses[r] != s {
		return nil
	}
	return mk
}

// changes reports whether body calls a method of recv or assigns into it:
// a loop that may change the receiver while it ranges.
func changes(pass *analysis.Pass, body *ast.BlockStmt, recv types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
				if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == recv {
					found = true
				}
			}
			for _, a := range x.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == recv {
					found = true
				}
			}
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				ast.Inspect(l, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == recv {
						found = true
					}
					return !found
				})
			}
		}
		return !found
	})
	return found
}
