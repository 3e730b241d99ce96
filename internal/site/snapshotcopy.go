package site

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// SnapshotCopy finds bytes copied out of a shared value under its lock,
// the value's field then dropped, before the lock is released:
//
//	ready.mu.Lock()
//	if ready.Body != nil { bodyBuf.Write(ready.Body); ready.Body = nil }
//	ready.mu.Unlock()
//	… s.conn.Write(bodyBuf.Bytes())
//
// hashicorp/yamux's sendLoop copies every frame's body so that it never
// holds the frame's lock across the network write: its sender may give
// up on a timeout and reuse its slice once it gets the lock. A profile
// shows the copy; the copy is what lets the lock go (the hand analysis:
// leave it).
var SnapshotCopy = &analysis.Analyzer{
	Name: "snapshotcopy",
	Doc:  "bytes copied out of a shared value under its lock before slow work, the value's field dropped",
	Run:  runSnapshotCopy,
}

func runSnapshotCopy(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			var list []ast.Stmt
			switch b := n.(type) {
			case *ast.BlockStmt:
				list = b.List
			case *ast.CommClause:
				list = b.Body
			case *ast.CaseClause:
				list = b.Body
			default:
				return
			}
			for i, st := range list {
				lock, ok := lockStmt(pass, st, "Lock")
				if !ok {
					continue
				}
				for _, later := range list[i+1:] {
					if un, ok := lockStmt(pass, later, "Unlock"); ok && un == lock {
						break
					}
					copied, field := copiedThenDropped(pass, later)
					if copied == nil {
						continue
					}
					pass.Report(analysis.Diagnostic{
						Category:       "snapshot-copy" + ownWork,
						Pos:            copied.Pos(),
						Message:        fmt.Sprintf("%s copies %s out under %s and drops it (%s = nil) before the lock is released: the copy is what lets the lock go before the work that follows, and its owner reuse its bytes", fd.Name.Name, field, lock, field),
						SuggestedFixes: []analysis.SuggestedFix{{Message: "the copy is the price of not holding the lock across the slow work after it (a write that may block): keep it; writing the bytes directly would hold the lock across that work, or hand the owner's slice to a writer it may still reuse"}},
					})
				}
			}
		})
	})
	return nil, nil
}

// copiedThenDropped returns the call in st (or in the body of an if st
// is) that copies a field's bytes (buf.Write(x.f), copy(dst, x.f),
// append(dst, x.f...)) when the same statements then set that field to
// nil, and the field's text.
func copiedThenDropped(pass *analysis.Pass, st ast.Stmt) (*ast.CallExpr, string) {
	list := []ast.Stmt{st}
	if ifs, ok := st.(*ast.IfStmt); ok {
		list = ifs.Body.List
	}
	var copied *ast.CallExpr
	field := ""
	for _, s := range list {
		if copied == nil {
			ast.Inspect(s, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || copied != nil {
					return copied == nil
				}
				var src ast.Expr
				switch fun := ast.Unparen(call.Fun).(type) {
				case *ast.SelectorExpr:
					if fun.Sel.Name == "Write" && len(call.Args) == 1 {
						src = call.Args[0]
					}
				case *ast.Ident:
					if (fun.Name == "copy" || fun.Name == "append") && len(call.Args) == 2 {
						src = call.Args[1]
					}
				}
				if sel, ok := ast.Unparen(src).(*ast.SelectorExpr); ok {
					copied, field = call, text(pass, sel)
				}
				return copied == nil
			})
			continue
		}
		as, ok := s.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || text(pass, as.Lhs[0]) != field {
			continue
		}
		if id, ok := as.Rhs[0].(*ast.Ident); ok && id.Name == "nil" {
			return copied, field
		}
	}
	return nil, ""
}
