package rewrite

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"
)

// hoistConst finds constructors called with constant arguments inside a
// function, whose results are never modified: regexp.MustCompile(const)
// and template.Must(template.New(const).Parse(const)).
func (u *unit) hoistConst(fn *ast.FuncDecl) []candidate {
	var out []candidate
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if c, ok := u.hoistRegexp(fn, call); ok {
			out = append(out, c)
			return false
		}
		if c, ok := u.hoistTemplate(fn, call); ok {
			out = append(out, c)
			return false
		}
		return true
	})
	return out
}

func (u *unit) hoistRegexp(fn *ast.FuncDecl, call *ast.CallExpr) (candidate, bool) {
	path, name := u.pkgFunc(call)
	if path != "regexp" || (name != "MustCompile" && name != "MustCompilePOSIX") || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return candidate{}, false
	}
	pattern, ok := u.portableString(call.Args[0])
	if !ok {
		return candidate{}, false
	}
	compile := regexp.Compile
	if name == "MustCompilePOSIX" {
		compile = regexp.CompilePOSIX
	}
	if _, err := compile(pattern); err != nil {
		return candidate{}, false // it panics: keep that where it is
	}
	// Longest is the one method that changes a *Regexp.
	if !u.onlyMethods(fn, call, func(m string) bool { return m != "Longest" }) {
		return candidate{}, false
	}
	return u.hoistTo(fn, call, "Re"), true
}

func (u *unit) hoistTemplate(fn *ast.FuncDecl, call *ast.CallExpr) (candidate, bool) {
	path, name := u.pkgFunc(call)
	if (path != "text/template" && path != "html/template") || name != "Must" || len(call.Args) != 1 {
		return candidate{}, false
	}
	parse, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr)
	if !ok || len(parse.Args) != 1 {
		return candidate{}, false
	}
	sel, ok := ast.Unparen(parse.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Parse" {
		return candidate{}, false
	}
	newCall, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok || len(newCall.Args) != 1 {
		return candidate{}, false
	}
	if p, n := u.pkgFunc(newCall); p != path || n != "New" {
		return candidate{}, false
	}
	tname, ok1 := u.portableString(newCall.Args[0])
	text, ok2 := u.portableString(parse.Args[0])
	if !ok1 || !ok2 {
		return candidate{}, false
	}
	if _, err := template.New(tname).Parse(text); err != nil {
		return candidate{}, false // it panics: keep that where it is
	}
	// Executing a template is safe from many goroutines; everything
	// else (Funcs, Delims, Parse, New, Lookup, Clone) could change it.
	if !u.onlyMethods(fn, call, func(m string) bool { return m == "Execute" || m == "ExecuteTemplate" }) {
		return candidate{}, false
	}
	return u.hoistTo(fn, call, "Tmpl"), true
}

// portableString returns the value of a constant string expression that
// refers to nothing local to the function, so that it means the same at
// package level.
func (u *unit) portableString(e ast.Expr) (string, bool) {
	tv, ok := u.info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	ok = true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			ok = false
		case *ast.SelectorExpr:
			return false // pkg.Const
		case *ast.Ident:
			obj := u.info.Uses[n]
			if obj == nil || (obj.Parent() != types.Universe && (u.types == nil || obj.Parent() != u.types.Scope())) {
				ok = false
			}
		}
		return ok
	})
	return constant.StringVal(tv.Value), ok
}

// onlyMethods reports whether the value of call is used only as the
// receiver of methods allowed: directly (F(…).M(…)) or through a local
// variable it initializes that is never assigned again nor used
// otherwise.
func (u *unit) onlyMethods(fn *ast.FuncDecl, call *ast.CallExpr, allowed func(string) bool) bool {
	methodCall := func(e ast.Expr) bool {
		sel, ok := u.parents[e].(*ast.SelectorExpr)
		if !ok || sel.X != e || !allowed(sel.Sel.Name) {
			return false
		}
		c, ok := u.parents[sel].(*ast.CallExpr)
		return ok && c.Fun == sel
	}
	if methodCall(call) {
		return true
	}
	var id *ast.Ident
	switch p := u.parents[call].(type) {
	case *ast.AssignStmt:
		if p.Tok == token.DEFINE && len(p.Lhs) == 1 && len(p.Rhs) == 1 {
			id, _ = p.Lhs[0].(*ast.Ident)
		}
	case *ast.ValueSpec:
		if len(p.Names) == 1 && len(p.Values) == 1 {
			id = p.Names[0]
		}
	}
	if id == nil || u.info.Defs[id] == nil {
		return false
	}
	obj := u.info.Defs[id]
	for _, use := range u.idents(fn.Body, obj) {
		if use != id && !methodCall(use) {
			return false
		}
	}
	return true
}

