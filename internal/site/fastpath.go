package site

import (
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// FastPath finds a function that returns early on its common inputs and
// does its real work after: one or more leading `if cond { return … }`
// and then the rest. When the compiler does not inline such a function
// (its cost is over the budget), its callers pay a call even on the fast
// path; the fast paths kept in it and the rest moved into a function of
// its own make it small enough to inline — the split sync.Mutex.Lock and
// lockSlow make. The shape ("fast-path-split") is at the declaration,
// where the compiler's verdict is.
var FastPath = &analysis.Analyzer{
	Name: "fastpath",
	Doc:  "a function with early returns on its common inputs before its real work",
	Run:  runFastPath,
}

func runFastPath(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || len(fd.Body.List) < 2 {
				continue
			}
			var conds []string
			i := 0
			for ; i < len(fd.Body.List); i++ {
				st, ok := fd.Body.List[i].(*ast.IfStmt)
				if !ok || st.Init != nil || st.Else != nil || len(st.Body.List) != 1 {
					break
				}
				if _, ret := st.Body.List[0].(*ast.ReturnStmt); !ret {
					break
				}
				if emptyCheck(pass, st.Cond) {
					// An early return on empty or missing input:
					// the common path is the rest.
					conds = nil
					break
				}
				conds = append(conds, text(pass, st.Cond))
			}
			if len(conds) == 0 || i == len(fd.Body.List) || !hasCall(pass, fd.Body.List[i:]) {
				continue
			}
			from := pass.Fset.Position(fd.Body.List[0].Pos()).Line
			to := pass.Fset.Position(fd.Body.List[i-1].End()).Line
			rest := pass.Fset.Position(fd.Body.List[i].Pos()).Line
			name := fd.Name.Name
			var related []analysis.RelatedInformation
			for _, st := range fd.Body.List[:i] {
				related = append(related, analysis.RelatedInformation{Pos: st.Pos(), Message: "a fast path"})
			}
			related = append(related, analysis.RelatedInformation{Pos: fd.Body.List[i].Pos(), Message: "the slow path"})
			pass.Report(analysis.Diagnostic{
				Category: "fast-path-split",
				Pos:      fd.Pos(),
				Message: fmt.Sprintf("%s returns early at lines %d–%d (%s); its other work, from line %d (%s), is the slow path",
					name, from, to, list(conds, 2), rest, text(pass, fd.Body.List[i])),
				Related: related,
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"keep the early returns in %s and move the rest into a function of its own marked //go:noinline: with only the early returns and that call left, %s can fit the inlining budget (the call counts 57 of its 80, so the early returns must stay small), and its callers then take the fast paths without a call; check with go build -gcflags=-m that it inlines before keeping the split", name, name)}},
			})
		}
	}
	return nil, nil
}

// emptyCheck reports whether cond tests for missing or empty input (x == nil,
// err != nil, len(s) == 0, s == ""): a guard, not a common input.
func emptyCheck(pass *analysis.Pass, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL && b.Op != token.NEQ {
			return true
		}
		for _, e := range []ast.Expr{b.X, b.Y} {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok && id.Name == "nil" {
				found = true
			}
			if tv, ok := pass.TypesInfo.Types[e]; ok && tv.Value != nil && (tv.Value.String() == "0" || tv.Value.String() == `""`) {
				found = true
			}
		}
		return !found
	})
	return found
}

// hasCall reports whether the statements call a function (not a
// conversion or builtin): the work a split would move out.
func hasCall(pass *analysis.Pass, list []ast.Stmt) bool {
	found := false
	for _, st := range list {
		ast.Inspect(st, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && calledFunc(pass, c) != nil {
				found = true
			}
			return !found
		})
	}
	return found
}
