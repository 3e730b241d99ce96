package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// CompiledVariant finds a function that compiles the string it is given
// (a call named Compile or Parse on its string parameter: a selector, a
// pattern) on every call, where the exported methods that call it with
// their string argument each have a variant taking the compiled value
// (Find(selector) and FindMatcher(m)). Each call of the string form
// compiles again; the API already lets callers compile once and use the
// variant, which is the fix, on their side. A cache inside the library
// would need a bound and a lock (a selector can come from user input).
// goquery's compileMatcher: cascadia.Compile per Find, Is, Closest …:
// 4 allocs and 0.15–0.35 µs a call, measured by hand.
var CompiledVariant = &analysis.Analyzer{
	Name: "compiledvariant",
	Doc:  "a string compiled on every call where the API has a variant taking the compiled value",
	Run:  runCompiledVariant,
}

func runCompiledVariant(pass *analysis.Pass) (any, error) {
	type compiler struct {
		fn   *types.Func
		call *ast.CallExpr
	}
	var helpers []compiler
	for fd := range funcDecls(pass) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.Params().Len() != 1 || sig.Results().Len() == 0 {
			continue
		}
		param := sig.Params().At(0)
		if b, ok := param.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
			continue
		}
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || objOf(pass, call.Args[0]) != param {
				return
			}
			callee := calledFunc(pass, call)
			if callee == nil || callee.Pkg() == pass.Pkg || !strings.Contains(callee.Name(), "Compile") && !strings.HasPrefix(callee.Name(), "Parse") {
				return
			}
			helpers = append(helpers, compiler{fn, call})
		})
	}
	for _, h := range helpers {
		result := h.fn.Type().(*types.Signature).Results().At(0).Type()
		var pairs []string
		for fd := range funcDecls(pass) {
			if fd.Recv == nil || !fd.Name.IsExported() {
				continue
			}
			caller, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if caller == nil || !callsWithStringParam(pass, fd, h.fn) {
				continue
			}
			if v := compiledSibling(caller, result); v != "" {
				pairs = append(pairs, fmt.Sprintf("%s (%s)", caller.Name(), v))
			}
		}
		if len(pairs) == 0 {
			continue
		}
		callee := calledFunc(pass, h.call)
		list := pairs
		if len(list) > 3 {
			list = append(list[:3:3], "…")
		}
		pass.Report(analysis.Diagnostic{
			Category: "compiled-variant",
			Pos:      h.call.Pos(),
			Message: fmt.Sprintf("%s compiles the string it is given on every call (%s.%s); %d exported methods call it with their string argument each time, and each has a variant that takes the compiled value: %s",
				h.fn.Name(), callee.Pkg().Name(), callee.Name(), len(pairs), strings.Join(list, ", ")),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"callers that use one string more than once compile it once (%s.%s, or its Must form) and call the variant that takes the compiled value: the string forms are for one-off use; a cache inside the library would need a bound and a lock, as strings can come from user input", callee.Pkg().Name(), callee.Name())}},
		})
	}
	return nil, nil
}

// callsWithStringParam reports whether fd calls h with one of its own
// string parameters.
func callsWithStringParam(pass *analysis.Pass, fd *ast.FuncDecl, h *types.Func) bool {
	params := map[types.Object]bool{}
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			if o := pass.TypesInfo.Defs[n]; o != nil {
				if b, ok := o.Type().Underlying().(*types.Basic); ok && b.Kind() == types.String {
					params[o] = true
				}
			}
		}
	}
	found := false
	inspectBody(fd.Body, func(n ast.Node) {
		if call, ok := n.(*ast.CallExpr); ok && !found && calledFunc(pass, call) == h && len(call.Args) == 1 && params[objOf(pass, call.Args[0])] {
			found = true
		}
	})
	return found
}

// compiledSibling names a method of fn's receiver whose name starts with
// fn's and that takes a parameter of type t: FindMatcher beside Find.
func compiledSibling(fn *types.Func, t types.Type) string {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return ""
	}
	best := "" // the shortest: AddMatcher beside Add, not AddBackMatcher
	ms := types.NewMethodSet(sig.Recv().Type())
	for i := 0; i < ms.Len(); i++ {
		m, _ := ms.At(i).Obj().(*types.Func)
		if m == nil || m == fn || !m.Exported() || !strings.HasPrefix(m.Name(), fn.Name()) {
			continue
		}
		ps := m.Type().(*types.Signature).Params()
		for j := 0; j < ps.Len(); j++ {
			if types.Identical(ps.At(j).Type(), t) && (best == "" || len(m.Name()) < len(best)) {
				best = m.Name()
			}
		}
	}
	return best
}
