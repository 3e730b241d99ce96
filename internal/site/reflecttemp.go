package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ReflectTemp finds a value made by reflect.New in a loop, on every
// iteration, only to be copied into a slot that already exists: a
// slice's element (out.Index(j).Set(e)) or a map entry (SetMapIndex(k, e),
// which copies both). Each iteration allocates the temporary; the slice's
// elements are already zero and addressable, and a map's key and value
// can be made once and zeroed per entry (yaml.v3's decoder: a
// temporary per sequence element and per map key and value, 25–38% of
// its allocations; both hand analyses decoded in place, −20…−32% on its
// nested benchmarks).
var ReflectTemp = &analysis.Analyzer{
	Name: "reflecttemp",
	Doc:  "a reflect.New temporary per iteration copied into an existing slot",
	Run:  runReflectTemp,
}

func runReflectTemp(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		reportReslice(pass, fd)
		inspectLoops(fd.Body, func(n ast.Node, loop ast.Stmt) {
			if loop == nil {
				return
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			typ := reflectNewElem(pass, as.Rhs[0])
			made := ""
			if typ == nil {
				if typ, made = reflect2New(pass, as.Rhs[0]); typ == nil {
					return
				}
			}
			v, _ := objOf(pass, as.Lhs[0]).(*types.Var)
			if v == nil {
				return
			}
			into, mapSet := copiedInto(pass, loopBody(loop), v)
			if into == nil {
				return
			}
			t := oneLine(types.ExprString(typ))
			var msg, fix string
			switch {
			case made != "":
				// reflect2's unsafe API: the same temporary, made with
				// UnsafeNew, copied by UnsafeSetIndex.
				msg = fmt.Sprintf("%s makes %s with %s on every iteration of the loop at lines %d–%d, and %s copies it into the map",
					fd.Name.Name, v.Name(), made, pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line, oneLine(types.ExprString(into.Fun)))
				fix = fmt.Sprintf("make %s once, before the loop, with a zero value made once beside it, and reset it from that zero at the start of each iteration (%s.UnsafeSet(%s, zero)): the map copies it, so the map never holds it", v.Name(), t, v.Name())
			case mapSet:
				msg = fmt.Sprintf("%s makes %s with reflect.New(%s) on every iteration of the loop at lines %d–%d, and %s copies it into the map",
					fd.Name.Name, v.Name(), t, pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line, oneLine(types.ExprString(into.Fun)))
				fix = fmt.Sprintf("make %s once, before the loop, and zero it at the start of each iteration (%s.SetZero(), or %s.Set(reflect.Zero(%s)) before Go 1.20): SetMapIndex copies it, so the map never holds it", v.Name(), v.Name(), v.Name(), t)
			default:
				msg = fmt.Sprintf("%s makes %s with reflect.New(%s) on every iteration of the loop at lines %d–%d, only to copy it into %s, a slot that already exists",
					fd.Name.Name, v.Name(), t, pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line, oneLine(types.ExprString(into.Fun.(*ast.SelectorExpr).X)))
				fix = fmt.Sprintf("work on %s directly (the elements of a slice are addressable, and zero in one just made), setting it back to zero where the element is dropped: no temporary, no copy", oneLine(types.ExprString(into.Fun.(*ast.SelectorExpr).X)))
			}
			pass.Report(analysis.Diagnostic{
				Category:       "reflect-temp",
				Pos:            as.Pos(),
				Message:        msg + ": one allocation per iteration",
				Related:        []analysis.RelatedInformation{{Pos: into.Pos(), Message: "the copy"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
			})
		})
	})
	return nil, nil
}

// reflectNewElem returns T of reflect.New(T).Elem(), or nil.
func reflectNewElem(pass *analysis.Pass, e ast.Expr) ast.Expr {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return nil
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Elem" {
		return nil
	}
	inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok || len(inner.Args) != 1 || !isFunc(pass, inner, "reflect", "", "New") {
		return nil
	}
	return inner.Args[0]
}

// reflect2Path is the import path of github.com/modern-go/reflect2, the
// unsafe reflection json-iterator and hamba/avro decode with.
const reflect2Path = "github.com/modern-go/reflect2"

// reflect2New returns X of X.UnsafeNew() or X.New(), X a type of
// reflect2, and the call's text; nil when e is neither.
func reflect2New(pass *analysis.Pass, e ast.Expr) (ast.Expr, string) {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return nil, ""
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "UnsafeNew" && sel.Sel.Name != "New" || !fromReflect2(pass, sel.X) {
		return nil, ""
	}
	return sel.X, oneLine(types.ExprString(c))
}

