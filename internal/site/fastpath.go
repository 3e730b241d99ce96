package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

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
	decls := declsByFunc(pass)
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || len(fd.Body.List) < 2 {
				continue
			}
			if slowPathInlined(pass, fd) {
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
				if emptyCheck(pass, st.Cond) || guardReturn(pass, st.Body.List[0].(*ast.ReturnStmt)) {
					// An early return on empty or missing input, or
					// one that gives nothing back (an index out of
					// range): a guard, and the common path is the
					// rest.
					conds = nil
					break
				}
				conds = append(conds, text(pass, st.Cond))
			}
			if len(conds) == 0 || i == len(fd.Body.List) || !hasCall(pass, fd.Body.List[i:]) {
				continue
			}
			if splitCost(pass, decls, fd.Body.List[:i]) > 80 {
				// The early returns and the call of the slow path
				// would still be over the budget: no split inlines.
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

// slowPathInlined reports (and reports as a "slow-path-inlined" shape) a
// function already split the way FastPath advises: early returns, then
// one call of a function of its own package that does the rest. Over the
// budget all the same, the cost is the callee's: small enough to inline,
// the compiler inlines it into the fast path, whose cost then counts the
// slow path's (skipWS and skipWSSlow). The split is made; what it lacks
// is //go:noinline on the slow path.
func slowPathInlined(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	body := fd.Body.List
	n := len(body) - 1
	var conds []string
	for _, st := range body[:n] {
		is, ok := st.(*ast.IfStmt)
		if !ok || is.Init != nil || is.Else != nil || len(is.Body.List) != 1 {
			return false
		}
		if _, ret := is.Body.List[0].(*ast.ReturnStmt); !ret {
			return false
		}
		conds = append(conds, text(pass, is.Cond))
	}
	var call *ast.CallExpr
	switch last := body[n].(type) {
	case *ast.ReturnStmt:
		if len(last.Results) == 1 {
			call, _ = ast.Unparen(last.Results[0]).(*ast.CallExpr)
		}
	case *ast.ExprStmt:
		call, _ = last.X.(*ast.CallExpr)
	}
	if call == nil {
		return false
	}
	callee := calledFunc(pass, call)
	if callee == nil || callee.Pkg() != pass.Pkg {
		return false
	}
	slow := funcDecl(pass, callee)
	if slow == nil || slow.Body == nil || noinline(slow) || !inlinable(pass, slow) {
		return false
	}
	name, sname := fd.Name.Name, slow.Name.Name
	from := pass.Fset.Position(body[0].Pos()).Line
	to := pass.Fset.Position(body[n-1].End()).Line
	pass.Report(analysis.Diagnostic{
		Category: "slow-path-inlined",
		Pos:      fd.Pos(),
		Message: fmt.Sprintf("%s returns early at lines %d–%d (%s) and leaves the rest to %s, which is small enough that the compiler inlines it into %s: %s's cost then counts the slow path's",
			name, from, to, list(conds, 2), sname, name, name),
		Related: []analysis.RelatedInformation{{Pos: body[0].Pos(), Message: "the fast path"}, {Pos: call.Pos(), Message: "the slow path's call"}, {Pos: slow.Pos(), Message: "the slow path"}},
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"mark %s //go:noinline: %s is then its early returns and one call, small enough to inline, and its callers take the fast path without a call (only the slow path pays one); check with go build -gcflags=-m that %s inlines", sname, name, name)}},
	})
	return true
}

// funcDecl returns fn's declaration among the pass's files, or nil.
func funcDecl(pass *analysis.Pass, fn *types.Func) *ast.FuncDecl {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && pass.TypesInfo.Defs[fd.Name] == fn {
				return fd
			}
		}
	}
	return nil
}

// noinline reports whether fd carries a //go:noinline directive.
func noinline(fd *ast.FuncDecl) bool {
	if fd.Doc == nil {
		return false
	}
	for _, c := range fd.Doc.List {
		if strings.HasPrefix(c.Text, "//go:noinline") {
			return true
		}
	}
	return false
}

// inlinable estimates whether the compiler inlines fd and whether that
// is what puts its caller over the budget: its body's nodes counted as
// the compiler's hairy visitor counts them, about one each, at most the
// budget of 80 and at least 60, and no call in it. Marked //go:noinline it
// becomes a call in its caller, which costs about 60: only a callee whose
// cost is its own code, well above a call's, gives its caller that much
// back (uniseg's property, 67 of which 57 are its own call of
// propertySearch, gives nothing). The estimate is within about 15% of
// the compiler's on fastjson's functions (skipWSSlow 77 for 74); a
// defer, a select, a go statement or a closure never inlines here.
func inlinable(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	c := inlCost(pass, fd)
	return c >= 60 && c <= 80 && !hasCall(pass, fd.Body.List)
}

// splitCost estimates the inlining cost of a function split the way
// FastPath advises: the early returns kept, each call in them counted as
// its callee's own estimate where the compiler would inline that (a
// package function of 80 or less) and 57 where not, then the call of the
// slow path (57, its arguments and its return, about 65 in all).
func splitCost(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, keep []ast.Stmt) int {
	cost := 65
	for _, st := range keep {
		ast.Inspect(st, func(n ast.Node) bool {
			if n == nil {
				return false
			}
			cost++
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := calledFunc(pass, c)
			if fn == nil {
				return true
			}
			if d := decls[fn]; d != nil {
				if k := inlCost(pass, d); k >= 0 && k <= 80 {
					cost += k
					return true
				}
			}
			cost += 57
			return true
		})
	}
	return cost
}

// inlCost is inlinable's estimate, -1 for never.
func inlCost(pass *analysis.Pass, fd *ast.FuncDecl) int {
	cost, never := 0, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case nil:
			return false
		case *ast.DeferStmt, *ast.GoStmt, *ast.SelectStmt, *ast.FuncLit:
			never = true
		case *ast.CallExpr:
			if calledFunc(pass, n) != nil {
				cost += 57
			} else if tv, ok := pass.TypesInfo.Types[n.Fun]; ok && !tv.IsType() && !tv.IsBuiltin() {
				cost += 57
			}
		}
		cost++
		return !never
	})
	if never {
		return -1
	}
	return cost
}

// guardReturn reports whether ret gives nothing back: no results, or only
// nil, false, zero and empty constants (an input refused, not answered).
func guardReturn(pass *analysis.Pass, ret *ast.ReturnStmt) bool {
	for _, r := range ret.Results {
		if id, ok := ast.Unparen(r).(*ast.Ident); ok && id.Name == "nil" {
			continue
		}
		tv, ok := pass.TypesInfo.Types[r]
		if !ok || tv.Value == nil {
			return false
		}
		switch tv.Value.String() {
		case "0", "false", `""`:
		default:
			return false
		}
	}
	return true
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
