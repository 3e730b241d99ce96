package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// MapHanded finds the stores into a map parameter that every caller in
// the package fills from an exported field of an exported type — the map
// the API hands its users (a router's match.Vars, which the handler
// reads through mux.Vars):
//
//	func extractVars(input string, matches []int, names []string, output map[string]string) {
//		for i, name := range names {
//			output[name] = input[matches[2*i+2]:matches[2*i+3]]   // the result's entries
//		}
//	}
//	… extractVars(path, matches, v.path.varsN, m.Vars)   // m *RouteMatch
//
// Each store is an entry of what the caller asked for: the API's cost,
// which no change inside the function removes.
var MapHanded = &analysis.Analyzer{
	Name: "maphanded",
	Doc:  "stores into a map parameter that callers fill from an exported field of an exported type",
	Run:  runMapHanded,
}

func runMapHanded(pass *analysis.Pass) (any, error) {
	// The exported field every call passes, by function and parameter
	// index; "" once a call passes anything else.
	type arg struct {
		fn *types.Func
		i  int
	}
	passed := map[arg]string{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectAll(fd.Body, func(n ast.Node) {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calleeFunc(pass, c)
			if fn == nil || fn.Pkg() != pass.Pkg {
				return
			}
			for i, a := range c.Args {
				if t := pass.TypesInfo.TypeOf(a); t == nil {
					continue
				} else if _, ok := t.Underlying().(*types.Map); !ok {
					continue
				}
				k := arg{fn.Origin(), i}
				field := apiField(pass, a)
				if prev, seen := passed[k]; field == "" || seen && prev != field {
					passed[k] = ""
					continue
				}
				passed[k] = field
			}
		})
	})
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok || fn.Exported() {
			return // an exported function's callers are outside too
		}
		params := fn.Type().(*types.Signature).Params()
		byVar := map[*types.Var]string{}
		for i := range params.Len() {
			if f := passed[arg{fn, i}]; f != "" {
				byVar[params.At(i)] = f
			}
		}
		if len(byVar) == 0 {
			return
		}
		inspectAll(fd.Body, func(n ast.Node) {
			st, ok := n.(*ast.AssignStmt)
			if !ok || st.Tok != token.ASSIGN || len(st.Lhs) != 1 {
				return
			}
			ix, ok := st.Lhs[0].(*ast.IndexExpr)
			if !ok {
				return
			}
			id, ok := ast.Unparen(ix.X).(*ast.Ident)
			if !ok {
				return
			}
			v, _ := pass.TypesInfo.Uses[id].(*types.Var)
			field := byVar[v]
			if field == "" {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "map-handed",
				Pos:      st.Pos(),
				Message: fmt.Sprintf("%s stores into %s, the map every caller passes from %s, an exported field: each store is an entry of what the API hands its user",
					oneLine(types.ExprString(ix)), id.Name, field),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("the entries are the result the caller reads (%s): a cost of the API, which no change inside %s removes; a cheaper form is an API change (a slice of pairs, or values the caller asks for by name)", field, fd.Name.Name)}},
			})
		})
	})
	return nil, nil
}

// apiField names the exported field of an exported struct type an
// expression reads ("RouteMatch.Vars"), or "".
func apiField(pass *analysis.Pass, e ast.Expr) string {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
	if !ok || !v.IsField() || !v.Exported() {
		return ""
	}
	t := pass.TypesInfo.TypeOf(sel.X)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || !n.Obj().Exported() {
		return ""
	}
	return n.Obj().Name() + "." + v.Name()
}
