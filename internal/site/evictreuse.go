package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// EvictReuse finds a bounded cache's insert that allocates a new entry
// and then, when the cache is over its size, evicts the oldest one:
//
//	ent := c.evictList.PushFront(key, value)
//	c.items[key] = ent
//	if c.evictList.Length() > c.size {
//		c.removeOldest()
//	}
//
// On a full cache every insert of a new key allocates an entry and drops
// one, which the collector frees later; the evicted entry, taken off the
// list first and given the new key and value, is the new one.
var EvictReuse = &analysis.Analyzer{
	Name: "evictreuse",
	Doc:  "a cache insert that allocates a new entry, then evicts the oldest when over its size",
	Run:  runEvictReuse,
}

func runEvictReuse(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			block, ok := n.(*ast.BlockStmt)
			if !ok {
				return true
			}
			for i, st := range block.List {
				alloc, what := newEntry(pass, st)
				if alloc == nil {
					continue
				}
				for _, later := range block.List[i+1:] {
					ifs, ok := later.(*ast.IfStmt)
					if !ok {
						continue
					}
					cond := condAssigned(block.List[i:], ifs.Cond)
					if !overSize(cond) {
						continue
					}
					evict := evictCall(ifs.Body)
					if evict == nil {
						continue
					}
					reportEvictReuse(pass, fd, alloc, what, cond, evict)
					break
				}
			}
			return true
		})
	})
	return nil, nil
}

// newEntry returns the expression of st that makes a new entry: a call
// whose result is a pointer to a struct and whose name says it inserts
// (PushFront, InsertBefore, Add…), or a &T{…} given to a call; and how to
// name it.
func newEntry(pass *analysis.Pass, st ast.Stmt) (ast.Expr, string) {
	var found ast.Expr
	var what string
	ast.Inspect(st, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return true
			}
			if lit, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok && pass.TypesInfo.TypeOf(lit) != nil && isStruct(pass.TypesInfo.TypeOf(lit)) {
				found, what = x, text(pass, x)
			}
		case *ast.CallExpr:
			name := calleeName(x)
			if !insertName(name) {
				return true
			}
			ptr, ok := pass.TypesInfo.TypeOf(x).(*types.Pointer)
			if ok && isStruct(ptr.Elem()) {
				found, what = x, text(pass, x.Fun)
			}
		}
		return true
	})
	return found, what
}

// insertName reports whether a call's name says it inserts a new element.
func insertName(name string) bool {
	for _, p := range []string{"Push", "Insert", "insert", "push", "Add", "add", "Prepend", "prepend", "Append", "append"} {
		if strings.HasPrefix(name, p) {
			return name != "append"
		}
	}
	return false
}

// calleeName is the name a call calls: F of pkg.F or x.F, or the
// function's identifier.
func calleeName(c *ast.CallExpr) string {
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.Ident:
		return f.Name
	case *ast.IndexExpr:
		if s, ok := f.X.(*ast.SelectorExpr); ok {
			return s.Sel.Name
		}
	}
	return ""
}

// overSize reports whether cond compares a length with a bound: Len() >
// size, len(m) >= max.
func overSize(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || found {
			return !found
		}
		if (b.Op == token.GTR || b.Op == token.GEQ) && isLength(b.X) || (b.Op == token.LSS || b.Op == token.LEQ) && isLength(b.Y) {
			found = true
		}
		return true
	})
	return found
}

// condAssigned returns what a condition that is a variable was last
// assigned in stmts (evict := c.size > 0 && c.list.Length() > c.size),
// or cond.
func condAssigned(stmts []ast.Stmt, cond ast.Expr) ast.Expr {
	id, ok := ast.Unparen(cond).(*ast.Ident)
	if !ok {
		return cond
	}
	out := cond
	for _, st := range stmts {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, l := range as.Lhs {
			if li, ok := l.(*ast.Ident); ok && li.Name == id.Name {
				out = as.Rhs[i]
			}
		}
	}
	return out
}

// isLength reports whether e is a length: len(x), x.Len(), x.Length(),
// x.Size(), or a field or variable named so.
func isLength(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		switch calleeName(x) {
		case "len", "Len", "Length", "Size", "Count", "len_", "length", "size":
			return true
		}
	case *ast.SelectorExpr:
		n := strings.ToLower(x.Sel.Name)
		return n == "len" || n == "length" || n == "size" || n == "count" || n == "used"
	}
	return false
}

// evictCall returns the call in body that removes the oldest or
// least-recently-used entry, or nil.
func evictCall(body *ast.BlockStmt) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || found != nil {
			return found == nil
		}
		name := strings.ToLower(calleeName(c))
		for _, w := range []string{"oldest", "evict", "removeback", "removelast", "removetail", "poplast", "popback", "poptail", "lru"} {
			if strings.Contains(name, w) {
				found = c
				return false
			}
		}
		return true
	})
	return found
}

func reportEvictReuse(pass *analysis.Pass, fd *ast.FuncDecl, alloc ast.Expr, what string, cond ast.Expr, evict *ast.CallExpr) {
	evictLine := pass.Fset.Position(evict.Pos()).Line
	related := []analysis.RelatedInformation{{Pos: evict.Pos(), Message: "the eviction"}}
	if call, ok := alloc.(*ast.CallExpr); ok {
		if fn := calleeFunc(pass, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() != "" && !stdlib(fn.Pkg().Path()) {
			// The allocation a profile shows is in the callee: the
			// shape names it so that the cause there finds it.
			related = append(related, analysis.RelatedInformation{Pos: fn.Pos(), Message: allocatingCallee})
		}
	}
	pass.Report(analysis.Diagnostic{
		Category: "evict-not-reused",
		Pos:      alloc.Pos(),
		Related:  related,
		Message: fmt.Sprintf("%s makes a new entry (%s) for each new key, then, when %s, evicts one (%s, line %d): on a full cache every new key allocates an entry and drops one for the collector",
			fd.Name.Name, what, oneLine(types.ExprString(cond)), oneLine(types.ExprString(evict.Fun)), evictLine),
		SuggestedFixes: []analysis.SuggestedFix{{Message: "reuse the evicted entry for the new key: when the cache is full, take the oldest entry off the list first and give it the new key and value, so that a full cache's insert allocates nothing"}},
	})
}

// allocatingCallee is the message of a shape's related location at the
// declaration of the function its line calls to allocate: a profile puts
// the allocation there, and findings looks the shape up by it.
const allocatingCallee = "the callee that allocates"

// calleeFunc returns the function or method a call calls statically, or
// nil.
func calleeFunc(pass *analysis.Pass, c *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.Ident:
		id = f
	case *ast.IndexExpr: // an instantiation: F[T](…), x.M[T](…)
		switch x := f.X.(type) {
		case *ast.SelectorExpr:
			id = x.Sel
		case *ast.Ident:
			id = x
		}
	case *ast.IndexListExpr:
		switch x := f.X.(type) {
		case *ast.SelectorExpr:
			id = x.Sel
		case *ast.Ident:
			id = x
		}
	}
	if id == nil {
		return nil
	}
	fn, _ := pass.TypesInfo.Uses[id].(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}

// stdlib reports whether an import path is the standard library's (no
// dot in its first element).
func stdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
