package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// TypeCompared finds a switch on a reflect.Type whose cases are the
// package's type variables, compared one after the other for every value
// before anything cheaper decides:
//
//	switch t {
//	case timeType: …
//	case localDateType: …
//	…
//	}
//	switch v.Kind() { …
//
// pelletier/go-toml's appendValue, for every value it encodes: five
// interface comparisons through runtime.ifaceeq (6% of a document's
// encoding) for strings, numbers and bools that can be none of those
// types, all structs but one string. The kinds the cases have say which
// values can match: test the kind first, a load, and compare the type
// only under those kinds.
var TypeCompared = &analysis.Analyzer{
	Name: "typecompared",
	Doc:  "a switch comparing a reflect.Type with the package's type variables, one after the other, for every value",
	Run:  runTypeCompared,
}

func runTypeCompared(pass *analysis.Pass) (any, error) {
	kinds := typeVarKinds(pass)
	if len(kinds) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok || sw.Tag == nil || !isReflectType(pass.TypesInfo.TypeOf(sw.Tag)) {
				return
			}
			var names []string
			var cases []ast.Expr
			byKind := map[reflect.Kind][]string{}
			for _, st := range sw.Body.List {
				for _, e := range st.(*ast.CaseClause).List {
					id, ok := ast.Unparen(e).(*ast.Ident)
					if !ok {
						return
					}
					k, ok := kinds[pass.TypesInfo.Uses[id]]
					if !ok {
						return // a case the shape cannot place by kind
					}
					names = append(names, id.Name)
					cases = append(cases, e)
					byKind[k] = append(byKind[k], id.Name)
				}
			}
			if len(names) < 3 {
				return
			}
			tag := text(pass, sw.Tag)
			var under []string
			ks := make([]reflect.Kind, 0, len(byKind))
			for k := range byKind {
				ks = append(ks, k)
			}
			slices.Sort(ks)
			for _, k := range ks {
				under = append(under, fmt.Sprintf("reflect.%s (%s)", kindName(k), strings.Join(byKind[k], ", ")))
			}
			// At the first case, where the comparisons' time is; the
			// other cases' lines are related.
			var related []analysis.RelatedInformation
			for _, e := range cases[1:] {
				related = append(related, analysis.RelatedInformation{Pos: e.Pos(), Message: "compared in turn"})
			}
			pass.Report(analysis.Diagnostic{
				Category: "type-compared",
				Pos:      cases[0].Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s compares %s, a reflect.Type, with %d of the package's types in turn (%s) for every value it is called with, each an interface comparison through the runtime; only values of %d kinds can be one of them",
					fd.Name.Name, tag, len(names), list(names, 5), len(ks)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"decide by the kind first, one load: compare %s with them only when %s.Kind() is %s; every other value goes straight on",
					tag, tag, strings.Join(under, " or "))}},
			})
		})
	})
	return nil, nil
}

// typeVarKinds returns the kinds of the package's variables initialised
// to a type known where they are declared: reflect.TypeOf(T{}),
// reflect.TypeOf((*T)(nil)).Elem(), reflect.TypeFor[T]().
func typeVarKinds(pass *analysis.Pass) map[types.Object]reflect.Kind {
	out := map[types.Object]reflect.Kind{}
	for _, in := range pass.TypesInfo.InitOrder {
		if len(in.Lhs) != 1 {
			continue
		}
		if t := typeOfReflected(pass, in.Rhs); t != nil {
			if k := kindOf(t); k != reflect.Invalid {
				out[in.Lhs[0]] = k
			}
		}
	}
	return out
}

// typeOfReflected returns the type e describes when it is
// reflect.TypeOf(x), reflect.TypeOf((*T)(nil)).Elem() or
// reflect.TypeFor[T](), or nil.
func typeOfReflected(pass *analysis.Pass, e ast.Expr) types.Type {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	// reflect.TypeOf((*T)(nil)).Elem(): Elem is the interface's method.
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Elem" && len(call.Args) == 0 && isReflectType(pass.TypesInfo.TypeOf(sel.X)) {
		if p, ok := typeOfReflected(pass, sel.X).(*types.Pointer); ok {
			return p.Elem()
		}
		return nil
	}
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" {
		return nil
	}
	switch {
	case fn.Name() == "TypeOf" && len(call.Args) == 1:
		t := pass.TypesInfo.TypeOf(call.Args[0])
		if b, ok := t.(*types.Basic); ok && b.Kind() == types.UntypedNil {
			return nil
		}
		return t
	case fn.Name() == "TypeFor":
		if inst, ok := pass.TypesInfo.Instances[funIdent(call.Fun)]; ok && inst.TypeArgs.Len() == 1 {
			return inst.TypeArgs.At(0)
		}
	}
	return nil
}

// funIdent is the identifier a call's function expression names
// (reflect.TypeFor[T]'s TypeFor).
func funIdent(e ast.Expr) *ast.Ident {
	switch e := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		return funIdent(e.X)
	case *ast.SelectorExpr:
		return e.Sel
	case *ast.Ident:
		return e
	}
	return nil
}

// basicKinds maps the basic types a package's type variable can have to
// their reflect.Kind.
var basicKinds = map[types.BasicKind]reflect.Kind{
	types.String: reflect.String, types.Bool: reflect.Bool,
	types.Int: reflect.Int, types.Int8: reflect.Int8, types.Int16: reflect.Int16, types.Int32: reflect.Int32, types.Int64: reflect.Int64,
	types.Uint: reflect.Uint, types.Uint8: reflect.Uint8, types.Uint16: reflect.Uint16, types.Uint32: reflect.Uint32, types.Uint64: reflect.Uint64,
	types.Float32: reflect.Float32, types.Float64: reflect.Float64,
}

// kindOf is the reflect.Kind of a type, Invalid for an interface or a
// type the shape does not place.
func kindOf(t types.Type) reflect.Kind {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		return reflect.Struct
	case *types.Pointer:
		return reflect.Pointer
	case *types.Slice:
		return reflect.Slice
	case *types.Array:
		return reflect.Array
	case *types.Map:
		return reflect.Map
	case *types.Signature:
		return reflect.Func
	case *types.Chan:
		return reflect.Chan
	case *types.Basic:
		return basicKinds[u.Kind()] // Invalid when absent
	}
	return reflect.Invalid
}

// kindName is a kind's constant's name in package reflect.
func kindName(k reflect.Kind) string {
	if k == reflect.Pointer {
		return "Pointer"
	}
	s := k.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// isReflectType reports whether t is reflect.Type.
func isReflectType(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" && n.Obj().Name() == "Type"
}
