package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ReceiverBuffer finds a method that grows a buffer its receiver keeps:
//
//	dec.buf = make([]byte, len(dec.buf)-dec.off, 2*cap(dec.buf)+minRead)
//
// The buffer is made larger only when the one the receiver already holds
// is too small, and then kept for its later calls: a receiver that lives
// pays it once (and again only as its input grows). Where a profile shows
// it every operation, each operation uses a new receiver (a Decoder made
// per item): the cost is the caller's choice to make one per item, and
// reusing the receiver is the change, not this line.
var ReceiverBuffer = &analysis.Analyzer{
	Name: "receiverbuffer",
	Doc:  "a method that grows a buffer its receiver keeps across calls",
	Run:  runReceiverBuffer,
}

func runReceiverBuffer(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
			return
		}
		recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		if recv == nil {
			return
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.ASSIGN {
				return true
			}
			sel, ok := ast.Unparen(as.Lhs[0]).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || pass.TypesInfo.Uses[id] != recv {
				return true
			}
			mk, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, mk.Fun, "make") || len(mk.Args) < 2 {
				return true
			}
			// Its size from the buffer it replaces: cap(recv.f) or
			// len(recv.f) in the new length or capacity.
			field := types.ExprString(sel)
			grows := false
			for _, a := range mk.Args[1:] {
				ast.Inspect(a, func(n ast.Node) bool {
					if c, ok := n.(*ast.CallExpr); ok && (isBuiltin(pass, c.Fun, "cap") || isBuiltin(pass, c.Fun, "len")) && len(c.Args) == 1 && types.ExprString(c.Args[0]) == field {
						grows = true
					}
					return !grows
				})
			}
			if !grows {
				return true
			}
			typ := types.TypeString(recv.Type(), types.RelativeTo(pass.Pkg))
			pass.Report(analysis.Diagnostic{
				Category: "receiver-buffer" + ownWork,
				Pos:      as.Pos(),
				Message: fmt.Sprintf("%s grows %s, a buffer the %s keeps for its later calls, only when the one it holds is too small: a receiver that lives pays it once; every operation pays it only when every operation uses a new %s",
					fd.Name.Name, field, typ, typ),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"nothing at this line: where it is paid per operation, the caller makes a %s per operation; reusing one (or, for input already in memory, an entry point that needs none) pays it once", typ)}},
			})
			return true
		})
	})
	return nil, nil
}
