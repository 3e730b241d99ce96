package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// RequestCopy finds an *http.Request copied twice in a row to add one
// context value each time: req = withVars(req, …) then
// req = withRoute(req, …), each helper a context.WithValue and an
// r.WithContext. WithContext copies the whole request (about 250 bytes)
// every time; one context carrying both values needs one copy.
var RequestCopy = &analysis.Analyzer{
	Name: "requestcopy",
	Doc:  "an *http.Request copied by WithContext twice in a row, once per context value",
	Run:  runRequestCopy,
}

// reqCopy is one copy of a request in a function: out = copy(in).
type reqCopy struct {
	in     string
	inExpr ast.Expr
	outVar types.Object // the variable the copy is assigned to
	call   token.Pos    // the call in the function
	with   token.Pos    // the WithContext (or Clone) call that copies
	via    string       // the helper's name, when the copy is in a helper
}

func runRequestCopy(pass *analysis.Pass) (any, error) {
	copiers := requestCopiers(pass)
	eachBlock(pass, func(list []ast.Stmt) {
		var prev *reqCopy
		for _, st := range list {
			rc, ok := copyStmt(pass, st, copiers)
			if !ok {
				// A statement that reads or sets the first copy between
				// the two: it is seen with one value only, so the
				// copies are not one copy's work.
				if prev != nil && mentions(pass, st, prev.outVar) {
					prev = nil
				}
				continue
			}
			if prev == nil || !sameVar(pass, rc.inExpr, prev.outVar) {
				prev = &rc
				continue
			}
			first, second := *prev, rc
			prev = nil // a third copy starts a new pair
			at := pass.Fset.Position(second.with)
			d := analysis.Diagnostic{
				Category: "request-copied-twice",
				Pos:      first.with,
				Message: fmt.Sprintf("%s is copied twice in a row: %s, then %s at %s:%d; each WithContext copies the whole http.Request to carry one more context value",
					first.in, copyText(first), copyText(second), baseName(at.Filename), at.Line),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "one copy carrying both values: build one context that carries both (two context.WithValue on the request's context, or one small type embedding the parent context whose Value answers both keys) and call WithContext once"}},
				Related: []analysis.RelatedInformation{
					{Pos: second.with, Message: "the second copy"},
				},
			}
			if first.via != "" {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: first.call, Message: "calls " + first.via})
			}
			if second.via != "" {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: second.call, Message: "calls " + second.via})
			}
			pass.Report(d)
		}
	})
	return nil, nil
}

// copyStmt reports whether a statement assigns a copy of a request to
// one variable: req = r.WithContext(ctx), r2 := withVars(r, v).
func copyStmt(pass *analysis.Pass, st ast.Stmt, copiers map[*types.Func]copier) (reqCopy, bool) {
	as, ok := st.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return reqCopy{}, false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return reqCopy{}, false
	}
	c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return reqCopy{}, false
	}
	rc, ok := copyOf(pass, c, copiers)
	if !ok {
		return reqCopy{}, false
	}
	rc.outVar = pass.TypesInfo.ObjectOf(id)
	return rc, rc.outVar != nil
}

// sameVar reports whether e is the variable v itself.
func sameVar(pass *analysis.Pass, e ast.Expr, v types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && v != nil && pass.TypesInfo.ObjectOf(id) == v
}

// mentions reports whether a statement names the variable v.
func mentions(pass *analysis.Pass, st ast.Stmt, v types.Object) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == v {
			found = true
		}
		return !found
	})
	return found
}

// copyText says how a copy is made: "requestWithVars (r.WithContext)".
func copyText(c reqCopy) string {
	if c.via != "" {
		return c.via + " (r.WithContext)"
	}
	return "WithContext"
}

// copier is a function of the package that returns a copy of one of its
// *http.Request parameters: return r.WithContext(ctx).
type copier struct {
	param int
	with  token.Pos
}

// requestCopiers finds the package's functions whose return statement is
// a WithContext or Clone of a request parameter.
func requestCopiers(pass *analysis.Pass) map[*types.Func]copier {
	out := map[*types.Func]copier{}
	for _, file := range pass.Files {
		if isTest(pass, file) {
			continue
		}
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			params := fn.Type().(*types.Signature).Params()
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				ret, ok := n.(*ast.ReturnStmt)
				if !ok || len(ret.Results) != 1 {
					return true
				}
				c, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
				if !ok || !isRequestCopy(pass, c) {
					return true
				}
				id, ok := ast.Unparen(c.Fun.(*ast.SelectorExpr).X).(*ast.Ident)
				if !ok {
					return true
				}
				for i := range params.Len() {
					if params.At(i) == pass.TypesInfo.Uses[id] {
						out[fn] = copier{param: i, with: c.Pos()}
					}
				}
				return true
			})
		}
	}
	return out
}

// copyOf reports whether a call copies a request: r.WithContext(…),
// r.Clone(…), or a copier of the package given the request.
func copyOf(pass *analysis.Pass, c *ast.CallExpr, copiers map[*types.Func]copier) (reqCopy, bool) {
	if isRequestCopy(pass, c) {
		x := c.Fun.(*ast.SelectorExpr).X
		return reqCopy{in: types.ExprString(x), inExpr: x, call: c.Pos(), with: c.Pos()}, true
	}
	id := calleeIdent(c)
	fn, _ := pass.TypesInfo.Uses[id].(*types.Func)
	cp, ok := copiers[fn]
	if !ok || cp.param >= len(c.Args) {
		return reqCopy{}, false
	}
	return reqCopy{in: types.ExprString(c.Args[cp.param]), inExpr: c.Args[cp.param], call: c.Pos(), with: cp.with, via: fn.Name()}, true
}

// isRequestCopy reports whether c is (*http.Request).WithContext or
// Clone.
func isRequestCopy(pass *analysis.Pass, c *ast.CallExpr) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "WithContext" && sel.Sel.Name != "Clone") {
		return false
	}
	return isNamed(pass.TypesInfo.TypeOf(sel.X), "net/http", "Request")
}
