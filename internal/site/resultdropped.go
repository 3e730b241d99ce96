package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ResultDropped finds a call of the module's own function made only for
// its error (_, err := base32.Decode(suffix)) where the result it drops
// is a value the callee allocates to return (a slice, a map, a pointer):
// the value is made on every call and thrown away. go.jetify.com/
// typeid's validateSuffix decodes every suffix to check it: a 16-byte
// slice per constructor, 36% of FromString's CPU (measured by hand; an
// allocation-free decode into the caller's array takes From and
// FromString from 2 allocations per ID to 1).
var ResultDropped = &analysis.Analyzer{
	Name: "resultdropped",
	Doc:  "a call of the module's own function made only for its error, its allocated result dropped",
	Run:  runResultDropped,
}

func runResultDropped(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
				return
			}
			if id, ok := as.Lhs[0].(*ast.Ident); !ok || id.Name != "_" {
				return
			}
			if id, ok := as.Lhs[1].(*ast.Ident); !ok || id.Name == "_" {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil || !sameModule(pass.Pkg.Path(), fn.Pkg().Path()) {
				return
			}
			sig := fn.Type().(*types.Signature)
			if sig.Results().Len() != 2 || !isError(sig.Results().At(1).Type()) {
				return
			}
			res := sig.Results().At(0).Type()
			switch res.Underlying().(type) {
			case *types.Slice, *types.Map, *types.Pointer:
			default:
				return
			}
			name := fn.Name()
			if fn.Pkg() != pass.Pkg {
				name = fn.Pkg().Name() + "." + name
			}
			pass.Report(analysis.Diagnostic{
				Category: "result-dropped",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s calls %s only for its error: the %s it returns is made on every call and dropped",
					fd.Name.Name, oneLine(types.ExprString(call)), types.TypeString(res, types.RelativeTo(pass.Pkg))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"give the check a form that makes nothing and call that here: the validation %s does before it allocates, as a function of its own %s shares, or a variant that decodes into an array the caller keeps on its stack (…Into(dst *[N]byte, …) error)", name, name)}},
			})
		})
	})
	return nil, nil
}

// sameModule reports whether two import paths are one package, or one is
// below the other (a module's root and its subpackage).
func sameModule(a, b string) bool {
	return a == b || strings.HasPrefix(b, a+"/") || strings.HasPrefix(a, b+"/")
}
