package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// InlineOverflow finds a method that allocates a field of its receiver
// only when the value no longer fits in an array field of the same
// receiver: cockroachdb/apd's BigInt keeps values of up to 128 bits in
// its _inline [2]big.Word and its updateInner sets z._inner =
// new(big.Int) once arithmetic outgrows it. Small values cost no
// allocation; the heap form of a large one is the layout's trade-off,
// not a change to make at the allocation (both analyses by hand leave it
// alone): its count follows how many values grow past the array, which
// is the callers' to cut.
var InlineOverflow = &analysis.Analyzer{
	Name: "inlineoverflow",
	Doc:  "a receiver's field allocated only when its value outgrows an inline array field",
	Run:  runInlineOverflow,
}

func runInlineOverflow(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
			return
		}
		recv, _ := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
		if recv == nil {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			is, ok := n.(*ast.IfStmt)
			if !ok {
				return
			}
			arr := arrayFieldIn(pass, recv, is.Cond)
			if arr == nil {
				return
			}
			for _, st := range is.Body.List {
				as, ok := st.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.ASSIGN {
					continue
				}
				f := receiverFieldOf(pass, recv, as.Lhs[0])
				if f == nil || f == arr || !allocates(pass, as.Rhs[0]) {
					continue
				}
				pass.Report(analysis.Diagnostic{
					Category: "inline-overflow",
					Pos:      as.Pos(),
					Message: fmt.Sprintf("%s allocates %s (%s) only when the value no longer fits in %s.%s, its %s: small values stay in the %s itself, a larger one goes to the heap",
						fd.Name.Name, oneLine(types.ExprString(as.Lhs[0])), oneLine(types.ExprString(as.Rhs[0])), recv.Name(), arr.Name(), types.TypeString(arr.Type(), types.RelativeTo(pass.Pkg)), typeName(pass, namedOf(recv.Type()))),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"leave it: the heap form of a large value is the inline layout's trade-off; the allocations follow how many values grow past %s, so cut them at the callers that make such values per step (a temporary kept and reused across iterations, or work done on fewer large values)", arr.Name())}},
				})
				return
			}
		})
	})
	return nil, nil
}

// arrayFieldIn returns the array field of recv's struct that cond reads
// (&z._inline[0] != &bits[0]), or nil.
func arrayFieldIn(pass *analysis.Pass, recv *types.Var, cond ast.Expr) *types.Var {
	var out *types.Var
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && out == nil {
			if f := receiverFieldOf(pass, recv, e); f != nil {
				if _, isArr := f.Type().Underlying().(*types.Array); isArr {
					out = f
				}
			}
		}
		return out == nil
	})
	return out
}

// receiverFieldOf returns the field e selects of recv (z.f), or nil.
func receiverFieldOf(pass *analysis.Pass, recv *types.Var, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || pass.TypesInfo.Uses[id] != recv {
		return nil
	}
	f, _ := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
	if f == nil || !f.IsField() {
		return nil
	}
	return f
}

// allocates reports whether e makes a new value on the heap: new(T),
// &T{…} or make(…).
func allocates(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		return isBuiltin(pass, x.Fun, "new") || isBuiltin(pass, x.Fun, "make")
	case *ast.UnaryExpr:
		_, lit := ast.Unparen(x.X).(*ast.CompositeLit)
		return x.Op == token.AND && lit
	}
	return false
}
