package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// MapLookupRepeated finds the same map lookup (the same map, the same
// key, both read from variables) made more than once in a function with
// nothing written to the map or its variables between: a router's
// rn.endpoints[method] read for its pattern, then again for it, then for
// its handler. Each lookup hashes the key and probes the map again; the
// fix is one lookup into a local.
var MapLookupRepeated = &analysis.Analyzer{
	Name: "maplookuprepeated",
	Doc:  "the same map lookup made more than once in a function, nothing written between",
	Run:  runMapLookupRepeated,
}

func runMapLookupRepeated(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		byKey := map[string][]*ast.IndexExpr{}
		var order []string
		written := map[string]bool{} // maps assigned to or deleted from
		parents := map[ast.Node]ast.Node{}
		var stack []ast.Node
		ast.Inspect(body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if len(stack) > 0 {
				parents[n] = stack[len(stack)-1]
			}
			stack = append(stack, n)
			switch x := n.(type) {
			case *ast.FuncLit:
				stack = stack[:len(stack)-1]
				return false
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
						written[identity(pass, ix.X)] = true
					}
				}
			case *ast.IncDecStmt:
				if ix, ok := ast.Unparen(x.X).(*ast.IndexExpr); ok {
					written[identity(pass, ix.X)] = true
				}
			case *ast.CallExpr:
				if isBuiltin(pass, x.Fun, "delete") || isBuiltin(pass, x.Fun, "clear") {
					if len(x.Args) > 0 {
						written[identity(pass, x.Args[0])] = true
					}
				}
			case *ast.IndexExpr:
				if _, ok := valueTypeUnder(pass, x.X).(*types.Map); !ok || !pureArgs([]ast.Expr{x.X, x.Index}) {
					return true
				}
				k := identity(pass, x)
				if byKey[k] == nil {
					order = append(order, k)
				}
				byKey[k] = append(byKey[k], x)
			}
			return true
		})
		for _, k := range order {
			lookups := byKey[k]
			if len(lookups) < 2 || written[identity(pass, lookups[0].X)] {
				continue
			}
			same := []*ast.IndexExpr{lookups[0]}
			for _, ix := range lookups[1:] {
				if assign, ok := parents[ix].(*ast.AssignStmt); ok && isLHS(assign, ix) {
					continue
				}
				if !exclusive(parents, lookups[0], ix) && !leftBefore(parents, lookups[0], ix) && !assignedBetween(pass, body, varsOf(pass, ix), lookups[0].End(), ix.Pos()) {
					same = append(same, ix)
				}
			}
			if len(same) < 2 {
				continue
			}
			var lines []string
			var related []analysis.RelatedInformation
			for i, ix := range same {
				lines = append(lines, fmt.Sprint(pass.Fset.Position(ix.Pos()).Line))
				if i != 1 {
					related = append(related, analysis.RelatedInformation{Pos: ix.Pos(), Message: "the same lookup"})
				}
			}
			t := text(pass, same[0])
			pass.Report(analysis.Diagnostic{
				Category: "map-lookup-repeated",
				Pos:      same[1].Pos(),
				Related:  related,
				Message:  fmt.Sprintf("%s is looked up %d times (lines %s) with nothing written to the map between: each lookup hashes the key and probes the map again", t, len(same), strings.Join(lines, ", ")),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"look it up once and keep the value (v := %s, or v, ok := … where presence matters), then read v", t)}},
			})
		}
	})
	return nil, nil
}

// isLHS reports whether e is one of the assignment's targets.
func isLHS(as *ast.AssignStmt, e ast.Expr) bool {
	for _, l := range as.Lhs {
		if l == e {
			return true
		}
	}
	return false
}

// leftBefore reports whether a is in a block that ends in a return or a
// panic and b is not: a call that runs a never runs b after it
// (if ok { return m[k] }; return m[k] + "!").
func leftBefore(parents map[ast.Node]ast.Node, a, b ast.Node) bool {
	for n := parents[a]; n != nil; n = parents[n] {
		var stmts []ast.Stmt
		switch x := n.(type) {
		case *ast.BlockStmt:
			stmts = x.List
		case *ast.CaseClause:
			stmts = x.Body
		case *ast.CommClause:
			stmts = x.Body
		default:
			continue
		}
		if len(stmts) == 0 || b.Pos() >= n.Pos() && b.End() <= n.End() {
			continue
		}
		switch last := stmts[len(stmts)-1].(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.ExprStmt:
			if c, ok := last.X.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "panic" {
					return true
				}
			}
		}
	}
	return false
}
