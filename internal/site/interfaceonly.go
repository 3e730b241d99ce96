package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// InterfaceOnly finds the methods of a package's unexported types (or
// its unexported methods) that the package calls only through an
// interface: no call site of theirs is static, so the compiler cannot
// inline them wherever they are called, and advice to bring one under
// the inlining budget does not fit (profile-guided optimization can
// devirtualize a hot call; the fix is elsewhere).
var InterfaceOnly = &analysis.Analyzer{
	Name: "interfaceonly",
	Doc:  "methods the package calls only through an interface",
	Run:  runInterfaceOnly,
}

func runInterfaceOnly(pass *analysis.Pass) (any, error) {
	static := map[types.Object]bool{}
	var dynamic []*types.Selection // calls of interface methods
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			s := pass.TypesInfo.Selections[sel]
			if s == nil || s.Kind() == types.FieldVal {
				return true
			}
			if types.IsInterface(s.Recv()) {
				dynamic = append(dynamic, s)
			} else {
				// A call, or a method value or expression: either
				// names the method statically.
				static[s.Obj()] = true
			}
			return true
		})
	}
	for _, f := range pass.Files {
		if isTestFile(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil || static[fn] {
				continue
			}
			recv := fn.Type().(*types.Signature).Recv().Type()
			named := namedOf(recv)
			if named == nil || fn.Exported() && named.Obj().Exported() {
				continue // callers outside the package may call it directly
			}
			if !calledThrough(dynamic, fn, named) {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Category: "interface-only",
				Pos:      fd.Name.Pos(),
				Message: fmt.Sprintf("%s is called only through an interface in its package: no call of it is static, so the compiler cannot inline it at its calls whatever its cost",
					methodName(recv, fn.Name())),
			})
		}
	}
	return nil, nil
}

// calledThrough reports whether one of the interface method calls is of
// fn's name on an interface fn's type (or a pointer to it) implements.
func calledThrough(dynamic []*types.Selection, fn *types.Func, named *types.Named) bool {
	for _, s := range dynamic {
		if s.Obj().Name() != fn.Name() {
			continue
		}
		iface, ok := s.Recv().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		if types.Implements(named, iface) || types.Implements(types.NewPointer(named), iface) {
			return true
		}
	}
	return false
}

// namedOf returns the named type of a receiver (T or *T).
func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	return n
}

// methodName names a method as profiles do: "(*T).M" or "T.M".
func methodName(recv types.Type, name string) string {
	if p, ok := recv.(*types.Pointer); ok {
		return fmt.Sprintf("(*%s).%s", namedOf(p).Obj().Name(), name)
	}
	return fmt.Sprintf("%s.%s", namedOf(recv).Obj().Name(), name)
}

// isTestFile reports whether f is a _test.go file.
func isTestFile(pass *analysis.Pass, f *ast.File) bool {
	return strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go")
}
