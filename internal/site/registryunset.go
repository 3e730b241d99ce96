package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// RegistryUnset finds a package-level sync.Map consulted on every call
// of a function (`a, ok := uppercaseAcronym.Load(s)`) and filled only by
// other functions (`ConfigureAcronym`'s Store), which a program may never
// call: every call hashes its input for a lookup that finds nothing. A
// flag (an atomic.Bool) set where the first entry is stored lets the
// lookup be skipped while the registry is empty.
var RegistryUnset = &analysis.Analyzer{
	Name: "registryunset",
	Doc:  "a package-level sync.Map looked up on every call and filled only by other functions",
	Run:  runRegistryUnset,
}

func runRegistryUnset(pass *analysis.Pass) (any, error) {
	// Where each package-level sync.Map is stored into, by function.
	storedIn := map[*types.Var][]string{}
	storers := map[*types.Var][]*types.Func{}
	type load struct {
		call *ast.CallExpr
		fn   string
	}
	var loads []struct {
		v *types.Var
		load
	}
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return
			}
			v, _ := objOf(pass, sel.X).(*types.Var)
			if fs, ok := ast.Unparen(sel.X).(*ast.SelectorExpr); ok && v == nil {
				v, _ = pass.TypesInfo.Uses[fs.Sel].(*types.Var) // a field: c.convs
			}
			if v == nil || v.Parent() != pass.Pkg.Scope() && !v.IsField() || !isNamed(v.Type(), "sync", "Map") {
				return
			}
			switch sel.Sel.Name {
			case "Store", "LoadOrStore", "Swap":
				storedIn[v] = append(storedIn[v], fd.Name.Name)
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					storers[v] = append(storers[v], fn)
				}
			case "Load":
				loads = append(loads, struct {
					v *types.Var
					load
				}{v, load{call, fd.Name.Name}})
			}
		})
	}
	for _, l := range loads {
		by := storedIn[l.v]
		if len(by) == 0 {
			continue
		}
		self := false
		for _, f := range by {
			self = self || f == l.fn
		}
		if self {
			continue // it fills what it looks up: a cache
		}
		if l.v.IsField() && !onlyForCallers(pass, storers[l.v]) {
			continue // a field the package fills itself: a cache
		}
		pass.Report(analysis.Diagnostic{
			Category: "registry-unset",
			Pos:      l.call.Pos(),
			Message: fmt.Sprintf("%s looks its input up in %s, a sync.Map, on every call, though only %s store into it, which a program may never call: while it is empty, every call hashes the input for a lookup that finds nothing",
				l.fn, l.v.Name(), strings.Join(by, ", ")),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"keep a flag (an atomic.Bool) that %s sets when it stores, and skip the lookup while it is unset: programs that never configure it pay nothing", strings.Join(by, ", "))}},
		})
	}
	return nil, nil
}

// onlyForCallers reports whether every function in fns is exported and
// called in the package only by exported functions (a configuring method
// and the package-level function that forwards to it): what fills a
// field with them is the program's choice, which it may never make.
func onlyForCallers(pass *analysis.Pass, fns []*types.Func) bool {
	if len(fns) == 0 {
		return false
	}
	set := map[*types.Func]bool{}
	for _, fn := range fns {
		if !fn.Exported() {
			return false
		}
		set[fn] = true
	}
	ok := true
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, func(n ast.Node) {
			if call, isCall := n.(*ast.CallExpr); isCall && set[calledFunc(pass, call)] && !fd.Name.IsExported() {
				ok = false
			}
		})
	}
	return ok
}
