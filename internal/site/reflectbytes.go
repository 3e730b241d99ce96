package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ReflectSliceBytes finds v.Slice(i, j).Bytes() on a reflect.Value: on a
// byte array, Slice allocates the slice header of the Value it returns,
// only for Bytes to read it; reflect.Value.Bytes takes an addressable
// byte array itself (Go 1.21), so v.Bytes()[i:j] gives the same bytes
// without the allocation.
var ReflectSliceBytes = &analysis.Analyzer{
	Name: "reflectslicebytes",
	Doc:  "v.Slice(i, j).Bytes() on a reflect.Value, which allocates a slice header for a byte array",
	Run:  runReflectSliceBytes,
}

func runReflectSliceBytes(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Bytes" {
				return true
			}
			inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
			if !ok || len(inner.Args) != 2 {
				return true
			}
			isel, ok := inner.Fun.(*ast.SelectorExpr)
			if !ok || isel.Sel.Name != "Slice" || !isNamed(pass.TypesInfo.TypeOf(isel.X), "reflect", "Value") {
				return true
			}
			v := types.ExprString(isel.X)
			bounds := fmt.Sprintf("[%s:%s]", types.ExprString(inner.Args[0]), types.ExprString(inner.Args[1]))
			if types.ExprString(inner.Args[0]) == "0" {
				bounds = fmt.Sprintf("[:%s]", types.ExprString(inner.Args[1]))
			}
			pass.Report(analysis.Diagnostic{
				Category: "reflect-slice-bytes",
				Pos:      call.Pos(),
				Message:  fmt.Sprintf("%s makes a reflect.Value of a new slice only to read its bytes: on a byte array, Slice allocates that slice's header", oneLine(types.ExprString(call))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"when %s is addressable, %s.Bytes()%s gives the same bytes without the allocation (Value.Bytes takes an addressable byte array)", v, v, bounds)}},
			})
			return true
		})
	}
	return nil, nil
}

// ReflectInterfaceAssert finds v.Interface().(T) on a reflect.Value, T a
// concrete type larger than a pointer: Interface copies the value onto
// the heap to box it, and the assertion copies it back out at once.
// When v is addressable, *v.Addr().Interface().(*T) reads it without the
// copy (a pointer in an interface is not allocated). With T an interface
// ("reflect-implements-by-value", the comma-ok form), the value is boxed
// only to ask whether its type implements T, which v.Type().Implements
// answers per type; a plain assertion wants the interface value itself,
// to call its methods.
var ReflectInterfaceAssert = &analysis.Analyzer{
	Name: "reflectinterfaceassert",
	Doc:  "v.Interface().(T) on a reflect.Value, which boxes a copy of the value only to assert it back",
	Run:  runReflectInterfaceAssert,
}

func runReflectInterfaceAssert(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		// The comma-ok assertions: x, ok := v.Interface().(I) asks; a
		// plain v.Interface().(I) wants the value, to call it.
		asks := map[*ast.TypeAssertExpr]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				if len(x.Lhs) == 2 && len(x.Rhs) == 1 {
					if ta, ok := ast.Unparen(x.Rhs[0]).(*ast.TypeAssertExpr); ok {
						asks[ta] = true
					}
				}
			case *ast.ValueSpec:
				if len(x.Names) == 2 && len(x.Values) == 1 {
					if ta, ok := ast.Unparen(x.Values[0]).(*ast.TypeAssertExpr); ok {
						asks[ta] = true
					}
				}
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			ta, ok := n.(*ast.TypeAssertExpr)
			if !ok || ta.Type == nil {
				return true
			}
			call, ok := ast.Unparen(ta.X).(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Interface" || !isNamed(pass.TypesInfo.TypeOf(sel.X), "reflect", "Value") {
				return true
			}
			t := pass.TypesInfo.TypeOf(ta.Type)
			if t != nil && types.IsInterface(t) {
				if asks[ta] {
					implementsByValue(pass, ta, sel.X, t)
				}
				return true
			}
			if t == nil || !boxAllocates(pass, t) {
				return true
			}
			v := types.ExprString(sel.X)
			tn := types.TypeString(t, types.RelativeTo(pass.Pkg))
			pass.Report(analysis.Diagnostic{
				Category: "reflect-interface-assert",
				Pos:      ta.Pos(),
				Message:  fmt.Sprintf("%s boxes a copy of the %s on the heap only to assert it back", oneLine(types.ExprString(ta)), tn),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"when %s is addressable, *%s.Addr().Interface().(*%s) reads it without the copy (a pointer in an interface is not allocated)", v, v, tn)}},
			})
			return true
		})
	}
	return nil, nil
}

// implementsByValue reports v.Interface().(I), I an interface: the value
// is boxed (an addressable one copied onto the heap) only to ask whether
// its type implements I, which the type answers without a value.
func implementsByValue(pass *analysis.Pass, ta *ast.TypeAssertExpr, v ast.Expr, iface types.Type) {
	in := types.TypeString(iface, types.RelativeTo(pass.Pkg))
	vs := types.ExprString(v)
	pass.Report(analysis.Diagnostic{
		Category: "reflect-implements-by-value",
		Pos:      ta.Pos(),
		Message: fmt.Sprintf("%s boxes %s (a copy on the heap when it is addressable: a field reached through a pointer, a slice element) to ask whether its type implements %s",
			oneLine(types.ExprString(ta)), vs, in),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"ask the type: %s.Type().Implements(the %s interface's reflect.Type), kept per type (a type with no methods, NumMethod() == 0, never does), and box only the values whose type does", vs, in)}},
	})
}

// boxAllocates reports whether converting a value of type t to an
// interface allocates: t is not pointer-shaped and larger than a byte
// (the runtime keeps single bytes and zero-size values without one).
func boxAllocates(pass *analysis.Pass, t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature:
		return false
	}
	size, ok := sizeof(pass.TypesSizes, t)
	return ok && size > 1
}
