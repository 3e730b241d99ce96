package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// BigRoundTrip finds a big.Int's magnitude turned into bytes and back:
//
//	bi := new(big.Int).SetBytes(vbi.Bytes())
//
// Bytes allocates a slice of the magnitude and SetBytes a new nat from
// it, two allocations and two copies for what Abs gives with one (or
// none, when the value is not negative and is only read).
var BigRoundTrip = &analysis.Analyzer{
	Name: "bigroundtrip",
	Doc:  "a big.Int's magnitude turned into bytes and back with SetBytes(x.Bytes())",
	Run:  runBigRoundTrip,
}

func runBigRoundTrip(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			set := calledFunc(pass, call)
			if set == nil || set.Name() != "SetBytes" || !isBigInt(set) {
				return true
			}
			inner, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr)
			if !ok {
				return true
			}
			get := calledFunc(pass, inner)
			if get == nil || get.Name() != "Bytes" || !isBigInt(get) {
				return true
			}
			x := types.ExprString(inner.Fun.(*ast.SelectorExpr).X)
			pass.Report(analysis.Diagnostic{
				Category: "big-round-trip",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s turns %s's magnitude into a new byte slice and back into a new big.Int: two allocations and two copies for its absolute value",
					text(pass, call), x),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"take the magnitude without bytes: new(big.Int).Abs(%s), or %s itself when it is not negative and only read; where the bytes are then written out, FillBytes into the output writes them with no slice of their own", addrOf(x), x)}},
			})
			return true
		})
	})
	return nil, nil
}

// isBigInt reports whether fn is a method of math/big's Int.
func isBigInt(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "math/big" && n.Obj().Name() == "Int"
}

// addrOf is &x for an identifier, x otherwise (a pointer already).
func addrOf(x string) string {
	for _, r := range x {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return x
		}
	}
	return "&" + x
}
