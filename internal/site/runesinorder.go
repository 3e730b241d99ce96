package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// RunesInOrder finds a []rune copy of a string read only in order: every
// use is its length or an element at the counter of one loop that steps
// through it one by one (r2[x-1] in for x := 1; x <= len(r2); x++). The
// copy (four bytes a rune, on the heap past 32 runes) buys nothing a
// range over the string does not give: the loop can decode the string as
// it goes.
var RunesInOrder = &analysis.Analyzer{
	Name: "runesinorder",
	Doc:  "a []rune copy of a string read only in order by one loop",
	Run:  runRunesInOrder,
}

func runRunesInOrder(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
				return
			}
			for i, rhs := range as.Rhs {
				conv, ok := ast.Unparen(rhs).(*ast.CallExpr)
				if !ok || len(conv.Args) != 1 || !isConversion(pass, conv) || !isString(pass.TypesInfo.TypeOf(conv.Args[0])) {
					continue
				}
				s, ok := pass.TypesInfo.TypeOf(conv).Underlying().(*types.Slice)
				if !ok {
					continue
				}
				if b, ok := s.Elem().Underlying().(*types.Basic); !ok || b.Kind() != types.Int32 {
					continue
				}
				id, ok := as.Lhs[i].(*ast.Ident)
				if !ok {
					continue
				}
				v, _ := pass.TypesInfo.Defs[id].(*types.Var)
				if v == nil {
					continue
				}
				loop := inOrderLoop(pass, fd.Body, v)
				if loop == nil {
					continue
				}
				src := oneLine(types.ExprString(conv.Args[0]))
				from, to := pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line
				swap := ""
				if other, osrc := otherRunes(pass, fd.Body, v); other != "" {
					// r1 read at random, r2 in order: the copy that
					// reaches the heap may be r1's.
					swap = fmt.Sprintf("; %s, the copy of %s, is read at every step of the inner loop and stays: where %s is the longer (its copy is the one past 32 runes, on the heap), let %s be the one read in order instead, when the result does not depend on their order", other, osrc, osrc, osrc)
				}
				pass.Report(analysis.Diagnostic{
					Category: "runes-in-order",
					Pos:      conv.Pos(),
					Message: fmt.Sprintf("%s is a []rune copy of %s that only the loop at lines %d–%d reads, one element per step, in order",
						id.Name, src, from, to),
					Related: []analysis.RelatedInformation{{Pos: loop.Pos(), Message: "the loop that reads it in order"}},
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"decode %s in that loop instead (for _, r := range %s, counting the steps), and the copy goes: four bytes a rune, on the heap past 32 runes%s", src, src, swap)}},
				})
			}
		})
	})
	return nil, nil
}

// otherRunes returns another []rune copy of a string the function makes
// (r1 of r1, r2 := []rune(s), []rune(t)) and the string it copies.
func otherRunes(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) (string, string) {
	name, src := "", ""
	inspectBody(body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) || name != "" {
			return
		}
		for i, rhs := range as.Rhs {
			conv, ok := ast.Unparen(rhs).(*ast.CallExpr)
			if !ok || len(conv.Args) != 1 || !isConversion(pass, conv) || !isString(pass.TypesInfo.TypeOf(conv.Args[0])) {
				continue
			}
			if s, ok := pass.TypesInfo.TypeOf(conv).Underlying().(*types.Slice); !ok || !types.Identical(s, v.Type().Underlying()) {
				continue
			}
			if id, ok := as.Lhs[i].(*ast.Ident); ok && pass.TypesInfo.Defs[id] != v && name == "" {
				name, src = id.Name, oneLine(types.ExprString(conv.Args[0]))
			}
		}
	})
	return name, src
}

// inOrderLoop returns the loop that reads v in order, when v's only uses
// are len(v) and v[x] or v[x±c] with x the counter of that one loop, which
// steps by one up to len(v), and nothing writes v's elements.
func inOrderLoop(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) *ast.ForStmt {
	var loop *ast.ForStmt
	var counter types.Object
	ok := true
	eachUse(pass, body, v, func(id *ast.Ident, stack []ast.Node) {
		switch p := nodeAt(stack, 1).(type) {
		case *ast.CallExpr:
			if !isBuiltin(pass, p.Fun, "len") {
				ok = false
			}
		case *ast.IndexExpr:
			if p.X != id {
				ok = false
				return
			}
			if as, isAs := nodeAt(stack, 2).(*ast.AssignStmt); isAs {
				for _, l := range as.Lhs {
					if l == p {
						ok = false // a write
					}
				}
			}
			x := indexCounter(pass, p.Index)
			if x == nil {
				ok = false
				return
			}
			// The innermost loop of the stack whose counter x is.
			var l *ast.ForStmt
			for i := len(stack) - 1; i >= 0 && l == nil; i-- {
				if f, isFor := stack[i].(*ast.ForStmt); isFor && loopCounter(pass, f) == x {
					l = f
				}
			}
			if l == nil || loop != nil && l != loop || !boundedBy(pass, l, v) {
				ok = false
				return
			}
			loop, counter = l, x
		default:
			ok = false
		}
	})
	if !ok || loop == nil || counter == nil {
		return nil
	}
	return loop
}

// indexCounter returns the variable an index is: x, x-1, x+1.
func indexCounter(pass *analysis.Pass, e ast.Expr) types.Object {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return pass.TypesInfo.Uses[x]
	case *ast.BinaryExpr:
		if x.Op != token.SUB && x.Op != token.ADD {
			return nil
		}
		if tv := pass.TypesInfo.Types[x.Y]; tv.Value == nil {
			return nil
		}
		if id, ok := ast.Unparen(x.X).(*ast.Ident); ok {
			return pass.TypesInfo.Uses[id]
		}
	}
	return nil
}

// loopCounter returns the variable a for loop declares and steps by one
// (for x := c; …; x++), or nil.
func loopCounter(pass *analysis.Pass, f *ast.ForStmt) types.Object {
	init, ok := f.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 {
		return nil
	}
	id, ok := init.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	post, ok := f.Post.(*ast.IncDecStmt)
	if !ok || post.Tok != token.INC {
		return nil
	}
	if pid, ok := ast.Unparen(post.X).(*ast.Ident); !ok || pass.TypesInfo.Uses[pid] != pass.TypesInfo.Defs[id] {
		return nil
	}
	return pass.TypesInfo.Defs[id]
}

// boundedBy reports whether the loop's condition compares its counter
// with len(v).
func boundedBy(pass *analysis.Pass, f *ast.ForStmt, v *types.Var) bool {
	cond, ok := f.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.LSS && cond.Op != token.LEQ {
		return false
	}
	call, ok := ast.Unparen(cond.Y).(*ast.CallExpr)
	if !ok || !isBuiltin(pass, call.Fun, "len") || len(call.Args) != 1 {
		return false
	}
	return objOf(pass, call.Args[0]) == v
}
