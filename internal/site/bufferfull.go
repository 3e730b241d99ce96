package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// BufferMadeFull finds a read buffer made with a length (t.buf =
// make([]byte, size, size+n)) in one method of a type while another
// method reads into it from its length on (start := len(t.buf); …
// io.ReadAtLeast(t.r, t.buf[start:end], 1)): the length is what the type
// counts as read, so the size zero bytes the make leaves are taken as
// data, scanned before the first real byte — and, after a reset, handed
// out. muktihari/xmltokenizer's Reset: every new tokenizer scans 4096 NUL
// bytes first (−93% instructions on a small document with the buffer
// made empty, and a phantom token after Reset; measured by hand).
var BufferMadeFull = &analysis.Analyzer{
	Name: "buffermadefull",
	Doc:  "a read buffer made with a length where reads append from its length",
	Run:  runBufferMadeFull,
}

func runBufferMadeFull(pass *analysis.Pass) (any, error) {
	// Fields read into from their length on, by the methods that do it.
	readFrom := map[*types.Var]string{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil {
			return
		}
		lenOf := map[types.Object]*types.Var{} // start := len(t.buf)
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return
			}
			for i, r := range as.Rhs {
				call, ok := ast.Unparen(r).(*ast.CallExpr)
				if !ok || !isBuiltin(pass, call.Fun, "len") || len(call.Args) != 1 {
					continue
				}
				if f := fieldOf(pass, call.Args[0]); f != nil {
					if v := objOf(pass, as.Lhs[i]); v != nil {
						lenOf[v] = f
					}
				}
			}
		})
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			name := ""
			if fn := calledFunc(pass, call); fn != nil {
				name = fn.Name()
			} else if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				name = sel.Sel.Name
			}
			if name != "Read" && name != "ReadAtLeast" && name != "ReadFull" {
				return
			}
			for _, a := range call.Args {
				sl, ok := ast.Unparen(a).(*ast.SliceExpr)
				if !ok || sl.Low == nil {
					continue
				}
				f := fieldOf(pass, sl.X)
				if f == nil {
					continue
				}
				if lenOf[objOf(pass, sl.Low)] == f || isLenOf(pass, sl.Low, f) {
					readFrom[f] = fd.Name.Name
				}
			}
		})
	})
	if len(readFrom) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			f := fieldOf(pass, as.Lhs[0])
			reader := readFrom[f]
			if f == nil || reader == "" || reader == fd.Name.Name {
				return
			}
			mk, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, mk.Fun, "make") || len(mk.Args) < 2 {
				return
			}
			if tv, ok := pass.TypesInfo.Types[mk.Args[1]]; ok && tv.Value != nil && constant.Sign(tv.Value) == 0 {
				return // made empty: reads fill it from the start
			}
			lhs := oneLine(types.ExprString(as.Lhs[0]))
			pass.Report(analysis.Diagnostic{
				Category: "buffer-made-full",
				Pos:      mk.Pos(),
				Message: fmt.Sprintf("%s makes %s with length %s (%s), but %s reads into it from len(%s) on: the length counts as data read, so its %s zero bytes are scanned as input before the first real byte, and handed out as data",
					fd.Name.Name, lhs, oneLine(types.ExprString(mk.Args[1])), oneLine(types.ExprString(mk)), reader, lhs, oneLine(types.ExprString(mk.Args[1]))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"make it with length 0 and the capacity (make(%s, 0, …)), or reslice the kept buffer to %s[:0]: the first read then fills it from the start", types.ExprString(mk.Args[0]), lhs)}},
			})
		})
	})
	return nil, nil
}

// isLenOf reports whether e is len(f's selector).
func isLenOf(pass *analysis.Pass, e ast.Expr, f *types.Var) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && isBuiltin(pass, call.Fun, "len") && len(call.Args) == 1 && fieldOf(pass, call.Args[0]) == f
}
