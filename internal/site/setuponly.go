package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// SetupOnly finds the package's functions that run only to make a value
// its benchmarks then use many times: gobwas/glob's benchmarks call
// pat := MustCompile(p) before the loop that calls pat.Match(s), so the
// lexer and parser under MustCompile are paid once per pattern, and the
// code of Pattern's methods once per use. A function the constructor
// reaches and no method of the value's type reaches (an interface
// method's call counts every method of its name) is setup only: an
// allocation there is a cost per value made, not per use — a fix to make
// only where callers make a value per use (both analyses by hand rank
// glob's compile costs after Match's; one leaves them alone). The
// constructor is a function, not a method (FindNextMatch makes a Match
// per use), and its value a pointer to a struct (a KSUID made by New is
// as often the use itself). Only a package whose benchmarks are in the
// package itself is seen.
var SetupOnly = &analysis.Analyzer{
	Name: "setuponly",
	Doc:  "functions that run only under a constructor whose value the benchmarks use many times",
	Run:  runSetupOnly,
}

func runSetupOnly(pass *analysis.Pass) (any, error) {
	decls := declsByFunc(pass)
	// Constructor → the type of the value it makes, and where a
	// benchmark uses that value in a loop.
	type use struct {
		typ    *types.TypeName
		method string
		at     ast.Node
	}
	ctors := map[*types.Func]use{}
	for _, f := range pass.Files {
		if !isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Benchmark") {
				continue
			}
			made := map[*types.Var]*types.Func{} // v := F(…), F the package's
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Rhs) != 1 {
					return true
				}
				call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				if !ok {
					return true
				}
				fn := calledFunc(pass, call)
				if fn == nil || fn.Pkg() != pass.Pkg || decls[fn] == nil || fn.Type().(*types.Signature).Recv() != nil {
					return true // a method makes values per use (FindNextMatch's Match)
				}
				if id, ok := as.Lhs[0].(*ast.Ident); ok {
					if v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var); ok {
						made[v] = fn
					}
				}
				return true
			})
			loopsUnder(fd.Body, func(loop ast.Node, body *ast.BlockStmt) {
				ast.Inspect(body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					sel, ok := call.Fun.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					v := identVar(pass, sel.X)
					fn := made[v]
					if fn == nil || v.Pos() > loop.Pos() && v.Pos() < loop.End() {
						return true
					}
					if n := madeType(v.Type()); n != nil && n.Obj().Pkg() == pass.Pkg {
						if _, seen := ctors[fn]; !seen {
							ctors[fn] = use{n.Obj(), sel.Sel.Name, call}
						}
					}
					return true
				})
			})
		}
	}
	for _, ctor := range slices.SortedFunc(func(yield func(*types.Func) bool) {
		for fn := range ctors {
			if !yield(fn) {
				return
			}
		}
	}, func(a, b *types.Func) int { return int(a.Pos() - b.Pos()) }) {
		u := ctors[ctor]
		setup := reach(pass, decls, []*types.Func{ctor})
		var roots []*types.Func
		for _, t := range []types.Type{u.typ.Type(), types.NewPointer(u.typ.Type())} {
			ms := types.NewMethodSet(t)
			for i := range ms.Len() {
				if fn, ok := ms.At(i).Obj().(*types.Func); ok && !slices.Contains(roots, fn) {
					roots = append(roots, fn)
				}
			}
		}
		used := reach(pass, decls, roots)
		at := pass.Fset.Position(u.at.Pos())
		slices.SortFunc(setup, func(a, b *types.Func) int { return int(a.Pos() - b.Pos()) })
		for _, fn := range setup {
			if fn == ctor || slices.Contains(used, fn) {
				continue
			}
			fd := decls[fn]
			pass.Report(analysis.Diagnostic{
				Category: "setup-only",
				Pos:      fd.Name.Pos(),
				Message: fmt.Sprintf("%s runs only under %s, which makes the %s the benchmarks then use in their loops (%s at %s:%d), and no method of %s calls it: it is paid once per %s made, not per use",
					fn.Name(), ctor.Name(), u.typ.Name(), u.method, filepath.Base(at.Filename), at.Line, u.typ.Name(), u.typ.Name()),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"leave it unless callers make a %s per use: %s's methods are what runs per use, and come first", u.typ.Name(), u.typ.Name())}},
			})
		}
	}
	return nil, nil
}

// reach returns the package's functions with a body that the roots
// call, directly or through others, themselves included: a static call,
// or an interface method's call, which counts every method of the
// package with its name.
func reach(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, roots []*types.Func) []*types.Func {
	var out []*types.Func
	seen := map[*types.Func]bool{}
	methods := map[string][]*types.Func{} // the package's methods by name
	for fn := range decls {
		if fn.Type().(*types.Signature).Recv() != nil {
			methods[fn.Name()] = append(methods[fn.Name()], fn)
		}
	}
	queue := slices.Clone(roots)
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		fd := decls[fn]
		if seen[fn] || fd == nil {
			continue
		}
		seen[fn] = true
		out = append(out, fn)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if s := pass.TypesInfo.Selections[sel]; s != nil && types.IsInterface(s.Recv()) {
					queue = append(queue, methods[sel.Sel.Name]...)
					return true
				}
			}
			if callee := calledFunc(pass, call); callee != nil && callee.Pkg() == pass.Pkg {
				queue = append(queue, callee.Origin())
			}
			return true
		})
	}
	return out
}

// madeType returns T when t is *T with T a struct type: a value a
// constructor builds and its methods use (a compiled *Pattern, a
// *BigCache). A value type (a KSUID, an array) is made per use as often
// as not, and an interface's methods are its implementations'.
func madeType(t types.Type) *types.Named {
	p, ok := t.(*types.Pointer)
	if !ok {
		return nil
	}
	n, ok := p.Elem().(*types.Named)
	if !ok {
		return nil
	}
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
		return nil
	}
	return n
}

// loopsUnder calls f with every for and range loop under n, in function
// literals too (a b.Run's closure), and its body.
func loopsUnder(n ast.Node, f func(loop ast.Node, body *ast.BlockStmt)) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ForStmt:
			f(x, x.Body)
		case *ast.RangeStmt:
			f(x, x.Body)
		}
		return true
	})
}
