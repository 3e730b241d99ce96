package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// PoolPutBoxed finds a value that is not a pointer put into a sync.Pool
// (or into a Put(any) of a type named a pool):
//
//	tmp := bytesPool.Get().([]byte)
//	defer bytesPool.Put(tmp) //nolint:staticcheck
//
// tinylib/msgp's bytesPool, at six call sites (both hand analyses: its
// first or second cause, 12 → 0 allocs/op decoding a struct with text
// fields). Put takes an interface: a slice, a string or a struct goes
// into it by a copy on the heap, one allocation per Put — the
// allocation the pool was there to save (staticcheck's SA6002). A
// pointer goes into an interface as it is: the pool keeps *[]byte.
var PoolPutBoxed = &analysis.Analyzer{
	Name: "poolputboxed",
	Doc:  "a value that is not a pointer put into a sync.Pool: one allocation per Put",
	Run:  runPoolPutBoxed,
}

func runPoolPutBoxed(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectAll(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || !poolPut(pass, call) {
				return
			}
			arg := ast.Unparen(call.Args[0])
			t := pass.TypesInfo.TypeOf(arg)
			if t == nil || !boxedByCopy(t) {
				return
			}
			reportPoolPutBoxed(pass, fd, call, arg, t)
		})
	})
	return nil, nil
}

// poolPut reports whether call is (*sync.Pool).Put, or a method Put
// taking one interface of a type whose name ends in "Pool" (websocket's
// BufferPool).
func poolPut(pass *analysis.Pass, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, _ := pass.TypesInfo.Uses[sel.Sel].(*types.Func) // an interface's method too
	if fn == nil || fn.Name() != "Put" {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.Params().Len() != 1 || !types.IsInterface(sig.Params().At(0).Type()) {
		return false
	}
	recv := sig.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	named, ok := recv.(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	if obj.Pkg() != nil && obj.Pkg().Path() == "sync" && obj.Name() == "Pool" {
		return true
	}
	return strings.HasSuffix(obj.Name(), "Pool")
}

// boxedByCopy reports whether converting a value of type t to an
// interface copies it to the heap: a slice, a string, an array, a
// struct that is not one pointer. Pointers, maps, channels and funcs go
// in as they are.
func boxedByCopy(t types.Type) bool {
	if types.IsInterface(t) {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Struct:
		if u.NumFields() == 1 {
			return boxedByCopy(u.Field(0).Type())
		}
		return u.NumFields() > 1
	}
	return false
}

func reportPoolPutBoxed(pass *analysis.Pass, fd *ast.FuncDecl, call *ast.CallExpr, arg ast.Expr, t types.Type) {
	pool := text(pass, ast.Unparen(call.Fun).(*ast.SelectorExpr).X)
	what, tt := text(pass, arg), types.TypeString(t, types.RelativeTo(pass.Pkg))
	size := pass.TypesSizes.Sizeof(t)
	says := fmt.Sprintf("%s.Put(%s) puts %s, a %s, into the pool's interface: a %s is copied to the heap for it at every Put (%d B), the allocation the pool is there to save", pool, what, what, tt, kindWord(t), size)
	if silenced(pass, call.Pos()) {
		says += "; the line silences the linter's warning of exactly this (//nolint)"
	}
	advice := fmt.Sprintf("keep pointers in %s: New returns a *%s (b := make(…); return &b), Get().(*%s) takes one, and Put gives the same pointer back — a pointer goes into an interface without an allocation", pool, tt, tt)
	if _, ok := t.Underlying().(*types.Slice); ok {
		advice += fmt.Sprintf("; store the grown slice through it before the Put (*bp = %s[:0]) so that the pool keeps the larger buffer", what)
	}
	var related []analysis.RelatedInformation
	if v := identVar(pass, arg); v != nil && deferredCall(fd, call) {
		if pos := assignedAfter(pass, fd.Body, v, call.End()); pos.IsValid() {
			// defer pool.Put(tmp) with tmp reassigned after it: the
			// deferred call's argument is the slice as it was.
			says += fmt.Sprintf("; the deferred Put's argument is evaluated at the defer, so it puts back %s as it was then, not as line %d reassigns it", what, pass.Fset.Position(pos).Line)
			related = append(related, analysis.RelatedInformation{Pos: pos, Message: what + " reassigned after the defer"})
		}
	}
	pass.Report(analysis.Diagnostic{Pos: call.Pos(), Category: "pool-put-boxed", Message: says, Related: related,
		SuggestedFixes: []analysis.SuggestedFix{{Message: advice}}})
}

// kindWord names what of a value of type t an interface conversion
// copies: the slice header, the string header, the struct, the array.
func kindWord(t types.Type) string {
	switch t.Underlying().(type) {
	case *types.Slice:
		return "slice header"
	case *types.Basic:
		return "string header"
	case *types.Array:
		return "array"
	}
	return "struct"
}

// silenced reports whether the line at pos carries a //nolint comment.
func silenced(pass *analysis.Pass, pos token.Pos) bool {
	line := pass.Fset.Position(pos).Line
	for _, f := range pass.Files {
		if f.Pos() > pos || pos >= f.End() {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if pass.Fset.Position(c.Pos()).Line == line && strings.HasPrefix(c.Text, "//nolint") {
					return true
				}
			}
		}
	}
	return false
}

// deferredCall reports whether call is the call of a defer statement.
func deferredCall(fd *ast.FuncDecl, call *ast.CallExpr) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if d, ok := n.(*ast.DeferStmt); ok && d.Call == call {
			found = true
		}
		return !found
	})
	return found
}

// assignedAfter returns the position of the first assignment to v after
// pos in body, or token.NoPos.
func assignedAfter(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var, pos token.Pos) token.Pos {
	at := token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Pos() < pos || at.IsValid() {
			return !at.IsValid()
		}
		for _, l := range as.Lhs {
			if identVar(pass, l) == v {
				at = as.Pos()
			}
		}
		return !at.IsValid()
	})
	return at
}
