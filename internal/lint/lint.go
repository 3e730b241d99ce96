// Package lint holds analyzers for benchmarks that measure the wrong
// thing: mistakes invisible in the numbers, which a careful reviewer
// catches by reading the benchmark. Each is a plain
// golang.org/x/tools/go/analysis Analyzer, run by perfloop lint and by
// go vet -vettool=$(which perfloop-vet).
//
// This package is opinionated. It speaks only where the number is
// distorted, and it says why and how to fix it:
//
//   - bnsize: b.N used as a size (make, a slice bound, a function's
//     argument) or read outside the loop: the work per op changes with the
//     iteration count, so ns/op is not a cost per operation;
//   - noloop: a benchmark with no b.N loop and no b.Loop: it times one run
//     however large b.N grows, and ns/op falls toward zero;
//   - setup: work before a b.N loop with no b.ResetTimer after it: the
//     setup is timed and divided among the iterations;
//   - discard: a result discarded inside a b.N loop: once inlined, a pure
//     call may be deleted as dead code, timing nothing (b.Loop keeps the
//     arguments and results of calls in its body alive);
//   - setbytes: a benchmark over a byte buffer or a reader with no
//     b.SetBytes: no MB/s, so a throughput change reads as a time change;
//   - looptimer: b.StopTimer or b.StartTimer inside a b.Loop loop, which
//     b.Loop forbids;
//   - pbnext: a RunParallel body that never calls pb.Next: it runs once
//     per goroutine whatever b.N is;
//   - runinloop: b.Run inside a loop over b.N: sub-benchmarks are run
//     b.N times each;
//   - parallel: a concurrent benchmark that splits b.N among its workers
//     with truncation (b.N / workers), starts a number of workers that
//     ignores -cpu (runtime.NumCPU(), a constant), starts its workers
//     before the timer (ns/op is not the cost of an op at that -cpu), or
//     builds its keys from a loop's bound instead of its index (one hot
//     key where the name claims many);
//   - misnamed: a benchmark named for a function of its package that it
//     never calls;
//   - globalset: a benchmark that sets a package variable a later
//     benchmark reads, and never restores it;
//   - mutated, makezero: an input the loop changes in place, or made
//     with a length and then appended to;
//   - drained: a reader or a request with a body made once before the
//     loop and read by every iteration: the first drains it;
//   - consumed: a container every iteration removes from and nothing in
//     the loop refills: the first iteration empties it;
//   - twins: a benchmark whose body is another's, call for call: two
//     names, one measurement;
//   - ignoredparam: a benchmark helper that never reads a parameter its
//     callers set to different values: the cases named for each value
//     measure one thing.
//
// The analyzers read _test.go files only, and only functions named
// Benchmark… with one *testing.B parameter (and the functions such a
// benchmark passes to b.Run); parallel also reads the helpers a
// benchmark passes its b to, where concurrent benchmarks keep their
// goroutines.
package lint

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzers are every analyzer of this package, in the order they are
// documented.
var Analyzers = []*analysis.Analyzer{BNSize, NoLoop, Setup, Discard, SetBytes, LoopTimer, PBNext, RunInLoop, Parallel, Misnamed, GlobalSet, Mutated, MakeZero, Drained, Consumed, Accumulated, Twins, IgnoredParam, Unflushed}

// bench is one benchmark function (or a function literal a benchmark
// passes to b.Run) and its *testing.B parameter.
type bench struct {
	name string
	// callers are the benchmarks that call a helper taking a
	// *testing.B: its mistakes are theirs.
	callers []string
	body    *ast.BlockStmt
	b       types.Object // the *testing.B parameter
	file    *ast.File
	// n holds the local variables that copy b.N (n := b.N), which the
	// analyzers treat as b.N.
	n map[types.Object]bool
}

