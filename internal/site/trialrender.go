package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// TrialRender finds a recursive renderer that tries a layout by
// rendering a whole subtree, then tests its width and throws it away
// (`s1 := len(buf); buf, … = appendPrettyObject(buf, …, false, …, max);
// if ok && len(buf)-s1 <= max { return … }; buf = buf[:s1]`): the test
// comes after the whole subtree is rendered, and every nesting level
// tries again, so a document is rendered about once per level of its
// depth. Testing the limit while rendering (the attempt stops once it
// passes it) bounds each attempt by the width.
var TrialRender = &analysis.Analyzer{
	Name: "trialrender",
	Doc:  "a recursive renderer that renders a whole subtree to test its width, then throws it away",
	Run:  runTrialRender,
}

func runTrialRender(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		self, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if self == nil {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			block, ok := n.(*ast.BlockStmt)
			if !ok {
				return
			}
			for i, st := range block.List {
				// s1 := len(buf) (possibly with others: s1, s2 := len(buf), i)
				start, buf := lenSaved(pass, st)
				if start == nil {
					continue
				}
				var trial *ast.CallExpr
				var test, cut ast.Stmt
				for _, next := range block.List[i+1:] {
					switch x := next.(type) {
					case *ast.AssignStmt:
						if c, ok := ast.Unparen(x.Rhs[len(x.Rhs)-1]).(*ast.CallExpr); ok && trial == nil && calledFunc(pass, c) == self && objOf(pass, x.Lhs[0]) == buf {
							trial = c
							continue
						}
						if sl, ok := ast.Unparen(x.Rhs[0]).(*ast.SliceExpr); ok && trial != nil && test != nil && objOf(pass, x.Lhs[0]) == buf && objOf(pass, sl.X) == buf && sl.High != nil && objOf(pass, sl.High) == start {
							cut = x
						}
					case *ast.IfStmt:
						if trial != nil && lenSince(pass, x.Cond, buf, start) {
							test = x
						}
					}
				}
				if trial == nil || test == nil || cut == nil {
					continue
				}
				d := analysis.Diagnostic{
					Category: "trial-render",
					Pos:      trial.Pos(),
					Message: fmt.Sprintf("%s tries a one-line layout by rendering the whole subtree (%s), tests its width only after (line %d), and throws it away when too wide (line %d): every nesting level tries again, so a document is rendered about once per level of its depth",
						fd.Name.Name, oneLine(types.ExprString(trial.Fun)), pass.Fset.Position(test.Pos()).Line, pass.Fset.Position(cut.Pos()).Line),
					Related:        []analysis.RelatedInformation{{Pos: test.Pos(), Message: "the width test"}, {Pos: cut.Pos(), Message: "the attempt thrown away"}},
					SuggestedFixes: []analysis.SuggestedFix{{Message: "test the limit while rendering: let the attempt stop as soon as what it wrote passes the width (return not-ok from the loop that appends), so that a layout too wide costs at most the width, not the subtree; the output stays the same"}},
				}
				// The rendering loop runs for every attempt: its lines
				// are where the thrown-away work shows.
				if loop := largestLoop(fd.Body); loop != nil {
					tf := pass.Fset.File(loop.Pos())
					from, to := pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line
					for l := from; l <= to; l++ {
						d.Related = append(d.Related, analysis.RelatedInformation{Pos: tf.LineStart(l), Message: "the rendering loop each attempt runs"})
					}
				}
				pass.Report(d)
			}
		})
	})
	return nil, nil
}

// lenSaved returns the variable a statement saves len(buf) in and buf:
// s1 := len(buf), or s1, s2 := len(buf), i.
func lenSaved(pass *analysis.Pass, st ast.Stmt) (types.Object, types.Object) {
	as, ok := st.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
		return nil, nil
	}
	for i, r := range as.Rhs {
		call, ok := ast.Unparen(r).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !isBuiltin(pass, call.Fun, "len") {
			continue
		}
		if buf := objOf(pass, call.Args[0]); buf != nil {
			return objOf(pass, as.Lhs[i]), buf
		}
	}
	return nil, nil
}

// lenSince reports whether a condition compares len(buf)-start with a
// limit (len(buf)-s1 <= max).
func lenSince(pass *analysis.Pass, cond ast.Expr, buf, start types.Object) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || b.Op != token.SUB {
			return !found
		}
		if call, ok := ast.Unparen(b.X).(*ast.CallExpr); ok && len(call.Args) == 1 && isBuiltin(pass, call.Fun, "len") && objOf(pass, call.Args[0]) == buf && objOf(pass, b.Y) == start {
			found = true
		}
		return !found
	})
	return found
}

// largestLoop returns the for or range loop of a body that spans the
// most lines, or nil.
func largestLoop(body *ast.BlockStmt) ast.Node {
	var best ast.Node
	size := token.Pos(0)
	inspectBody(body, func(n ast.Node) {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if n.End()-n.Pos() > size {
				best, size = n, n.End()-n.Pos()
			}
		}
	})
	return best
}
