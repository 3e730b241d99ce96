package rewrite

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"unicode/utf8"
)

// grow finds a bytes.Buffer or strings.Builder written in a loop whose
// bytes have a lower bound known before the loop: the buffer doubles
// its storage as it goes where one Grow would size it once.
func (u *unit) grow(fn *ast.FuncDecl) []candidate {
	if hasGoto(fn.Body) {
		return nil
	}
	var out []candidate
	stmtLists(fn.Body, func(list []ast.Stmt) {
		for _, s := range list {
			if c, ok := u.growLoop(fn, s); ok {
				out = append(out, c)
			}
		}
	})
	return out
}

// bound is a lower bound of what one iteration writes: bytes, and for a
// range over a string, runes of the string (each written at least as
// long as it is in the string).
type bound struct{ bytes, runes int }

func (b bound) plus(c bound) bound { return bound{b.bytes + c.bytes, b.runes + c.runes} }
func (b bound) min(c bound) bound  { return bound{min(b.bytes, c.bytes), min(b.runes, c.runes)} }

// growLoop checks one loop statement of a list.
func (u *unit) growLoop(fn *ast.FuncDecl, s ast.Stmt) (candidate, bool) {
	loop, body := loopOf(s)
	if loop == nil {
		return candidate{}, false
	}
	x, rangeVar, runes, ok := u.growCount(loop)
	if !ok || runes && rangeVar == nil {
		return candidate{}, false
	}
	recv, root, ok := u.loopBuffer(fn, body)
	if !ok {
		return candidate{}, false
	}
	if x == nil || u.mentions(x, root) {
		return candidate{}, false
	}
	g := &growWalk{u: u, recv: recv, rangeVar: rangeVar}
	b := g.list(body.List)
	if !g.ok {
		return candidate{}, false
	}
	size := "len(" + u.text(x) + ")"
	switch {
	case runes:
		// Each rune of the string written at least at its own length:
		// the string's length in bytes.
		if b.runes < 1 {
			return candidate{}, false
		}
	case b.bytes < 1:
		return candidate{}, false
	case b.bytes > 1:
		size += " * " + strconv.Itoa(b.bytes)
	}
	name := u.text(recv)
	call := name + ".Grow(" + size + ")"
	var about []int
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name != "Len" && u.text(sel.X) == name {
				about = append(about, u.line(c.Pos()))
			}
		}
		return true
	})
	return candidate{
		about:  about,
		kind:   "grow",
		line:   u.line(loop.Pos()),
		desc:   fmt.Sprintf("grow: %s before the loop", call),
		shape:  "buffer-grown-in-loop",
		says:   fmt.Sprintf("%s is written in a loop that writes at least %s bytes, and grows by doubling as it goes", name, size),
		advice: fmt.Sprintf("size it once before the loop: %s", call),
		edits:  []edit{insertBefore(s, call)},
	}, true
}

// growCount returns the expression whose length is the loop's
// iterations (a range over a slice, array or map, or `for i := 0; i <
// len(x); i++` with i and x written nowhere in the body), or, with runes,
// a range over a string, whose iterations are its runes, and the range's
// value variable, the rune.
func (u *unit) growCount(loop ast.Stmt) (x ast.Expr, rangeVar types.Object, runes, ok bool) {
	switch l := loop.(type) {
	case *ast.RangeStmt:
		if !pure(l.X) {
			return nil, nil, false, false
		}
		t := u.typeOf(l.X)
		if t == nil {
			return nil, nil, false, false
		}
		switch t := t.Underlying().(type) {
		case *types.Slice, *types.Array, *types.Map:
			return l.X, nil, false, true
		case *types.Basic:
			if t.Info()&types.IsString == 0 {
				return nil, nil, false, false // an integer may be negative: Grow panics
			}
			var v types.Object
			if id, ok := l.Value.(*ast.Ident); ok && id.Name != "_" {
				v = u.info.ObjectOf(id)
			}
			return l.X, v, true, true
		}
	case *ast.ForStmt:
		init, ok := l.Init.(*ast.AssignStmt)
		if !ok || len(init.Lhs) != 1 || len(init.Rhs) != 1 || init.Tok != token.DEFINE {
			return nil, nil, false, false
		}
		if tv, ok := u.info.Types[init.Rhs[0]]; !ok || tv.Value == nil || tv.Value.ExactString() != "0" {
			return nil, nil, false, false
		}
		i := u.obj(init.Lhs[0])
		post, ok := l.Post.(*ast.IncDecStmt)
		if i == nil || !ok || post.Tok != token.INC || u.obj(post.X) != i {
			return nil, nil, false, false
		}
		cond, ok := l.Cond.(*ast.BinaryExpr)
		if !ok || cond.Op != token.LSS || u.obj(cond.X) != i {
			return nil, nil, false, false
		}
		call, ok := ast.Unparen(cond.Y).(*ast.CallExpr)
		if !ok || !u.isBuiltin(call, "len") || len(call.Args) != 1 {
			return nil, nil, false, false
		}
		xv, ok := u.obj(call.Args[0]).(*types.Var)
		if !ok {
			return nil, nil, false, false
		}
		for _, id := range u.idents(l.Body, i) {
			if u.assigned(id) {
				return nil, nil, false, false
			}
			if un, ok := u.parents[id].(*ast.UnaryExpr); ok && un.Op == token.AND {
				return nil, nil, false, false
			}
		}
		for _, id := range u.idents(l.Body, xv) {
			if un, isUn := u.parents[id].(*ast.UnaryExpr); u.assigned(id) || isUn && un.Op == token.AND {
				return nil, nil, false, false
			}
		}
		return call.Args[0], nil, false, true
	}
	return nil, nil, false, false
}

