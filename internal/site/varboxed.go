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
	if len(cands) == 0 {
		return nil, nil
	}
	// Assigned, incremented or addressed anywhere: a variable indeed.
	for v := range writtenVars(pass) {
		delete(cands, v)
	}
	if len(cands) == 0 {
		return nil, nil
	}
	eachFunc(pass, func(body *ast.BlockStmt) {
		seen := map[int]bool{} // one shape per line
		report := func(e ast.Expr, to types.Type) {
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
