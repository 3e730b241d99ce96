package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// TokenChannel finds a channel of empty tokens used as a semaphore: a
// token taken by a receive and put back by a deferred send (chi's
// Throttle: `case btok := <-t.backlogTokens: defer func() {
// t.backlogTokens <- btok }()`). Each take and each return is a channel
// operation under the channel's lock, and a select around the take polls
// every case. A count that callers never wait on — refused, or handled by
// another case, when no token is free — is an atomic counter's work
// (CompareAndSwap below the limit to take, Add(-1) to return); a
// semaphore callers wait on is what the channel is for.
var TokenChannel = &analysis.Analyzer{
	Name: "tokenchannel",
	Doc:  "a channel of empty tokens taken by a receive and put back by a deferred send: a semaphore",
	Run:  runTokenChannel,
}

func runTokenChannel(pass *analysis.Pass) (any, error) {
	locks := oneTokenFields(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		// The deferred sends of the function and its literals, by
		// the channel's text.
		returned := map[string]token.Pos{}
		inspectAll(fd.Body, func(n ast.Node) {
			ds, ok := n.(*ast.DeferStmt)
			if !ok {
				return
			}
			ast.Inspect(ds.Call, func(m ast.Node) bool {
				if s, ok := m.(*ast.SendStmt); ok && emptyTokens(pass, s.Chan) {
					if _, seen := returned[text(pass, s.Chan)]; !seen {
						returned[text(pass, s.Chan)] = s.Pos()
					}
				}
				return true
			})
		})
		if len(returned) == 0 {
			return
		}
		var selects []*ast.SelectStmt
		reported := map[string]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectStmt); ok {
				selects = append(selects, sel)
			}
			u, ok := n.(*ast.UnaryExpr)
			if !ok || u.Op != token.ARROW || !emptyTokens(pass, u.X) {
				return true
			}
			ch := text(pass, u.X)
			back, ok := returned[ch]
			if !ok || reported[ch] || back < u.Pos() {
				return true
			}
			reported[ch] = true
			at, how := u.Pos(), "a receive"
			for _, sel := range selects {
				if sel.Pos() <= u.Pos() && u.End() <= sel.End() && inComm(sel, u) {
					at, how = sel.Pos(), "a select's case"
				}
			}
			if sel, ok := ast.Unparen(u.X).(*ast.SelectorExpr); ok && locks[pass.TypesInfo.Uses[sel.Sel]] {
				// One token: a lock, which a select can take with
				// a timer (gorilla/websocket's WriteControl), as a
				// sync.Mutex cannot.
				pass.Report(analysis.Diagnostic{
					Category:       "token-channel" + ownWork,
					Pos:            at,
					Message:        fmt.Sprintf("%s takes the one token of %s by %s (line %d) and a deferred send puts it back (line %d): %s, made with room for one, is a lock", fd.Name.Name, ch, how, pass.Fset.Position(u.Pos()).Line, pass.Fset.Position(back).Line, ch),
					Related:        []analysis.RelatedInformation{{Pos: back, Message: "puts the token back"}},
					SuggestedFixes: []analysis.SuggestedFix{{Message: "its two channel operations per call are the lock's price, about an uncontended sync.Mutex's; a lock made of a channel can also be waited for with a timeout (a select with a timer), which a sync.Mutex cannot: nothing to change at this line where a caller waits so"}},
				})
				return true
			}
			pass.Report(analysis.Diagnostic{
				Category: "token-channel",
				Pos:      at,
				Message:  fmt.Sprintf("%s takes an empty token from %s by %s (line %d) and a deferred send puts it back (line %d): %s is a semaphore, and each take and return is a channel operation under the channel's lock, twice per call", fd.Name.Name, ch, how, pass.Fset.Position(u.Pos()).Line, pass.Fset.Position(back).Line, ch),
				Related:  []analysis.RelatedInformation{{Pos: back, Message: "puts the token back"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"where callers do not wait for a token of %s (none free: refused, or another case taken), an atomic counter does its work: CompareAndSwap to take one while below the limit, Add(-1) to return it, no lock and no select; keep the channel only where callers must wait for a token", ch)}},
			})
			return true
		})
	})
	return nil, nil
}

// emptyTokens reports whether e is a channel of an empty struct type.
func emptyTokens(pass *analysis.Pass, e ast.Expr) bool {
	t := pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// inComm reports whether u is the communication of one of sel's cases.
func inComm(sel *ast.SelectStmt, u *ast.UnaryExpr) bool {
	for _, s := range sel.Body.List {
		cc, ok := s.(*ast.CommClause)
		if !ok || cc.Comm == nil {
			continue
		}
		if cc.Comm.Pos() <= u.Pos() && u.End() <= cc.Comm.End() {
			return true
		}
	}
	return false
}

// oneTokenFields returns the struct fields the package sets to a channel
// made with room for one token (mu := make(chan struct{}, 1), then
// &Conn{mu: mu} or c.mu = mu): a lock.
func oneTokenFields(pass *analysis.Pass) map[types.Object]bool {
	made := map[types.Object]bool{} // local variables holding one
	one := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if id, ok := e.(*ast.Ident); ok {
			return made[pass.TypesInfo.Uses[id]]
		}
		call, ok := e.(*ast.CallExpr)
		if !ok || !isBuiltin(pass, call.Fun, "make") || len(call.Args) != 2 || !emptyTokens(pass, call) {
			return false
		}
		tv := pass.TypesInfo.Types[call.Args[1]]
		return tv.Value != nil && tv.Value.String() == "1"
	}
	out := map[types.Object]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				for i, l := range x.Lhs {
					if i >= len(x.Rhs) || !one(x.Rhs[i]) {
						continue
					}
					switch l := l.(type) {
					case *ast.Ident:
						made[pass.TypesInfo.ObjectOf(l)] = true
					case *ast.SelectorExpr:
						out[pass.TypesInfo.Uses[l.Sel]] = true
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && one(x.Value) {
					if obj := pass.TypesInfo.Uses[k]; obj != nil {
						out[obj] = true
					}
				}
			}
			return true
		})
	}
	return out
}