// rootIdent is the identifier a chain of selections starts from.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// bufferMethods are the methods of bytes.Buffer and strings.Builder a
// loop may call on the buffer: the writes, and Len, which reads.
var bufferMethods = map[string]bool{"Write": true, "WriteByte": true, "WriteRune": true, "WriteString": true, "Len": true}

// loopBuffer finds the one buffer the loop body writes: a bytes.Buffer
// or strings.Builder variable, a field of one, or a pointer to one the
// function made itself, whose every mention in the body is the receiver
// of a write or of Len. A pointer that may be nil would panic in Grow
// when the loop runs no iteration, so a pointer from elsewhere is
// refused (but for the receiver's own fields: a method writing its
// receiver's buffer is not called on nil). A function literal, go or
// defer statement in the body, or a Grow of the buffer anywhere in the
// function, leaves the loop alone.
func (u *unit) loopBuffer(fn *ast.FuncDecl, body *ast.BlockStmt) (ast.Expr, types.Object, bool) {
	var recv ast.Expr
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			ok = false
		case *ast.CallExpr:
			sel, isSel := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !isSel || !bufferMethods[sel.Sel.Name] || !u.isBuffer(sel.X) {
				return true
			}
			switch {
			case recv == nil:
				recv = sel.X
			case u.text(recv) != u.text(sel.X):
				ok = false
			}
		}
		return ok
	})
	if !ok || recv == nil || !pure(recv) {
		return nil, nil, false
	}
	root := rootIdent(recv)
	obj, isVar := u.info.ObjectOf(root).(*types.Var)
	if !isVar || obj.Parent() == nil || (u.types != nil && obj.Parent() == u.types.Scope()) {
		return nil, nil, false // a package variable: another goroutine may write it
	}
	// Every mention of the root in the body is this receiver's, the
	// receiver of a write or of Len.
	for _, id := range u.idents(body, obj) {
		var top ast.Expr = id
		for u.text(top) != u.text(recv) {
			sel, isSel := u.parents[top].(*ast.SelectorExpr)
			if !isSel || sel.X != top {
				return nil, nil, false
			}
			top = sel
		}
		sel, isSel := u.parents[top].(*ast.SelectorExpr)
		if !isSel || !bufferMethods[sel.Sel.Name] {
			return nil, nil, false
		}
		if call, isCall := u.parents[sel].(*ast.CallExpr); !isCall || call.Fun != sel {
			return nil, nil, false
		}
	}
	if _, isPtr := u.typeOf(recv).Underlying().(*types.Pointer); isPtr && !u.madeHere(fn, obj, recv) {
		return nil, nil, false
	}
	if _, isPtr := u.typeOf(recv).Underlying().(*types.Pointer); !isPtr && root != ast.Unparen(recv) && !u.isReceiver(fn, obj) {
		// A field through a variable: a nil pointer on the way would
		// panic in Grow with no iteration.
		if _, viaPtr := obj.Type().Underlying().(*types.Pointer); viaPtr {
			return nil, nil, false
		}
	}
	grown := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if call, isCall := n.(*ast.CallExpr); isCall {
			if sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr); isSel && sel.Sel.Name == "Grow" && u.text(sel.X) == u.text(recv) {
				grown = true
			}
		}
		return !grown
	})
	if grown {
		return nil, nil, false
	}
	return recv, obj, true
}

// isBuffer reports whether e is a bytes.Buffer or strings.Builder, or a
// pointer to one.
func (u *unit) isBuffer(e ast.Expr) bool {
	t := u.typeOf(e)
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	path, name := n.Obj().Pkg().Path(), n.Obj().Name()
	return path == "bytes" && name == "Buffer" || path == "strings" && name == "Builder"
}

// isReceiver reports whether obj is fn's receiver.
func (u *unit) isReceiver(fn *ast.FuncDecl, obj types.Object) bool {
	if fn.Recv == nil || len(fn.Recv.List) == 0 || len(fn.Recv.List[0].Names) == 0 {
		return false
	}
	return u.info.Defs[fn.Recv.List[0].Names[0]] == obj
}

