package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// LimitPerCall finds a reader wrapped in a new io.LimitedReader on every
// call (conn = &io.LimitedReader{R: conn, N: n}, or io.LimitReader) and
// handed on as an io.Reader, which moves it to the heap: hashicorp/
// yamux's readData does so for every data frame it receives, one of the
// two allocations of each SendRecv operation (a hand analysis kept one
// LimitedReader in the Session, which only its receive loop uses: 2 → 1
// allocations per op with the other fix, 0). A value that outlives the
// calls — a field of the receiver's owner, reset per call — makes none.
var LimitPerCall = &analysis.Analyzer{
	Name: "limitpercall",
	Doc:  "a reader wrapped in a new io.LimitedReader on every call and handed on as an io.Reader",
	Run:  runLimitPerCall,
}

func runLimitPerCall(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !limitedReader(pass, as.Rhs[0]) {
				return
			}
			id, ok := as.Lhs[0].(*ast.Ident)
			if !ok {
				return
			}
			if _, isIface := pass.TypesInfo.TypeOf(id).Underlying().(*types.Interface); !isIface {
				if _, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); !isCall {
					return // a *io.LimitedReader kept as itself may stay on the stack
				}
			}
			owner := "the value the calls come from"
			if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
				owner = fmt.Sprintf("%s's value (or the one it belongs to), when one goroutine makes the calls", fd.Recv.List[0].Names[0].Name)
			}
			pass.Report(analysis.Diagnostic{
				Category:       "limit-per-call",
				Pos:            as.Pos(),
				Message:        fmt.Sprintf("%s wraps %s in a new io.LimitedReader on every call and hands it on as an io.Reader: it escapes to the heap, one allocation per call", fd.Name.Name, id.Name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("keep one io.LimitedReader in %s and set its R and N per call: a pointer to a field of a value already on the heap is passed without an allocation", owner)}},
			})
		})
	})
	return nil, nil
}
