package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// ChanIterator finds a function that returns a channel a goroutine it
// starts fills, one element per send, in a loop:
//
//	func (s *set) Iter() <-chan T {
//		ch := make(chan T)
//		go func() {
//			for elem := range s.m {
//				ch <- elem
//			}
//			close(ch)
//		}()
//		return ch
//	}
//
// Every element then costs a send, a receive and a hand-off between two
// goroutines (each blocked side parked and woken by the scheduler): tens
// to hundreds of nanoseconds for what a loop does in one or two. A
// range-over-func iterator, or a method that calls a function per
// element, visits the same elements on the caller's goroutine; the
// channel also leaks its goroutine when the caller stops early.
var ChanIterator = &analysis.Analyzer{
	Name: "chaniterator",
	Doc:  "a function returning a channel that a goroutine it starts fills one element per send",
	Run:  runChanIterator,
}

func runChanIterator(pass *analysis.Pass) (any, error) {
	// Per receiver type: its methods that take a function, the
	// alternatives already there.
	visitors := map[string][]string{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) == 0 {
			return
		}
		for _, p := range fd.Type.Params.List {
			if _, ok := pass.TypesInfo.TypeOf(p.Type).Underlying().(*types.Signature); ok && fd.Name.IsExported() {
				r := recvBase(fd.Recv.List[0].Type)
				visitors[r] = append(visitors[r], fd.Name.Name)
				break
			}
		}
	})
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		res := fd.Type.Results
		if res == nil || len(res.List) == 0 {
			return
		}
		// A channel of the function's own (made here, or by a
		// constructor it calls) that it does not receive from itself:
		// the caller does, through the value returned.
		local := func(v types.Object) bool {
			if v == nil || v.Pos() < fd.Body.Pos() || v.Pos() > fd.Body.End() {
				return false
			}
			received := false
			inspectBody(fd.Body, func(n ast.Node) {
				if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && objOf(pass, u.X) == v {
					received = true
				}
				if r, ok := n.(*ast.RangeStmt); ok && objOf(pass, r.X) == v {
					received = true
				}
			})
			return !received
		}
		for _, st := range fd.Body.List {
			g, ok := st.(*ast.GoStmt)
			if !ok {
				continue
			}
			lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit)
			if !ok {
				continue
			}
			var send *ast.SendStmt
			inspectLoops(lit.Body, func(n ast.Node, loop ast.Stmt) {
				if s, ok := n.(*ast.SendStmt); ok && loop != nil && send == nil && local(objOf(pass, s.Chan)) {
					send = s
				}
			})
			if send == nil {
				continue
			}
			name := fd.Name.Name
			elem := pass.TypesInfo.TypeOf(send.Chan).Underlying().(*types.Chan).Elem()
			ch := objOf(pass, send.Chan)
			buffered := ""
			if cap := chanCap(pass, fd.Body, ch); cap != "" {
				buffered = fmt.Sprintf(" (buffered: %s, so the goroutines hand off less often, not less work per element)", cap)
			}
			instead := "a range-over-func iterator (func(yield func(" + types.TypeString(elem, types.RelativeTo(pass.Pkg)) + ") bool), an iter.Seq) visits the same elements on the caller's goroutine with one call each and no channel"
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				if vs := visitors[recvBase(fd.Recv.List[0].Type)]; len(vs) > 0 {
					slices.Sort(vs)
					instead = fmt.Sprintf("callers that only visit the elements do it without a channel through %s, which the type already has; add %s", list(vs, 3), instead)
				}
			}
			at := send.Pos()
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectStmt); ok && sel.Pos() < send.Pos() && send.End() <= sel.End() {
					at = sel.Pos() // the select the send is a case of: where a profile puts it
				}
				return true
			})
			pass.Report(analysis.Diagnostic{
				Category: "chan-iterator",
				Pos:      at,
				Message: fmt.Sprintf("%s returns a channel that a goroutine it starts fills one element per send%s: every element costs a send, a receive and a hand-off between two goroutines, the scheduler parking and waking them",
					name, buffered),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"%s; keep %s for callers that need a channel (and a caller that stops early leaves its goroutine blocked on the send for good)", instead, name)}},
			})
		}
	})
	return nil, nil
}

// returnsOf returns fd's return statements, outside function literals.
func returnsOf(body *ast.BlockStmt) []*ast.ReturnStmt {
	var out []*ast.ReturnStmt
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			out = append(out, x)
		}
		return true
	})
	return out
}

// chanCap returns the text of the capacity ch is made with, "" for an
// unbuffered channel or one made elsewhere.
func chanCap(pass *analysis.Pass, body *ast.BlockStmt, ch types.Object) string {
	out := ""
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || objOf(pass, as.Lhs[0]) != ch {
			return true
		}
		if mk, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && isBuiltin(pass, mk.Fun, "make") && len(mk.Args) == 2 {
			out = text(pass, mk.Args[1])
		}
		return false
	})
	return out
}

// recvBase names a receiver's type without its star and type
// parameters: T for *T and T[K].
func recvBase(t ast.Expr) string {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	return types.ExprString(t)
}