// hoistTo moves call to a package-level variable declared before fn.
func (u *unit) hoistTo(fn *ast.FuncDecl, call *ast.CallExpr, suffix string) candidate {
	name := u.fresh(lowerFirst(fn.Name.Name) + suffix)
	top := ast.Node(fn)
	if fn.Doc != nil {
		top = fn.Doc
	}
	return candidate{
		kind:   "hoist-const",
		line:   u.line(call.Pos()),
		desc:   fmt.Sprintf("hoist-const %s: var %s = %s at package level", name, name, u.text(call)),
		shape:  "const-compile",
		says:   fmt.Sprintf("%s compiles the same constant on every call of %s", u.text(call), fn.Name.Name),
		advice: fmt.Sprintf("compile it once, at package level: var %s = %s", name, u.text(call)),
		edits: []edit{
			{pos: top.Pos(), end: top.Pos(), text: fmt.Sprintf("var %s = %s\n\n", name, u.text(call))},
			replace(call, name),
		},
	}
}

// lowerFirst lowers the leading capitals of an identifier: Parse →
// parse, URLPath → urlPath.
func lowerFirst(s string) string {
	rs := []rune(s)
	for i := range rs {
		if !unicode.IsUpper(rs[i]) {
			break
		}
		if i > 0 && i+1 < len(rs) && unicode.IsLower(rs[i+1]) {
			break
		}
		rs[i] = unicode.ToLower(rs[i])
	}
	if len(rs) == 0 || !utf8.ValidString(s) {
		return "x"
	}
	return string(rs)
}

// hoistAlloc finds a make of a loop-invariant size at the top level of a
// loop body whose slice does not outlive the iteration.
func (u *unit) hoistAlloc(fn *ast.FuncDecl) []candidate {
	var out []candidate
	stmtLists(fn.Body, func(list []ast.Stmt) {
		for _, s := range list {
			loop, body := loopOf(s)
			if loop == nil || !u.inList(s) {
				continue
			}
			for _, bs := range body.List {
				if c, ok := u.hoistMake(fn, s, loop, body, bs); ok {
					out = append(out, c)
				}
			}
		}
	})
	return out
}

func (u *unit) hoistMake(fn *ast.FuncDecl, outer, loop ast.Stmt, body *ast.BlockStmt, s ast.Stmt) (candidate, bool) {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return candidate{}, false
	}
	id, _ := as.Lhs[0].(*ast.Ident)
	call, _ := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if id == nil || call == nil || id.Name == "_" || !u.isBuiltin(call, "make") || call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return candidate{}, false
	}
	obj := u.info.Defs[id]
	t := u.typeOf(call.Args[0])
	if obj == nil || t == nil {
		return candidate{}, false
	}
	if _, ok := t.Underlying().(*types.Slice); !ok {
		return candidate{}, false
	}
	var size ast.Expr
	reset := ""
	switch len(call.Args) {
	case 2: // make([]T, n): zeroed each time
		if !u.atLeast("go1.21") {
			return candidate{}, false // clear is Go 1.21
		}
		size, reset = call.Args[1], "clear("+id.Name+")"
	case 3: // make([]T, 0, n): empty each time
		if !u.isZero(call.Args[1]) {
			return candidate{}, false
		}
		size, reset = call.Args[2], id.Name+" = "+id.Name+"[:0]"
	default:
		return candidate{}, false
	}
	if !u.invariant(fn, loop, size) || !u.ownName(fn, obj) || !u.iterationOnly(body, obj, len(call.Args) == 3) {
		return candidate{}, false
	}
	mk := u.text(call)
	return candidate{
		kind:   "hoist-alloc",
		line:   u.line(call.Pos()),
		desc:   fmt.Sprintf("hoist-alloc %s: %s once before the loop, %s each iteration", id.Name, mk, reset),
		shape:  "make-invariant",
		says:   fmt.Sprintf("%s makes a new %s of the same size on every iteration, and none outlives its iteration", id.Name, u.text(call.Args[0])),
		advice: fmt.Sprintf("make it once before the loop and reset it each iteration: %s := %s before, %s in the loop", id.Name, mk, reset),
		edits: []edit{
			insertBefore(outer, id.Name+" := "+mk),
			replace(s, reset),
		},
	}, true
}

