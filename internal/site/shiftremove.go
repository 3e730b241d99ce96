package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ShiftRemove finds a removal by index that shifts the rest of a slice
// one place left:
//
//	func (list *List) Remove(index int) {
//		copy(list.elements[index:], list.elements[index+1:list.size])
//
// Each call moves every element after index: O(n) per removal, the cost
// of a slice-backed list. A caller that always removes the first element
// (a queue's Dequeue calling Remove(0)) pays for the whole slice every
// time, O(n²) to drain it; a head index that advances (or a ring buffer)
// takes the first element in O(1).
var ShiftRemove = &analysis.Analyzer{
	Name: "shiftremove",
	Doc:  "a removal by index that shifts the rest of a slice one place left",
	Run:  runShiftRemove,
}

func runShiftRemove(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		// An exported method of an exported type: callers in other
		// packages (a queue over the list) may remove from the front;
		// a package's own helper (a B-tree node's removeAt) removes
		// where its algorithm needs.
		if fd.Recv == nil || !fd.Name.IsExported() || !exportedRecv(pass, fd) {
			return
		}
		var index types.Object
		for _, p := range paramVars(pass, fd) {
			if b, ok := p.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
				index = p
				break
			}
		}
		if index == nil {
			return
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isBuiltin(pass, call.Fun, "copy") || len(call.Args) != 2 {
				return true
			}
			dst, ok1 := ast.Unparen(call.Args[0]).(*ast.SliceExpr)
			src, ok2 := ast.Unparen(call.Args[1]).(*ast.SliceExpr)
			if !ok1 || !ok2 || types.ExprString(dst.X) != types.ExprString(src.X) || dst.Low == nil || src.Low == nil {
				return true
			}
			if id, ok := ast.Unparen(dst.Low).(*ast.Ident); !ok || pass.TypesInfo.Uses[id] != index {
				return true
			}
			// src starts at index+1: the rest, one place further.
			b, ok := ast.Unparen(src.Low).(*ast.BinaryExpr)
			if !ok || b.Op != token.ADD {
				return true
			}
			if id, ok := ast.Unparen(b.X).(*ast.Ident); !ok || pass.TypesInfo.Uses[id] != index {
				return true
			}
			if tv, ok := pass.TypesInfo.Types[b.Y]; !ok || tv.Value == nil || tv.Value.String() != "1" {
				return true
			}
			name, x := fd.Name.Name, types.ExprString(dst.X)
			pass.Report(analysis.Diagnostic{
				Category: "shift-remove",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s shifts every element of %s after %s one place left: O(n) per call, the cost of removing from a slice-backed list; a caller that removes the first element each time (a queue's %s(0)) moves the whole slice on every call",
					name, x, index.Name(), name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"for removals from the front, keep a head index that advances (or a ring buffer) instead of %s(0), compacting now and then: O(1) per removal; removals in the middle stay O(n)", name)}},
			})
			return true
		})
	})
	return nil, nil
}

// exportedRecv reports whether fd's receiver's type is exported.
func exportedRecv(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	if len(fd.Recv.List) == 0 {
		return false
	}
	t := pass.TypesInfo.TypeOf(fd.Recv.List[0].Type)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Exported()
}
