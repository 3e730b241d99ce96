package site

import (
	"fmt"
	"go/ast"
	"go/token"
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
		eachCall(fd.Body, func(call *ast.CallExpr, stack []ast.Node) {
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || !debugLevelName(sel.Sel.Name) {
				return
			}
			fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok {
				return
			}
			sig, ok := fn.Type().(*types.Signature)
			if !ok || !sig.Variadic() || sig.Recv() == nil {
				return
			}
			last := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice)
			if !types.IsInterface(last.Elem()) {
				return
			}
			boxed, at := boxedArgs(pass, call, sig.Params().Len()-1)
			if len(boxed) == 0 || levelTested(stack) {
				return
			}
			// The compiler puts each boxing at its argument's line: a
			// call over several lines has its cost at those too.
			var related []analysis.RelatedInformation
			seen := map[int]bool{pass.Fset.Position(call.Pos()).Line: true}
			for _, p := range at {
				if l := pass.Fset.Position(p).Line; !seen[l] {
					seen[l] = true
					related = append(related, analysis.RelatedInformation{Pos: p, Message: "a boxed argument"})
				}
			}
			logger := oneLine(types.ExprString(sel.X))
			pass.Report(analysis.Diagnostic{
				Category: "log-args-boxed",
				Pos:      call.Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s passes %s to %s.%s, which boxes each into an interface (an allocation for a string or a larger value) at the call, before %s can find that %s output is off",
					fd.Name.Name, list(boxed, 4), logger, sel.Sel.Name, sel.Sel.Name, levelWord(sel.Sel.Name)),
				// One change for every such call on the type: its
				// advice names the type, not the call.
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("test the %s's level before its %s calls on hot paths (if %s output is on { … }), so that with it off a call costs a branch and boxes nothing; or take those calls off the hot paths", types.TypeString(sig.Recv().Type(), types.RelativeTo(pass.Pkg)), levelWord(sel.Sel.Name), levelWord(sel.Sel.Name))}},
			})
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
func boxedArgs(pass *analysis.Pass, call *ast.CallExpr, from int) ([]string, []token.Pos) {
	if call.Ellipsis.IsValid() || len(call.Args) <= from {
		return nil, nil
	}
	var out []string
	var at []token.Pos
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
		at = append(at, a.Pos())
	}
	return out, at
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
