package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// AddedOneByOne finds a loop over a collection of known length that adds
// each element to a value through one of its methods, a method that
// appends to a slice field of its receiver or stores into a map field the
// package makes without a size (d.Set(k, v) appending to d.Keys and
// storing into d.Data, both made without room by NewDict): the value
// grows one element at a time, its slice regrowing at 1, 2, 4, … and its
// map outgrowing its first group past eight entries, though the loop's
// count is known before it starts. jinja's FromGoValue converts every
// map of the caller's data this way: the dict made with its size and the
// sorted keys kept, −3…−6% allocs/op, measured by hand.
var AddedOneByOne = &analysis.Analyzer{
	Name: "addedonebyone",
	Doc:  "a loop of known count that grows a value one element at a time through its method",
	Run:  runAddedOneByOne,
}

func runAddedOneByOne(pass *analysis.Pass) (any, error) {
	roomed := fieldsGivenRoom(pass, madeWithMake(pass))
	unsized := unsizedMapFields(pass)
	grows := map[*types.Func][]string{} // a method's fields that grow as it adds
	for fd := range funcDecls(pass) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil || fd.Recv == nil || len(fd.Recv.List[0].Names) == 0 {
			continue
		}
		recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			switch l := ast.Unparen(as.Lhs[0]).(type) {
			case *ast.SelectorExpr:
				call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				f := fieldOf(pass, l)
				// append(e.s, s...) adds a string's bytes, not one
				// element: the count of calls is not its length
				// (starlark's encoder.string).
				if ok && f != nil && isBuiltin(pass, call.Fun, "append") && !call.Ellipsis.IsValid() && objOf(pass, l.X) == recv && !roomed[f.Origin()] {
					grows[fn] = append(grows[fn], f.Name())
				}
			case *ast.IndexExpr:
				sel, ok := ast.Unparen(l.X).(*ast.SelectorExpr)
				if !ok || objOf(pass, sel.X) != recv {
					return
				}
				if f := fieldOf(pass, sel); f != nil {
					if _, ok := unsized[f.Origin()]; ok {
						grows[fn] = append(grows[fn], f.Name())
					}
				}
			}
		})
	}
	if len(grows) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			loop, ok := n.(*ast.RangeStmt)
			if !ok {
				return
			}
			switch typeUnder(pass, loop.X).(type) {
			case *types.Slice, *types.Map, *types.Array:
			default:
				return
			}
			for _, st := range loop.Body.List {
				es, ok := st.(*ast.ExprStmt)
				if !ok {
					continue
				}
				call, ok := ast.Unparen(es.X).(*ast.CallExpr)
				if !ok {
					continue
				}
				m := calledFunc(pass, call)
				fields := grows[m]
				sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
				if len(fields) == 0 || !ok {
					continue
				}
				v := objOf(pass, sel.X)
				if v == nil || v.Pos() < fd.Body.Pos() || v.Pos() > fd.Body.End() {
					continue // not a value the function makes
				}
				x := oneLine(types.ExprString(loop.X))
				pass.Report(analysis.Diagnostic{
					Category: "added-one-by-one",
					Pos:      call.Pos(),
					Related:  []analysis.RelatedInformation{{Pos: m.Pos(), Message: allocatingCallee}},
					Message: fmt.Sprintf("%s adds the len(%s) elements of %s to %s one at a time through %s, which grows its %s as it adds, made without room: a slice regrows at 1, 2, 4, … and a map outgrows its first group past 8 entries, though the count is known before the loop",
						fd.Name.Name, x, x, v.Name(), m.Name(), strings.Join(unique(fields), " and ")),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"make %s with room for len(%s) before the loop (a constructor that takes a size, giving the slice its capacity and the map its size), or fill its fields directly from what the loop already has (a sorted slice of the keys is the key order)", v.Name(), x)}},
				})
				return
			}
		})
	})
	return nil, nil
}
