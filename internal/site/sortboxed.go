package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// SortBoxed finds sort.Sort or sort.Stable given a local value of the
// function (`arr := byKeyVal{…, pairs}; sort.Stable(&arr)`): the
// argument is a sort.Interface, which the compiler cannot see through,
// so the value moves to the heap on every call, and with it the slices
// it holds (a caller's `make([]pair, 0, 8)` escapes through it). The
// slices package sorts the slice itself with a comparison func and
// keeps both on the stack.
var SortBoxed = &analysis.Analyzer{
	Name: "sortboxed",
	Doc:  "sort.Sort or sort.Stable of a local value: it moves to the heap through sort.Interface, with the slices it holds",
	Run:  runSortBoxed,
}

func runSortBoxed(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || !isFunc(pass, call, "sort", "", "Sort") && !isFunc(pass, call, "sort", "", "Stable") {
				return
			}
			arg := ast.Unparen(call.Args[0])
			if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
				arg = ast.Unparen(u.X)
			}
			if conv, ok := arg.(*ast.CallExpr); ok && len(conv.Args) == 1 {
				sortedConversion(pass, call, conv)
				return
			}
			v, _ := objOf(pass, arg).(*types.Var)
			if v == nil || v.Pos() < fd.Body.Pos() || v.Pos() > fd.End() {
				return // a parameter or a global: not this function's value
			}
			if _, isStruct := v.Type().Underlying().(*types.Struct); !isStruct {
				return
			}
			stable := "SortFunc"
			if isFunc(pass, call, "sort", "", "Stable") {
				stable = "SortStableFunc"
			}
			held := heldSlices(pass, fd.Body, v)
			msg := fmt.Sprintf("%s passes %s, a %s made here, to %s as a sort.Interface: the compiler cannot see through the interface, so %s moves to the heap on every call",
				oneLine(types.ExprString(call)), v.Name(), types.TypeString(v.Type(), types.RelativeTo(pass.Pkg)), oneLine(types.ExprString(call.Fun)), v.Name())
			if held != "" {
				msg += fmt.Sprintf(", and the slices it holds (%s) escape with it", held)
			}
			d := analysis.Diagnostic{
				Category: "sort-boxed",
				Pos:      v.Pos(),
				Message:  msg,
				Related:  []analysis.RelatedInformation{{Pos: call.Pos(), Message: "the sort"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"sort the slice with slices.%s and a comparison func (its Less as a func of two elements): no interface, so %s and what it holds can stay on the stack", stable, v.Name())}},
			}
			// The parameters whose slices it holds: their callers'
			// allocations escape through it.
			seen := map[int]bool{}
			for _, p := range paramSlicesHeld(pass, fd, v) {
				if line := pass.Fset.Position(p.Pos()).Line; !seen[line] {
					seen[line] = true
					d.Related = append(d.Related, analysis.RelatedInformation{Pos: p.Pos(), Message: "a slice it holds"})
				}
			}
			pass.Report(d)
		})
	})
	return nil, nil
}

// heldSlices names the slice-typed values a composite literal that
// initializes v holds (byKeyVal{false, json, buf, pairs}: "json, buf,
// pairs").
func heldSlices(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) string {
	out := ""
	inspectBody(body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || objOf(pass, as.Lhs[0]) != v {
			return
		}
		lit, ok := ast.Unparen(as.Rhs[0]).(*ast.CompositeLit)
		if !ok {
			return
		}
		for _, el := range lit.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if _, isSlice := pass.TypesInfo.TypeOf(el).Underlying().(*types.Slice); isSlice {
				if out != "" {
					out += ", "
				}
				out += oneLine(types.ExprString(el))
			}
		}
	})
	return out
}

// paramSlicesHeld returns the parameters of fd a literal that
// initializes v holds.
func paramSlicesHeld(pass *analysis.Pass, fd *ast.FuncDecl, v *types.Var) []*types.Var {
	var out []*types.Var
	inspectBody(fd.Body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || objOf(pass, as.Lhs[0]) != v {
			return
		}
		if lit, ok := ast.Unparen(as.Rhs[0]).(*ast.CompositeLit); ok {
			for _, el := range lit.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				if p, ok := objOf(pass, el).(*types.Var); ok && isParam(fd, pass, p) {
					out = append(out, p)
				}
			}
		}
	})
	return out
}

