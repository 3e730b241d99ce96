package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// FixedCap finds a slice made with a large constant capacity and then
// given a copy of a slice of any length: a logger's With() making
// make([]byte, 0, 500) for a child's context and appending the parent's
// context to it. Every call allocates the whole constant, whatever the
// copy and the additions need; sized from what it holds, plus the room
// the usual additions take, it costs what is used.
var FixedCap = &analysis.Analyzer{
	Name: "fixedcap",
	Doc:  "a slice made with a large constant capacity, then given a copy of a slice of any length",
	Run:  runFixedCap,
}

// fixedCapMin is the smallest constant capacity, in bytes, worth a shape.
const fixedCapMin = 128

func runFixedCap(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		made := map[string]*ast.CallExpr{} // the target's text → its make
		inspectBody(body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			target := text(pass, as.Lhs[0])
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return
			}
			if isBuiltin(pass, call.Fun, "make") && len(call.Args) == 3 {
				if size, ok := constBytes(pass, call); ok && size >= fixedCapMin {
					made[target] = call
				}
				return
			}
			mk := made[target]
			if mk == nil || !isBuiltin(pass, call.Fun, "append") || !call.Ellipsis.IsValid() || len(call.Args) != 2 || text(pass, call.Args[0]) != target {
				return
			}
			if tv, ok := pass.TypesInfo.Types[call.Args[1]]; ok && tv.Value != nil {
				return // a constant string: its length is known
			}
			src := text(pass, call.Args[1])
			capText := text(pass, mk.Args[2])
			pass.Report(analysis.Diagnostic{
				Category: "fixed-capacity",
				Pos:      mk.Pos(),
				Message:  fmt.Sprintf("%s is made with a constant capacity of %s and given a copy of %s, of any length, at line %d: every call allocates the whole capacity, whatever the copy and what is added after it need", target, capText, src, pass.Fset.Position(as.Pos()).Line),
				Related:  []analysis.RelatedInformation{{Pos: as.Pos(), Message: "the copy"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"size it from what it holds: make(…, 0, len(%s)+n), with n the room the usual additions take (a constant above most uses costs its whole size on every call; one below them, a growth)", src)}},
			})
			delete(made, target)
		})
	})
	return nil, nil
}

// constBytes is the size in bytes of make's constant capacity.
func constBytes(pass *analysis.Pass, mk *ast.CallExpr) (int64, bool) {
	tv, ok := pass.TypesInfo.Types[mk.Args[2]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(tv.Value)
	s, isSlice := pass.TypesInfo.TypeOf(mk.Args[0]).Underlying().(*types.Slice)
	if !exact || !isSlice {
		return 0, false
	}
	size, ok := sizeof(pass.TypesSizes, s.Elem())
	return n * size, ok
}
