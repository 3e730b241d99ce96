package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ReceiverCopy finds a method that returns a new heap copy of its whole
// receiver (c := &T{}; *c = *p; … return c, or c := *p; return &c): a
// parser's Branch, a context's WithX. Every call copies all of the value
// to the heap, whatever the copy is used for; a caller that uses it
// briefly (one alternative tried, one iteration) makes garbage of it at
// once.
var ReceiverCopy = &analysis.Analyzer{
	Name: "receivercopy",
	Doc:  "a method returning a new heap copy of its whole receiver",
	Run:  runReceiverCopy,
}

func runReceiverCopy(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
				continue
			}
			recv, _ := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
			if recv == nil {
				continue
			}
			ptr, ok := recv.Type().(*types.Pointer)
			if !ok {
				continue
			}
			if pos, ok := copiesReceiver(pass, fd.Body, recv); ok {
				size, known := sizeof(pass.TypesSizes, ptr.Elem())
				if !known {
					continue // a generic receiver: no size to say
				}
				name := types.TypeString(ptr.Elem(), types.RelativeTo(pass.Pkg))
				pass.Report(analysis.Diagnostic{
					Category:       "receiver-copied",
					Pos:            pos,
					Message:        fmt.Sprintf("%s returns a new heap copy of all of its receiver (a %s, %d bytes) on every call", fd.Name.Name, name, size),
					SuggestedFixes: []analysis.SuggestedFix{{Message: "where callers use the copy briefly (one alternative tried, one iteration) and drop it, reuse the copies they are done with (a free list the caller owns; copies that nest can be a stack), or copy only the fields the copy changes"}},
				})
			}
		}
	}
	return nil, nil
}

// copiesReceiver reports whether body makes a heap copy of *recv and
// returns it: v := &T{}; *v = *recv; return v — or v := *recv; return &v
// — and where the copy is made.
func copiesReceiver(pass *analysis.Pass, body *ast.BlockStmt, recv *types.Var) (token.Pos, bool) {
	isRecvDeref := func(e ast.Expr) bool {
		st, ok := ast.Unparen(e).(*ast.StarExpr)
		return ok && objOf(pass, st.X) == recv
	}
	made := map[types.Object]token.Pos{}      // v := &T{} or new(T)
	filled := map[types.Object]bool{}         // *v = *recv
	valueCopy := map[types.Object]token.Pos{} // v := *recv
	var returned []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(x.Lhs) != 1 || len(x.Rhs) != 1 {
				return true
			}
			lhs, rhs := x.Lhs[0], ast.Unparen(x.Rhs[0])
			if st, ok := lhs.(*ast.StarExpr); ok && isRecvDeref(rhs) {
				if v := objOf(pass, st.X); v != nil {
					filled[v] = true
				}
				return true
			}
			v := objOf(pass, lhs)
			if v == nil {
				return true
			}
			switch r := rhs.(type) {
			case *ast.UnaryExpr:
				if _, lit := r.X.(*ast.CompositeLit); lit && r.Op == token.AND {
					made[v] = x.Pos()
				}
			case *ast.CallExpr:
				if isBuiltin(pass, r.Fun, "new") {
					made[v] = x.Pos()
				}
			case *ast.StarExpr:
				if isRecvDeref(r) {
					valueCopy[v] = x.Pos()
				}
			}
		case *ast.ReturnStmt:
			returned = append(returned, x.Results...)
		}
		return true
	})
	for _, e := range returned {
		e = ast.Unparen(e)
		if v := objOf(pass, e); v != nil {
			if pos, ok := made[v]; ok && filled[v] {
				return pos, true
			}
		}
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			if v := objOf(pass, u.X); v != nil {
				if pos, ok := valueCopy[v]; ok {
					return pos, true
				}
			}
		}
	}
	return token.NoPos, false
}
