package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// StackPush finds an append to a slice field that the package also pops
// (f = f[:len(f)-1]): a stack, pushed and popped as a parser walks its
// input's nesting. Its growth follows the deepest nesting of the input
// and is amortised: the function's own work on that input, with nothing
// to presize (yaml.v3's marks, indents and simple keys; both hand
// analyses left them alone).
var StackPush = &analysis.Analyzer{
	Name: "stackpush",
	Doc:  "an append to a slice field the package uses as a stack",
	Run:  runStackPush,
}

func runStackPush(pass *analysis.Pass) (any, error) {
	pops := stackPops(pass)
	if len(pops) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, sel := fieldAssign(n)
			if sel == nil {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, call.Fun, "append") || len(call.Args) < 2 || call.Ellipsis.IsValid() {
				// (Bytes spread onto it, append(b.bs, p...), are
				// an output buffer's writes, whatever trims it.)
				return
			}
			field := pass.TypesInfo.Uses[sel.Sel]
			pop := pops[field]
			if pop == nil {
				return
			}
			if s, ok := ast.Unparen(call.Args[0]).(*ast.SelectorExpr); !ok || pass.TypesInfo.Uses[s.Sel] != field {
				return
			}
			f := oneLine(types.ExprString(sel))
			pass.Report(analysis.Diagnostic{
				Category: "stack-push" + ownWork,
				Pos:      as.Pos(),
				Message: fmt.Sprintf("%s pushes onto %s, a stack the package pops at %s (%s): it grows to the deepest nesting of the input it walks, once per walk, and its growth is amortised",
					fd.Name.Name, f, where(pass, pop), oneLine(types.ExprString(pop.Lhs[0]))+" = …[:len-1]"),
				Related:        []analysis.RelatedInformation{{Pos: pop.Pos(), Message: "the pop"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: "its size follows the input's depth, not a count known before: the walk's own work; a starting capacity only moves the first growths, and " + ownWorkWords}},
			})
		})
	})
	return nil, nil
}

// stackPops returns the package's pops of slice fields, by field: an
// assignment f = f[:len(f)-1], directly or through a variable set to
// len(f)-1 (f[:0] empties it, f[:n] after a filter compacts it: neither
// pops).
func stackPops(pass *analysis.Pass) map[types.Object]*ast.AssignStmt {
	out := map[types.Object]*ast.AssignStmt{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, sel := fieldAssign(n)
			if sel == nil {
				return
			}
			sl, ok := ast.Unparen(as.Rhs[0]).(*ast.SliceExpr)
			if !ok || sl.Low != nil || sl.High == nil {
				return
			}
			if s, ok := ast.Unparen(sl.X).(*ast.SelectorExpr); !ok || pass.TypesInfo.Uses[s.Sel] != pass.TypesInfo.Uses[sel.Sel] {
				return
			}
			if !lenMinusOne(pass, fd.Body, sl.High, pass.TypesInfo.Uses[sel.Sel]) {
				return // f[:0] resets, f[:n] compacts: neither pops
			}
			if f := pass.TypesInfo.Uses[sel.Sel]; f != nil && out[f] == nil {
				out[f] = as
			}
		})
	})
	return out
}

// lenMinusOne reports whether e is len(x.f)-1 for the field f, or a
// variable body sets to it.
func lenMinusOne(pass *analysis.Pass, body *ast.BlockStmt, e ast.Expr, field types.Object) bool {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		found := false
		inspectBody(body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			if l, ok := as.Lhs[0].(*ast.Ident); ok && pass.TypesInfo.ObjectOf(l) == pass.TypesInfo.ObjectOf(id) && lenMinusOne(pass, body, as.Rhs[0], field) {
				found = true
			}
		})
		return found
	}
	bin, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || bin.Op != token.SUB {
		return false
	}
	if tv := pass.TypesInfo.Types[bin.Y]; tv.Value == nil || tv.Value.String() != "1" {
		return false
	}
	c, ok := ast.Unparen(bin.X).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 || !isBuiltin(pass, c.Fun, "len") {
		return false
	}
	s, ok := ast.Unparen(c.Args[0]).(*ast.SelectorExpr)
	return ok && pass.TypesInfo.Uses[s.Sel] == field
}

// fieldAssign returns n when it assigns one value to a field (x.f = …),
// with the field's selector; a nil selector otherwise.
func fieldAssign(n ast.Node) (*ast.AssignStmt, *ast.SelectorExpr) {
	as, ok := n.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, nil
	}
	sel, _ := ast.Unparen(as.Lhs[0]).(*ast.SelectorExpr)
	return as, sel
}
