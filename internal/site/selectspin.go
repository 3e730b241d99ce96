package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// SelectSpin finds an endless loop around a select with no default whose
// case receives from a channel that only ever closes — a field the
// package closes and never sends on, or a context's Done() — and whose
// body can go round again: once the channel is closed, that case is
// ready at every pass, and the loop polls whatever it checks there as
// fast as a core runs. ants' ReleaseContext selects on p.allDone and
// loops until its workers and background goroutines have marked
// themselves done: 88% of BenchmarkParallelAntsMultiPoolThroughput's CPU
// in selectgo and chanrecv.
var SelectSpin = &analysis.Analyzer{
	Name: "selectspin",
	Doc:  "a loop around a select whose case on a closed channel can go round again",
	Run:  runSelectSpin,
}

func runSelectSpin(pass *analysis.Pass) (any, error) {
	closed, sent := map[*types.Var]bool{}, map[*types.Var]bool{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectAll(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.CallExpr:
				if isBuiltin(pass, x.Fun, "close") && len(x.Args) == 1 {
					if f := chanField(pass, x.Args[0]); f != nil {
						closed[f] = true
					}
				}
			case *ast.SendStmt:
				if f := chanField(pass, x.Chan); f != nil {
					sent[f] = true
				}
			}
		})
	})
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			loop, ok := n.(*ast.ForStmt)
			if !ok || loop.Cond != nil {
				return
			}
			for _, st := range loop.Body.List {
				sel, ok := st.(*ast.SelectStmt)
				if !ok {
					continue
				}
				for _, c := range sel.Body.List {
					cc, ok := c.(*ast.CommClause)
					if !ok {
						continue
					}
					if cc.Comm == nil {
						break // a default: the select never blocks anyway
					}
					ch := received(cc.Comm)
					if ch == nil {
						continue
					}
					name := ""
					if f := chanField(pass, ch); f != nil && closed[f] && !sent[f] {
						name = fmt.Sprintf("%s, a channel the package only closes", text(pass, ch))
					} else if isDoneCall(pass, ch) {
						name = fmt.Sprintf("%s, closed when the context ends", text(pass, ch))
					}
					if name == "" || !mayContinue(cc.Body) {
						continue
					}
					pass.Report(analysis.Diagnostic{
						Category: "select-spin",
						Pos:      sel.Pos(),
						Message: fmt.Sprintf("%s's endless loop (line %d) selects on %s, and that case can go round again: once it is closed the case is ready at every pass, so the loop polls what the case checks as fast as a core runs",
							fd.Name.Name, pass.Fset.Position(loop.Pos()).Line, name),
						SuggestedFixes: []analysis.SuggestedFix{{Message: "block on what the case waits for instead of polling it after the close: let the goroutines it waits for signal their end (a WaitGroup's Wait, or a channel each closes) and receive on that, or leave the loop after the close and wait once"}},
					})
					return
				}
			}
		})
	})
	return nil, nil
}

// chanField returns the struct field a channel expression (p.allDone)
// names, or nil.
func chanField(pass *analysis.Pass, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
	if !ok || !v.IsField() {
		return nil
	}
	if _, ok := v.Type().Underlying().(*types.Chan); !ok {
		return nil
	}
	return v
}

// isDoneCall reports whether e is ctx.Done() of a context.Context.
func isDoneCall(pass *analysis.Pass, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Done" {
		return false
	}
	t := pass.TypesInfo.TypeOf(sel.X)
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// mayContinue reports whether a case body can end without leaving the
// loop: its last statement is not a return, a break, a goto or a panic,
// or an if without else whose branch returns (the check that may fail).
func mayContinue(body []ast.Stmt) bool {
	if len(body) == 0 {
		return true
	}
	switch last := body[len(body)-1].(type) {
	case *ast.ReturnStmt:
		return false
	case *ast.BranchStmt:
		return last.Tok == token.CONTINUE
	case *ast.ExprStmt:
		if call, ok := last.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return false
			}
		}
	case *ast.IfStmt:
		return last.Else == nil || mayContinue(blockOf(last.Else))
	}
	return true
}

// blockOf returns an else branch's statements.
func blockOf(s ast.Stmt) []ast.Stmt {
	switch b := s.(type) {
	case *ast.BlockStmt:
		return b.List
	case *ast.IfStmt:
		return []ast.Stmt{b}
	}
	return []ast.Stmt{s}
}
