package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// SparseTable finds a table with a slot for every byte of an input,
// whose slots the loop over that input sets only at some bytes:
//
//	t.closeAt = make([]int, len(t.data))
//	for i := range t.closeAt { t.closeAt[i] = -1 }
//	for i, c := range t.data {
//		switch c {
//		case t.close:
//			…
//			t.closeAt[opening] = i
//
// Every call allocates and fills a slot per input byte for the few
// positions that have an entry (a paragraph's brackets): the cost follows
// the input's length, not the entries'. Keeping only the entries (a map,
// or positions in order searched by binary search) makes it follow the
// entries; a dense input (most bytes brackets) is where the table pays.
var SparseTable = &analysis.Analyzer{
	Name: "sparsetable",
	Doc:  "a slot per input byte, set by the loop over the input only at some bytes",
	Run:  runSparseTable,
}

func runSparseTable(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		// Lengths kept in locals: n := len(t.data).
		lens := map[types.Object]ast.Expr{}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			if c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && isBuiltin(pass, c.Fun, "len") && len(c.Args) == 1 {
				if o := objOf(pass, as.Lhs[0]); o != nil {
					lens[o] = c.Args[0]
				}
			}
		})
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			mk, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, mk.Fun, "make") || len(mk.Args) != 2 {
				return
			}
			if _, ok := typeUnder(pass, mk).(*types.Slice); !ok {
				return
			}
			var input ast.Expr
			switch x := ast.Unparen(mk.Args[1]).(type) {
			case *ast.CallExpr:
				if isBuiltin(pass, x.Fun, "len") && len(x.Args) == 1 {
					input = x.Args[0]
				}
			case *ast.Ident:
				input = lens[objOf(pass, x)]
			}
			if input == nil || !isByteInput(pass, input) {
				return
			}
			table := types.ExprString(as.Lhs[0])
			in := types.ExprString(input)
			// The loop over the input, and its stores into the table.
			var loop *ast.RangeStmt
			var stores []*ast.AssignStmt
			guarded := true
			var fill ast.Node
			ast.Inspect(fd.Body, func(m ast.Node) bool {
				r, ok := m.(*ast.RangeStmt)
				if !ok {
					return true
				}
				switch types.ExprString(r.X) {
				case table:
					fill = r // for i := range table { table[i] = -1 }
				case in:
					if loop == nil {
						loop = r
					}
				}
				return true
			})
			if loop == nil || loop.Value == nil {
				return
			}
			elem := objOf(pass, loop.Value)
			var stack []ast.Node
			ast.Inspect(loop.Body, func(m ast.Node) bool {
				if m == nil {
					stack = stack[:len(stack)-1]
					return true
				}
				stack = append(stack, m)
				st, ok := m.(*ast.AssignStmt)
				if !ok || st.Tok != token.ASSIGN {
					return true
				}
				for _, l := range st.Lhs {
					ix, ok := ast.Unparen(l).(*ast.IndexExpr)
					if !ok || types.ExprString(ix.X) != table {
						continue
					}
					stores = append(stores, st)
					if !underElemTest(pass, stack, elem) {
						guarded = false
					}
				}
				return true
			})
			if len(stores) == 0 || !guarded {
				return
			}
			start, end := pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line
			what := ""
			var related []analysis.RelatedInformation
			if fill != nil {
				what = ", fills every slot,"
				related = append(related, analysis.RelatedInformation{Pos: fill.Pos(), Message: "every slot filled"})
			}
			for _, s := range stores {
				related = append(related, analysis.RelatedInformation{Pos: s.Pos(), Message: "a slot set"})
			}
			pass.Report(analysis.Diagnostic{
				Category: "sparse-table",
				Pos:      as.Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s makes %s with a slot for every byte of %s%s but the loop over %s (lines %d–%d) sets slots only for some bytes (line %d, under a test of %s): the table's cost follows the input's length, not its entries",
					fd.Name.Name, table, in, what, in, start, end, pass.Fset.Position(stores[0].Pos()).Line, loop.Value.(*ast.Ident).Name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"keep only the entries: the positions that have one, in order, with their values (searched by binary search), or a map of them; an input with no such byte then allocates nothing, and one with few allocates a few slots; keep %s as it is only for inputs where most bytes have an entry", table)}},
			})
		})
	})
	return nil, nil
}

// isByteInput reports whether e is a []byte or a string.
func isByteInput(pass *analysis.Pass, e ast.Expr) bool {
	switch t := typeUnder(pass, e).(type) {
	case *types.Slice:
		b, ok := t.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	case *types.Basic:
		return t.Info()&types.IsString != 0
	}
	return false
}

// underElemTest reports whether the innermost node of stack is inside a
// case of a switch on the loop's element, or the body of an if whose
// condition reads it: the slot is set only at some bytes.
func underElemTest(pass *analysis.Pass, stack []ast.Node, elem types.Object) bool {
	if elem == nil {
		return false
	}
	uses := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == elem {
				found = true
			}
			return !found
		})
		return found
	}
	for i := len(stack) - 2; i >= 0; i-- {
		switch s := stack[i].(type) {
		case *ast.CaseClause:
			if sw, ok := stack[i-1].(*ast.BlockStmt); ok && i >= 2 {
				if ss, ok := stack[i-2].(*ast.SwitchStmt); ok && sw == ss.Body && ss.Tag != nil && uses(ss.Tag) {
					return true
				}
			}
		case *ast.IfStmt:
			if s.Body == stack[i+1] && uses(s.Cond) {
				return true
			}
		}
	}
	return false
}
