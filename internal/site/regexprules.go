package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// RegexpRules finds a loop that tries a list of regexps on the same input
// in turn — a lexer's rules, a router's routes — running each candidate's
// pattern until one matches: every token or request pays for the
// patterns before the one that matches, each given the whole input (a
// pattern the backtracker runs clears state sized by the input on every
// call). The regexp is the loop element's (rule.re, or a variable set
// from the element: re := pattern(candidate)); the input is not changed
// by the loop.
var RegexpRules = &analysis.Analyzer{
	Name: "regexprules",
	Doc:  "a loop running each candidate's regexp on the same input in turn",
	Run:  runRegexpRules,
}

func runRegexpRules(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.RangeStmt:
			default:
				return true
			}
			loop := n.(*ast.RangeStmt)
			elem := loopVars(pass, loop)
			if len(elem) == 0 {
				return true
			}
			// The variables the body sets from the element: re, err :=
			// l.getPattern(candidate).
			fromElem := map[*types.Var]bool{}
			for v := range elem {
				fromElem[v] = true
			}
			ast.Inspect(loop.Body, func(m ast.Node) bool {
				as, ok := m.(*ast.AssignStmt)
				if !ok {
					return true
				}
				reads := false
				for _, r := range as.Rhs {
					for _, v := range varsOf(pass, r) {
						reads = reads || fromElem[v]
					}
				}
				if reads {
					for _, l := range as.Lhs {
						if v := objOf(pass, l); v != nil {
							if tv, ok := v.(*types.Var); ok {
								fromElem[tv] = true
							}
						}
					}
				}
				return true
			})
			ast.Inspect(loop.Body, func(m ast.Node) bool {
				if _, ok := m.(*ast.FuncLit); ok {
					return false
				}
				c, sel := regexpScan(pass, m)
				if c == nil {
					return true
				}
				if !readsAny(pass, sel.X, fromElem) || readsAny(pass, c.Args[0], fromElem) || setIn(pass, loop.Body, c.Args[0]) {
					return true
				}
				from, to := pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line
				until := ""
				if breaksOut(loop.Body) {
					until = ", until one matches"
				}
				in := oneLine(types.ExprString(c.Args[0]))
				pass.Report(analysis.Diagnostic{
					Category: "regexp-per-candidate",
					Pos:      c.Pos(),
					Message: fmt.Sprintf("%s runs each candidate's regexp on %s in turn (the loop at lines %d–%d over %s)%s: every input pays for the patterns tried before the one that matches, each given all of %s",
						oneLine(types.ExprString(c)), in, from, to, oneLine(types.ExprString(loop.X)), until, in),
					Related: []analysis.RelatedInformation{{Pos: loop.Pos(), Message: "the loop over the candidates"}},
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"skip the candidates that cannot match before running them: work out once, when the patterns are compiled, the characters each can start with (from its parsed syntax: regexp/syntax's first instructions, regexp2's first-character set; none when it can match empty) and test %s's first byte against them; or join the patterns into one alternation of named groups and run that once",
						in)}},
				})
				return true
			})
			return true
		})
	})
	return nil, nil
}

// loopVars are the variables a range loop declares for its key and value.
func loopVars(pass *analysis.Pass, r *ast.RangeStmt) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for _, e := range []ast.Expr{r.Key, r.Value} {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			if v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var); ok {
				out[v] = true
			}
		}
	}
	return out
}

// readsAny reports whether e reads one of vars.
func readsAny(pass *analysis.Pass, e ast.Expr, vars map[*types.Var]bool) bool {
	for _, v := range varsOf(pass, e) {
		if vars[v] {
			return true
		}
	}
	return false
}

// setIn reports whether body changes the value of e (l.data): an
// assignment to e, to a variable e reads (l = …, data = …), or to a part
// of e, or e's address taken. Assignments to other fields of the same
// struct (l.stack = …) leave it alone.
func setIn(pass *analysis.Pass, body ast.Node, e ast.Expr) bool {
	target := types.ExprString(ast.Unparen(e))
	vars := map[*types.Var]bool{}
	for _, v := range varsOf(pass, e) {
		vars[v] = true
	}
	changes := func(lhs ast.Expr) bool {
		lhs = ast.Unparen(lhs)
		t := types.ExprString(lhs)
		if t == target || strings.HasPrefix(t, target+".") || strings.HasPrefix(t, target+"[") {
			return true
		}
		if id, ok := lhs.(*ast.Ident); ok {
			v, _ := pass.TypesInfo.ObjectOf(id).(*types.Var)
			return vars[v]
		}
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				found = found || changes(l)
			}
		case *ast.IncDecStmt:
			found = found || changes(x.X)
		case *ast.UnaryExpr:
			found = found || x.Op == token.AND && changes(x.X)
		}
		return !found
	})
	return found
}

// breaksOut reports whether a loop body leaves the loop early: a break
// (not inside a nested loop, switch or select), or a return.
func breaksOut(body *ast.BlockStmt) bool {
	found := false
	var visit func(n ast.Node, nested bool) bool
	visit = func(n ast.Node, nested bool) bool {
		ast.Inspect(n, func(m ast.Node) bool {
			if found {
				return false
			}
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					visit(m, true)
					return false
				}
			case *ast.ReturnStmt:
				found = true
			case *ast.BranchStmt:
				if x.Tok.String() == "break" && (!nested || x.Label != nil) {
					found = true
				}
			}
			return true
		})
		return found
	}
	return visit(body, false)
}
