package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// CopyToCaller finds a method that copies from its receiver's buffer into
// the slice its caller passes (hamba/avro's Reader.Read: n := copy(b[read:],
// r.buf[r.head:r.tail])): the copy is the call's job, what a Read promises
// its caller, not a copy to avoid at the line.
var CopyToCaller = &analysis.Analyzer{
	Name: "copytocaller",
	Doc:  "a method copying from its receiver's buffer into the slice its caller passes",
	Run:  runCopyToCaller,
}

func runCopyToCaller(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
			return
		}
		recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		params := map[types.Object]bool{}
		for _, f := range fd.Type.Params.List {
			for _, n := range f.Names {
				if s, ok := pass.TypesInfo.TypeOf(n).Underlying().(*types.Slice); ok && types.Identical(s.Elem(), types.Typ[types.Byte]) {
					params[pass.TypesInfo.Defs[n]] = true
				}
			}
		}
		if len(params) == 0 {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return
			}
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || id.Name != "copy" {
				return
			}
			dst, src := ast.Unparen(call.Args[0]), ast.Unparen(call.Args[1])
			if se, ok := dst.(*ast.SliceExpr); ok {
				dst = ast.Unparen(se.X)
			}
			if se, ok := src.(*ast.SliceExpr); ok {
				src = ast.Unparen(se.X)
			}
			did, ok := dst.(*ast.Ident)
			if !ok || !params[pass.TypesInfo.ObjectOf(did)] {
				return
			}
			sel, ok := src.(*ast.SelectorExpr)
			if !ok || !isObj(pass, sel.X, recv) {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category:       "copy-to-caller" + ownWork,
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s copies from %s into %s, the slice its caller passes: the copy is the call's job, what it promises its caller", fd.Name.Name, text(pass, sel), did.Name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "nothing to change at the copy: a caller that needs no copy would read the buffer in place, through a method that returns a view of it, where the API has one"}},
			})
		})
	})
	return nil, nil
}