// benchmarks returns the benchmark functions of the pass's _test.go files
// and the func literals they pass to b.Run.
func benchmarks(pass *analysis.Pass) []bench {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	var out []bench
	var files = map[*token.File]*ast.File{}
	for _, f := range pass.Files {
		files[pass.Fset.File(f.Pos())] = f
	}
	ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil)}, func(n ast.Node) {
		fd := n.(*ast.FuncDecl)
		f := files[pass.Fset.File(fd.Pos())]
		if fd.Body == nil || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Benchmark") ||
			!strings.HasSuffix(pass.Fset.File(fd.Pos()).Name(), "_test.go") {
			return
		}
		obj := testingB(pass, fd.Type)
		if obj == nil {
			return
		}
		out = append(out, bench{name: fd.Name.Name, body: fd.Body, b: obj, file: f, n: nAliases(pass, fd.Body, obj)})
		// Sub-benchmarks: b.Run("name", func(b *testing.B) { … }).
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isMethodCall(pass, call, obj, "Run") || len(call.Args) != 2 {
				return true
			}
			if lit, ok := call.Args[1].(*ast.FuncLit); ok {
				if sub := testingB(pass, lit.Type); sub != nil {
					name := fd.Name.Name + "/*" // a name computed at run time
					if s, ok := call.Args[0].(*ast.BasicLit); ok {
						name = fd.Name.Name + "/" + strings.Trim(s.Value, "\"`")
					}
					out = append(out, bench{name: name, body: lit.Body, b: sub, file: f, n: nAliases(pass, lit.Body, sub)})
				}
			}
			return true
		})
	})
	return out
}

// testingB returns the object of the single *testing.B parameter of a
// function type, or nil.
func testingB(pass *analysis.Pass, ft *ast.FuncType) types.Object {
	if ft.Params == nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) != 1 {
		return nil
	}
	id := ft.Params.List[0].Names[0]
	obj := pass.TypesInfo.Defs[id]
	if obj == nil || !isNamedPointer(obj.Type(), "testing", "B") {
		return nil
	}
	return obj
}

// isNamedPointer reports whether t is *pkg.name.
func isNamedPointer(t types.Type, pkg, name string) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// isB reports whether e is the identifier of obj.
func isB(pass *analysis.Pass, e ast.Expr, obj types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && pass.TypesInfo.Uses[id] == obj
}

// isBN reports whether e is bn's b.N, or a local copy of it.
func isBN(pass *analysis.Pass, e ast.Expr, bn bench) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		return e.Sel.Name == "N" && isB(pass, e.X, bn.b)
	case *ast.Ident:
		return bn.n[pass.TypesInfo.Uses[e]]
	}
	return false
}

// nAliases returns the local variables of body declared or assigned from
// b.N alone ("n := b.N"): a loop to n is a loop over b.N.
func nAliases(pass *analysis.Pass, body *ast.BlockStmt, b types.Object) map[types.Object]bool {
	out := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, r := range as.Rhs {
			sel, ok := ast.Unparen(r).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "N" || !isB(pass, sel.X, b) {
				continue
			}
			if id, ok := as.Lhs[i].(*ast.Ident); ok {
				if obj := pass.TypesInfo.ObjectOf(id); obj != nil {
					out[obj] = true
				}
			}
		}
		return true
	})
	return out
}

// isMethodCall reports whether call is obj.name(…).
func isMethodCall(pass *analysis.Pass, call *ast.CallExpr, obj types.Object, name string) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == name && isB(pass, sel.X, obj)
}

// mentionsBN reports whether n reads b.N (or a copy) anywhere.
func mentionsBN(pass *analysis.Pass, n ast.Node, bn bench) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && isBN(pass, e, bn) {
			found = true
		}
		return !found
	})
	return found
}

// loopKind says how a for statement iterates a benchmark.
type loopKind int

const (
	notBenchLoop loopKind = iota
	bNLoop                // for i := 0; i < b.N; i++, for range b.N
	bLoopLoop             // for b.Loop()
)

