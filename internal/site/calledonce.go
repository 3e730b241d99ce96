package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// CalledOnce finds an unexported function that its package calls only
// from exported functions, or from functions it finds in turn, outside
// any loop or function literal, and whose callers no loop of the package
// calls: each call of the API makes one call of it (a filter's
// baseHashes, called once by Add, Test and TestAndAdd; a regexp's
// getRunner, called once by each of the unexported functions its
// exported methods call once). Not inlining it costs one call per operation, a few
// nanoseconds: its inlining budget is no handle worth a finding.
var CalledOnce = &analysis.Analyzer{
	Name: "calledonce",
	Doc:  "an unexported function called once per call of the package's exported functions",
	Run:  runCalledOnce,
}

func runCalledOnce(pass *analysis.Pass) (any, error) {
	type call struct {
		caller *types.Func
		looped bool // in a loop or a function literal
	}
	calls := map[*types.Func][]call{}
	valued := map[*types.Func]bool{} // used other than by a call
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		caller, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		var walk func(n ast.Node, looped bool)
		walk = func(n ast.Node, looped bool) {
			ast.Inspect(n, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ForStmt:
					if n.Init != nil {
						walk(n.Init, looped)
					}
					for _, m := range []ast.Node{n.Cond, n.Post, n.Body} {
						if m != nil {
							walk(m, true)
						}
					}
					return false
				case *ast.RangeStmt:
					walk(n.X, looped)
					walk(n.Body, true)
					return false
				case *ast.FuncLit:
					walk(n.Body, true)
					return false
				case *ast.CallExpr:
					if fn := calleeFunc(pass, n); fn != nil && fn.Pkg() == pass.Pkg {
						calls[fn] = append(calls[fn], call{caller, looped})
						for _, a := range n.Args {
							walk(a, looped)
						}
						if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
							walk(sel.X, looped)
						}
						return false
					}
				case *ast.Ident:
					if fn, ok := pass.TypesInfo.Uses[n].(*types.Func); ok && fn.Pkg() == pass.Pkg {
						valued[fn] = true
					}
				}
				return true
			})
		}
		walk(fd.Body, false)
	})
	// once holds the functions found called once per operation: an
	// entry point's direct callee first, then their callees in turn
	// (a pool's getRunner called once by each of matchStringAt,
	// findAllRunesIndex, …, each called once by an exported method).
	once := map[*types.Func][]string{}
	var decls []*ast.FuncDecl
	eachFuncDecl(pass, func(fd *ast.FuncDecl) { decls = append(decls, fd) })
	for changed := true; changed; {
		changed = false
		for _, fd := range decls {
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			cs := calls[fn]
			if fn == nil || once[fn] != nil || len(cs) == 0 || exportedAPI(fn) || valued[fn] {
				continue
			}
			var callers []string
			ok := true
			for _, c := range cs {
				if c.looped || c.caller == nil || c.caller == fn || !exportedAPI(c.caller) && once[c.caller] == nil || valued[c.caller] || slices.ContainsFunc(calls[c.caller], func(cc call) bool { return cc.looped }) {
					ok = false
					break
				}
				if name := profName(c.caller); !slices.Contains(callers, name) {
					callers = append(callers, name)
				}
			}
			if ok {
				once[fn], changed = callers, true
			}
		}
	}
	for _, fd := range decls {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		callers := once[fn]
		if callers == nil {
			continue
		}
		pass.Report(analysis.Diagnostic{
			Category: "called-once",
			Pos:      fd.Name.Pos(),
			Message: fmt.Sprintf("%s is called once per call of %s, outside any loop: a call it is not inlined for costs one call per operation",
				profName(fn), strings.Join(callers, ", ")),
		})
	}
	return nil, nil
}

// exportedAPI reports whether a function can be called from outside its
// package: exported, and for a method, of an exported type.
func exportedAPI(fn *types.Func) bool {
	if !fn.Exported() {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return true
	}
	n := namedOf(recv.Type())
	return n == nil || n.Obj().Exported() || viaInterface(fn, n)
}

// viaInterface reports whether fn, a method of the unexported type n, is
// a method of an exported interface of n's package that n implements:
// the API a constructor hands out as that interface (cbor's encMode behind
// EncMode).
func viaInterface(fn *types.Func, n *types.Named) bool {
	pkg := n.Obj().Pkg()
	if pkg == nil {
		return false
	}
	for _, name := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		if g, ok := tn.Type().(*types.Named); ok && g.TypeParams().Len() > 0 {
			// A generic interface (Set[T]): the one with n's type
			// arguments, which n's methods can implement.
			if n.TypeArgs().Len() != g.TypeParams().Len() {
				continue
			}
			args := make([]types.Type, n.TypeArgs().Len())
			for i := range args {
				args[i] = n.TypeArgs().At(i)
			}
			inst, err := types.Instantiate(nil, g, args, false)
			if err != nil {
				continue
			}
			if iface, ok = inst.Underlying().(*types.Interface); !ok {
				continue
			}
		}
		has := false
		for i := 0; i < iface.NumMethods(); i++ {
			has = has || iface.Method(i).Name() == fn.Name()
		}
		if has && (types.Implements(n, iface) || types.Implements(types.NewPointer(n), iface)) {
			return true
		}
	}
	return false
}

// funcName names a function as profiles do: "F", "(*T).M" or "T.M".
func profName(fn *types.Func) string {
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil && namedOf(recv.Type()) != nil {
		return methodName(recv.Type(), fn.Name())
	}
	return fn.Name()
}
