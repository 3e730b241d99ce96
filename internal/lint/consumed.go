package lint

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
)

// Consumed reports a container that every iteration of a benchmark's
// loop removes from (Remove, Delete, Pop, Dequeue, Poll, Clear) while nothing in
// the loop puts anything back: filled once before the loop, it is
// emptied by the first iteration, and the others remove from an empty
// container (or remove nothing). ns/op is then one real drain spread over
// b.N, and it falls as b.N grows. The container may be a parameter of a
// helper the benchmarks call (benchmarkRemove(b, tree, size)), filled by
// each caller before the call.
var Consumed = &analysis.Analyzer{
	Name:     "consumed",
	Doc:      "report a container every iteration removes from and nothing in the loop refills",
	URL:      "https://github.com/perfloop/perfloop/blob/main/docs/lint.md#consumed",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		return collect(pass, func() {
			for _, bn := range withHelpers(pass, func(*ast.BlockStmt, types.Object) bool { return true }) {
				consumed(pass, bn)
			}
		}), nil
	},
	ResultType: reflect.TypeFor[[]Finding](),
}

// removing are the method names that take elements out of a container;
// reading, those that only read it. Any other method called on it in the
// loop may put elements back (ReplaceOrInsert, Upsert, Load…).
var (
	removing = []string{"Remove", "Delete", "Pop", "Dequeue", "Poll", "Shift", "Take", "Clear"}
	reading  = []string{"Get", "Has", "Contains", "Len", "Size", "Find", "Lookup", "Peek", "Min", "Max", "Empty", "Values", "Keys", "Iterator", "String", "Each", "Ascend", "Descend", "Index", "At", "Front", "Back", "First", "Last"}
)

func consumed(pass *analysis.Pass, bn bench) {
	containerCalls(pass, bn, removing, func(l ast.Stmt, body *ast.BlockStmt, call *ast.CallExpr, method string, id *ast.Ident, v *types.Var) bool {
		if refills(pass, body, v) {
			return false
		}
		report(pass, call, bn,
			fmt.Sprintf("every iteration removes from %s (%s), and nothing in the loop puts anything back", id.Name, method),
			fmt.Sprintf("%s is filled once, before the loop: the first iteration empties it, the others remove from an empty %s, so ns/op is one drain spread over b.N and falls as b.N grows", id.Name, id.Name),
			fmt.Sprintf("fill %s again in each iteration (b.StopTimer and b.StartTimer around the refill), or measure a steady state: put back what each iteration removes", id.Name))
		return true
	})
}

// containerCalls calls visit with each call, in a benchmark's loop, of a
// method named with one of words (Remove…, Add…) on a variable made
// before the loop (or a helper's parameter), once per variable: l is the
// loop, body its body. visit reports whether it reported the variable;
// one that it did not is offered again at its next call.
func containerCalls(pass *analysis.Pass, bn bench, words []string, visit func(l ast.Stmt, body *ast.BlockStmt, call *ast.CallExpr, method string, id *ast.Ident, v *types.Var) bool) {
	ls, _ := loops(pass, bn.body, bn)
	for _, l := range ls {
		body := loopBody(l)
		if body == nil {
			continue
		}
		reported := map[types.Object]bool{}
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || !hasPrefixIn(sel.Sel.Name, words) {
				return true
			}
			id, ok := ast.Unparen(sel.X).(*ast.Ident)
			if !ok {
				return true
			}
			v, ok := pass.TypesInfo.Uses[id].(*types.Var)
			if !ok || reported[v] || v.Pos() >= l.Pos() && v.Pos() < l.End() {
				return true // made in the loop
			}
			if _, isMethod := pass.TypesInfo.Selections[sel]; !isMethod {
				return true
			}
			if visit(l, body, call, sel.Sel.Name, id, v) {
				reported[v] = true
			}
			return true
		})
	}
}

// refills reports whether body may put elements into v: calls a method
// of v that neither removes nor only reads (Put, ReplaceOrInsert), assigns
// v, or hands v to a function (which may fill it).
func refills(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == v {
					found = true
				}
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && !hasPrefixIn(sel.Sel.Name, removing) && !hasPrefixIn(sel.Sel.Name, reading) {
				if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v {
					found = true
				}
			}
			for _, a := range x.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// hasPrefixIn reports whether name starts with one of the words.
func hasPrefixIn(name string, words []string) bool {
	for _, w := range words {
		if strings.HasPrefix(name, w) {
			return true
		}
	}
	return false
}
