package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
)

// Accumulated reports a container, made before a benchmark's loop, that
// every iteration adds to (Add, Set, Put, Insert, Push, Append, Enqueue,
// Store, Upsert) with a value that differs per iteration (the loop's
// counter, a random draw) while nothing in the loop removes from it,
// clears it or makes it again: it grows with b.N, so each iteration
// measures a larger container than the one before, and ns/op and B/op
// depend on the iteration count the testing package picks (roaring's
// BenchmarkSetRoaring: 139 ns/op at 1,000 iterations, 36 at 3,000,000, as
// array containers turn into bitmaps). The mirror of consumed.
var Accumulated = &analysis.Analyzer{
	Name:     "accumulated",
	Doc:      "report a container every iteration adds a new value to and nothing in the loop empties",
	URL:      "https://github.com/perfloop/perfloop/blob/main/docs/lint.md#accumulated",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		return collect(pass, func() {
			for _, bn := range withHelpers(pass, func(*ast.BlockStmt, types.Object) bool { return true }) {
				accumulated(pass, bn)
			}
		}), nil
	},
	ResultType: reflect.TypeFor[[]Finding](),
}

// adding are the method names that put a value into a container.
var adding = []string{"Add", "Set", "Put", "Insert", "Push", "Append", "Enqueue", "Store", "Upsert", "ReplaceOrInsert"}

func accumulated(pass *analysis.Pass, bn bench) {
	varying := map[ast.Stmt]map[types.Object]bool{}
	containerCalls(pass, bn, adding, func(l ast.Stmt, body *ast.BlockStmt, call *ast.CallExpr, method string, id *ast.Ident, v *types.Var) bool {
		if varying[l] == nil {
			varying[l] = perIteration(pass, l)
		}
		if len(call.Args) == 0 || fromTesting(v.Type()) || sized(pass, bn.body, v) || setupLoop(bn.body, l) {
			return false
		}
		if buf := appendedBack(pass, body, call); buf != "" {
			// a, _ = d.AppendText(a): the buffer appended to and kept
			// grows, not the value appending.
			report(pass, call, bn,
				fmt.Sprintf("every iteration appends to %s (%s) and keeps the result in it, and nothing in the loop empties it", buf, oneLine(types.ExprString(call))),
				fmt.Sprintf("%s grows with b.N: the appends copy it to larger arrays as it grows, so ns/op and B/op measure the growth of a buffer of whatever size the iteration count leaves it at, not the append of one value", buf),
				fmt.Sprintf("append into an emptied buffer each iteration (%s = %s[:0] before the call, or pass %s[:0]): the same array is reused and B/op is the call's own", buf, buf, buf))
			return true
		}
		if !newValue(pass, call.Args[0], varying[l]) || empties(pass, body, v) || emptiedBack(pass, body, call) {
			return false
		}
		report(pass, call, bn,
			fmt.Sprintf("every iteration adds a new value to %s (%s), and nothing in the loop removes from it or makes it again", id.Name, method),
			fmt.Sprintf("%s grows with b.N: each iteration works on a larger %s than the one before, so ns/op and B/op are those of whatever size the iteration count the testing package picks leaves it at", id.Name, id.Name),
			fmt.Sprintf("measure a steady state: fill %s to a fixed size before the loop and draw the values from a bounded set (i%%n), or remove what each iteration adds, or make %s again every n iterations under b.StopTimer", id.Name, id.Name))
		return true
	})
}

// setupLoop reports whether loop l fills the container before the timed
// loop: a later statement of the benchmark's body resets the timer or runs
// the timed loop itself (b.RunParallel, for b.Loop()). bigcache's
// readFromCache Sets b.N keys, then b.ResetTimer(), then reads in
// RunParallel: the container is the fixture, not what the timed loop grows.
func setupLoop(body *ast.BlockStmt, l ast.Stmt) bool {
	after := false
	for _, st := range body.List {
		if st == l {
			after = true
			continue
		}
		if !after {
			continue
		}
		found := false
		ast.Inspect(st, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "ResetTimer" || sel.Sel.Name == "RunParallel" || sel.Sel.Name == "Loop") {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// perIteration returns the variables that take a new value each
// iteration of loop l and keep it into the next: its counter or range
// variables, and variables declared before the loop that it assigns (a
// key counter k++). A local declared inside the loop starts again each
// iteration (an inner loop's n over 0..size puts the same keys back).
func perIteration(pass *analysis.Pass, l ast.Stmt) map[types.Object]bool {
	out := map[types.Object]bool{}
	mark := func(e ast.Expr, outside bool) {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return
		}
		obj := pass.TypesInfo.ObjectOf(id)
		if obj == nil || outside && obj.Pos() >= l.Pos() && obj.Pos() < l.End() {
			return
		}
		out[obj] = true
	}
	switch l := l.(type) {
	case *ast.ForStmt:
		if as, ok := l.Init.(*ast.AssignStmt); ok {
			for _, x := range as.Lhs {
				mark(x, false)
			}
		}
	case *ast.RangeStmt:
		if l.Key != nil {
			mark(l.Key, false)
		}
		if l.Value != nil {
			mark(l.Value, false)
		}
	}
	ast.Inspect(loopBody(l), func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, e := range x.Lhs {
				mark(e, true)
			}
		case *ast.IncDecStmt:
			mark(x.X, true)
		}
		return true
	})
	return out
}

