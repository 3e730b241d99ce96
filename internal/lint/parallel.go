package lint

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
)

// Parallel reports concurrent benchmarks whose goroutines distort ns/op:
// b.N split among workers with truncation, a worker count that ignores
// -cpu, workers started before the timer, and keys built from a loop's
// bound instead of its index (one hot key where the name claims many). It reads the benchmark
// functions and the helpers they pass b to (benchmarkGet(b, …)), where
// such benchmarks usually keep their goroutines.
var Parallel = &analysis.Analyzer{
	Name:     "parallel",
	Doc:      "report concurrent benchmarks that split b.N with truncation, ignore -cpu or start their workers before the timer",
	URL:      "https://github.com/perfloop/perfloop/blob/main/docs/lint.md#parallel",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		return collect(pass, func() {
			for _, bn := range concurrentBenchmarks(pass) {
				parallel(pass, bn)
			}
		}), nil
	},
	ResultType: reflect.TypeFor[[]Finding](),
}

// concurrentBenchmarks returns the benchmark functions of the pass's
// _test.go files that start goroutines (go statements, RunParallel), and the helpers taking a
// *testing.B that benchmarks call, named after their callers
// ("BenchmarkA, BenchmarkB").
func concurrentBenchmarks(pass *analysis.Pass) []bench {
	return withHelpers(pass, func(body *ast.BlockStmt, b types.Object) bool {
		return startsGoroutines(body) || callsAnywhere(pass, body, b, "RunParallel")
	})
}

// withHelpers returns the benchmark functions of the pass's _test.go
// files and the helpers taking a *testing.B that benchmarks call, named
// after their callers ("BenchmarkA, BenchmarkB"), that keep accepts.
func withHelpers(pass *analysis.Pass, keep func(body *ast.BlockStmt, b types.Object) bool) []bench {
	type fn struct {
		decl *ast.FuncDecl
		b    types.Object
		file *ast.File
	}
	var fns []fn
	byObj := map[types.Object]int{}
	for _, f := range pass.Files {
		if !strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil {
				continue
			}
			var b types.Object
			for _, p := range fd.Type.Params.List {
				for _, id := range p.Names {
					if obj := pass.TypesInfo.Defs[id]; obj != nil && isNamedPointer(obj.Type(), "testing", "B") && b == nil {
						b = obj
					}
				}
			}
			if b == nil {
				continue
			}
			byObj[pass.TypesInfo.Defs[fd.Name]] = len(fns)
			fns = append(fns, fn{fd, b, f})
		}
	}
	// Each helper's callers among the benchmarks.
	callers := map[int][]string{}
	for _, f := range fns {
		if !strings.HasPrefix(f.decl.Name.Name, "Benchmark") {
			continue
		}
		ast.Inspect(f.decl.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
					if i, ok := byObj[pass.TypesInfo.Uses[id]]; ok && !slices.Contains(callers[i], f.decl.Name.Name) {
						callers[i] = append(callers[i], f.decl.Name.Name)
					}
				}
			}
			return true
		})
	}
	var out []bench
	for i, f := range fns {
		name := f.decl.Name.Name
		if !strings.HasPrefix(name, "Benchmark") {
			if len(callers[i]) == 0 {
				continue
			}
			// A helper's mistakes are every caller's.
			name = strings.Join(callers[i], ", ")
		}
		if !keep(f.decl.Body, f.b) {
			continue
		}
		bn := bench{name: name, body: f.decl.Body, b: f.b, file: f.file, n: nAliases(pass, f.decl.Body, f.b)}
		if !strings.HasPrefix(f.decl.Name.Name, "Benchmark") {
			bn.callers = callers[i]
		}
		out = append(out, bn)
	}
	return out
}

func startsGoroutines(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.GoStmt); ok {
			found = true
		}
		return !found
	})
	return found
}

