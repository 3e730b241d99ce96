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
	bigTables := bigIntTables(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			if tbl, entry := tableConverted(pass, call); tbl != "" {
				fix := fmt.Sprintf("keep the entries as *big.Int too, in a table built once beside %s (an init function converting each), and read that entry — never write into its Ints", tbl)
				if len(bigTables) > 0 {
					fix = fmt.Sprintf("the package keeps %s already: read its entry where the index is within it, and extend it to %s's length (built once, in an init function) — never write into its Ints", bigTables[0], tbl)
				}
				pass.Report(analysis.Diagnostic{
					Category: "power-recomputed",
					Pos:      call.Pos(),
					Message: fmt.Sprintf("%s converts %s, an entry of the package's table %s, to a new big.Int at every call: the same few values, converted again each time",
						fd.Name.Name, entry, tbl),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
				})
				return
			}
			if len(call.Args) != 3 {
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

// tableConverted returns the table and the entry's text of a call
// pow10[factor].ToBigInt(): a method returning a *big.Int called on an
// element of a package-level array or slice; "" otherwise.
func tableConverted(pass *analysis.Pass, call *ast.CallExpr) (string, string) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 0 {
		return "", ""
	}
	ix, ok := ast.Unparen(sel.X).(*ast.IndexExpr)
	if !ok {
		return "", ""
	}
	id, ok := ast.Unparen(ix.X).(*ast.Ident)
	if !ok {
		return "", ""
	}
	v, ok := pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Parent() != pass.Pkg.Scope() {
		return "", ""
	}
	switch v.Type().Underlying().(type) {
	case *types.Array, *types.Slice:
	default:
		return "", ""
	}
	if !isBigIntPtr(pass.TypesInfo.TypeOf(call)) {
		return "", ""
	}
	return id.Name, text(pass, ix)
}

// bigIntTables names the package-level arrays and slices of *big.Int:
// "pow10Big ([20]*big.Int)".
func bigIntTables(pass *analysis.Pass) []string {
	var out []string
	for _, name := range pass.Pkg.Scope().Names() {
		v, ok := pass.Pkg.Scope().Lookup(name).(*types.Var)
		if !ok {
			continue
		}
		var elem types.Type
		switch t := v.Type().Underlying().(type) {
		case *types.Array:
			elem = t.Elem()
		case *types.Slice:
			elem = t.Elem()
		}
		if elem != nil && isBigIntPtr(elem) {
			out = append(out, fmt.Sprintf("%s (%s)", name, typeName(pass, v.Type())))
		}
	}
	return out
}

// isBigIntPtr reports whether t is *big.Int.
func isBigIntPtr(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "math/big" && n.Obj().Name() == "Int"
}
