package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// PartsApart finds the slices a struct's value holds that the package
// makes each with an allocation of its own, at two or more places of its
// code: at the value's construction, or later, on first use (regexp2's
// Match: its capture counts and intervals made in newMatch, a group's
// first capture in addMatch, a one-element Captures in tidy):
//
//	m = &Match{matchcount: make([]int, n), matches: make([][]int, n)}
//	…
//	if m.matches[c] == nil {
//		m.matches[c] = make([]int, 2)
//	}
//
// The parts live and die with the value, yet each costs an allocation:
// carved out of one backing array made with the value, or held for the
// common small sizes in array fields of its struct, they are one (by
// hand, regexp2's FindNextMatch went from 5 allocations to 1, −29% time).
// A field regrown from its own length (a buffer doubling) is growth, not
// a part, and so is a field appended to anywhere (a stack); a slice made as long as something's len
// is a table over the input (its size is the fix); maps and channels
// cannot be carved.
var PartsApart = &analysis.Analyzer{
	Name: "partsapart",
	Doc:  "the slices a struct's value holds, each made with an allocation of its own at two or more places",
	Run:  runPartsApart,
}

// part is one allocation of a slice a value of a struct type holds.
type part struct {
	field string // "matches", or "matches[c]" for an element of it
	fn    string // the function that makes it
	pos   token.Pos
	elem  types.Type
	size  int64 // the constant length it is made with, or 0
}

func runPartsApart(pass *analysis.Pass) (any, error) {
	parts := map[*types.Named][]part{}
	made := map[*types.Named][]token.Pos{} // the value's own &T{…} holding parts
	for fd := range funcDecls(pass) {
		locals := map[types.Object]*ast.CallExpr{} // v := make([]E, n)
		lens := map[types.Object]bool{}            // n := len(x)
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return
			}
			for i, lhs := range as.Lhs {
				rhs := ast.Unparen(as.Rhs[i])
				if id, ok := lhs.(*ast.Ident); ok && sizedByLength(pass, rhs, lens) {
					if obj := pass.TypesInfo.ObjectOf(id); obj != nil {
						lens[obj] = true
					}
				}
				elem := slicePart(pass, rhs, lens)
				if elem == nil {
					continue
				}
				if id, ok := lhs.(*ast.Ident); ok {
					if call, ok := rhs.(*ast.CallExpr); ok {
						if obj := pass.TypesInfo.ObjectOf(id); obj != nil {
							locals[obj] = call
						}
					}
					continue
				}
				owner, field := partField(pass, lhs)
				if owner == nil || regrownFrom(pass, rhs, lhs) || savedBefore(pass, fd.Body, lhs, as.Pos()) || onErrorPath(pass, fd.Body, as.Pos()) || madeWhenShort(pass, fd.Body, lhs, as.Pos()) {
					continue
				}
				parts[owner] = append(parts[owner], part{field, fd.Name.Name, as.Pos(), elem, constLen(pass, rhs)})
			}
		})
		inspectBody(fd.Body, func(n ast.Node) {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return
			}
			owner := structNamed(pass, pass.TypesInfo.TypeOf(lit))
			if owner == nil {
				return
			}
			held := false
			for _, el := range lit.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, ok := kv.Key.(*ast.Ident)
				if !ok {
					continue
				}
				v := ast.Unparen(kv.Value)
				elem := slicePart(pass, v, lens)
				pos := kv.Pos()
				if elem == nil {
					// A slice of a local made here: n :=
					// make([]int, k); T{counts: n[:k:k]}.
					if se, ok := v.(*ast.SliceExpr); ok {
						v = ast.Unparen(se.X)
					}
					id, ok := v.(*ast.Ident)
					if !ok {
						continue
					}
					call := locals[pass.TypesInfo.ObjectOf(id)]
					if call == nil {
						continue
					}
					elem, pos = slicePart(pass, call, lens), call.Pos()
					if elem == nil {
						continue
					}
				}
				parts[owner] = append(parts[owner], part{key.Name, fd.Name.Name, pos, elem, constLen(pass, v)})
				held = true
			}
			if held {
				made[owner] = append(made[owner], lit.Pos())
			}
		})
	}
	grown := appendedFields(pass)
	for owner, ps := range parts {
		ps = slices.DeleteFunc(ps, func(p part) bool { return grown[owner][p.field] })
		fields := map[string]bool{}
		fns := map[string]bool{}
		for _, p := range ps {
			fields[p.field] = true
			fns[p.fn] = true
		}
		if len(fields) < 2 {
			continue
		}
		name := owner.Obj().Name()
		says := fmt.Sprintf("%s's parts are allocated one by one: %s — slices that live and die with the %s, an allocation each", name, partsText(pass, ps), name)
		later := ""
		if len(fns) > 1 {
			later = fmt.Sprintf(", and hold the ones made later (on first use) for the common small sizes in array fields of %s's struct", name)
		}
		advice := fmt.Sprintf("allocate them with the %s: %s%s: one allocation for the common case instead of %d", name, carveText(ps), later, len(fields)+1)
		if arrays := arrayFields(ps); arrays != "" && later == "" {
			advice = fmt.Sprintf("hold them as array fields of %s's struct (%s), sliced where a slice is needed: part of the %s's own allocation, one instead of %d", name, arrays, name, len(fields)+1)
		}
		at := make([]token.Pos, 0, len(ps)+len(made[owner]))
		for _, p := range ps {
			at = append(at, p.pos)
		}
		at = append(at, made[owner]...)
		slices.Sort(at)
		for _, pos := range slices.Compact(at) {
			pass.Report(analysis.Diagnostic{
				Category:       "parts-apart",
				Pos:            pos,
				Message:        says,
				SuggestedFixes: []analysis.SuggestedFix{{Message: advice}},
			})
		}
	}
	return nil, nil
}