// randDraws are the methods and functions of math/rand (and v2) that draw
// a value: a key drawn from them differs per iteration.
var randDraws = []string{"Int", "Uint", "Float", "Intn", "IntN", "Int31", "Int63", "Uint32", "Uint64", "N", "Perm"}

// newValue reports whether e differs per iteration and is not folded
// into a bounded set: it mentions a per-iteration variable or a random
// draw, and no % or & bounds it.
func newValue(pass *analysis.Pass, e ast.Expr, varying map[types.Object]bool) bool {
	differs, bounded := false, false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BinaryExpr:
			if x.Op == token.REM || x.Op == token.AND {
				bounded = true
			}
		case *ast.Ident:
			if varying[pass.TypesInfo.ObjectOf(x)] {
				differs = true
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && hasPrefixIn(sel.Sel.Name, randDraws) {
				if fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func); ok && fn.Pkg() != nil && (fn.Pkg().Path() == "math/rand" || fn.Pkg().Path() == "math/rand/v2") {
					differs = true
				}
			}
		}
		return true
	})
	return differs && !bounded
}

// empties reports whether body may take values out of v or replace it:
// calls a method of v that removes (Remove, Delete, Clear, Reset…),
// assigns v, or hands v to a function.
func empties(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
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
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && (hasPrefixIn(sel.Sel.Name, removing) || hasPrefixIn(sel.Sel.Name, []string{"Reset", "Truncate", "Flush"})) {
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

// fromTesting reports whether t is, or points to, a type of package
// testing (b.SetBytes is no container).
func fromTesting(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing"
}

// sized reports whether body makes v with a call given an integer (a
// bitset of sz bits, an LRU cache of 8192 entries): a container sized up
// front, or bounded, which adding to does not grow.
func sized(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found {
			return !found
		}
		for i, l := range as.Lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok || pass.TypesInfo.ObjectOf(id) != v || i >= len(as.Rhs) && len(as.Rhs) != 1 {
				continue
			}
			rhs := as.Rhs[min(i, len(as.Rhs)-1)]
			call, ok := ast.Unparen(rhs).(*ast.CallExpr)
			if !ok {
				continue
			}
			for _, a := range call.Args {
				if b, ok := pass.TypesInfo.TypeOf(a).Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// appendedBack returns the name of the buffer an Append-style call is
// given first and whose result is assigned back to it (a, _ =
// d.AppendText(a)), or "".
func appendedBack(pass *analysis.Pass, body *ast.BlockStmt, call *ast.CallExpr) string {
	arg, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return ""
	}
	return assignedBack(pass, body, call, arg)
}

// emptiedBack reports whether an Append-style call is given its buffer
// emptied (a[:0]) and its result is assigned back to it: the same array
// reused every iteration, nothing grows (a, _ = d.AppendText(a[:0])).
func emptiedBack(pass *analysis.Pass, body *ast.BlockStmt, call *ast.CallExpr) bool {
	sl, ok := ast.Unparen(call.Args[0]).(*ast.SliceExpr)
	if !ok || sl.Low != nil || sl.High == nil {
		return false
	}
	if tv, ok := pass.TypesInfo.Types[sl.High]; !ok || tv.Value == nil || tv.Value.String() != "0" {
		return false
	}
	arg, ok := ast.Unparen(sl.X).(*ast.Ident)
	return ok && assignedBack(pass, body, call, arg) != ""
}

// assignedBack returns arg's name when call's first result is assigned
// to the slice variable arg names, or "".
func assignedBack(pass *analysis.Pass, body *ast.BlockStmt, call *ast.CallExpr, arg *ast.Ident) string {
	obj := pass.TypesInfo.Uses[arg]
	if _, ok := obj.(*types.Var); !ok {
		return ""
	}
	if _, ok := obj.Type().Underlying().(*types.Slice); !ok {
		return ""
	}
	name := ""
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != call || len(as.Lhs) == 0 {
			return name == ""
		}
		if id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == obj {
			name = id.Name
		}
		return false
	})
	return name
}
