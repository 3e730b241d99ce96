package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// CapShort finds a buffer made with room for exactly its input
// (`buf := make([]byte, 0, len(json))`), filled by a call that hands it
// back, then appended bytes the function always adds (a prefix before,
// a newline after): when the output is as long as the input (input
// already in the output's form), the last append finds the room full and
// copies the whole buffer into a new array twice its size. Room for the
// bytes always added removes that copy.
var CapShort = &analysis.Analyzer{
	Name: "capshort",
	Doc:  "a buffer made with room for exactly its input, then appended bytes the function always adds",
	Run:  runCapShort,
}

func runCapShort(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		for i, st := range fd.Body.List {
			as, ok := st.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				continue
			}
			buf, _ := objOf(pass, as.Lhs[0]).(*types.Var)
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if buf == nil || !ok || !isBuiltin(pass, call.Fun, "make") || len(call.Args) != 3 {
				continue
			}
			in := lenOfParam(pass, fd, call.Args[2])
			if in == "" {
				continue
			}
			// After it: the fill that hands buf back, then appends of
			// what is always added.
			filled := false
			var extra []string
			var last ast.Node
			for _, next := range fd.Body.List[i+1:] {
				switch x := next.(type) {
				case *ast.AssignStmt:
					c, ok := ast.Unparen(x.Rhs[len(x.Rhs)-1]).(*ast.CallExpr)
					if !ok || objOf(pass, x.Lhs[0]) != buf || len(c.Args) == 0 || objOf(pass, c.Args[0]) != buf {
						continue
					}
					if isBuiltin(pass, c.Fun, "append") && len(c.Args) == 2 {
						if filled {
							extra = append(extra, oneLine(types.ExprString(c.Args[1])))
							last = c
						}
						continue
					}
					filled = true
				case *ast.IfStmt:
					// if len(buf) > 0 { buf = append(buf, '\n') }
					if filled && len(x.Body.List) == 1 && x.Else == nil {
						if a, ok := x.Body.List[0].(*ast.AssignStmt); ok && len(a.Rhs) == 1 && objOf(pass, a.Lhs[0]) == buf {
							if c, ok := ast.Unparen(a.Rhs[0]).(*ast.CallExpr); ok && isBuiltin(pass, c.Fun, "append") && len(c.Args) == 2 && objOf(pass, c.Args[0]) == buf {
								extra = append(extra, oneLine(types.ExprString(c.Args[1])))
								last = c
							}
						}
					}
				}
			}
			if last == nil || !returnsVar(pass, fd, buf) {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Category: "cap-short",
				Pos:      last.Pos(),
				Message: fmt.Sprintf("%s is made with room for %s bytes, the input's length (line %d), and after it is filled %s appends %s: when the output is as long as the input, this append finds the room full and copies the whole buffer into a new array twice its size",
					buf.Name(), in, pass.Fset.Position(as.Pos()).Line, fd.Name.Name, strings.Join(extra, " and ")),
				Related:        []analysis.RelatedInformation{{Pos: as.Pos(), Message: "the make"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("make it with room for what is always added too: make(…, 0, %s+%d or more), so that an output as long as its input needs no second array", in, len(extra))}},
			})
		}
	})
	return nil, nil
}

// lenOfParam returns the text of e when it is len(p) of a parameter p,
// or "".
func lenOfParam(pass *analysis.Pass, fd *ast.FuncDecl, e ast.Expr) string {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !isBuiltin(pass, call.Fun, "len") {
		return ""
	}
	v, ok := objOf(pass, call.Args[0]).(*types.Var)
	if !ok || !isParam(fd, pass, v) {
		return ""
	}
	return types.ExprString(call)
}
