package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// PowerRecomputed finds a power of a constant base computed with
// math/big's Exp at every call, the exponent a small integer:
//
//	m := new(big.Int).Exp(bigTen, big.NewInt(int64(factor)), nil)
//
// quagmt/udecimal's PowInt32 and its neighbours, 10^factor for a factor
// bounded by the package's precision (both hand analyses: Pow(100) 13 → 8
// allocs/op with the powers kept). The same few powers come back call
// after call; Exp is a loop of multiplications and two allocations each
// time.
var PowerRecomputed = &analysis.Analyzer{
	Name: "powerrecomputed",
	Doc:  "a power of a constant base computed with big.Int's Exp at every call",
	Run:  runPowerRecomputed,
}

func runPowerRecomputed(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 3 {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "math/big" || fn.Name() != "Exp" {
				return
			}
			if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() == nil {
				return
			}
			// The modulus: nil, a plain power.
			if tv, ok := pass.TypesInfo.Types[call.Args[2]]; !ok || !tv.IsNil() {
				return
			}
			base := constantBig(pass, call.Args[0])
			if base == "" {
				return
			}
			exp := smallExponent(pass, call.Args[1])
			if exp == "" {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "power-recomputed",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s computes %s to the power %s with big.Int's Exp at every call: the same few powers of one base, recomputed (a loop of multiplications, and the Int made each time)",
					fd.Name.Name, base, exp),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"keep the powers the code asks for in a table built once (a package-level []*big.Int of %s^0 … %s^n, n the largest exponent the package uses, filled in an init function) and read the entry — never write into it; compute only an exponent beyond the table as now",
					base, base)}},
			})
		})
	})
	return nil, nil
}

// constantBig returns the text of a base that does not change: a
// package-level variable (bigTen) or big.NewInt of a constant, or "".
func constantBig(pass *analysis.Pass, e ast.Expr) string {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := pass.TypesInfo.Uses[x].(*types.Var); ok && v.Parent() == pass.Pkg.Scope() {
			return x.Name
		}
	case *ast.SelectorExpr:
		if v, ok := pass.TypesInfo.Uses[x.Sel].(*types.Var); ok && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			return text(pass, x)
		}
	case *ast.CallExpr:
		if fn := calledFunc(pass, x); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "math/big" && fn.Name() == "NewInt" && len(x.Args) == 1 {
			if tv, ok := pass.TypesInfo.Types[x.Args[0]]; ok && tv.Value != nil {
				return tv.Value.String()
			}
		}
	}
	return ""
}

// smallExponent returns the text of an exponent big.NewInt(int64(k)) of
// an integer k that is not a constant (a constant power is ConstMath's
// kind of work, kept once by the caller), or "".
func smallExponent(pass *analysis.Pass, e ast.Expr) string {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return ""
	}
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "math/big" || fn.Name() != "NewInt" {
		return ""
	}
	arg := unconvertedAny(pass, call.Args[0])
	tv, ok := pass.TypesInfo.Types[arg]
	if !ok || tv.Value != nil {
		return ""
	}
	if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return ""
	}
	return text(pass, arg)
}

// unconvertedAny strips numeric conversions: int64(factor) is factor.
func unconvertedAny(pass *analysis.Pass, e ast.Expr) ast.Expr {
	for {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !isConversion(pass, call) {
			return e
		}
		e = call.Args[0]
	}
}
