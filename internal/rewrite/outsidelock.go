package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// outsideLock finds a computation inside a critical section that reads
// no shared state: a hash, a conversion or a formatting of the
// function's own values, made while every other goroutine that wants the
// lock waits. Made before the Lock, it gives the same value.
func (u *unit) outsideLock(fn *ast.FuncDecl) []candidate {
	if hasGoto(fn.Body) {
		return nil
	}
	var out []candidate
	stmtLists(fn.Body, func(list []ast.Stmt) {
		for i, s := range list {
			mu, ok := u.lockCall(s, "Lock", "RLock")
			if !ok {
				continue
			}
			for k := i + 1; k < len(list); k++ {
				if other, ok := u.lockCall(list[k], "Unlock", "RUnlock"); ok && other == mu {
					break // the end of the critical section
				}
				if c, ok := u.lockedCompute(fn, s, list[i+1:k], list[k], mu); ok {
					out = append(out, c)
				}
			}
		}
	})
	return out
}

// lockCall reads `mu.Lock()` (a method of sync.Mutex or sync.RWMutex,
// promoted or not) and returns mu's text.
func (u *unit) lockCall(s ast.Stmt, names ...string) (string, bool) {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return "", false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return "", false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !slices.Contains(names, sel.Sel.Name) {
		return "", false
	}
	f, ok := u.info.Uses[sel.Sel].(*types.Func)
	if !ok || f.Pkg() == nil || f.Pkg().Path() != "sync" {
		return "", false
	}
	return u.text(sel.X), true
}

// lockedCompute checks one statement of a critical section: `v := e`
// (or `var v = e`) with e reading only the function's own values.
func (u *unit) lockedCompute(fn *ast.FuncDecl, lock ast.Stmt, between []ast.Stmt, s ast.Stmt, mu string) (candidate, bool) {
	lhs, rhs, ok := defineOf(s)
	if !ok {
		return candidate{}, false
	}
	var defs []types.Object
	for _, l := range lhs {
		if l.Name == "_" {
			continue
		}
		d := u.info.Defs[l]
		if d == nil {
			return candidate{}, false // an existing variable assigned
		}
		defs = append(defs, d)
	}
	if len(defs) == 0 {
		return candidate{}, false
	}
	work := false
	for _, e := range rhs {
		if !u.ownValue(fn, lock, e) {
			return candidate{}, false
		}
		ast.Inspect(e, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && !u.isBuiltin(call, "len") && !u.isBuiltin(call, "cap") {
				if tv, ok := u.info.Types[call.Fun]; !ok || !tv.IsType() {
					work = true
				}
			}
			return !work
		})
	}
	if !work {
		return candidate{}, false // a copy or an arithmetic: nothing to gain
	}
	// Nothing before it in the section may end it early (the value would
	// be computed on a path that never did), write what it reads, or
	// name something else as it does (the moved declaration would hide
	// it).
	var nodes []ast.Node
	for _, b := range between {
		if leaves(b) {
			return candidate{}, false
		}
		nodes = append(nodes, b)
	}
	for _, e := range rhs {
		for _, id := range identsIn(e) {
			v, ok := u.info.Uses[id].(*types.Var)
			if !ok {
				continue
			}
			for _, b := range between {
				for _, use := range u.idents(b, v) {
					if un, isUn := u.parents[use].(*ast.UnaryExpr); u.assigned(use) || isUn && un.Op == token.AND {
						return candidate{}, false
					}
				}
				if u.writesElems(b, v) {
					return candidate{}, false
				}
			}
		}
	}
	nodes = append(nodes, lock)
	for _, d := range defs {
		if u.otherNamed(nodes, d) {
			return candidate{}, false
		}
	}
	text := u.text(s)
	return candidate{
		kind:   "outside-lock",
		line:   u.line(s.Pos()),
		more:   []int{u.line(lock.Pos())},
		desc:   fmt.Sprintf("outside-lock: %s before %s.Lock", text, mu),
		shape:  "compute-under-lock",
		says:   fmt.Sprintf("%s is computed while %s is held, from values of this function alone: every goroutine waiting for the lock waits for it too", text, mu),
		advice: fmt.Sprintf("compute `%s` before the Lock", text),
		edits:  []edit{insertBefore(lock, text), u.deleteStmt(s)},
	}, true
}

// defineOf reads `a, b := e, f`, `a := f()` and `var a = e`.
func defineOf(s ast.Stmt) ([]*ast.Ident, []ast.Expr, bool) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return nil, nil, false
		}
		var ids []*ast.Ident
		for _, l := range s.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				return nil, nil, false
			}
			ids = append(ids, id)
		}
		return ids, s.Rhs, true
	case *ast.DeclStmt:
		g, ok := s.Decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR || len(g.Specs) != 1 {
			return nil, nil, false
		}
		vs := g.Specs[0].(*ast.ValueSpec)
		if len(vs.Values) == 0 {
			return nil, nil, false
		}
		return vs.Names, vs.Values, true
	}
	return nil, nil, false
}

// identsIn are the identifiers of e.
func identsIn(e ast.Node) []*ast.Ident {
	var out []*ast.Ident
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			out = append(out, id)
		}
		return true
	})
	return out
}

