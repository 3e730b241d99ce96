package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// sortFunc finds sort.Slice and sort.SliceStable calls whose less
// function compares fields of the two elements: slices.SortFunc sorts
// the same way without the reflection-made swapper and the closure over
// the slice.
func (u *unit) sortFunc(fn *ast.FuncDecl) []candidate {
	if !u.atLeast("go1.21") {
		return nil
	}
	var out []candidate
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if c, ok := u.sortCall(call); ok {
			out = append(out, c)
		}
		return true
	})
	return out
}

// maxSortElem is the largest element, in bytes, SortFunc is proposed for:
// its comparison takes the two elements by value, where less indexes
// them in place.
const maxSortElem = 32

func (u *unit) sortCall(call *ast.CallExpr) (candidate, bool) {
	path, name := u.pkgFunc(call)
	if path != "sort" || (name != "Slice" && name != "SliceStable") || len(call.Args) != 2 {
		return candidate{}, false
	}
	if _, ok := u.parents[call].(*ast.ExprStmt); !ok {
		return candidate{}, false
	}
	s := call.Args[0]
	lit, ok := call.Args[1].(*ast.FuncLit)
	if !ok || !pure(s) {
		return candidate{}, false
	}
	st, ok := u.typeOf(s).(*types.Slice) // a named slice type may have methods a reader relies on
	if !ok {
		return candidate{}, false
	}
	params := lit.Type.Params.List
	if len(params) != 1 || len(params[0].Names) != 2 {
		return candidate{}, false
	}
	i, j := u.info.Defs[params[0].Names[0]], u.info.Defs[params[0].Names[1]]
	if i == nil || j == nil {
		return candidate{}, false
	}
	elem := st.Elem()
	if size, ok := sizeOf(elem); !ok || size > maxSortElem {
		return candidate{}, false
	}
	elemText, ok := u.typeText(target{typ: elem})
	if !ok {
		return candidate{}, false
	}
	sk := &sortKeys{u: u, s: s, i: i, j: j}
	expr, ok := sk.body(lit.Body.List)
	if !ok || !sk.onlyIndexes(lit.Body) {
		return candidate{}, false
	}
	sl, ok1 := u.qualifier("slices")
	cm, ok2 := u.qualifier("cmp")
	if !ok1 || !ok2 {
		return candidate{}, false
	}
	expr = strings.ReplaceAll(expr, "cmp.", cm+".")
	to := "SortFunc"
	if name == "SliceStable" {
		to = "SortStableFunc"
	}
	text := fmt.Sprintf("%s.%s(%s, func(a, b %s) int {\n\treturn %s\n})", sl, to, u.text(s), elemText, expr)
	var about []int
	for _, st := range lit.Body.List {
		about = append(about, u.line(st.Pos()))
	}
	return candidate{
		about:   about,
		kind:    "sortfunc",
		line:    u.line(call.Pos()),
		desc:    fmt.Sprintf("sortfunc: sort.%s(%s, …) → %s.%s", name, u.text(s), sl, to),
		shape:   "sort-slice-reflect",
		says:    fmt.Sprintf("sort.%s sorts %s through a swapper made by reflection and a less function that indexes the slice on every comparison", name, u.text(s)),
		advice:  fmt.Sprintf("sort with %s.%s and a comparison of the two elements: %s", sl, to, expr),
		edits:   []edit{replace(call, text)},
		imports: []string{"slices", "cmp"},
		drop:    []string{"sort"},
	}, true
}

// sortKeys reads a less function of sort.Slice(s, func(i, j int) bool).
type sortKeys struct {
	u    *unit
	s    ast.Expr
	i, j types.Object
}

