package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// BuiltUnlessUsed finds a struct field a composite literal sets with a
// call (a value built with its struct) whose every read in the package is
// inside an if on one condition (a flag test): it is built every time and
// used only when the condition holds.
var BuiltUnlessUsed = &analysis.Analyzer{
	Name: "builtunlessused",
	Doc:  "a field built with its struct but read only under one condition",
	Run:  runBuiltUnlessUsed,
}

func runBuiltUnlessUsed(pass *analysis.Pass) (any, error) {
	type set struct {
		kv   *ast.KeyValueExpr
		call *ast.CallExpr
	}
	sets := map[*types.Var][]set{}
	var order []*types.Var
	conds := map[*types.Var]map[string]bool{} // the conditions its reads are under ("" for none)
	shown := map[*types.Var]string{}          // the first one as written
	reads := map[*types.Var][]token.Pos{}
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			switch x := n.(type) {
			case *ast.KeyValueExpr:
				id, ok := x.Key.(*ast.Ident)
				call, isCall := ast.Unparen(x.Value).(*ast.CallExpr)
				if !ok || !isCall {
					break
				}
				if _, conv := pass.TypesInfo.Types[call.Fun]; conv && pass.TypesInfo.Types[call.Fun].IsType() {
					break // a conversion builds nothing
				}
				if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok && v.IsField() {
					if sets[v] == nil {
						order = append(order, v)
					}
					sets[v] = append(sets[v], set{x, call})
				}
			case *ast.SelectorExpr:
				s := pass.TypesInfo.Selections[x]
				if s == nil || s.Kind() != types.FieldVal {
					break
				}
				v, ok := s.Obj().(*types.Var)
				if !ok {
					break
				}
				if len(stack) >= 2 {
					if as, ok := stack[len(stack)-2].(*ast.AssignStmt); ok && slicesContains(as.Lhs, ast.Expr(x)) {
						break // a write
					}
				}
				if conds[v] == nil {
					conds[v] = map[string]bool{}
				}
				key, cond := guard(stack)
				conds[v][key] = true
				if shown[v] == "" && cond != nil {
					shown[v] = nodeText(pass, cond)
				}
				reads[v] = append(reads[v], x.Pos())
			}
			return true
		})
	}
	for _, v := range order {
		cs := conds[v]
		if len(cs) != 1 || cs[""] {
			continue // never read, read unguarded, or under several conditions
		}
		cond := oneLine(shown[v])
		var at []string
		for _, p := range reads[v] {
			at = append(at, fmt.Sprint(pass.Fset.Position(p).Line))
		}
		for _, st := range sets[v] {
			built := oneLine(types.ExprString(st.call))
			d := analysis.Diagnostic{
				Category: "built-unless-used",
				Pos:      st.kv.Pos(),
				Message:  fmt.Sprintf("%s is built by %s with every value, but read only when %s (lines %s)", v.Name(), built, cond, strings.Join(at, ", ")),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"build it only when %s (here, or lazily at its first read): otherwise it is built and never used", cond)}},
			}
			for _, p := range reads[v] {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: "read only when " + cond})
			}
			pass.Report(d)
		}
	}
	return nil, nil
}

// guard returns the condition of the innermost if whose body holds the
// node at the top of stack, and its text with the receiver it starts
// with written as "_" ("_.Flags & Smartypants != 0"), which is the same
// for the methods of one type; "" and nil outside any if.
func guard(stack []ast.Node) (string, ast.Expr) {
	for i := len(stack) - 2; i >= 0; i-- {
		switch s := stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return "", nil
		case *ast.IfStmt:
			if s.Body == stack[i+1] {
				c := types.ExprString(s.Cond)
				if j := strings.IndexAny(c, ".&|=!<> "); j > 0 && token.IsIdentifier(c[:j]) && c[j] == '.' {
					c = "_" + c[j:]
				}
				return c, s.Cond
			}
		}
	}
	return "", nil
}

func slicesContains(es []ast.Expr, e ast.Expr) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}
