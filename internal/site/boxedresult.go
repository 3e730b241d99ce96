package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// BoxedResult finds a concrete value stored into a map of interface
// values that the function returns or that its caller passed in
// (out[k] = i in a func returning map[string]any): the boxing is what the
// map's type asks for, the API's cost rather than the function's choice.
var BoxedResult = &analysis.Analyzer{
	Name: "boxedresult",
	Doc:  "a concrete value boxed into a map of interface values the function returns or was given",
	Run:  runBoxedResult,
}

func runBoxedResult(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			params, returned := apiMaps(pass, fd)
			if len(params)+len(returned) == 0 {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != len(as.Rhs) {
					return true
				}
				for i, l := range as.Lhs {
					ix, ok := ast.Unparen(l).(*ast.IndexExpr)
					if !ok {
						continue
					}
					id, ok := ast.Unparen(ix.X).(*ast.Ident)
					if !ok {
						continue
					}
					v, _ := pass.TypesInfo.Uses[id].(*types.Var)
					how := ""
					switch {
					case v == nil:
						continue
					case params[v]:
						how = "the caller passed"
					case returned[v]:
						how = "the function returns"
					default:
						continue
					}
					rt := pass.TypesInfo.TypeOf(as.Rhs[i])
					if rt == nil || types.IsInterface(rt) {
						continue // already an interface: no boxing
					}
					pass.Report(analysis.Diagnostic{
						Category: "boxed-into-result",
						Pos:      as.Pos(),
						Message: fmt.Sprintf("%s is boxed into the %s %s: the map's element type asks for an interface value, so each concrete value is allocated",
							oneLine(types.ExprString(as.Rhs[i])), types.TypeString(v.Type(), types.RelativeTo(pass.Pkg)), how),
					})
				}
				return true
			})
		}
	}
	return nil, nil
}

// apiMaps returns the function's parameters that are maps of interface
// values, and the local variables or named results of that type it
// returns.
func apiMaps(pass *analysis.Pass, fd *ast.FuncDecl) (params, returned map[*types.Var]bool) {
	params, returned = map[*types.Var]bool{}, map[*types.Var]bool{}
	isIfaceMap := func(t types.Type) bool {
		m, ok := t.Underlying().(*types.Map)
		return ok && types.IsInterface(m.Elem())
	}
	for _, fl := range fd.Type.Params.List {
		for _, n := range fl.Names {
			if v, ok := pass.TypesInfo.Defs[n].(*types.Var); ok && isIfaceMap(v.Type()) {
				params[v] = true
			}
		}
	}
	if fd.Type.Results == nil {
		return params, returned
	}
	for _, fl := range fd.Type.Results.List {
		for _, n := range fl.Names {
			if v, ok := pass.TypesInfo.Defs[n].(*types.Var); ok && isIfaceMap(v.Type()) {
				returned[v] = true
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return true
		}
		for _, r := range ret.Results {
			if id, ok := ast.Unparen(r).(*ast.Ident); ok {
				if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok && isIfaceMap(v.Type()) {
					returned[v] = true
				}
			}
		}
		return true
	})
	return params, returned
}