// appendedFields returns the fields of the package's struct types that
// grow by append anywhere in it (x.f = append(x.f, …)): a stack or a list,
// whose array is replaced as it grows, not a part made once.
func appendedFields(pass *analysis.Pass) map[*types.Named]map[string]bool {
	out := map[*types.Named]map[string]bool{}
	for fd := range funcDecls(pass) {
		inspectAll(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return
			}
			for i, lhs := range as.Lhs {
				call, ok := ast.Unparen(as.Rhs[i]).(*ast.CallExpr)
				if !ok {
					continue
				}
				if id, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || id.Name != "append" {
					continue
				}
				owner, field := partField(pass, lhs)
				if owner == nil {
					continue
				}
				if out[owner] == nil {
					out[owner] = map[string]bool{}
				}
				out[owner][field] = true
			}
		})
	}
	return out
}

// slicePart returns the element type of a slice e allocates on its own:
// make([]E, …) or a []E{…} literal; nil for anything else.
func slicePart(pass *analysis.Pass, e ast.Expr, lens map[types.Object]bool) types.Type {
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
			// header(make([]byte, headerSize)): a conversion to a
			// named slice type is the slice it converts.
			e = ast.Unparen(call.Args[0])
		}
	}
	switch x := e.(type) {
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); !ok || id.Name != "make" || len(x.Args) < 2 {
			return nil
		} else if _, ok := pass.TypesInfo.Uses[id].(*types.Builtin); !ok {
			return nil
		}
		for _, size := range x.Args[1:] {
			if sizedByLength(pass, size, lens) {
				return nil // a table over the input, not a small part
			}
		}
	case *ast.CompositeLit:
		if len(x.Elts) == 0 {
			return nil
		}
	default:
		return nil
	}
	s, ok := pass.TypesInfo.TypeOf(e).Underlying().(*types.Slice)
	if !ok {
		return nil
	}
	return s.Elem()
}

