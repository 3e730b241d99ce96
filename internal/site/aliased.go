package site

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// aliased returns the expression whose memory e's value shares when e
// only reinterprets it: unsafe.String(unsafe.SliceData(b), len(b)),
// unsafe.String(&b[0], len(b)), *(*string)(unsafe.Pointer(&b)), or a call
// of a function of the package whose body returns one of those on its
// one parameter (msgp's UnsafeString(out), gin's BytesToString). The
// bytes made for b are then the string's: what b holds is what e is.
// It returns nil for anything else.
func aliased(pass *analysis.Pass, e ast.Expr) ast.Expr {
	switch x := ast.Unparen(e).(type) {
	case *ast.StarExpr:
		// *(*string)(unsafe.Pointer(&b))
		conv, ok := ast.Unparen(x.X).(*ast.CallExpr)
		if !ok || len(conv.Args) != 1 || !isConversion(pass, conv) {
			return nil
		}
		ptr, ok := ast.Unparen(conv.Args[0]).(*ast.CallExpr)
		if !ok || len(ptr.Args) != 1 || !isUnsafe(pass, ptr.Fun, "Pointer") {
			return nil
		}
		if u, ok := ast.Unparen(ptr.Args[0]).(*ast.UnaryExpr); ok && u.Op == token.AND {
			return u.X
		}
	case *ast.CallExpr:
		if isUnsafe(pass, x.Fun, "String") && len(x.Args) == 2 {
			// unsafe.String(unsafe.SliceData(b), len(b)), unsafe.String(&b[0], len(b))
			switch p := ast.Unparen(x.Args[0]).(type) {
			case *ast.CallExpr:
				if isUnsafe(pass, p.Fun, "SliceData") && len(p.Args) == 1 {
					return p.Args[0]
				}
			case *ast.UnaryExpr:
				if ix, ok := ast.Unparen(p.X).(*ast.IndexExpr); ok && p.Op == token.AND {
					return ix.X
				}
			}
			return nil
		}
		fn := calledFunc(pass, x)
		if fn == nil || fn.Pkg() != pass.Pkg || len(x.Args) != 1 {
			return nil
		}
		fd := funcDecl(pass, fn)
		if fd == nil || fd.Body == nil || len(fd.Body.List) != 1 || len(fd.Type.Params.List) != 1 || len(fd.Type.Params.List[0].Names) != 1 {
			return nil
		}
		ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return nil
		}
		// The body's own reinterpretation, of its parameter.
		inner := aliased(pass, ret.Results[0])
		id, ok := ast.Unparen(inner).(*ast.Ident)
		if !ok || pass.TypesInfo.ObjectOf(id) != pass.TypesInfo.Defs[fd.Type.Params.List[0].Names[0]] {
			return nil
		}
		return x.Args[0]
	}
	return nil
}

// isUnsafe reports whether fun names unsafe.name.
func isUnsafe(pass *analysis.Pass, fun ast.Expr, name string) bool {
	sel, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	pn, ok := pass.TypesInfo.Uses[id].(*types.PkgName)
	return ok && pn.Imported().Path() == "unsafe"
}
