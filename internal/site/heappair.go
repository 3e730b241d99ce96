package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// MovedPair finds two or more locals of one value type in a function
// whose addresses it stores (in a field, a variable outside, or its
// result): each is moved to the heap on its own, where one array of them
// is one allocation.
var MovedPair = &analysis.Analyzer{
	Name: "movedpair",
	Doc:  "locals of one type each moved to the heap, where one allocation would hold them all",
	Run:  runMovedPair,
}

func runMovedPair(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		type stored struct {
			v    *types.Var
			decl token.Pos
			at   []string // where its address goes
		}
		var order []*stored
		byVar := map[*types.Var]*stored{}
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false // its own function
			}
			var dst []ast.Expr
			var src []ast.Expr
			switch s := n.(type) {
			case *ast.AssignStmt:
				if len(s.Lhs) != len(s.Rhs) {
					return true
				}
				dst, src = s.Lhs, s.Rhs
			default:
				return true
			}
			for i, r := range src {
				u, ok := ast.Unparen(r).(*ast.UnaryExpr)
				if !ok || u.Op != token.AND {
					continue
				}
				id, ok := ast.Unparen(u.X).(*ast.Ident)
				if !ok {
					continue
				}
				v, ok := pass.TypesInfo.Uses[id].(*types.Var)
				if !ok || v.IsField() || v.Parent() == nil || v.Parent() == pass.Pkg.Scope() || !isValueType(v.Type()) {
					continue
				}
				if _, field := ast.Unparen(dst[i]).(*ast.SelectorExpr); !field {
					continue // stored in a field: it outlives the call
				}
				st := byVar[v]
				if st == nil {
					st = &stored{v: v, decl: v.Pos()}
					byVar[v] = st
					order = append(order, st)
				}
				st.at = append(st.at, oneLine(types.ExprString(dst[i]))+" = &"+id.Name)
			}
			return true
		})
		byType := map[string][]*stored{}
		var types_ []string
		for _, st := range order {
			k := types.TypeString(st.v.Type(), types.RelativeTo(pass.Pkg))
			if byType[k] == nil {
				types_ = append(types_, k)
			}
			byType[k] = append(byType[k], st)
		}
		for _, t := range types_ {
			sts := byType[t]
			if len(sts) < 2 {
				continue
			}
			var names, at []string
			for _, st := range sts {
				names = append(names, st.v.Name())
				at = append(at, st.at[0])
			}
			d := analysis.Diagnostic{
				Category: "moved-pair",
				Pos:      sts[0].decl,
				Message:  fmt.Sprintf("%s (%s) are each moved to the heap: their addresses are stored (%s)", strings.Join(names, " and "), t, strings.Join(at, ", ")),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"allocate them together when they live about as long: one [%d]%s, storing the address of each element: one allocation instead of %d", len(sts), t, len(sts))}},
			}
			for _, st := range sts[1:] {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: st.decl, Message: st.v.Name() + " is moved to the heap too"})
			}
			pass.Report(d)
		}
	})
	return nil, nil
}

// isValueType reports whether t's values are held by value: a struct or
// an array, not a pointer, an interface, a slice, a map, a channel or a
// function.
func isValueType(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return false
}

// SearchFuncValue finds sort.Search whose predicate calls a func value (a
// comparator passed in): every probe makes an indirect call the compiler
// cannot inline, whatever the searching function's own inlining.
var SearchFuncValue = &analysis.Analyzer{
	Name: "searchfuncvalue",
	Doc:  "sort.Search whose predicate calls a comparator through a func value",
	Run:  runSearchFuncValue,
}

func runSearchFuncValue(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) != 2 || !isFunc(pass, c, "sort", "", "Search") {
				return true
			}
			lit, ok := ast.Unparen(c.Args[1]).(*ast.FuncLit)
			if !ok {
				return true
			}
			var fv string
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || fv != "" {
					return fv == ""
				}
				var obj types.Object
				switch f := ast.Unparen(call.Fun).(type) {
				case *ast.Ident:
					obj = pass.TypesInfo.Uses[f]
				case *ast.SelectorExpr:
					if s := pass.TypesInfo.Selections[f]; s != nil && s.Kind() == types.FieldVal {
						obj = s.Obj()
					}
				}
				if v, ok := obj.(*types.Var); ok {
					if _, isFn := v.Type().Underlying().(*types.Signature); isFn {
						fv = oneLine(types.ExprString(call.Fun))
					}
				}
				return true
			})
			if fv == "" {
				return true
			}
			pass.Report(analysis.Diagnostic{
				Category: "search-func-value",
				Pos:      c.Pos(),
				Message:  fmt.Sprintf("sort.Search calls its predicate on every probe, and the predicate calls %s, a func value: an indirect call the compiler cannot inline, on every comparison", fv),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"inherent to a comparator passed as a func value: a version specialised for ordered keys (a cmp.Ordered type parameter compared with <) removes the indirect call; inlining the searching function would not, since %s stays indirect", fv)}},
			})
			return true
		})
	})
	return nil, nil
}