// madeHere reports whether a pointer buffer is non-nil for sure: the
// method's receiver's field, or a local the function declares as
// `&bytes.Buffer{…}`, `new(bytes.Buffer)` or `bytes.NewBuffer*(…)` and
// never assigns again.
func (u *unit) madeHere(fn *ast.FuncDecl, obj types.Object, recv ast.Expr) bool {
	if rootIdent(recv) != ast.Unparen(recv) {
		return u.isReceiver(fn, obj)
	}
	made := false
	for _, id := range u.idents(fn.Body, obj) {
		if u.info.Defs[id] == obj {
			as, ok := u.parents[id].(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return false
			}
			made = u.newBuffer(as.Rhs[0])
			continue
		}
		if u.assigned(id) {
			return false
		}
		if un, ok := u.parents[id].(*ast.UnaryExpr); ok && un.Op == token.AND {
			return false
		}
	}
	return made
}

// newBuffer reports whether e makes a buffer: &T{…}, new(T),
// bytes.NewBuffer(…), bytes.NewBufferString(…).
func (u *unit) newBuffer(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		_, ok := e.X.(*ast.CompositeLit)
		return e.Op == token.AND && ok
	case *ast.CallExpr:
		if u.isBuiltin(e, "new") {
			return true
		}
		path, name := u.pkgFunc(e)
		return path == "bytes" && (name == "NewBuffer" || name == "NewBufferString")
	}
	return false
}

// growWalk computes the lower bound of one iteration's writes: the
// statements in order, up to the first that may leave the iteration
// (what follows it may not run), an if or switch at the least of its
// branches.
type growWalk struct {
	u        *unit
	recv     ast.Expr
	rangeVar types.Object
	ok       bool
	// tag is the switch tag's case clause being walked: its values are
	// ASCII runes, so a write of a constant of at least one byte there
	// writes at least the rune's length.
	asciiCase bool
}

func (g *growWalk) list(stmts []ast.Stmt) bound {
	g.ok = true
	return g.stmts(stmts)
}

func (g *growWalk) stmts(stmts []ast.Stmt) bound {
	var b bound
	for _, s := range stmts {
		if leaves(s) {
			return b
		}
		b = b.plus(g.stmt(s))
	}
	return b
}

// leaves reports whether s may end the iteration before its end:
// a return, a panic, or a break, continue or goto not of a loop or
// switch inside s.
func leaves(s ast.Stmt) bool {
	found := false
	var walk func(n ast.Node, loops, breaks int)
	walk = func(n ast.Node, loops, breaks int) {
		if found || n == nil {
			return
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return
		case *ast.ForStmt, *ast.RangeStmt:
			loops, breaks = loops+1, breaks+1
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			breaks++
		case *ast.ReturnStmt:
			found = true
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "panic" {
				found = true
			}
		case *ast.BranchStmt:
			switch {
			case n.Label != nil || n.Tok == token.GOTO:
				found = true
			case n.Tok == token.BREAK && breaks == 0, n.Tok == token.CONTINUE && loops == 0:
				found = true
			}
		}
		for _, c := range children(n) {
			walk(c, loops, breaks)
		}
	}
	walk(s, 0, 0)
	return found
}

func (g *growWalk) stmt(s ast.Stmt) bound {
	switch s := s.(type) {
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			return g.write(call)
		}
	case *ast.BlockStmt:
		return g.stmts(s.List)
	case *ast.IfStmt:
		then := g.stmts(s.Body.List)
		var els bound
		if s.Else != nil {
			els = g.stmt(s.Else)
		}
		return then.min(els)
	case *ast.SwitchStmt:
		var b bound
		hasDefault := false
		for i, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			if cc.List == nil {
				hasDefault = true
			}
			g.asciiCase = cc.List != nil && g.asciiRunes(s.Tag, cc.List)
			cb := g.stmts(cc.Body)
			g.asciiCase = false
			if i == 0 {
				b = cb
			} else {
				b = b.min(cb)
			}
		}
		if !hasDefault {
			return bound{}
		}
		return b
	}
	return bound{}
}

// asciiRunes reports whether a switch on the range's rune has case
// values that are all ASCII constants.
func (g *growWalk) asciiRunes(tag ast.Expr, values []ast.Expr) bool {
	if g.rangeVar == nil || tag == nil || g.u.obj(tag) != g.rangeVar {
		return false
	}
	for _, v := range values {
		tv, ok := g.u.info.Types[v]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			return false
		}
		r, exact := constant.Int64Val(tv.Value)
		if !exact || r < 0 || r >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// write is the bound of one call: a write of the buffer of a known
// least length, else nothing.
func (g *growWalk) write(call *ast.CallExpr) bound {
	u := g.u
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 || u.text(sel.X) != u.text(g.recv) {
		return bound{}
	}
	arg := call.Args[0]
	if g.rangeVar != nil && u.obj(arg) == g.rangeVar && sel.Sel.Name == "WriteRune" {
		return bound{bytes: 1, runes: 1}
	}
	n := 0
	switch sel.Sel.Name {
	case "WriteByte", "WriteRune":
		n = 1
	case "WriteString":
		if tv, ok := u.info.Types[arg]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
			n = len(constant.StringVal(tv.Value))
		}
	}
	b := bound{bytes: n}
	if g.asciiCase && n >= 1 {
		b.runes = 1
	}
	return b
}
