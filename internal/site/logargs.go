package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// LogArgs finds a debug or trace log call whose variadic ...any arguments
// are boxed at the call site with no level test around it:
//
//	t.logger.Debugf("Col %d: padding L:'%s' R:'%s'", i, pad.Left, pad.Right)
//
// The call converts every non-constant argument to an interface (an
// allocation each for strings and larger values) before the logger can
// see that debug output is off; with the level off, a test of it first
// costs a branch.
var LogArgs = &analysis.Analyzer{
	Name: "logargs",
	Doc:  "a debug or trace log call that boxes its arguments with no level test around it",
	Run:  runLogArgs,
}

func runLogArgs(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		var stack []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			stack = append(stack, n)
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || !debugLevelName(sel.Sel.Name) {
				return true
			}
			fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok {
				return true
			}
			sig, ok := fn.Type().(*types.Signature)
			if !ok || !sig.Variadic() || sig.Recv() == nil {
				return true
			}
			last := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice)
			if !types.IsInterface(last.Elem()) {
				return true
			}
			boxed := boxedArgs(pass, call, sig.Params().Len()-1)
			if len(boxed) == 0 || levelTested(stack) {
				return true
			}
			logger := oneLine(types.ExprString(sel.X))
			pass.Report(analysis.Diagnostic{
				Category: "log-args-boxed",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s passes %s to %s.%s, which boxes each into an interface (an allocation for a string or a larger value) at the call, before %s can find that %s output is off",
					fd.Name.Name, list(boxed, 4), logger, sel.Sel.Name, sel.Sel.Name, levelWord(sel.Sel.Name)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("test %s's level before the call (if %s output is on { %s.%s(…) }), so that with it off the call costs a branch and boxes nothing; or take the line off the hot path", logger, levelWord(sel.Sel.Name), logger, sel.Sel.Name)}},
			})
			return true
		})
	})
	return nil, nil
}

// debugLevelName reports whether a method name logs at debug or trace
// level: Debug, Debugf, Debugw, Trace, Tracef, …
func debugLevelName(name string) bool {
	return strings.HasPrefix(name, "Debug") || strings.HasPrefix(name, "Trace")
}

func levelWord(name string) string {
	if strings.HasPrefix(name, "Trace") {
		return "trace"
	}
	return "debug"
}

// boxedArgs returns the variadic arguments from index from on that
// converting to an interface allocates: not constants, not pointers,
// not values already interfaces.
func boxedArgs(pass *analysis.Pass, call *ast.CallExpr, from int) []string {
	if call.Ellipsis.IsValid() || len(call.Args) <= from {
		return nil
	}
	var out []string
	for _, a := range call.Args[from:] {
		tv, ok := pass.TypesInfo.Types[a]
		if !ok || tv.Value != nil || tv.Type == nil || types.IsInterface(tv.Type) {
			continue
		}
		switch u := tv.Type.Underlying().(type) {
		case *types.Pointer, *types.Signature, *types.Chan, *types.Map:
			continue // pointer-shaped: no allocation
		case *types.Basic:
			if u.Info()&types.IsBoolean != 0 {
				continue // the runtime keeps static booleans
			}
		}
		out = append(out, oneLine(types.ExprString(a)))
	}
	return out
}

// levelTested reports whether an enclosing if statement's condition
// tests a level or a debug switch: Enabled, IsDebug, Level, Debug,
// Verbose, Suspended.
func levelTested(stack []ast.Node) bool {
	for _, n := range stack {
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			continue
		}
		cond := strings.ToLower(types.ExprString(ifs.Cond))
		for _, w := range []string{"enabled", "debug", "level", "verbose", "suspended", "trace", "lvl"} {
			if strings.Contains(cond, w) {
				return true
			}
		}
	}
	return false
}
