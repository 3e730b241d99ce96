package rewrite

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// addNames records every identifier of f: a fresh name must collide
// with none of them.
func addNames(names map[string]bool, f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			names[id.Name] = true
		}
		return true
	})
}

// pkg is a type-checked package (possibly with errors: a rule that
// needs a type it cannot see proposes nothing).
type pkg struct {
	fset      *token.FileSet
	files     []*ast.File
	info      *types.Info
	types     *types.Package
	names     map[string]bool
	goVersion string
	// errs are the type checker's errors, for tests.
	errs []error
}

// unit is one file of a checked package, with what the rules need.
type unit struct {
	*pkg
	path    string
	src     []byte
	file    *ast.File
	tf      *token.File
	parents map[ast.Node]ast.Node
	// fileNames are the identifiers of this file: an import added must
	// not be shadowed by any of them.
	fileNames map[string]bool
}

func (p *pkg) unit(i int, path string, src []byte) *unit {
	f := p.files[i]
	u := &unit{pkg: p, path: path, src: src, file: f, tf: p.fset.File(f.Pos()), parents: map[ast.Node]ast.Node{}, fileNames: map[string]bool{}}
	addNames(u.fileNames, f)
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			u.parents[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return u
}

// A candidate is a rewrite found and checked, as edits of the original.
type candidate struct {
	kind string
	line int
	more []int // other lines where At proposes it
	// about are lines the rewrite does not edit but whose cost it
	// removes (the writes a Grow sizes for): a profile charges them.
	about  []int
	review bool
	desc   string
	// shape names the code the rule recognised ("append-unsized"),
	// says what it does there and advice the rewrite in words: what
	// the report writes at the line.
	shape, says, advice string
	edits               []edit
	// imports are the paths the new code needs; drop the ones that may
	// fall out of use.
	imports, drop []string
}

func (c candidate) lines() []int {
	out := append([]int{c.line}, c.more...)
	slices.Sort(out)
	return slices.Compact(out)
}

// An edit replaces the original's bytes [pos, end) with text.
type edit struct {
	pos, end token.Pos
	text     string
}

// candidates runs every rule on every function of the file, in source
// order of the functions and Kinds order within one.
func (u *unit) candidates() []candidate {
	var out []candidate
	for _, d := range u.file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		out = append(out, u.presize(fn)...)
		out = append(out, u.builder(fn)...)
		out = append(out, u.strconv(fn)...)
		out = append(out, u.hoistConst(fn)...)
		out = append(out, u.hoistAlloc(fn)...)
		out = append(out, u.field(fn)...)
		out = append(out, u.grow(fn)...)
		out = append(out, u.sortFunc(fn)...)
		out = append(out, u.regexpOnce(fn)...)
		out = append(out, u.outsideLock(fn)...)
		out = append(out, u.bufWriter(fn)...)
	}
	return out
}

func importOf(f *ast.File, path string) *ast.ImportSpec {
	for _, s := range f.Imports {
		if strings.Trim(s.Path.Value, "`\"") == path {
			return s
		}
	}
	return nil
}

// qualifier returns the name that refers to the package path in the
// file, adding no import when it is imported already; ok is false when
// the package's name is taken by something else.
func (u *unit) qualifier(path string) (string, bool) {
	if s := importOf(u.file, path); s != nil {
		if s.Name == nil {
			return defaultName(path), true
		}
		if s.Name.Name == "_" || s.Name.Name == "." {
			return "", false
		}
		return s.Name.Name, true
	}
	name := defaultName(path)
	if u.fileNames[name] || (u.types != nil && u.types.Scope().Lookup(name) != nil) {
		return "", false
	}
	return name, true
}

func defaultName(path string) string {
	return path[strings.LastIndex(path, "/")+1:]
}

// off is the byte offset of pos in the original.
func (u *unit) off(pos token.Pos) int { return u.tf.Offset(pos) }

// line is pos's line in the original.
func (u *unit) line(pos token.Pos) int { return u.tf.Line(pos) }

// text is n's source in the original.
func (u *unit) text(n ast.Node) string { return string(u.src[u.off(n.Pos()):u.off(n.End())]) }

