package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ReturnedAddress finds a function's local variable whose address it
// returns (var p T … return &p): the caller gets the value, so it is on
// the heap whatever else the function does with it (an option call that
// takes &p, a closure that captures it). The compiler's first reason for
// moving it to the heap can be one of those; this shape says the value
// was the function's result all along.
var ReturnedAddress = &analysis.Analyzer{
	Name: "returnedaddress",
	Doc:  "a local variable whose address the function returns",
	Run:  runReturnedAddress,
}

func runReturnedAddress(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Type.Results == nil {
				continue
			}
			seen := map[types.Object]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false // a closure's return is its own
				}
				ret, ok := n.(*ast.ReturnStmt)
				if !ok {
					return true
				}
				for _, r := range ret.Results {
					u, ok := ast.Unparen(r).(*ast.UnaryExpr)
					if !ok || u.Op != token.AND {
						continue
					}
					if lit, ok := ast.Unparen(u.X).(*ast.CompositeLit); ok {
						// return &T{…}: the value made is the result,
						// wherever the compiler sees it escape once the
						// function is inlined into its caller.
						pass.Report(analysis.Diagnostic{
							Category: "returned-address",
							Pos:      u.Pos(),
							Message:  fmt.Sprintf("%s returns the &%s{…} it makes: the caller gets it, so it is on the heap unless the caller's own use keeps it on the stack", fd.Name.Name, oneLine(types.ExprString(lit.Type))),
						})
						continue
					}
					id, ok := ast.Unparen(u.X).(*ast.Ident)
					if !ok {
						continue
					}
					v, ok := pass.TypesInfo.Uses[id].(*types.Var)
					// A local of the body: declared inside it, not a
					// parameter or a result.
					if !ok || seen[v] || v.Pos() < fd.Body.Lbrace || v.Pos() > fd.Body.Rbrace {
						continue
					}
					seen[v] = true
					pass.Report(analysis.Diagnostic{
						Category: "returned-address",
						Pos:      v.Pos(),
						Message:  fmt.Sprintf("%s is returned as &%s: the caller gets it, so it is on the heap whatever else the function does with it", v.Name(), v.Name()),
					})
				}
				return true
			})
		}
	}
	return nil, nil
}
