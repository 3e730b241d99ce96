package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// WriteBatched finds a write to an *os.File of a buffer the function
// built first by appending to it, once per call, outside any loop:
//
//	for key, item := range tx.wc.commitItems { tx.db.buf = item.writeSetTo(tx.db.buf, now) }
//	n, err = tx.db.file.Write(tx.db.buf)
//
// The data is already batched: one system call per call of the function,
// which the file's contract may need (what Commit returns has reached the
// operating system). Buffering it more would delay that; the change, if
// any, is fewer calls: more records per call, at the caller.
var WriteBatched = &analysis.Analyzer{
	Name: "writebatched",
	Doc:  "one write to an *os.File per call of a buffer the function appended first",
	Run:  runWriteBatched,
}

func runWriteBatched(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		built := map[string]token.Pos{} // a buffer's text → its first append
		var loops []ast.Node
		inspectBody(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				loops = append(loops, x)
			case *ast.AssignStmt:
				if len(x.Lhs) != 1 || len(x.Rhs) != 1 {
					return
				}
				call, ok := ast.Unparen(x.Rhs[0]).(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return
				}
				dst := text(pass, x.Lhs[0])
				// buf = append(buf, …) or buf = item.writeTo(buf, …)
				if text(pass, call.Args[0]) == dst {
					if _, seen := built[dst]; !seen {
						built[dst] = x.Pos()
					}
				}
			}
		})
		if len(built) == 0 {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) != 1 {
				return
			}
			sel, ok := c.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Write" || !isNamed(pass.TypesInfo.TypeOf(sel.X), "os", "File") {
				return
			}
			buf := text(pass, c.Args[0])
			first, ok := built[buf]
			if !ok || first > c.Pos() {
				return
			}
			for _, l := range loops {
				if l.Pos() <= c.Pos() && c.End() <= l.End() {
					return // a write per iteration: unbuffered-write's
				}
			}
			pass.Report(analysis.Diagnostic{
				Category: "write-batched" + ownWork,
				Pos:      c.Pos(),
				Message: fmt.Sprintf("%s writes %s, which it builds by appending first (from line %d), to %s in one call: one system call per call of %s, the data already batched",
					fd.Name.Name, buf, pass.Fset.Position(first).Line, types.ExprString(sel.X), fd.Name.Name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("buffering it more would only delay what %s hands the operating system: the cost is one system call per call, and fewer calls (more records per call, at the caller) is the change; %s", fd.Name.Name, ownWorkWords)}},
			})
		})
	})
	return nil, nil
}