// fresh returns base, or base with a number, that no identifier of the
// package uses.
func (u *unit) fresh(base string) string {
	name := base
	for i := 2; u.names[name] || types.Universe.Lookup(name) != nil || token.IsKeyword(name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	u.names[name] = true // two rewrites of one run never share a name
	return name
}

// obj is the object an identifier declares or uses, nil if unknown.
func (u *unit) obj(e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	return u.info.ObjectOf(id)
}

// typeOf is e's type, nil if unknown or invalid.
func (u *unit) typeOf(e ast.Expr) types.Type {
	t := u.info.TypeOf(e)
	if t == nil || t == types.Typ[types.Invalid] {
		return nil
	}
	return t
}

// isBuiltin reports whether call calls the builtin name.
func (u *unit) isBuiltin(call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = u.info.Uses[id].(*types.Builtin)
	return ok
}

// pkgFunc returns the package path and name of a call to a package
// function (regexp.MustCompile → "regexp", "MustCompile").
func (u *unit) pkgFunc(call *ast.CallExpr) (string, string) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", ""
	}
	pn, ok := u.info.Uses[id].(*types.PkgName)
	if !ok {
		return "", ""
	}
	return pn.Imported().Path(), sel.Sel.Name
}

// mentions reports whether n refers to obj anywhere.
func (u *unit) mentions(n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && u.info.ObjectOf(id) == obj {
			found = true
		}
		return !found
	})
	return found
}

// idents returns the identifiers in n that refer to obj.
func (u *unit) idents(n ast.Node, obj types.Object) []*ast.Ident {
	var out []*ast.Ident
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && u.info.ObjectOf(id) == obj {
			out = append(out, id)
		}
		return true
	})
	return out
}

// inside reports whether n is inside a node of type T below top.
func inside[T ast.Node](u *unit, n, top ast.Node) bool {
	for p := u.parents[n]; p != nil && p != top; p = u.parents[p] {
		if _, ok := p.(T); ok {
			return true
		}
	}
	return false
}

// stmtLists calls f on every statement list in body, nested blocks,
// case clauses and function literals included.
func stmtLists(body *ast.BlockStmt, f func([]ast.Stmt)) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			f(n.List)
		case *ast.CaseClause:
			f(n.Body)
		case *ast.CommClause:
			f(n.Body)
		}
		return true
	})
}

// inList reports whether s is an element of a statement list (not an
// if's init or a for's post), so that statements can go before it.
func (u *unit) inList(s ast.Stmt) bool {
	switch p := u.parents[s].(type) {
	case *ast.BlockStmt:
		return slices.Contains(p.List, s)
	case *ast.CaseClause:
		return slices.Contains(p.Body, s)
	case *ast.CommClause:
		return slices.Contains(p.Body, s)
	}
	return false
}

// loopOf returns the loop a statement list entry is (through a label).
func loopOf(s ast.Stmt) (ast.Stmt, *ast.BlockStmt) {
	if l, ok := s.(*ast.LabeledStmt); ok {
		s = l.Stmt
	}
	switch s := s.(type) {
	case *ast.ForStmt:
		return s, s.Body
	case *ast.RangeStmt:
		return s, s.Body
	}
	return nil, nil
}

// deleteStmt is an edit that removes s and, when nothing else is on its
// line, the line.
func (u *unit) deleteStmt(s ast.Node) edit {
	end := u.off(s.End())
	rest := u.src[end:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 && len(bytes.TrimSpace(rest[:i])) == 0 {
		start := u.off(s.Pos())
		ls := bytes.LastIndexByte(u.src[:start], '\n') + 1
		if len(bytes.TrimSpace(u.src[ls:start])) == 0 {
			return edit{pos: u.tf.Pos(ls), end: u.tf.Pos(end + i + 1)}
		}
	}
	return edit{pos: s.Pos(), end: s.End()}
}

// insertBefore is an edit that puts text on lines of its own before s.
func insertBefore(s ast.Node, text string) edit {
	return edit{pos: s.Pos(), end: s.Pos(), text: text + "\n"}
}

// insertAfter is an edit that puts text on lines of its own after s.
func insertAfter(s ast.Node, text string) edit {
	return edit{pos: s.End(), end: s.End(), text: "\n" + text}
}

// replace is an edit that replaces n with text.
func replace(n ast.Node, text string) edit {
	return edit{pos: n.Pos(), end: n.End(), text: text}
}

// atLeast reports whether the module's Go version is v or later (true
// when unknown: the toolchain's own).
func (p *pkg) atLeast(v string) bool {
	if p.goVersion == "" {
		return true
	}
	return compareGo(p.goVersion, v) >= 0
}

// compareGo compares "go1.21.3"-style versions by their numbers.
func compareGo(a, b string) int {
	num := func(s string) []int {
		var out []int
		for _, part := range strings.Split(strings.TrimPrefix(s, "go"), ".") {
			n := 0
			for _, r := range part {
				if r < '0' || r > '9' {
					break
				}
				n = n*10 + int(r-'0')
			}
			out = append(out, n)
		}
		return out
	}
	return slices.Compare(num(a), num(b))
}
