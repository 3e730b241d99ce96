package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// MeasureCompared finds a measure of a whole input taken only to compare
// it with a bound (if c.StringWidth(s) <= w { return s }, or
// utf8.RuneCountInString(s) > max): the measuring function walks all of s,
// though the answer is known once the measure passes the bound. For an
// input much longer than the bound most of that walk is thrown away — a
// truncation's "does it fit?" on a long line cut to a short column.
//
// It reports a comparison in an if condition of a call of a function that
// returns an int and either is utf8.RuneCountInString/RuneCount or is the
// package's own function with a loop over the argument, called with a
// parameter (a string or a slice) of the function, compared with another
// value (the bound), when the function uses the input again after the if:
// the input is processed after the check.
var MeasureCompared = &analysis.Analyzer{
	Name: "measurecompared",
	Doc:  "a whole input measured only to compare the measure with a bound",
	Run:  runMeasureCompared,
}

func runMeasureCompared(pass *analysis.Pass) (any, error) {
	loops := map[*types.Func]bool{} // the package's functions that loop over their first parameter
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && loopsOverParam(pass, fd) {
			loops[fn] = true
		}
	})
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		params := paramSet(pass, fd)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			st, ok := n.(*ast.IfStmt)
			if !ok {
				return true
			}
			cmp, ok := ast.Unparen(st.Cond).(*ast.BinaryExpr)
			if !ok || cmp.Op != token.LEQ && cmp.Op != token.LSS && cmp.Op != token.GTR && cmp.Op != token.GEQ {
				return true
			}
			call, bound := measureCall(cmp.X), cmp.Y
			if call == nil {
				call, bound = measureCall(cmp.Y), cmp.X
			}
			if call == nil || len(call.Args) != 1 {
				return true
			}
			in, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
			if !ok {
				return true
			}
			v, _ := pass.TypesInfo.ObjectOf(in).(*types.Var)
			if v == nil || !params[v] || usesVar(pass, bound, v) {
				return true
			}
			fn := calledFunc(pass, call)
			if fn == nil || !loops[fn] && !(fn.Pkg() != nil && fn.Pkg().Path() == "unicode/utf8" && (fn.Name() == "RuneCountInString" || fn.Name() == "RuneCount")) {
				return true
			}
			if !usedAfter(pass, fd.Body, st.End(), v) {
				return true
			}
			var related []analysis.RelatedInformation
			if loops[fn] && firstParam(pass, fd) == v {
				// The measuring function, for the profile's share of it,
				// when what it measures is the function's input (its
				// first parameter), not an option beside it.
				related = append(related, analysis.RelatedInformation{Pos: fn.Pos(), Message: "the measure"})
			}
			pass.Report(analysis.Diagnostic{
				Category: "measure-compared",
				Pos:      call.Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s measures all of %s only to compare the measure with %s, and %s goes on to work on %s after: for an input far past the bound, most of the measuring is thrown away",
					oneLine(types.ExprString(call)), v.Name(), oneLine(types.ExprString(bound)), fd.Name.Name, v.Name()),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"stop measuring once the answer is known: a bounded variant that walks %s only until the measure passes %s (a short input can keep the full measure)", v.Name(), oneLine(types.ExprString(bound)))}},
			})
			return true
		})
	})
	return nil, nil
}

// measureCall returns e as a call, or nil; which calls measure is the
// caller's test.
func measureCall(e ast.Expr) *ast.CallExpr {
	call, _ := ast.Unparen(e).(*ast.CallExpr)
	return call
}

// loopsOverParam reports whether a function returning one int loops over
// its only parameter, a string or a slice (a range over it, or a loop
// bounded by its length).
func loopsOverParam(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	sig, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	s := sig.Type().(*types.Signature)
	if s.Params().Len() != 1 || s.Results().Len() != 1 {
		return false
	}
	if b, ok := s.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return false
	}
	p := s.Params().At(0)
	switch p.Type().Underlying().(type) {
	case *types.Slice:
	case *types.Basic:
		if !isStringType(p.Type()) {
			return false
		}
	default:
		return false
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			found = found || usesVar(pass, n.X, p)
		case *ast.ForStmt:
			found = found || n.Cond != nil && usesVar(pass, n.Cond, p)
		}
		return !found
	})
	return found
}

// usedAfter reports whether v is mentioned in body after pos.
func usedAfter(pass *analysis.Pass, body *ast.BlockStmt, pos token.Pos, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Pos() > pos && pass.TypesInfo.ObjectOf(id) == v {
			found = true
		}
		return !found
	})
	return found
}

// firstParam returns a function's first parameter, or nil.
func firstParam(pass *analysis.Pass, fd *ast.FuncDecl) *types.Var {
	if len(fd.Type.Params.List) == 0 || len(fd.Type.Params.List[0].Names) == 0 {
		return nil
	}
	v, _ := pass.TypesInfo.Defs[fd.Type.Params.List[0].Names[0]].(*types.Var)
	return v
}

// paramSet returns the named parameters of fd.
func paramSet(pass *analysis.Pass, fd *ast.FuncDecl) map[*types.Var]bool {
	params := map[*types.Var]bool{}
	for _, fl := range fd.Type.Params.List {
		for _, n := range fl.Names {
			if v, ok := pass.TypesInfo.Defs[n].(*types.Var); ok {
				params[v] = true
			}
		}
	}
	return params
}
