package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// GrowShort finds a builder reserved for its input plus a small constant
// (`n.Grow(len(s) + 2)`, "nominal 2 bytes of extra space for inserted
// delimiters") and then filled by a loop over that input that writes,
// in some iterations, more than the element itself (a delimiter before
// it): input with more inserts than the constant outgrows the room, and
// the builder allocates again and copies. Room for what the loop can
// write (the worst case, or the inserts counted first) makes it one
// allocation.
var GrowShort = &analysis.Analyzer{
	Name: "growshort",
	Doc:  "a builder reserved for its input plus a small constant, filled by a loop that can write more per element",
	Run:  runGrowShort,
}

func runGrowShort(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		for i, st := range fd.Body.List {
			es, ok := st.(*ast.ExprStmt)
			if !ok {
				continue
			}
			call, ok := ast.Unparen(es.X).(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				continue
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Grow" {
				continue
			}
			b, _ := objOf(pass, sel.X).(*types.Var)
			if b == nil || !isNamed(b.Type(), "strings", "Builder") && !isNamed(b.Type(), "bytes", "Buffer") {
				continue
			}
			in, k := lenPlusConst(pass, call.Args[0])
			if in == nil || k < 0 || k > 8 {
				continue
			}
			for _, next := range fd.Body.List[i+1:] {
				r, ok := next.(*ast.RangeStmt)
				if !ok || !rangesOver(pass, r.X, in) {
					continue
				}
				// Two statements of one block that each write: one
				// iteration can write twice (a delimiter, then the
				// byte); writes in the branches of one if are one.
				writes := 0
				inspectBody(r.Body, func(n ast.Node) {
					blk, ok := n.(*ast.BlockStmt)
					if !ok {
						return
					}
					k := 0
					for _, st := range blk.List {
						if writesInto(pass, st, b) {
							k++
						}
					}
					writes = max(writes, k)
				})
				if writes < 2 {
					break
				}
				pass.Report(analysis.Diagnostic{
					Category: "grow-short",
					Pos:      call.Pos(),
					Message: fmt.Sprintf("%s reserves %s bytes, then the loop at line %d writes each byte of %s and, at some, more (%d writes into %s in one iteration): input with more than %d inserts outgrows the room, and the builder allocates again and copies",
						oneLine(types.ExprString(call)), oneLine(types.ExprString(call.Args[0])), pass.Fset.Position(r.Pos()).Line, in.Name(), writes, b.Name(), k),
					Related: []analysis.RelatedInformation{{Pos: r.Pos(), Message: "the loop that writes"}},
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"reserve what the loop can write (2*len(%s) for a delimiter per byte, or count the inserts in a first pass), or build into a stack array of a fixed size and make the string once", in.Name())}},
				})
				break
			}
		}
	})
	return nil, nil
}

// lenPlusConst returns v and k for len(v) + k (k 0 for len(v) alone), v
// a variable; nil otherwise.
func lenPlusConst(pass *analysis.Pass, e ast.Expr) (*types.Var, int64) {
	k := int64(0)
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.ADD {
		k = constInt(pass, b.Y)
		if k == 0 {
			return nil, -1
		}
		e = b.X
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !isBuiltin(pass, call.Fun, "len") {
		return nil, -1
	}
	v, _ := objOf(pass, call.Args[0]).(*types.Var)
	return v, k
}

// rangesOver reports whether a range expression is v or a conversion
// of it ([]byte(s)).
func rangesOver(pass *analysis.Pass, x ast.Expr, v *types.Var) bool {
	if c, ok := ast.Unparen(x).(*ast.CallExpr); ok && len(c.Args) == 1 && isConversion(pass, c) {
		x = c.Args[0]
	}
	return objOf(pass, x) == v
}

// writesInto reports whether a statement writes into builder b.
func writesInto(pass *analysis.Pass, st ast.Stmt, b *types.Var) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if s, ok := c.Fun.(*ast.SelectorExpr); ok && objOf(pass, s.X) == b {
				switch s.Sel.Name {
				case "WriteByte", "WriteRune", "WriteString", "Write":
					found = true
				}
			}
		}
		return !found
	})
	return found
}
