package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ArrayThroughInterface finds an array a function returns (a named result
// or a local it returns, id ULID with ULID [16]byte) whose slice it hands
// to a method of an interface, directly (e.MonotonicRead(ms, id[6:])) or
// through a function that calls one (io.ReadFull(e, id[6:])): the
// compiler cannot see what the method keeps, so the array is moved to the
// heap on every call — on the paths that never make that call too.
// oklog/ulid's New: one allocation per ID, even with no entropy (measured
// by hand: the package's own monotonic readers called through a type
// switch, the rest read through a buffer of their own, 1 → 0 allocs,
// Make −26%). The package's own types that implement the interface are
// named: calling them statically keeps the array on the stack.
var ArrayThroughInterface = &analysis.Analyzer{
	Name: "arraythroughinterface",
	Doc:  "a returned array whose slice goes to an interface method, moved to the heap on every call",
	Run:  runArrayThroughInterface,
}

func runArrayThroughInterface(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		r := newResultVars(pass, fd)
		var calls []*ast.CallExpr
		var arr *types.Var
		var ifaces []*types.Named
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			for _, a := range call.Args {
				sl, ok := ast.Unparen(a).(*ast.SliceExpr)
				if !ok {
					continue
				}
				v := r.localVar(sl.X)
				if v == nil || !r.vars[v] {
					continue
				}
				if _, isArray := v.Type().Underlying().(*types.Array); !isArray {
					continue
				}
				iface := interfaceCallee(pass, call)
				if iface == nil {
					continue
				}
				arr = v
				calls = append(calls, call)
				if named, ok := iface.(*types.Named); ok {
					ifaces = append(ifaces, named)
				}
			}
		})
		if arr == nil || !slices.ContainsFunc(calls, func(c *ast.CallExpr) bool { return ifaceMethodCall(pass, c) }) {
			// Only reads through another package's function (an
			// io.ReadFull of a reader parameter): read-escapes says
			// what fits those (crypto/rand.Read for its reader).
			return
		}
		var related []analysis.RelatedInformation
		var names []string
		for _, c := range calls {
			related = append(related, analysis.RelatedInformation{Pos: c.Pos(), Message: "its slice handed to an interface"})
			names = append(names, oneLine(types.ExprString(c.Fun)))
		}
		impls := implementers(pass, ifaces)
		own := ""
		if len(impls) > 0 {
			own = fmt.Sprintf("call the package's own implementations statically (cases for %s in a type switch, before the interface's), and ", strings.Join(impls, ", "))
		}
		pass.Report(analysis.Diagnostic{
			Category: "array-through-interface",
			Pos:      arr.Pos(),
			Related:  related,
			Message: fmt.Sprintf("%s hands a slice of %s, the %s it returns, to %s, through an interface the compiler cannot see into: %s is moved to the heap on every call, on the paths that never make those calls too",
				fd.Name.Name, arr.Name(), types.TypeString(arr.Type(), types.RelativeTo(pass.Pkg)), strings.Join(names, " and "), arr.Name()),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"%sread what other implementations give into a buffer of their own (a pooled or per-reader one), then copy it into %s: %s stays on the stack, and the interface call keeps only what it was given", own, arr.Name(), arr.Name())}},
		})
	})
	return nil, nil
}

// interfaceCallee returns the interface a call goes through: the
// receiver's interface type of a method call, or the interface type of a
// parameter of another package's function the call passes a value to
// (io.ReadFull(e, …) with e an io.Reader); nil for a static call.
func interfaceCallee(pass *analysis.Pass, call *ast.CallExpr) types.Type {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if t := pass.TypesInfo.TypeOf(sel.X); t != nil && types.IsInterface(t) {
			if s := pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
				return t
			}
		}
	}
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == pass.Pkg {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil {
		return nil
	}
	for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
		if t := sig.Params().At(i).Type(); types.IsInterface(t) {
			if at := pass.TypesInfo.TypeOf(call.Args[i]); at != nil && types.IsInterface(at) {
				return at // the caller's interface value: the dynamic call is inside
			}
		}
	}
	return nil
}

// implementers names the package's types whose pointer implements one of
// the interfaces, sorted.
func implementers(pass *analysis.Pass, ifaces []*types.Named) []string {
	seen := map[string]bool{}
	scope := pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		for _, it := range ifaces {
			iface, ok := it.Underlying().(*types.Interface)
			if !ok || iface.NumMethods() == 0 {
				continue
			}
			if types.Implements(types.NewPointer(tn.Type()), iface) {
				seen["*"+tn.Name()] = true
			}
		}
	}
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ifaceMethodCall reports whether call is a method call on an interface
// value.
func ifaceMethodCall(pass *analysis.Pass, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	t := pass.TypesInfo.TypeOf(sel.X)
	return t != nil && types.IsInterface(t) && pass.TypesInfo.Selections[sel] != nil
}