// parallel checks one concurrent benchmark.
func parallel(pass *analysis.Pass, bn bench) {
	share := bnShares(pass, bn)
	// b.N divided among the workers.
	ast.Inspect(bn.body, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if !ok || be.Op != token.QUO || !isBN(pass, be.X, bn) {
			return true
		}
		if tv, ok := pass.TypesInfo.Types[be.Y]; ok && tv.Value != nil && tv.Value.String() == "1" {
			return true
		}
		if handsOutRemainder(pass, bn, be.Y) {
			return true
		}
		report(pass, be, bn, types.ExprString(be)+" splits the iterations among goroutines with truncation",
			"each goroutine runs the quotient, so up to "+types.ExprString(be.Y)+"−1 of the b.N ops counted never run, and while b.N is below "+types.ExprString(be.Y)+" (the testing package starts at b.N = 1) no goroutine does any work and ns/op times only starting them",
			"use b.RunParallel, which hands out exactly b.N iterations among GOMAXPROCS goroutines, or give the first b.N % workers goroutines one more iteration")
		return true
	})
	// Workers whose number ignores -cpu.
	ast.Inspect(bn.body, func(n ast.Node) bool {
		loop, ok := n.(*ast.ForStmt)
		if !ok || !startsMeasuredWorkers(pass, loop.Body, share, bn) {
			return true
		}
		cond, ok := loop.Cond.(*ast.BinaryExpr)
		if !ok || (cond.Op != token.LSS && cond.Op != token.LEQ) {
			return true
		}
		if why := fixedCount(pass, bn.body, cond.Y); why != "" {
			if handsB(pass, loop.Body, bn) {
				report(pass, loop, bn, "starts "+why+" workers, each running all b.N iterations, whatever -cpu says",
					"every worker is handed b and runs the whole b.N loop, so one op is "+why+" calls made at once, not one: ns/op is their time together, and -cpu changes how many run at a time, not how many there are",
					"use b.RunParallel, which hands out exactly b.N iterations among GOMAXPROCS goroutines (b.SetParallelism for more), or split b.N among the workers and give the remainder out")
				return true
			}
			report(pass, loop, bn, "starts "+why+" workers, whatever -cpu says",
				"-cpu sets GOMAXPROCS for each run, but the benchmark starts the same goroutines at every -cpu value, so the runs named -1, -2, -4 measure the same thing at different parallelism limits, not the scaling they claim",
				"use b.RunParallel (one goroutine per GOMAXPROCS, times b.SetParallelism), or start runtime.GOMAXPROCS(0) workers")
		}
		return true
	})
	// One key where the name claims many: a loop filling keys with
	// strconv.Itoa(n) of its bound n instead of its index.
	ast.Inspect(bn.body, func(n ast.Node) bool {
		loop, ok := n.(*ast.ForStmt)
		if !ok {
			return true
		}
		cond, ok := loop.Cond.(*ast.BinaryExpr)
		if !ok || (cond.Op != token.LSS && cond.Op != token.LEQ) {
			return true
		}
		bound, ok := ast.Unparen(cond.Y).(*ast.Ident)
		if !ok || pass.TypesInfo.Uses[bound] == nil {
			return true
		}
		idx, ok := ast.Unparen(cond.X).(*ast.Ident)
		if !ok {
			return true
		}
		ast.Inspect(loop.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || !isNumberFormat(pass, call) {
				return true
			}
			arg, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
			if ok && pass.TypesInfo.Uses[arg] == pass.TypesInfo.Uses[bound] {
				// The same call with the index as its first argument
				// (a replace in its text would also hit the bound's
				// name inside "strconv").
				fixed := *call
				fixed.Args = append([]ast.Expr{idx}, call.Args[1:]...)
				report(pass, call, bn, types.ExprString(call)+" formats the loop's bound "+bound.Name+", not its index "+idx.Name,
					"every iteration makes the same value, so the keys the benchmark builds are all one key and its goroutines all hit it, whatever its name says",
					"format the index: "+types.ExprString(&fixed))
			}
			return true
		})
		return true
	})
	// Workers started before the timer.
	start := -1
	for i, s := range bn.body.List {
		if es, ok := s.(*ast.ExprStmt); ok {
			if call, ok := es.X.(*ast.CallExpr); ok && (isMethodCall(pass, call, bn.b, "StartTimer") || isMethodCall(pass, call, bn.b, "ResetTimer")) {
				start = i
			}
		}
	}
	if start < 0 {
		return
	}
	for _, s := range bn.body.List[:start] {
		ast.Inspect(s, func(n ast.Node) bool {
			g, ok := n.(*ast.GoStmt)
			if !ok || !mentionsAny(pass, g.Call, share, bn) {
				return true
			}
			report(pass, g, bn, "workers started before the timer starts",
				"they begin the measured work at once, so the part they finish before b.StartTimer or b.ResetTimer is not timed and ns/op comes out too low",
				"start the timer before the go statements, or use b.RunParallel")
			return false
		})
	}
}

// handsOutRemainder reports whether the benchmark also computes
// b.N % y: the remainder of the split is handed out.
func handsOutRemainder(pass *analysis.Pass, bn bench, y ast.Expr) bool {
	found := false
	ast.Inspect(bn.body, func(n ast.Node) bool {
		if be, ok := n.(*ast.BinaryExpr); ok && be.Op == token.REM && isBN(pass, be.X, bn) && types.ExprString(be.Y) == types.ExprString(y) {
			found = true
		}
		return !found
	})
	return found
}