// sortedConversion reports sort.Sort(byName(names)): a slice converted to
// a sorter type of the package's and boxed into the sort.Interface, one
// allocation per call, each comparison a call through the interface.
// slices.Sort (the sorter's Less is s[i] < s[j] on ordered elements) or
// slices.SortFunc sorts the slice itself: go-jsonnet's ToOrderedSlice,
// 2 allocations per call to 1 and −10…−25% time, measured by hand.
func sortedConversion(pass *analysis.Pass, call, conv *ast.CallExpr) {
	tv, ok := pass.TypesInfo.Types[conv.Fun]
	if !ok || !tv.IsType() {
		return
	}
	named, ok := tv.Type.(*types.Named)
	if !ok || named.Obj().Pkg() != pass.Pkg {
		return
	}
	sl, ok := named.Underlying().(*types.Slice)
	if !ok {
		return
	}
	fix := "slices.SortFunc(" + oneLine(types.ExprString(conv.Args[0])) + ", a comparison func of two elements, its Less)"
	if lessIsOrder(pass, named) {
		if b, ok := sl.Elem().Underlying().(*types.Basic); ok && b.Info()&(types.IsOrdered) != 0 {
			fix = "slices.Sort(" + oneLine(types.ExprString(conv.Args[0])) + ")"
		}
	}
	stable := ""
	if isFunc(pass, call, "sort", "", "Stable") {
		fix = "slices.SortStableFunc(" + oneLine(types.ExprString(conv.Args[0])) + ", a comparison func of two elements, its Less)"
		stable = " stably"
	}
	d := analysis.Diagnostic{
		Category: "sort-boxed",
		Pos:      call.Pos(),
		Related:  []analysis.RelatedInformation{{Pos: call.Pos(), Message: "the sort"}},
		Message: fmt.Sprintf("%s converts %s to %s and boxes it into a sort.Interface: one allocation per call, and every comparison and swap a call through the interface",
			oneLine(types.ExprString(call)), oneLine(types.ExprString(conv.Args[0])), named.Obj().Name()),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"sort the slice itself%s with %s: the same order, no interface and no allocation, the comparisons inlined", stable, fix)}},
	}
	pass.Report(d)
	// The sorter's Less, a cause of its own in the profile: the same
	// sort, the same change.
	for i := 0; i < named.NumMethods(); i++ {
		if m := named.Method(i); m.Name() == "Less" && m.Pkg() == pass.Pkg {
			if fd := funcDecl(pass, m); fd != nil && fd.Body != nil && len(fd.Body.List) > 0 {
				d.Pos = fd.Body.List[0].Pos()
				pass.Report(d)
			}
		}
	}
}

// lessIsOrder reports whether a sorter type's Less method is s[i] < s[j].
func lessIsOrder(pass *analysis.Pass, named *types.Named) bool {
	for i := 0; i < named.NumMethods(); i++ {
		m := named.Method(i)
		if m.Name() != "Less" {
			continue
		}
		fd := funcDecl(pass, m)
		if fd == nil || fd.Body == nil || len(fd.Body.List) != 1 {
			return false
		}
		ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return false
		}
		be, ok := ast.Unparen(ret.Results[0]).(*ast.BinaryExpr)
		if !ok || be.Op != token.LSS {
			return false
		}
		x, xok := ast.Unparen(be.X).(*ast.IndexExpr)
		y, yok := ast.Unparen(be.Y).(*ast.IndexExpr)
		params := fd.Type.Params.List
		if !xok || !yok || len(params) != 1 || len(params[0].Names) != 2 {
			return false
		}
		xi, _ := ast.Unparen(x.Index).(*ast.Ident)
		yi, _ := ast.Unparen(y.Index).(*ast.Ident)
		return xi != nil && yi != nil && xi.Name == params[0].Names[0].Name && yi.Name == params[0].Names[1].Name
	}
	return false
}