// sizedByLength reports whether a size mentions len or cap of something:
// a table as long as the input (gomarkdown's delimiter tables, one entry
// per byte of the text), whose fix is its size, not where it is kept.
// lens holds the locals set from such a size (n := len(t.data)).
func sizedByLength(pass *analysis.Pass, e ast.Expr, lens map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") {
				found = true
			}
		case *ast.Ident:
			found = found || lens[pass.TypesInfo.ObjectOf(x)]
		}
		return !found
	})
	return found
}

// partField returns the struct type and field name of x.f or x.f[i]
// (named "f[i]") when x is a value of, or a pointer to, a struct type the
// package declares.
func partField(pass *analysis.Pass, lhs ast.Expr) (*types.Named, string) {
	suffix := ""
	if ix, ok := lhs.(*ast.IndexExpr); ok {
		suffix = "[" + text(pass, ix.Index) + "]"
		lhs = ix.X
	}
	sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	s, ok := pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil, ""
	}
	owner := structNamed(pass, pass.TypesInfo.TypeOf(sel.X))
	if owner == nil || !inline(owner, s.Index()) {
		return nil, ""
	}
	return owner, sel.Sel.Name + suffix
}

// inline reports whether the field at path is in t's own memory: a field
// promoted through embedded structs held by value (a Match's Captures,
// of its embedded Group), not through an embedded pointer.
func inline(t *types.Named, path []int) bool {
	var typ types.Type = t
	for i, ix := range path {
		st, ok := typ.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		typ = st.Field(ix).Type()
		if i < len(path)-1 {
			if _, ptr := typ.Underlying().(*types.Pointer); ptr {
				return false
			}
		}
	}
	return true
}

// structNamed returns the named struct type t is, or points to, when the
// package declares it.
func structNamed(pass *analysis.Pass, t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	if n == nil || n.Obj().Pkg() != pass.Pkg || n.TypeParams().Len() > 0 {
		return nil
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return nil
	}
	return n
}

// regrownFrom reports whether e mentions the expression lhs stands for (a
// field regrown from its own length: x.buf = make([]byte, 2*len(x.buf))).
func regrownFrom(pass *analysis.Pass, e, lhs ast.Expr) bool {
	want := text(pass, lhs)
	if ix, ok := lhs.(*ast.IndexExpr); ok {
		want = text(pass, ix.X)
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok && !found && text(pass, x) == want {
			found = true
		}
		return !found
	})
	return found
}

