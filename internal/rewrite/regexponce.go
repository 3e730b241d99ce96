package rewrite

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// regexpOnce finds a compiled regexp run twice on one input in one
// function: Match or MatchString answers whether it matches, then a Find
// of the same regexp on the same input scans it again for what matched.
// The Find alone answers both (nil means no match).
func (u *unit) regexpOnce(fn *ast.FuncDecl) []candidate {
	if hasGoto(fn.Body) {
		return nil
	}
	var out []candidate
	stmtLists(fn.Body, func(list []ast.Stmt) {
		for i, s := range list {
			ifs, ok := s.(*ast.IfStmt)
			if !ok || ifs.Init != nil {
				continue
			}
			if c, ok := u.regexpMatchThen(fn, ifs); ok {
				out = append(out, c)
			} else if c, ok := u.regexpMatchElse(fn, ifs, list[i+1:]); ok {
				out = append(out, c)
			}
		}
	})
	return out
}

// findFor are the methods whose nil result says there is no match, for
// each match method: the second scan may be any of them.
var findFor = map[string][]string{
	"MatchString": {"FindStringSubmatch", "FindStringSubmatchIndex", "FindStringIndex", "FindAllString", "FindAllStringIndex", "FindAllStringSubmatch", "FindAllStringSubmatchIndex"},
	"Match":       {"FindSubmatch", "FindSubmatchIndex", "FindIndex", "FindAll", "FindAllIndex", "FindAllSubmatch", "FindAllSubmatchIndex"},
}

// regexpCall reads re.Method(input) (and re.FindAll…(input, n) with n a
// constant other than 0, whose nil result also means no match), re a
// *regexp.Regexp that is an identifier or a chain of fields, input an
// identifier.
func (u *unit) regexpCall(e ast.Expr) (re, input ast.Expr, method string, ok bool) {
	call, isCall := ast.Unparen(e).(*ast.CallExpr)
	if !isCall || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return nil, nil, "", false
	}
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel || !pure(sel.X) || !u.isRegexp(sel.X) {
		return nil, nil, "", false
	}
	if _, isID := ast.Unparen(call.Args[0]).(*ast.Ident); !isID || u.obj(call.Args[0]) == nil {
		return nil, nil, "", false
	}
	method = sel.Sel.Name
	switch len(call.Args) {
	case 1:
		if strings.HasPrefix(method, "FindAll") {
			return nil, nil, "", false
		}
	case 2:
		tv, isConst := u.info.Types[call.Args[1]]
		if !strings.HasPrefix(method, "FindAll") || !isConst || tv.Value == nil || tv.Value.Kind() != constant.Int || constant.Sign(tv.Value) == 0 {
			return nil, nil, "", false
		}
	default:
		return nil, nil, "", false
	}
	return sel.X, call.Args[0], method, true
}

// isRegexp reports whether e is a *regexp.Regexp.
func (u *unit) isRegexp(e ast.Expr) bool {
	p, ok := u.typeOf(e).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "regexp" && n.Obj().Name() == "Regexp"
}

// regexpFind reads `m := re.Find…(input)`, the second scan of a match.
func (u *unit) regexpFind(s ast.Stmt, re, input ast.Expr, match string) (*ast.AssignStmt, types.Object, bool) {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, nil, false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil, nil, false
	}
	r2, in2, method, ok := u.regexpCall(as.Rhs[0])
	if !ok || !slices.Contains(findFor[match], method) || u.text(r2) != u.text(re) || u.obj(in2) != u.obj(input) {
		return nil, nil, false
	}
	m := u.info.Defs[id]
	if m == nil {
		return nil, nil, false
	}
	return as, m, true
}

// unchanged reports whether the statements leave the regexp and the
// input as they are: no assignment, increment or address of either's
// root, no write of the input's elements, and, when the regexp is a
// field or the input a []byte, no call at all (a method may set the
// field, a function write the bytes).
func (u *unit) unchanged(stmts []ast.Node, re, input ast.Expr) bool {
	roots := []types.Object{u.info.ObjectOf(rootIdent(re)), u.obj(input)}
	// A field may be set by a method, the bytes of a slice by any call:
	// then nothing is called in between.
	_, isString := types.Unalias(u.typeOf(input)).Underlying().(*types.Basic)
	field := rootIdent(re) != ast.Unparen(re) || !isString
	ok := true
	for _, s := range stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if u.mentions(l, roots[1]) {
						ok = false // b[i] = c writes the input's bytes
					}
				}
			case *ast.IncDecStmt:
				if u.mentions(n.X, roots[1]) {
					ok = false
				}
			case *ast.Ident:
				if slices.Contains(roots, u.info.Uses[n]) {
					if un, isUn := u.parents[n].(*ast.UnaryExpr); u.assigned(n) || isUn && un.Op == token.AND {
						ok = false
					}
				}
			case *ast.CallExpr:
				if field {
					if tv, isType := u.info.Types[n.Fun]; !isType || !tv.IsType() {
						if id, isID := ast.Unparen(n.Fun).(*ast.Ident); !isID || !isBuiltinObj(u.info.Uses[id]) {
							ok = false
						}
					}
				}
			}
			return ok
		})
	}
	return ok
}

