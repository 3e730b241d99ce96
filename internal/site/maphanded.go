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

// MapToCallback finds a map made in a function and stored in an exported
// field of a local value of an exported struct type, which the function
// then hands to a function value — the callback its user configured:
//
//	v.QueryParams = map[string][]string{}
//	…
//	if err := config.LogValuesFunc(c, v); err != nil {
//
// The map is what the API gives the callback, which may keep it: a new
// one per call is the API's cost, and reusing one (clear(m)) would hand
// the user a map that changes under them.
var MapToCallback = &analysis.Analyzer{
	Name: "maptocallback",
	Doc:  "a map stored in an exported field of a value handed to a callback",
	Run:  runMapToCallback,
}

func runMapToCallback(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		// The local values handed to a function value's call.
		handed := map[*types.Var]string{}
		ast.Inspect(body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			t, ok := pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
			if !ok || t == nil {
				return true
			}
			if fn := calledFunc(pass, call); fn != nil {
				return true // a declared function or method, not a value
			}
			if tv := pass.TypesInfo.Types[call.Fun]; tv.IsType() {
				return true // a conversion
			}
			for _, a := range call.Args {
				if v, ok := objOf(pass, a).(*types.Var); ok && v.Pos() >= body.Pos() && v.Pos() < body.End() {
					handed[v] = oneLine(types.ExprString(call.Fun))
				}
			}
			return true
		})
		if len(handed) == 0 {
			return
		}
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			sel, ok := as.Lhs[0].(*ast.SelectorExpr)
			if !ok || !sel.Sel.IsExported() {
				return true
			}
			v, ok := objOf(pass, sel.X).(*types.Var)
			if !ok || handed[v] == "" {
				return true
			}
			if _, isMap := pass.TypesInfo.TypeOf(as.Lhs[0]).Underlying().(*types.Map); !isMap || !madeHere(pass, as.Rhs[0]) {
				return true
			}
			if n, ok := types.Unalias(v.Type()).(*types.Named); !ok || !n.Obj().Exported() {
				return true
			}
			name := oneLine(types.ExprString(sel))
			// The stores into it, where a map allocates as it fills.
			var stores []analysis.RelatedInformation
			ast.Inspect(body, func(m ast.Node) bool {
				st, ok := m.(*ast.AssignStmt)
				if !ok {
					return true
				}
				for _, l := range st.Lhs {
					if ix, ok := l.(*ast.IndexExpr); ok && oneLine(types.ExprString(ix.X)) == name {
						stores = append(stores, analysis.RelatedInformation{Pos: st.Pos(), Message: "an entry stored"})
					}
				}
				return true
			})
			pass.Report(analysis.Diagnostic{
				Category: "map-handed",
				Pos:      as.Pos(),
				Related:  stores,
				Message: fmt.Sprintf("%s is a map made per call and handed to %s in %s: what the API gives its callback, which may keep it",
					name, handed[v], v.Name()),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("none inside the function: each call's %s is the callback's own map, and reusing one (clear) would change it under a callback that kept it; fewer entries, or the values passed another way, is an API change", name)}},
			})
			return true
		})
	})
	return nil, nil
}

// madeHere reports whether e makes a new map: a composite literal or make.
func madeHere(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.CallExpr:
		return isBuiltin(pass, x.Fun, "make")
	}
	return false
}