// body returns the comparison of the less function's body: `return
// KEY(s[i]) < KEY(s[j])` (or >), after any number of `if KEY(s[i]) !=
// KEY(s[j]) { return KEY(s[i]) < KEY(s[j]) }`, as cmp.Compare of the
// keys of a and b, joined by cmp.Or.
func (k *sortKeys) body(list []ast.Stmt) (string, bool) {
	if len(list) == 0 {
		return "", false
	}
	var parts []string
	for _, st := range list[:len(list)-1] {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) != 1 {
			return "", false
		}
		ne, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || ne.Op != token.NEQ {
			return "", false
		}
		ka, ok1 := k.key(ne.X, k.i)
		kb, ok2 := k.key(ne.Y, k.j)
		if !ok1 || !ok2 || ka != kb {
			return "", false
		}
		part, key, ok := k.compare(ifs.Body.List[0])
		if !ok || key != ka {
			return "", false
		}
		parts = append(parts, part)
	}
	part, _, ok := k.compare(list[len(list)-1])
	if !ok {
		return "", false
	}
	parts = append(parts, part)
	if len(parts) == 1 {
		return parts[0], true
	}
	if !k.u.atLeast("go1.22") {
		return "", false
	}
	return "cmp.Or(\n" + strings.Join(parts, ",\n") + ",\n)", true
}

// compare reads `return KEY(s[i]) < KEY(s[j])` (ascending) or with >
// (descending); key is KEY's text with the element written "@".
func (k *sortKeys) compare(st ast.Stmt) (part, key string, ok bool) {
	ret, isRet := st.(*ast.ReturnStmt)
	if !isRet || len(ret.Results) != 1 {
		return "", "", false
	}
	be, isBin := ast.Unparen(ret.Results[0]).(*ast.BinaryExpr)
	if !isBin || (be.Op != token.LSS && be.Op != token.GTR) {
		return "", "", false
	}
	ka, ok1 := k.key(be.X, k.i)
	kb, ok2 := k.key(be.Y, k.j)
	if !ok1 || !ok2 || ka != kb || ka == "@" {
		// s[i] < s[j] itself: modernize's slicessort makes it slices.Sort.
		return "", "", false
	}
	t := k.u.typeOf(be.X)
	if t == nil {
		return "", "", false
	}
	b, isBasic := t.Underlying().(*types.Basic)
	if !isBasic || b.Info()&(types.IsInteger|types.IsString) == 0 {
		// Floats: cmp.Compare orders NaN, < does not.
		return "", "", false
	}
	x, y := "a", "b"
	if be.Op == token.GTR {
		x, y = "b", "a"
	}
	return "cmp.Compare(" + strings.ReplaceAll(ka, "@", x) + ", " + strings.ReplaceAll(ka, "@", y) + ")", ka, true
}

// key returns e as a chain of field selections from s[v], the element
// written "@" ("@.Name"), false for anything else.
func (k *sortKeys) key(e ast.Expr, v types.Object) (string, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		sel, ok := k.u.info.Selections[e]
		if !ok || sel.Kind() != types.FieldVal {
			return "", false
		}
		x, ok := k.key(e.X, v)
		return x + "." + e.Sel.Name, ok
	case *ast.IndexExpr:
		if k.u.text(e.X) != k.u.text(k.s) || k.u.obj(e.Index) != v {
			return "", false
		}
		return "@", true
	}
	return "", false
}

// onlyIndexes reports whether i and j appear only as s[i] and s[j], and
// the body mentions nothing else of the function but s: the comparison
// sees the elements only.
func (k *sortKeys) onlyIndexes(body *ast.BlockStmt) bool {
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || !ok {
			return ok
		}
		obj := k.u.info.Uses[id]
		if obj == k.i || obj == k.j {
			ix, isIx := k.u.parents[id].(*ast.IndexExpr)
			ok = isIx && ix.Index == id && k.u.text(ix.X) == k.u.text(k.s)
		}
		return ok
	})
	return ok
}

// sizeOf is t's size on amd64, and false for a type parameter (or a type
// built from one), whose size go/types asserts it cannot give.
func sizeOf(t types.Type) (n int64, ok bool) {
	defer func() {
		if recover() != nil {
			n, ok = 0, false
		}
	}()
	return types.SizesFor("gc", "amd64").Sizeof(t), true
}