// bnShares returns the variables assigned from an expression with b.N in
// it (each := b.N / workers): the workers' share of the iterations.
func bnShares(pass *analysis.Pass, bn bench) map[types.Object]bool {
	out := map[types.Object]bool{}
	ast.Inspect(bn.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, r := range as.Rhs {
			if !mentionsBN(pass, r, bn) {
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

// startsMeasuredWorkers reports whether body starts goroutines that run
// the benchmark's iterations (their code reads b.N or a share of it).
func startsMeasuredWorkers(pass *analysis.Pass, body *ast.BlockStmt, share map[types.Object]bool, bn bench) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if g, ok := n.(*ast.GoStmt); ok && mentionsAny(pass, g.Call, share, bn) {
			found = true
		}
		return !found
	})
	return found
}

func mentionsAny(pass *analysis.Pass, n ast.Node, share map[types.Object]bool, bn bench) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.Ident:
			// A share of b.N, or b itself handed to the worker,
			// which then runs b.N iterations.
			found = found || share[pass.TypesInfo.Uses[e]] || pass.TypesInfo.Uses[e] == bn.b
		case ast.Expr:
			found = found || isBN(pass, e, bn)
		}
		return !found
	})
	return found
}

// handsB reports whether body starts a goroutine whose call is handed b.
func handsB(pass *analysis.Pass, body *ast.BlockStmt, bn bench) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if g, ok := n.(*ast.GoStmt); ok {
			for _, a := range g.Call.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == bn.b {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// fixedCount says what a loop bound is when it does not follow -cpu:
// "runtime.NumCPU()" or a constant, directly or through a variable
// assigned once from it; "" otherwise.
func fixedCount(pass *analysis.Pass, body *ast.BlockStmt, e ast.Expr) string {
	e = ast.Unparen(e)
	if tv, ok := pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		return tv.Value.String()
	}
	if isNumCPU(pass, e) {
		return "runtime.NumCPU()"
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return ""
	}
	obj := pass.TypesInfo.Uses[id]
	if c := paramConstants(pass, body, obj); c != "" {
		return c
	}
	what := ""
	assigns := 0
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			lid, ok := l.(*ast.Ident)
			if !ok || pass.TypesInfo.ObjectOf(lid) != obj {
				continue
			}
			assigns++
			r := ast.Unparen(as.Rhs[i])
			if tv, ok := pass.TypesInfo.Types[r]; ok && tv.Value != nil {
				what = tv.Value.String()
			} else if isNumCPU(pass, r) {
				what = "runtime.NumCPU()"
			}
		}
		return true
	})
	if assigns != 1 {
		return ""
	}
	return what
}

// paramConstants says which constants every call passes for obj when obj
// is a parameter of the helper whose body this is ("10 or 100" for
// benchmarkStore(store, 10, 1000, b) and benchmarkStore(store, 100, …)),
// or "".
func paramConstants(pass *analysis.Pass, body *ast.BlockStmt, obj types.Object) string {
	var fn *types.Func
	idx := -1
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body != body {
				continue
			}
			fn, _ = pass.TypesInfo.Defs[fd.Name].(*types.Func)
			i := 0
			for _, p := range fd.Type.Params.List {
				for _, n := range p.Names {
					if pass.TypesInfo.Defs[n] == obj {
						idx = i
					}
					i++
				}
			}
		}
	}
	if fn == nil || idx < 0 {
		return ""
	}
	var values []string
	all := true
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || callee(pass, call) != fn || idx >= len(call.Args) {
				return true
			}
			tv, ok := pass.TypesInfo.Types[call.Args[idx]]
			if !ok || tv.Value == nil {
				all = false
				return true
			}
			if v := tv.Value.String(); !slices.Contains(values, v) {
				values = append(values, v)
			}
			return true
		})
	}
	if !all || len(values) == 0 {
		return ""
	}
	slices.Sort(values)
	return strings.Join(values, " or ")
}

// isNumberFormat reports a call of strconv.Itoa, FormatInt, FormatUint or
// fmt.Sprint: a number made into a key.
func isNumberFormat(pass *analysis.Pass, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	obj, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || obj.Pkg() == nil {
		return false
	}
	switch obj.Pkg().Path() + "." + obj.Name() {
	case "strconv.Itoa", "strconv.FormatInt", "strconv.FormatUint", "fmt.Sprint":
		return true
	}
	return false
}

func isNumCPU(pass *analysis.Pass, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "NumCPU" {
		return false
	}
	obj, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	return ok && obj.Pkg() != nil && obj.Pkg().Path() == "runtime"
}