// savedBefore reports whether body keeps the old value of the field lhs
// stands for before pos, where it is made anew (old := q.array, then
// q.array = make([]byte, q.capacity) and a copy of old into it): the
// field regrown with its contents carried over, not a part made on first
// use (allegro/bigcache's BytesQueue.allocateAdditionalMemory).
func savedBefore(pass *analysis.Pass, body *ast.BlockStmt, lhs ast.Expr, pos token.Pos) bool {
	want := text(pass, lhs)
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if ok && as.Pos() < pos && len(as.Lhs) == len(as.Rhs) {
			for _, r := range as.Rhs {
				if text(pass, ast.Unparen(r)) == want {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// partsText lists the parts by function: "matchcount and matches
// (newMatch, line 217), matches[c] (addMatch, line 342)".
func partsText(pass *analysis.Pass, ps []part) string {
	var order []string
	byFn := map[string][]string{}
	line := map[string]int{}
	for _, p := range ps {
		if _, ok := byFn[p.fn]; !ok {
			order = append(order, p.fn)
			line[p.fn] = pass.Fset.Position(p.pos).Line
		}
		if !slices.Contains(byFn[p.fn], p.field) {
			byFn[p.fn] = append(byFn[p.fn], p.field)
		}
	}
	out := make([]string, 0, len(order))
	for _, fn := range order {
		fs := byFn[fn]
		names := strings.Join(fs, ", ")
		if len(fs) > 1 {
			names = strings.Join(fs[:len(fs)-1], ", ") + " and " + fs[len(fs)-1]
		}
		out = append(out, fmt.Sprintf("%s (%s, line %d)", names, fn, line[fn]))
	}
	return strings.Join(out, ", ")
}

// carveText says how the parts made together become one allocation: the
// parts of the element type most of them share, carved out of one backing
// array of it.
func carveText(ps []part) string {
	var best []string
	var elem types.Type
	for _, p := range ps {
		var same []string
		for _, q := range ps {
			if types.Identical(p.elem, q.elem) && !slices.Contains(same, q.field) {
				same = append(same, q.field)
			}
		}
		if len(same) > len(best) {
			best, elem = same, p.elem
		}
	}
	if len(best) < 2 {
		return "one struct holding the value and an array for each part, new(struct{ … }), each slice taken from its array"
	}
	names := strings.Join(best[:len(best)-1], ", ") + " and " + best[len(best)-1]
	return fmt.Sprintf("carve %s out of one []%s made with it", names, types.TypeString(elem, func(p *types.Package) string { return p.Name() }))
}

// onErrorPath reports whether pos is inside the body of an if whose
// condition reads an error (if err != nil { s.sendHdr = header(make(…)) }):
// a part made again after a failure (yamux replaces a header a timed-out
// send may still hold), not one made on first use.
func onErrorPath(pass *analysis.Pass, body *ast.BlockStmt, pos token.Pos) bool {
	errType := types.Universe.Lookup("error").Type()
	return inIfTesting(body, pos, func(m ast.Node) bool {
		id, ok := m.(*ast.Ident)
		return ok && pass.TypesInfo.TypeOf(id) != nil && types.Identical(pass.TypesInfo.TypeOf(id), errType)
	})
}

// inIfTesting reports whether pos is in the body of an if whose
// condition holds a node that test accepts.
func inIfTesting(body *ast.BlockStmt, pos token.Pos, test func(ast.Node) bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if found || !ok || pos < ifs.Body.Pos() || pos >= ifs.Body.End() {
			return !found
		}
		ast.Inspect(ifs.Cond, func(m ast.Node) bool {
			found = found || test(m)
			return !found
		})
		return !found
	})
	return found
}

// constLen returns the constant length a part is made with
// (make([]byte, headerSize), through a conversion), or 0.
func constLen(pass *analysis.Pass, e ast.Expr) int64 {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if ok && len(call.Args) == 1 {
		if tv, ok := pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
			call, ok = ast.Unparen(call.Args[0]).(*ast.CallExpr)
		}
	}
	if !ok || len(call.Args) < 2 {
		return 0
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || id.Name != "make" {
		return 0
	}
	tv, ok := pass.TypesInfo.Types[call.Args[len(call.Args)-1]]
	if !ok || tv.Value == nil {
		return 0
	}
	n, ok := constant.Int64Val(tv.Value)
	if !ok {
		return 0
	}
	return n
}

// arrayFields says the array field each part would be when every part
// is made at a constant, small length ("controlHdr [12]byte, sendHdr
// [12]byte"), or "".
func arrayFields(ps []part) string {
	var out []string
	seen := map[string]bool{}
	for _, p := range ps {
		if p.size <= 0 || p.size > 256 {
			return ""
		}
		if seen[p.field] {
			continue
		}
		seen[p.field] = true
		out = append(out, fmt.Sprintf("%s [%d]%s", p.field, p.size, types.TypeString(p.elem, func(p *types.Package) string { return p.Name() })))
	}
	return strings.Join(out, ", ")
}

// madeWhenShort reports whether the assignment at pos to the field lhs
// selects sits in an if whose condition tests that field (if
// cap(mb.literal_context_map) < n { … make … }): the part is kept and
// resliced while it is large enough, made only when the value is new or
// the part too small; one allocation for all the parts would make them
// all again whenever one grows.
func madeWhenShort(pass *analysis.Pass, body *ast.BlockStmt, lhs ast.Expr, pos token.Pos) bool {
	sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	field := pass.TypesInfo.Uses[sel.Sel]
	return inIfTesting(body, pos, func(m ast.Node) bool {
		s, ok := m.(*ast.SelectorExpr)
		return ok && pass.TypesInfo.Uses[s.Sel] == field
	})
}
