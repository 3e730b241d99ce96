package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// VarBoxed finds a package-level variable that could be a constant — a
// string or number given a constant value and never assigned — converted
// to an interface: a TOML library's `var tomlHash tomlBaseType = "Hash"`
// returned as the tomlType interface and passed to typeEqual(t,
// tomlHash). Each conversion of a variable copies its value to the heap
// (runtime.convTstring); a constant converts to static data with no
// allocation.
var VarBoxed = &analysis.Analyzer{
	Name: "varboxed",
	Doc:  "a package-level var with a constant value, never assigned, converted to an interface",
	Run:  runVarBoxed,
}

func runVarBoxed(pass *analysis.Pass) (any, error) {
	cands := map[*types.Var]bool{}
	for v, value := range packageVars(pass) {
		b, ok := v.Type().Underlying().(*types.Basic)
		if !ok || b.Info()&(types.IsString|types.IsNumeric) == 0 {
			continue
		}
		if tv, ok := pass.TypesInfo.Types[value]; ok && tv.Value != nil {
			cands[v] = true
		}
	}
	// Assigned, incremented or addressed anywhere: a variable indeed.
	written := writtenVars(pass)
	for v := range written {
		delete(cands, v)
	}
	eachFunc(pass, func(body *ast.BlockStmt) {
		seen := map[int]bool{} // one shape per line
		report := func(e ast.Expr, to types.Type) {
			if lit, ok := ast.Unparen(e).(*ast.CompositeLit); ok && to != nil && types.IsInterface(to) {
				line := pass.Fset.Position(e.Pos()).Line
				if !seen[line] && invariantLiteral(pass, lit, written) {
					seen[line] = true
					reportLiteralBoxed(pass, lit, to)
				}
				return
			}
			v, ok := objOf(pass, e).(*types.Var)
			if !ok || !cands[v] || to == nil || !types.IsInterface(to) {
				return
			}
			line := pass.Fset.Position(e.Pos()).Line
			if seen[line] {
				return
			}
			seen[line] = true
			tn := types.TypeString(v.Type(), types.RelativeTo(pass.Pkg))
			pass.Report(analysis.Diagnostic{
				Category: "var-boxed",
				Pos:      e.Pos(),
				Message: fmt.Sprintf("%s, a package-level var of %s with a constant value that nothing assigns, is converted to the interface %s here: each conversion of a variable copies its value to the heap",
					v.Name(), tn, types.TypeString(to, types.RelativeTo(pass.Pkg))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"declare %s a const (the var block a const block): a constant converts to an interface from static data, with no allocation", v.Name())}},
			})
		}
		inspectBody(body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.CallExpr:
				sig, ok := pass.TypesInfo.TypeOf(x.Fun).(*types.Signature)
				if !ok {
					return
				}
				for i, a := range x.Args {
					var pt types.Type
					switch {
					case sig.Variadic() && i >= sig.Params().Len()-1:
						if x.Ellipsis.IsValid() {
							continue
						}
						pt = sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice).Elem()
					case i < sig.Params().Len():
						pt = sig.Params().At(i).Type()
					}
					report(a, pt)
				}
			case *ast.AssignStmt:
				if len(x.Lhs) != len(x.Rhs) {
					return
				}
				for i, r := range x.Rhs {
					report(r, pass.TypesInfo.TypeOf(x.Lhs[i]))
				}
			}
		})
	})
	// Returns need the function's result types: a second pass per
	// declaration.
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok {
			return
		}
		res := fn.Type().(*types.Signature).Results()
		seen := map[int]bool{}
		inspectBody(fd.Body, func(n ast.Node) {
			ret, ok := n.(*ast.ReturnStmt)
			if !ok || len(ret.Results) != res.Len() {
				return
			}
			for i, r := range ret.Results {
				v, ok := objOf(pass, r).(*types.Var)
				to := res.At(i).Type()
				if !ok || !cands[v] || !types.IsInterface(to) {
					continue
				}
				line := pass.Fset.Position(r.Pos()).Line
				if seen[line] {
					continue
				}
				seen[line] = true
				pass.Report(analysis.Diagnostic{
					Category: "var-boxed",
					Pos:      r.Pos(),
					Message: fmt.Sprintf("%s, a package-level var of %s with a constant value that nothing assigns, is returned as the interface %s: each conversion of a variable copies its value to the heap",
						v.Name(), types.TypeString(v.Type(), types.RelativeTo(pass.Pkg)), types.TypeString(to, types.RelativeTo(pass.Pkg))),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"declare %s a const (the var block a const block): a constant converts to an interface from static data, with no allocation", v.Name())}},
				})
			}
		})
	})
	return nil, nil
}

// invariantLiteral reports whether lit, a struct literal, is the same
// value every time it is evaluated and needs an allocation to become an
// interface: its fields are constants, package-level variables nothing
// assigns (io.Discard) and such literals, at least one of them a
// variable (a literal of constants converts from static data), and it is
// larger than a pointer.
func invariantLiteral(pass *analysis.Pass, lit *ast.CompositeLit, written map[*types.Var]bool) bool {
	t := pass.TypesInfo.TypeOf(lit)
	if t == nil {
		return false
	}
	if _, ok := t.Underlying().(*types.Struct); !ok || len(lit.Elts) == 0 {
		return false
	}
	if n, ok := sizeof(pass.TypesSizes, t); !ok || n <= pass.TypesSizes.Sizeof(types.Typ[types.UnsafePointer]) {
		return false
	}
	vars := 0
	var ok func(e ast.Expr) bool
	ok = func(e ast.Expr) bool {
		if kv, isKV := e.(*ast.KeyValueExpr); isKV {
			e = kv.Value
		}
		if tv, found := pass.TypesInfo.Types[e]; found && tv.Value != nil {
			return true
		}
		switch x := ast.Unparen(e).(type) {
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if !ok(el) {
					return false
				}
			}
			return true
		case *ast.Ident, *ast.SelectorExpr:
			v, isVar := pass.TypesInfo.Uses[identOfSel(x)].(*types.Var)
			if !isVar || v.IsField() || v.Parent() != v.Pkg().Scope() || written[v] {
				return false
			}
			vars++
			return true
		}
		return false
	}
	for _, el := range lit.Elts {
		if !ok(el) {
			return false
		}
	}
	return vars > 0
}

// identOfSel is the identifier a name or a qualified name ends in: x in
// x, Discard in io.Discard.
func identOfSel(e ast.Expr) *ast.Ident {
	switch x := e.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// reportLiteralBoxed reports an invariant struct literal converted to an
// interface in a function body.
func reportLiteralBoxed(pass *analysis.Pass, lit *ast.CompositeLit, to types.Type) {
	it := types.TypeString(to, types.RelativeTo(pass.Pkg))
	pass.Report(analysis.Diagnostic{
		Category: "literal-boxed",
		Pos:      lit.Pos(),
		Message: fmt.Sprintf("%s is the same value on every call, and converting it to the interface %s here copies it into a new allocation each time (it is larger than a pointer, and not a constant)",
			oneLine(text(pass, lit)), it),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"convert it once: a package-level var of type %s holding %s, used here: the interface then points at one copy made at init, with no allocation per call (a value in an interface is a copy nothing can change through it)", it, oneLine(text(pass, lit)))}},
	})
}