// invariant reports whether the size means the same before the loop: a
// constant, or a local variable declared before it that nothing in the
// function can change behind the loop's back (not assigned in the loop,
// its address never taken, no function literal mentions it).
func (u *unit) invariant(fn *ast.FuncDecl, loop ast.Stmt, e ast.Expr) bool {
	if tv, ok := u.info.Types[e]; ok && tv.Value != nil {
		return true
	}
	obj, ok := u.obj(e).(*types.Var)
	if !ok || obj.Pos() >= loop.Pos() || obj.Parent() == nil || (u.types != nil && obj.Parent() == u.types.Scope()) || obj.IsField() {
		return false
	}
	if !(obj.Pos() >= fn.Pos() && obj.Pos() < fn.End()) {
		return false
	}
	for _, use := range u.idents(fn, obj) {
		if inside[*ast.FuncLit](u, use, fn) {
			return false
		}
		if un, ok := u.parents[use].(*ast.UnaryExpr); ok && un.Op == token.AND {
			return false
		}
		if use.Pos() >= loop.Pos() && use.End() <= loop.End() && u.assigned(use) {
			return false
		}
	}
	return true
}

// assigned reports whether id is written: on the left of an assignment,
// incremented, or a range's key or value.
func (u *unit) assigned(id *ast.Ident) bool {
	switch p := u.parents[id].(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == id {
				return true
			}
		}
	case *ast.IncDecStmt:
		return true
	case *ast.RangeStmt:
		return p.Key == id || p.Value == id
	}
	return false
}

// ownName reports whether every identifier of fn spelled like obj is
// obj: declared before the loop, it then shadows nothing.
func (u *unit) ownName(fn *ast.FuncDecl, obj types.Object) bool {
	ok := true
	ast.Inspect(fn, func(n ast.Node) bool {
		if sel, isSel := n.(*ast.SelectorExpr); isSel {
			ast.Inspect(sel.X, func(n ast.Node) bool {
				if id, isID := n.(*ast.Ident); isID && id.Name == obj.Name() && u.info.ObjectOf(id) != obj {
					ok = false
				}
				return ok
			})
			return false
		}
		if id, isID := n.(*ast.Ident); isID && id.Name == obj.Name() && u.info.ObjectOf(id) != obj {
			ok = false
		}
		return ok
	})
	return ok
}

// iterationOnly reports whether the slice obj cannot outlive the loop
// iteration: every use reads or writes its elements, takes its length,
// ranges over it, converts it to a string, or passes it (or a slice of
// it) to a function known not to retain its argument. With appendable,
// obj = append(obj, …) and obj = strconv.AppendInt(obj, …) and the
// like are allowed too, and slicing beyond its length is not (the old
// contents would show).
func (u *unit) iterationOnly(body *ast.BlockStmt, obj types.Object, appendable bool) bool {
	for _, id := range u.idents(body, obj) {
		if u.info.Defs[id] == obj {
			continue
		}
		if inside[*ast.FuncLit](u, id, body) {
			return false
		}
		if !u.safeUse(id, obj, appendable) {
			return false
		}
	}
	return true
}

func (u *unit) safeUse(id *ast.Ident, obj types.Object, appendable bool) bool {
	// Climb through parentheses and slicings: a slice of obj is obj.
	e := ast.Expr(id)
	for {
		switch p := u.parents[e].(type) {
		case *ast.ParenExpr:
			e = p
			continue
		case *ast.SliceExpr:
			if p.X == e {
				if p.Slice3 || (appendable && p.High != nil) {
					return false
				}
				e = p
				continue
			}
		}
		break
	}
	switch p := u.parents[e].(type) {
	case *ast.IndexExpr:
		if p.X != e {
			return false
		}
		un, ok := u.parents[p].(*ast.UnaryExpr)
		return !ok || un.Op != token.AND // &buf[i] outlives it
	case *ast.RangeStmt:
		return p.X == e
	case *ast.AssignStmt:
		// buf = append(buf, …): the one assignment allowed.
		if !appendable || e != id || len(p.Lhs) != 1 || len(p.Rhs) != 1 || p.Tok != token.ASSIGN {
			return false
		}
		if p.Lhs[0] == e {
			call, ok := ast.Unparen(p.Rhs[0]).(*ast.CallExpr)
			return ok && len(call.Args) > 0 && u.obj(call.Args[0]) == obj && u.appender(call)
		}
		return false
	case *ast.CallExpr:
		if p.Fun == e {
			return false
		}
		switch u.parents[p].(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			return false // runs after the iteration
		}
		if appendable && e == id && len(p.Args) > 0 && p.Args[0] == e && u.appender(p) {
			// buf = append(buf, …): the result must go back to buf.
			as, ok := u.parents[p].(*ast.AssignStmt)
			return ok && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 && as.Rhs[0] == p && u.obj(as.Lhs[0]) == obj
		}
		return u.nonRetaining(p, e, obj, appendable)
	}
	return false
}