func isBuiltinObj(o types.Object) bool {
	_, ok := o.(*types.Builtin)
	return ok
}

// inputKnown reports whether the input cannot change behind the
// function's back: a local or parameter whose address is never taken
// and that no function literal assigns.
func (u *unit) inputKnown(fn *ast.FuncDecl, input ast.Expr) bool {
	v, ok := u.obj(input).(*types.Var)
	if !ok || v.Parent() == nil || (u.types != nil && v.Parent() == u.types.Scope()) || v.IsField() {
		return false
	}
	for _, id := range u.idents(fn, v) {
		if un, isUn := u.parents[id].(*ast.UnaryExpr); isUn && un.Op == token.AND {
			return false
		}
		if inside[*ast.FuncLit](u, id, fn) && u.assigned(id) {
			return false
		}
	}
	return true
}

// otherNamed reports whether any identifier in the nodes is spelled like
// m but is not m: moved, m's declaration would shadow it.
func (u *unit) otherNamed(nodes []ast.Node, m types.Object) bool {
	found := false
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == m.Name() && u.info.ObjectOf(id) != m {
				if sel, isSel := u.parents[id].(*ast.SelectorExpr); !isSel || sel.X == id {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// regexpMatchThen: `if re.MatchString(s) { …; m := re.FindStringSubmatch(s); … }`
// → `if m := re.FindStringSubmatch(s); m != nil { …; … }`.
func (u *unit) regexpMatchThen(fn *ast.FuncDecl, ifs *ast.IfStmt) (candidate, bool) {
	re, input, match, ok := u.regexpCall(ifs.Cond)
	if !ok || findFor[match] == nil || !u.inputKnown(fn, input) {
		return candidate{}, false
	}
	for k, s := range ifs.Body.List {
		as, m, ok := u.regexpFind(s, re, input, match)
		if !ok {
			continue
		}
		var before []ast.Node
		for _, b := range ifs.Body.List[:k] {
			before = append(before, b)
		}
		if !u.unchanged(before, re, input) {
			return candidate{}, false
		}
		shadowed := before
		if ifs.Else != nil {
			shadowed = append(shadowed, ifs.Else)
		}
		if u.otherNamed(shadowed, m) {
			return candidate{}, false
		}
		cond := fmt.Sprintf("%s := %s; %s != nil", m.Name(), u.text(as.Rhs[0]), m.Name())
		return u.regexpCandidate(ifs.Cond, as, match, []edit{replace(ifs.Cond, cond), u.deleteStmt(as)}), true
	}
	return candidate{}, false
}

// regexpMatchElse: `if !re.MatchString(s) { … }` then, later in the same
// list, `m := re.FindStringSubmatch(s)` → the Find before the if, whose
// condition becomes `m == nil`.
func (u *unit) regexpMatchElse(fn *ast.FuncDecl, ifs *ast.IfStmt, rest []ast.Stmt) (candidate, bool) {
	not, ok := ast.Unparen(ifs.Cond).(*ast.UnaryExpr)
	if !ok || not.Op != token.NOT || ifs.Else != nil {
		return candidate{}, false
	}
	re, input, match, ok := u.regexpCall(not.X)
	if !ok || findFor[match] == nil || !u.inputKnown(fn, input) {
		return candidate{}, false
	}
	between := []ast.Node{ifs.Body}
	for _, s := range rest {
		as, m, ok := u.regexpFind(s, re, input, match)
		if !ok {
			between = append(between, s)
			continue
		}
		if !u.unchanged(between, re, input) || u.otherNamed(between, m) {
			return candidate{}, false
		}
		name := m.Name()
		edits := []edit{
			insertBefore(ifs, u.text(as)),
			replace(ifs.Cond, name+" == nil"),
			u.deleteStmt(as),
		}
		return u.regexpCandidate(not.X, as, match, edits), true
	}
	return candidate{}, false
}

func (u *unit) regexpCandidate(test ast.Expr, find *ast.AssignStmt, match string, edits []edit) candidate {
	call := ast.Unparen(find.Rhs[0]).(*ast.CallExpr)
	method := ast.Unparen(call.Fun).(*ast.SelectorExpr).Sel.Name
	re := u.text(ast.Unparen(call.Fun).(*ast.SelectorExpr).X)
	in := u.text(call.Args[0])
	return candidate{
		kind:   "regexp-once",
		line:   u.line(test.Pos()),
		more:   []int{u.line(find.Pos())},
		desc:   fmt.Sprintf("regexp-once: %s.%s(%s) answers %s", re, method, in, match),
		shape:  "regexp-twice",
		says:   fmt.Sprintf("%s runs twice on %s: %s here, then %s at line %d scans it again for what the first call found", re, in, match, method, u.line(find.Pos())),
		advice: fmt.Sprintf("run %s once and test its result against nil", method),
		edits:  edits,
	}
}
