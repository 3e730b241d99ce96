package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// TableFallback finds a function that returns a value from a
// package-level table when its parameter is in the table's range and
// computes it again at every call beyond it: cockroachdb/apd's
// tableExp10 returns &pow10LookupTable[x] for x <= 128 and otherwise
// calls setBigWithPow(tmp, x), a big.Int Exp per call; NumDigits calls it
// for every number over 128 digits, 23–29% of Exp's and Ln's CPU at a
// precision of 100 (a cache of the powers computed beyond the table,
// filled on first use, measured by hand: CPU −27 to −29%, allocations
// −30 to −37%). The shape is at the computing call and at each call of
// the function in the package, where a profile puts the time.
var TableFallback = &analysis.Analyzer{
	Name: "tablefallback",
	Doc:  "a function that looks a value up in a table within its range and computes it at every call beyond it",
	Run:  runTableFallback,
}

// fallback is a function of the table-fallback shape.
type fallback struct {
	fn      *types.Func
	param   *types.Var
	table   *types.Var
	compute *ast.CallExpr
	test    ast.Expr
}

func runTableFallback(pass *analysis.Pass) (any, error) {
	var found []fallback
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if f, ok := tableFallback(pass, fd); ok {
			found = append(found, f)
		}
	})
	for _, f := range found {
		line := pass.Fset.Position(f.compute.Pos()).Line
		name := f.fn.Name()
		says := fmt.Sprintf("%s returns %s[%s] when %s and computes the value again at every call beyond it (%s at line %d), from %s alone",
			name, f.table.Name(), f.param.Name(), oneLine(types.ExprString(f.test)), oneLine(types.ExprString(f.compute)), line, f.param.Name())
		advice := fmt.Sprintf("keep the values computed beyond the table, where the %s beyond it recur (a range bounded by the callers' use, as exponents by a precision): a cache keyed by %s filled on first use (a slice or map under a lock, or atomic pointers per entry, for concurrent callers; the values shared, never mutated), or a larger table: each value is then computed once, not at every call",
			f.param.Name(), f.param.Name())
		pass.Report(analysis.Diagnostic{Category: "table-fallback", Pos: f.compute.Pos(), Message: says,
			SuggestedFixes: []analysis.SuggestedFix{{Message: advice}}})
		// Its calls in the package: the profile's hot line is the
		// caller's when the function is inlined there.
		eachFuncDecl(pass, func(fd *ast.FuncDecl) {
			if pass.TypesInfo.Defs[fd.Name] == f.fn {
				return
			}
			inspectBody(fd.Body, func(n ast.Node) {
				call, ok := n.(*ast.CallExpr)
				if !ok || calledFunc(pass, call) != f.fn {
					return
				}
				pass.Report(analysis.Diagnostic{Category: "table-fallback", Pos: call.Pos(),
					Message:        fmt.Sprintf("%s calls %s, which %s", fd.Name.Name, oneLine(types.ExprString(call)), says[len(name)+1:]),
					Related:        []analysis.RelatedInformation{{Pos: f.compute.Pos(), Message: "the value computed beyond the table"}},
					SuggestedFixes: []analysis.SuggestedFix{{Message: advice}}})
			})
		})
	}
	return nil, nil
}

// tableFallback reports whether fd is of the table-fallback shape: a
// statement if x <= K (x < K, x < len(t)) { return t[x] } (or &t[x]) with
// t a package-level array or slice and x a parameter fd does not
// assign, followed by a call that takes x.
func tableFallback(pass *analysis.Pass, fd *ast.FuncDecl) (fallback, bool) {
	fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || fd.Type.Results == nil {
		return fallback{}, false
	}
	for i, st := range fd.Body.List {
		is, ok := st.(*ast.IfStmt)
		if !ok || is.Init != nil || is.Else != nil || len(is.Body.List) != 1 {
			continue
		}
		ret, ok := is.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		cond, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
		if !ok || cond.Op != token.LEQ && cond.Op != token.LSS {
			continue
		}
		x := identVar(pass, cond.X)
		if x == nil || !isParam(fd, pass, x) || assignedIn(pass, fd.Body, x) {
			continue
		}
		r := ast.Unparen(ret.Results[0])
		if u, ok := r.(*ast.UnaryExpr); ok && u.Op == token.AND {
			r = ast.Unparen(u.X)
		}
		ix, ok := r.(*ast.IndexExpr)
		if !ok || identVar(pass, ix.Index) != x {
			continue
		}
		t := identVar(pass, ix.X)
		if t == nil || t.Parent() != pass.Pkg.Scope() {
			continue
		}
		switch t.Type().Underlying().(type) {
		case *types.Array, *types.Slice:
		default:
			continue
		}
		// The computation after it, from x.
		var compute *ast.CallExpr
		for _, rest := range fd.Body.List[i+1:] {
			ast.Inspect(rest, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || compute != nil || isConversion(pass, call) {
					return compute == nil
				}
				for _, a := range call.Args {
					if identVar(pass, a) == x {
						compute = call
					}
				}
				return compute == nil
			})
		}
		if compute == nil {
			continue
		}
		return fallback{fn: fn, param: x, table: t, compute: compute, test: is.Cond}, true
	}
	return fallback{}, false
}