// appender reports whether call returns its first argument extended:
// append, strconv.Append*, utf8.AppendRune, binary.Append*.
func (u *unit) appender(call *ast.CallExpr) bool {
	if u.isBuiltin(call, "append") {
		return true
	}
	path, name := u.pkgFunc(call)
	switch path {
	case "strconv":
		return strings.HasPrefix(name, "Append")
	case "unicode/utf8":
		return name == "AppendRune"
	case "encoding/binary":
		return name == "AppendUvarint" || name == "AppendVarint"
	}
	return u.byteOrder(call) && strings.HasPrefix(u.method(call), "Append")
}

// noRetain lists package functions that read or fill a byte slice and
// keep no reference to it.
var noRetain = map[string][]string{
	"io":              {"ReadFull", "ReadAtLeast"},
	"bytes":           {"Equal", "EqualFold", "Compare", "HasPrefix", "HasSuffix", "Index", "IndexByte", "IndexAny", "IndexRune", "LastIndex", "LastIndexByte", "LastIndexAny", "Contains", "ContainsAny", "ContainsRune", "Count"},
	"unicode/utf8":    {"DecodeRune", "DecodeLastRune", "EncodeRune", "FullRune", "RuneCount", "Valid"},
	"encoding/hex":    {"Encode", "Decode"},
	"encoding/binary": {"PutUvarint", "PutVarint", "Uvarint", "Varint"},
	"crypto/rand":     {"Read"},
}

// nonRetaining reports whether passing e (obj or a slice of it) to call
// keeps no reference to obj past the call.
func (u *unit) nonRetaining(call *ast.CallExpr, e ast.Expr, obj types.Object, appendable bool) bool {
	for _, b := range []string{"len", "cap", "copy", "clear"} {
		if u.isBuiltin(call, b) {
			return true
		}
	}
	if u.isBuiltin(call, "append") {
		// append(other, buf...) copies the elements; append(buf, …)
		// is allowed only as the right side of buf = append(buf, …).
		return call.Ellipsis.IsValid() && len(call.Args) == 2 && call.Args[1] == e && !u.mentions(call.Args[0], obj)
	}
	if tv, ok := u.info.Types[call.Fun]; ok && tv.IsType() {
		b, ok := tv.Type.Underlying().(*types.Basic)
		return ok && b.Info()&types.IsString != 0 // string(buf) copies
	}
	if path, name := u.pkgFunc(call); path != "" {
		for _, n := range noRetain[path] {
			if n == name {
				return true
			}
		}
		return false
	}
	if u.byteOrder(call) {
		m := u.method(call)
		return strings.HasPrefix(m, "Put") || strings.HasPrefix(m, "Uint")
	}
	// Read and Write of io.Reader and io.Writer: "Implementations must
	// not retain p."
	if m := u.method(call); (m == "Read" || m == "Write") && len(call.Args) == 1 && u.ioSignature(call) {
		return true
	}
	return false
}

// method is the name of the method call calls, "" if it is not a method
// call.
func (u *unit) method(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if s, ok := u.info.Selections[sel]; !ok || s.Kind() != types.MethodVal {
		return ""
	}
	return sel.Sel.Name
}

// byteOrder reports whether call is a method of binary.BigEndian,
// binary.LittleEndian or binary.NativeEndian.
func (u *unit) byteOrder(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := u.info.Uses[x.Sel].(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "encoding/binary" && strings.HasSuffix(v.Name(), "Endian")
}

// ioSignature reports whether call's method is func([]byte) (int, error).
func (u *unit) ioSignature(call *ast.CallExpr) bool {
	sig, ok := u.typeOf(call.Fun).(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 2 || sig.Variadic() {
		return false
	}
	s, ok := sig.Params().At(0).Type().Underlying().(*types.Slice)
	if !ok || !types.Identical(s.Elem(), types.Typ[types.Byte]) {
		return false
	}
	return types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int]) &&
		sig.Results().At(1).Type().String() == "error"
}
