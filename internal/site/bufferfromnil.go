package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// BufferFromNil finds a function that builds the []byte it returns by
// appending to a nil slice (var buf []byte; buf = strconv.AppendInt(buf,
// …); return buf) when a caller of the package's converts the result to
// a string at once (string(v.bytes())): the appends allocate from
// nothing and regrow (8 bytes, then 16, …), and the conversion copies it
// all again. hashicorp/go-version's bytes, behind String: 3 allocations
// for "3.4.5-rc1+meta" where the string alone is 1 (measured by hand,
// −46% of ReprString). Appending into a stack array's slice in the
// converting caller (var a [64]byte; string(v.appendTo(a[:0]))) leaves
// the string as the only allocation.
var BufferFromNil = &analysis.Analyzer{
	Name: "bufferfromnil",
	Doc:  "a []byte built by appends from nil, returned only to be converted to a string",
	Run:  runBufferFromNil,
}

func runBufferFromNil(pass *analysis.Pass) (any, error) {
	converted := map[*types.Func]*ast.CallExpr{} // function → a string(f()) conversion of its result
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			conv, ok := n.(*ast.CallExpr)
			if !ok || len(conv.Args) != 1 {
				return
			}
			if tv, ok := pass.TypesInfo.Types[conv.Fun]; !ok || !tv.IsType() || !types.Identical(tv.Type.Underlying(), types.Typ[types.String]) {
				return
			}
			inner, ok := ast.Unparen(conv.Args[0]).(*ast.CallExpr)
			if !ok {
				return
			}
			if fn := calledFunc(pass, inner); fn != nil && fn.Pkg() == pass.Pkg && converted[fn] == nil {
				converted[fn] = conv
			}
		})
	})
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		conv := converted[fn]
		if conv == nil || fd.Type.Results == nil || len(fd.Type.Results.List) != 1 {
			return
		}
		// var buf []byte (no value): the slice every append grows.
		var buf types.Object
		var decl ast.Node
		for _, st := range fd.Body.List {
			ds, ok := st.(*ast.DeclStmt)
			if !ok {
				continue
			}
			gd, ok := ds.Decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 {
				continue
			}
			vs := gd.Specs[0].(*ast.ValueSpec)
			if len(vs.Names) == 1 && len(vs.Values) == 0 {
				if v := pass.TypesInfo.Defs[vs.Names[0]]; v != nil && types.Identical(v.Type(), types.NewSlice(types.Typ[types.Byte])) {
					buf, decl = v, st
				}
			}
		}
		if buf == nil {
			return
		}
		last, ok := fd.Body.List[len(fd.Body.List)-1].(*ast.ReturnStmt)
		if !ok || len(last.Results) != 1 || objOf(pass, last.Results[0]) != buf {
			return
		}
		var appends []analysis.RelatedInformation
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || objOf(pass, as.Lhs[0]) != buf {
				return true
			}
			if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && len(call.Args) > 0 && objOf(pass, call.Args[0]) == buf {
				appends = append(appends, analysis.RelatedInformation{Pos: as.Pos(), Message: "an append to " + buf.Name()})
			}
			return true
		})
		if len(appends) < 2 {
			return
		}
		convAt := pass.Fset.Position(conv.Pos())
		pass.Report(analysis.Diagnostic{
			Category: "buffer-from-nil",
			Pos:      decl.Pos(),
			Related:  appends,
			Message: fmt.Sprintf("%s builds %s by %d appends from nil and returns it, and %s (line %d) converts it to a string at once: the appends allocate from nothing and regrow as it fills, and the conversion copies it all again",
				fd.Name.Name, buf.Name(), len(appends), oneLine(types.ExprString(conv)), convAt.Line),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"let %s take the slice to append to (func … %sTo(%s []byte) []byte), and where the result is converted append into a stack array's slice (var a [64]byte; string(…%sTo(a[:0]))): the array stays on the stack when the function keeps nothing of it, and the string is the only allocation; or size %s once (make([]byte, 0, n), n the length to come)",
				fd.Name.Name, fd.Name.Name, buf.Name(), fd.Name.Name, buf.Name())}},
		})
	})
	return nil, nil
}