// benchLoop classifies a statement: a loop over b.N, a b.Loop loop, or
// neither.
func benchLoop(pass *analysis.Pass, s ast.Stmt, bn bench) loopKind {
	switch s := s.(type) {
	case *ast.ForStmt:
		if s.Cond == nil {
			return notBenchLoop
		}
		if call, ok := ast.Unparen(s.Cond).(*ast.CallExpr); ok && isMethodCall(pass, call, bn.b, "Loop") {
			return bLoopLoop
		}
		if mentionsBN(pass, s.Cond, bn) {
			return bNLoop
		}
	case *ast.RangeStmt:
		if isBN(pass, s.X, bn) {
			return bNLoop
		}
	}
	return notBenchLoop
}

// loops returns the benchmark loops in body (at any depth), in order.
func loops(pass *analysis.Pass, body ast.Node, bn bench) (out []ast.Stmt, kinds []loopKind) {
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false // a closure's loops are its own
		}
		if s, ok := n.(ast.Stmt); ok {
			if k := benchLoop(pass, s, bn); k != notBenchLoop {
				out, kinds = append(out, s), append(kinds, k)
			}
		}
		return true
	})
	return out, kinds
}

// loopBody returns the body of a for or range statement.
func loopBody(s ast.Stmt) *ast.BlockStmt {
	switch s := s.(type) {
	case *ast.ForStmt:
		return s.Body
	case *ast.RangeStmt:
		return s.Body
	}
	return nil
}

// callsMethod reports whether n calls obj.name() anywhere outside nested
// function literals.
func callsMethod(pass *analysis.Pass, n ast.Node, obj types.Object, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok && isMethodCall(pass, call, obj, name) {
			found = true
		}
		return !found
	})
	return found
}

// A Finding is what an analyzer found, in parts: the benchmark, what is
// wrong, why it distorts the number and the fix. The analyzers return
// their findings as their result and report each as a diagnostic whose
// message joins the parts, for go vet.
type Finding struct {
	Pos, End  token.Pos
	Benchmark string
	// Benchmarks are the benchmarks a helper's finding is about (its
	// callers), or the one benchmark.
	Benchmarks []string
	What, Why  string
	Fix        string
	// SuggestedFix names the mechanical rewrite, if any.
	SuggestedFix string
}

// passFindings collects each pass's findings for its result.
var passFindings sync.Map // *analysis.Pass → *[]Finding

// report adds a diagnostic at n for benchmark bn, with why it distorts
// the number and the fix.
func report(pass *analysis.Pass, n ast.Node, bn bench, msg, why, fix string, fixes ...analysis.SuggestedFix) {
	f := Finding{Pos: n.Pos(), End: n.End(), Benchmark: bn.name, Benchmarks: bn.callers, What: msg, Why: why, Fix: fix}
	if len(f.Benchmarks) == 0 {
		f.Benchmarks = []string{bn.name}
	}
	if len(fixes) > 0 {
		f.SuggestedFix = fixes[0].Message
	}
	if v, ok := passFindings.Load(pass); ok {
		p := v.(*[]Finding)
		*p = append(*p, f)
	}
	pass.Report(analysis.Diagnostic{
		Pos:            n.Pos(),
		End:            n.End(),
		Message:        bn.name + ": " + msg + ": " + why + "; " + fix,
		SuggestedFixes: fixes,
	})
}

// collect runs run with a list for the pass's findings and returns them.
func collect(pass *analysis.Pass, run func()) []Finding {
	var out []Finding
	passFindings.Store(pass, &out)
	defer passFindings.Delete(pass)
	run()
	return out
}

func newAnalyzer(name, doc string, run func(*analysis.Pass, bench)) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:     name,
		Doc:      doc,
		URL:      "https://github.com/perfloop/perfloop/blob/main/docs/lint.md#" + name,
		Requires: []*analysis.Analyzer{inspect.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			if name == "discard" {
				exportOpaque(pass)
			}
			defer passWriters.Delete(pass)
			defer madeZero.Delete(pass)
			return collect(pass, func() {
				for _, bn := range benchmarks(pass) {
					run(pass, bn)
				}
			}), nil
		},
		ResultType: reflect.TypeFor[[]Finding](),
	}
	if name == "discard" {
		a.FactTypes = []analysis.Fact{new(opaque)}
	}
	return a
}