// fromReflect2 reports whether x's type is one of reflect2's (its Type
// interface, or a pointer to one of its type descriptions).
func fromReflect2(pass *analysis.Pass, x ast.Expr) bool {
	t := pass.TypesInfo.TypeOf(x)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == reflect2Path
}

// loopBody is a for or range statement's body.
func loopBody(loop ast.Stmt) *ast.BlockStmt {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return l.Body
	case *ast.RangeStmt:
		return l.Body
	}
	return nil
}

// copiedInto returns the call that copies v into an existing slot in
// body — X.Index(i).Set(v), or X.SetMapIndex(k, v) with v as key or
// value (mapSet) — when v is used otherwise only as a target of work
// (passed to calls, its methods called), never stored elsewhere.
func copiedInto(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) (into *ast.CallExpr, mapSet bool) {
	if body == nil {
		return nil, false
	}
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || into != nil {
			return into == nil
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if ok && (sel.Sel.Name == "UnsafeSetIndex" || sel.Sel.Name == "SetIndex") && fromReflect2(pass, sel.X) && len(c.Args) == 3 && (objOf(pass, c.Args[1]) == v || objOf(pass, c.Args[2]) == v) {
			into, mapSet = c, true
			return false
		}
		if !ok || !isNamed(pass.TypesInfo.TypeOf(sel.X), "reflect", "Value") {
			return true
		}
		switch sel.Sel.Name {
		case "Set":
			if len(c.Args) == 1 && objOf(pass, c.Args[0]) == v {
				if ix, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok {
					if is, ok := ast.Unparen(ix.Fun).(*ast.SelectorExpr); ok && is.Sel.Name == "Index" {
						into = c
					}
				}
			}
		case "SetMapIndex":
			if len(c.Args) == 2 && (objOf(pass, c.Args[0]) == v || objOf(pass, c.Args[1]) == v) {
				into, mapSet = c, true
			}
		}
		return true
	})
	return into, mapSet
}

// reportReslice reports v.Set(v.Slice(0, n)) not guarded by n < v.Len():
// reflect's Slice makes a new slice header, an allocation, even when n is
// already the length (yaml.v3's sequence, after keeping every element).
func reportReslice(pass *analysis.Pass, fd *ast.FuncDecl) {
	inspectBody(fd.Body, func(n ast.Node) {
		es, ok := n.(*ast.ExprStmt)
		if !ok {
			return
		}
		set, ok := es.X.(*ast.CallExpr)
		if !ok || len(set.Args) != 1 {
			return
		}
		sel, ok := ast.Unparen(set.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Set" || !isNamed(pass.TypesInfo.TypeOf(sel.X), "reflect", "Value") {
			return
		}
		sl, ok := ast.Unparen(set.Args[0]).(*ast.CallExpr)
		if !ok || len(sl.Args) != 2 {
			return
		}
		ssel, ok := ast.Unparen(sl.Fun).(*ast.SelectorExpr)
		if !ok || ssel.Sel.Name != "Slice" || types.ExprString(ssel.X) != types.ExprString(sel.X) {
			return
		}
		if tv := pass.TypesInfo.Types[sl.Args[0]]; tv.Value == nil || tv.Value.String() != "0" {
			return
		}
		v, end := oneLine(types.ExprString(sel.X)), oneLine(types.ExprString(sl.Args[1]))
		guarded := false
		inspectBody(fd.Body, func(m ast.Node) {
			if is, ok := m.(*ast.IfStmt); ok && set.Pos() >= is.Body.Pos() && set.End() <= is.Body.End() && strings.Contains(types.ExprString(is.Cond), ".Len()") {
				guarded = true
			}
		})
		if guarded {
			return
		}
		pass.Report(analysis.Diagnostic{
			Category: "reflect-reslice",
			Pos:      set.Pos(),
			Message: fmt.Sprintf("%s sets %s to %s.Slice(0, %s) on every call: reflect's Slice makes a new slice header, an allocation, even when %s is already %s's length",
				fd.Name.Name, v, v, end, end, v),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("re-slice only when something was dropped (if %s < %s.Len() { … }): the common case, every element kept, allocates nothing", end, v)}},
		})
	})
}