// writesElems reports whether n writes an element of v (v[i] = x,
// v[i]++, copy(v, …)) or passes v to a call that could.
func (u *unit) writesElems(n ast.Node, v types.Object) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if _, isID := l.(*ast.Ident); !isID && u.mentions(l, v) {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if _, isID := n.X.(*ast.Ident); !isID && u.mentions(n.X, v) {
				found = true
			}
		case *ast.CallExpr:
			for _, a := range n.Args {
				if u.obj(a) == v {
					if _, isSlice := v.Type().Underlying().(*types.Slice); isSlice && !u.isBuiltin(n, "len") && !u.isBuiltin(n, "cap") {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// pureFuncs are functions of the standard library that compute from
// their arguments alone: no shared state, no side effect.
var pureFuncs = map[string]bool{
	"crypto/sha256.Sum256": true, "crypto/sha256.Sum224": true, "crypto/sha1.Sum": true, "crypto/md5.Sum": true,
	"crypto/sha512.Sum512": true, "crypto/sha512.Sum384": true, "hash/crc32.ChecksumIEEE": true,
	"encoding/hex.EncodeToString": true,
	"strconv.Itoa":                true, "strconv.FormatInt": true, "strconv.FormatUint": true, "strconv.FormatBool": true,
	"strconv.Quote": true, "strconv.Atoi": true, "strconv.ParseInt": true, "strconv.ParseUint": true,
	"strings.ToLower": true, "strings.ToUpper": true, "strings.TrimSpace": true, "strings.Trim": true,
	"strings.TrimPrefix": true, "strings.TrimSuffix": true, "strings.Split": true, "strings.SplitN": true,
	"strings.Fields": true, "strings.Join": true, "strings.ReplaceAll": true, "strings.Replace": true,
	"strings.Contains": true, "strings.HasPrefix": true, "strings.HasSuffix": true, "strings.Index": true,
	"strings.EqualFold": true, "strings.Clone": true,
	"bytes.Clone": true, "bytes.Equal": true, "bytes.ToLower": true, "bytes.ToUpper": true, "bytes.TrimSpace": true,
	"unicode/utf8.RuneCountInString": true, "unicode/utf8.ValidString": true,
	"path.Clean": true, "path.Join": true, "path/filepath.Clean": true, "path/filepath.Join": true, "path/filepath.Base": true,
}

// ownValue reports whether e reads only values that are the function's
// own when the lock is taken: constants, literals, and locals or
// parameters (not the receiver) declared before the lock, that no
// function literal mentions and whose address is never taken, of a
// basic type or, for parameters, a slice or array of one (the caller's
// bytes, not the locked state); combined with operators, indexing,
// slicing, conversions, len and cap, and calls of pureFuncs.
func (u *unit) ownValue(fn *ast.FuncDecl, lock ast.Stmt, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		switch o := u.info.Uses[e].(type) {
		case *types.Const, *types.Nil, *types.TypeName:
			return true
		case *types.Var:
			return u.ownVar(fn, lock, o)
		}
		return false
	case *ast.BinaryExpr:
		return u.ownValue(fn, lock, e.X) && u.ownValue(fn, lock, e.Y)
	case *ast.UnaryExpr:
		return e.Op != token.AND && e.Op != token.ARROW && u.ownValue(fn, lock, e.X)
	case *ast.IndexExpr:
		return u.ownValue(fn, lock, e.X) && u.ownValue(fn, lock, e.Index)
	case *ast.SliceExpr:
		for _, x := range []ast.Expr{e.X, e.Low, e.High, e.Max} {
			if x != nil && !u.ownValue(fn, lock, x) {
				return false
			}
		}
		return true
	case *ast.ArrayType:
		return true // a conversion's type
	case *ast.CallExpr:
		if e.Ellipsis.IsValid() {
			return false
		}
		switch {
		case u.isBuiltin(e, "len"), u.isBuiltin(e, "cap"):
		default:
			if tv, ok := u.info.Types[e.Fun]; ok && tv.IsType() {
				if _, basic := tv.Type.Underlying().(*types.Basic); !basic {
					if s, slice := tv.Type.Underlying().(*types.Slice); !slice || !isBasic(s.Elem()) {
						return false
					}
				}
				break
			}
			path, name := u.pkgFunc(e)
			if !pureFuncs[path+"."+name] {
				return false
			}
		}
		for _, a := range e.Args {
			if !u.ownValue(fn, lock, a) {
				return false
			}
		}
		return true
	}
	return false
}

func isBasic(t types.Type) bool {
	_, ok := t.Underlying().(*types.Basic)
	return ok
}

// ownVar is ownValue for one variable.
func (u *unit) ownVar(fn *ast.FuncDecl, lock ast.Stmt, v *types.Var) bool {
	if v.IsField() || v.Parent() == nil || (u.types != nil && v.Parent() == u.types.Scope()) || u.isReceiver(fn, v) {
		return false
	}
	if v.Pos() < fn.Pos() || v.Pos() >= lock.Pos() {
		return false
	}
	switch t := v.Type().Underlying().(type) {
	case *types.Basic:
	case *types.Slice, *types.Array:
		var elem types.Type
		if s, ok := t.(*types.Slice); ok {
			elem = s.Elem()
		} else {
			elem = t.(*types.Array).Elem()
		}
		if !isBasic(elem) || !u.isParam(fn, v) {
			return false // a local slice may hold the locked state's bytes
		}
	default:
		return false
	}
	for _, id := range u.idents(fn, v) {
		if inside[*ast.FuncLit](u, id, fn) {
			return false
		}
		if un, ok := u.parents[id].(*ast.UnaryExpr); ok && un.Op == token.AND {
			return false
		}
	}
	return true
}

// isParam reports whether v is one of fn's parameters.
func (u *unit) isParam(fn *ast.FuncDecl, v types.Object) bool {
	for _, f := range fn.Type.Params.List {
		for _, n := range f.Names {
			if u.info.Defs[n] == v {
				return true
			}
		}
	}
	return false
}
