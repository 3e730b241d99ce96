package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ChanQueue finds a buffered channel used as a queue within one
// goroutine: a lexer's items channel that its emit methods send tokens
// into and its nextItem drains with a non-blocking receive (select with a
// default that runs the next state function), in a package that starts
// no goroutine. Every token pays a channel send and a select, each
// taking the channel's lock, and every lexer a channel allocation; a
// slice the same methods append to and take from does the same work.
var ChanQueue = &analysis.Analyzer{
	Name: "chanqueue",
	Doc:  "a buffered channel both filled and drained (non-blocking) by one type's methods, in a package that starts no goroutine",
	Run:  runChanQueue,
}

func runChanQueue(pass *analysis.Pass) (any, error) {
	// A goroutine anywhere in the package's code: the channel may cross
	// goroutines.
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			if _, ok := n.(*ast.GoStmt); ok {
				found = true
			}
			return !found
		})
		if found {
			return nil, nil
		}
	}
	sends := map[*types.Var][]token.Pos{}
	polls := map[*types.Var]token.Pos{}
	makes := map[*types.Var]ast.Node{}
	field := func(e ast.Expr) *types.Var {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		v, ok := pass.TypesInfo.ObjectOf(sel.Sel).(*types.Var)
		if !ok || !v.IsField() {
			return nil
		}
		if _, isChan := v.Type().Underlying().(*types.Chan); !isChan {
			return nil
		}
		return v
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SendStmt:
				if v := field(x.Chan); v != nil {
					sends[v] = append(sends[v], x.Pos())
				}
			case *ast.SelectStmt:
				hasDefault := false
				var recv *types.Var
				var at token.Pos
				for _, c := range x.Body.List {
					cc := c.(*ast.CommClause)
					if cc.Comm == nil {
						hasDefault = true
						continue
					}
					var e ast.Expr
					switch s := cc.Comm.(type) {
					case *ast.AssignStmt:
						e = s.Rhs[0]
					case *ast.ExprStmt:
						e = s.X
					}
					if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
						recv, at = field(u.X), u.Pos()
					}
				}
				if hasDefault && recv != nil {
					polls[recv] = at
				}
			case *ast.KeyValueExpr:
				if id, ok := x.Key.(*ast.Ident); ok {
					if v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var); ok && buffered(pass, x.Value) {
						makes[v] = x
					}
				}
			case *ast.AssignStmt:
				for i, l := range x.Lhs {
					if v := field(l); v != nil && i < len(x.Rhs) && buffered(pass, x.Rhs[i]) {
						makes[v] = x
					}
				}
			}
			return true
		})
	})
	for v, poll := range polls {
		mk := makes[v]
		if mk == nil || len(sends[v]) == 0 {
			continue
		}
		line := func(p token.Pos) int { return pass.Fset.Position(p).Line }
		related := []analysis.RelatedInformation{{Pos: poll, Message: "drained with a non-blocking receive"}}
		for _, s := range sends[v] {
			related = append(related, analysis.RelatedInformation{Pos: s, Message: "filled"})
		}
		filled := fmt.Sprintf("one send, at line %d", line(sends[v][0]))
		if n := len(sends[v]); n > 1 {
			filled = fmt.Sprintf("%d sends, the first at line %d", n, line(sends[v][0]))
		}
		msg := fmt.Sprintf("%s, a buffered channel made here, is filled (%s) and drained with a non-blocking receive (line %d) by the same type's methods, in a package that starts no goroutine: a queue within one goroutine, paying a channel send and a select, each taking the channel's lock, per item, and an allocation per channel",
			v.Name(), filled, line(poll))
		advice := fmt.Sprintf("keep the items in a slice instead: append where %s is sent to, take from the front (an index, reset when drained) where it is received from; no lock, no channel to allocate", v.Name())
		for _, at := range append([]token.Pos{mk.Pos(), poll}, sends[v]...) {
			pass.Report(analysis.Diagnostic{Category: "chan-queue", Pos: at, Message: msg, Related: related,
				SuggestedFixes: []analysis.SuggestedFix{{Message: advice}}})
		}
	}
	return nil, nil
}

// buffered reports whether e is make(chan T, n) with n a constant above 0.
func buffered(pass *analysis.Pass, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || !isBuiltin(pass, call.Fun, "make") || len(call.Args) != 2 {
		return false
	}
	if _, isChan := typeUnder(pass, call.Args[0]).(*types.Chan); !isChan {
		return false
	}
	tv, ok := pass.TypesInfo.Types[call.Args[1]]
	return ok && tv.Value != nil && tv.Value.String() != "0"
}
