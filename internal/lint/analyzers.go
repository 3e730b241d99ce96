package lint

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// BNSize reports b.N used as a size: an argument of make or of a call, a
// slice bound or an index.
var BNSize = newAnalyzer("bnsize", "report b.N used as a size rather than as an iteration count", func(pass *analysis.Pass, bn bench) {
	conds := map[ast.Expr]bool{} // loop conditions and ranges, where b.N belongs
	ls, _ := loops(pass, bn.body, bn)
	filled := filledSetup(pass, bn, ls)
	for _, l := range ls {
		switch l := l.(type) {
		case *ast.ForStmt:
			conds[l.Cond] = true
		case *ast.RangeStmt:
			conds[l.X] = true
		}
	}
	var stack []ast.Node
	ast.Inspect(bn.body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if e, ok := n.(ast.Expr); ok && conds[e] {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		stack = append(stack, n)
		e, ok := n.(ast.Expr)
		if !ok || !isBN(pass, e, bn) || len(stack) < 2 {
			return true
		}
		// Walk up through conversions and arithmetic to the use.
		i := len(stack) - 2
		for i > 0 {
			switch p := stack[i].(type) {
			case *ast.ParenExpr:
				i--
				continue
			case *ast.BinaryExpr:
				if p.Op == token.QUO {
					return true // a per-op figure: x / b.N
				}
				i--
				continue
			case *ast.CallExpr:
				if tv, ok := pass.TypesInfo.Types[p.Fun]; ok && tv.IsType() {
					i-- // a conversion: float64(b.N)
					continue
				}
			}
			break
		}
		what := ""
		switch p := stack[i].(type) {
		case *ast.CallExpr:
			if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok && id.Name == "make" {
				if i > 0 && perIterationInputs(pass, bn, ls, stack[i-1], p) {
					return true // one input per iteration, made before the loop
				}
				what = "the size of a make"
			} else if sel, ok := ast.Unparen(p.Fun).(*ast.SelectorExpr); ok && isB(pass, sel.X, bn.b) {
				return true // b.ReportMetric(…, b.N) and the like
			} else {
				if n.Pos() < filled {
					return true // sizes what the untimed setup fills, one entry per iteration
				}
				what = "an argument of " + types.ExprString(p.Fun)
			}
		case *ast.SliceExpr:
			what = "a slice bound"
		case *ast.IndexExpr:
			what = "an index"
		default:
			return true
		}
		report(pass, n, bn, "b.N is "+what,
			"the work per iteration then grows with the iteration count the testing package chooses, so ns/op is not the cost of one operation and changes with -benchtime",
			"give the operation a fixed size (a constant or a sub-benchmark parameter) and repeat it b.N times, or loop with for b.Loop()")
		return true
	})
})

// filledSetup returns the end of the untimed setup of a benchmark that
// fills a structure with one entry per iteration before its timed loop:
// a loop over b.N before the b.ResetTimer that a timed b.N loop or
// b.RunParallel follows. A call given b.N there (a cache made with room
// for b.N entries) sizes what the fill puts in, and each timed iteration
// then works on one entry: bigcache's BenchmarkIterateOverCache makes
// its cache with MaxEntriesInWindow: max(b.N, 100), sets b.N keys and
// resets the timer. It returns token.NoPos when the body has no such
// setup.
func filledSetup(pass *analysis.Pass, bn bench, ls []ast.Stmt) token.Pos {
	reset := -1
	for i, st := range bn.body.List {
		if callsMethod(pass, st, bn.b, "ResetTimer") {
			reset = i
			break
		}
	}
	if reset < 0 {
		return token.NoPos
	}
	end := bn.body.List[reset].Pos()
	fill, timed := false, false
	for _, l := range ls {
		if l.Pos() < end {
			fill = true
		} else {
			timed = true
		}
	}
	for _, st := range bn.body.List[reset+1:] {
		if callsMethod(pass, st, bn.b, "RunParallel") {
			timed = true
		}
	}
	if !fill || !timed {
		return token.NoPos
	}
	return end
}

// perIterationInputs reports whether mk, a make sized by b.N, assigned
// to a variable by parent before b.ResetTimer or b.StopTimer, makes the
// inputs of the b.N loops one element per iteration: inside the loops ls
// the slice is only indexed
// (trace[i]), never used whole (ranged over, passed to a call, sliced),
// so each iteration reads one element and the work per iteration does
// not grow with b.N.
func perIterationInputs(pass *analysis.Pass, bn bench, ls []ast.Stmt, parent ast.Node, mk *ast.CallExpr) bool {
	var obj types.Object
	switch p := parent.(type) {
	case *ast.AssignStmt:
		for j, r := range p.Rhs {
			if r == mk && j < len(p.Lhs) {
				if id, ok := p.Lhs[j].(*ast.Ident); ok {
					obj = pass.TypesInfo.ObjectOf(id)
				}
			}
		}
	case *ast.ValueSpec:
		for j, v := range p.Values {
			if v == mk && j < len(p.Names) {
				obj = pass.TypesInfo.ObjectOf(p.Names[j])
			}
		}
	}
	if obj == nil || len(ls) == 0 {
		return false
	}
	// Made before the timer is reset: setup, not the measured work;
	// the loops after the reset are the timed ones.
	reset := token.NoPos
	for _, st := range bn.body.List {
		if reset == token.NoPos && st.Pos() > mk.End() && (callsMethod(pass, st, bn.b, "ResetTimer") || callsMethod(pass, st, bn.b, "StopTimer")) {
			reset = st.End()
		}
	}
	var timed []ast.Stmt
	for _, l := range ls {
		if reset != token.NoPos && l.Pos() > reset {
			timed = append(timed, l)
		}
	}
	if len(timed) == 0 {
		return false
	}
	indexed, whole := false, false
	for _, l := range timed {
		ast.Inspect(l, func(n ast.Node) bool {
			if ix, ok := n.(*ast.IndexExpr); ok {
				if id, ok := ast.Unparen(ix.X).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == obj {
					indexed = true
					ast.Inspect(ix.Index, func(m ast.Node) bool {
						if id, ok := m.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == obj {
							whole = true
						}
						return true
					})
					return false
				}
			}
			if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == obj {
				whole = true
			}
			return true
		})
	}
	return indexed && !whole
}

// NoLoop reports a benchmark that never loops over b.N nor calls b.Loop.
var NoLoop = newAnalyzer("noloop", "report benchmarks with no b.N loop and no b.Loop", func(pass *analysis.Pass, bn bench) {
	if ls, _ := loops(pass, bn.body, bn); len(ls) > 0 {
		return
	}
	// b.Run or a helper given b anywhere, closures included (b.Run
	// inside a filepath.Walk callback).
	if mentionsBN(pass, bn.body, bn) || callsAnywhere(pass, bn.body, bn.b, "Run", "RunParallel") ||
		passesB(pass, bn.body, bn.b) || skips(pass, bn) {
		return
	}
	report(pass, bn.body, bn, "no loop over b.N and no b.Loop",
		"the body runs once per call however large b.N grows, so the testing package raises b.N until the time is spread over a billion iterations and ns/op falls toward zero",
		"put the operation in for b.Loop() { … } (Go 1.24) or for range b.N { … }")
})

// callsAnywhere reports whether n calls one of obj's methods names,
// closures included.
func callsAnywhere(pass *analysis.Pass, n ast.Node, obj types.Object, names ...string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			for _, name := range names {
				found = found || isMethodCall(pass, call, obj, name)
			}
		}
		return !found
	})
	return found
}

// passesB reports whether body passes the *testing.B to another function
// (a helper that may loop).
func passesB(pass *analysis.Pass, body ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			for _, a := range call.Args {
				if isB(pass, a, obj) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// skips reports whether the benchmark always skips or fails (b.Skip…,
// b.Fatal… at its top level).
func skips(pass *analysis.Pass, bn bench) bool {
	for _, s := range bn.body.List {
		if es, ok := s.(*ast.ExprStmt); ok {
			if call, ok := es.X.(*ast.CallExpr); ok {
				for _, m := range []string{"Skip", "Skipf", "SkipNow", "Fatal", "Fatalf", "FailNow"} {
					if isMethodCall(pass, call, bn.b, m) {
						return true
					}
				}
			}
		}
	}
	return false
}

// Setup reports work before a b.N loop that no b.ResetTimer excludes.
var Setup = newAnalyzer("setup", "report timed setup before a b.N loop with no b.ResetTimer", func(pass *analysis.Pass, bn bench) {
	for i, s := range bn.body.List {
		if benchLoop(pass, s, bn) != bNLoop {
			continue
		}
		// Follow the timer through the statements before the loop:
		// b.ResetTimer forgets what came before, work between
		// b.StopTimer and b.StartTimer is not timed.
		var costly, bigAlloc ast.Node
		on := true
		made := bigMakes(pass, bn.body.List[:i])
		for _, prev := range bn.body.List[:i] {
			switch {
			case callsMethod(pass, prev, bn.b, "ResetTimer"):
				costly = nil
				continue
			case callsMethod(pass, prev, bn.b, "StopTimer"):
				on = false
				continue
			case callsMethod(pass, prev, bn.b, "StartTimer"):
				on = true
				continue
			}
			if c := expensiveCall(pass, prev, bn.b); c != nil && costly == nil && on {
				costly = c
			}
			if l := bigLoop(pass, prev, made); l != nil && costly == nil && on {
				costly = l
			}
			if m := bigMake(pass, prev); m != nil && bigAlloc == nil && on {
				bigAlloc = m
			}
		}
		if costly == nil {
			// A large make is a cost of its own only when no loop
			// filling it is named.
			costly = bigAlloc
		}
		if costly != nil {
			what := "a loop of 100,000 iterations or more"
			if call, ok := costly.(*ast.CallExpr); ok {
				what = types.ExprString(call.Fun)
			}
			report(pass, costly, bn, "setup "+what+" runs before the b.N loop with the timer on",
				"it is timed once and divided among the iterations, so ns/op includes a share of it that shrinks as b.N grows",
				"call b.ResetTimer() after the setup, or loop with for b.Loop(), which times only its body", loopFix(pass, s, bn)...)
		}
		return
	}
})

// bigLoop returns n when it is a loop of at least bigSetup iterations by
// a constant: for i := 0; i < 1e6; i++, or a range over a constant count
// or a slice made with such a length.
func bigLoop(pass *analysis.Pass, n ast.Node, madeBig map[types.Object]bool) ast.Node {
	switch l := n.(type) {
	case *ast.ForStmt:
		if c, ok := l.Cond.(*ast.BinaryExpr); ok && (c.Op == token.LSS || c.Op == token.LEQ) && atLeast(pass, c.Y) {
			return l
		}
	case *ast.RangeStmt:
		if atLeast(pass, l.X) {
			return l
		}
		// A slice made before: data := make([]T, 1e6); for i := range data.
		if id, ok := l.X.(*ast.Ident); ok && madeBig[pass.TypesInfo.Uses[id]] {
			return l
		}
	}
	return nil
}

// bigSetup is the iteration count from which a setup loop counts as
// expensive: the fill of a 64 KiB buffer is not, a fixture of a million
// entries is.
const bigSetup = 100_000

// atLeast reports whether e is a constant of at least bigSetup.
func atLeast(pass *analysis.Pass, e ast.Expr) bool {
	tv := pass.TypesInfo.Types[e]
	if tv.Value == nil {
		return false
	}
	v, ok := constant.Int64Val(constant.ToInt(tv.Value))
	return ok && v >= bigSetup
}

// bigMakes returns the variables stmts assign a make of a constant length
// of at least bigSetup.
func bigMakes(pass *analysis.Pass, stmts []ast.Stmt) map[types.Object]bool {
	out := map[types.Object]bool{}
	for _, st := range stmts {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		call, ok := as.Rhs[0].(*ast.CallExpr)
		if id, isID := as.Lhs[0].(*ast.Ident); ok && isID && len(call.Args) >= 2 {
			if f, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && f.Name == "make" && atLeast(pass, call.Args[1]) {
				out[pass.TypesInfo.ObjectOf(id)] = true
			}
		}
	}
	return out
}

// bigMake returns the first make in n of a constant length or capacity
// of at least bigSetup, or nil.
func bigMake(pass *analysis.Pass, n ast.Node) ast.Node {
	var found ast.Node
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found != nil {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if f, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && f.Name == "make" {
			if _, builtin := pass.TypesInfo.Uses[f].(*types.Builtin); builtin {
				for _, a := range call.Args[1:] {
					if atLeast(pass, a) {
						found = call
					}
				}
			}
		}
		return found == nil
	})
	return found
}

// bigArgs reports whether a call is given a constant of at least
// bigSetup (a size, a count): Fixture(1 << 20) builds a large input,
// Compile("a.b") is one cheap call.
func bigArgs(pass *analysis.Pass, call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if atLeast(pass, a) {
			return true
		}
	}
	return false
}

// expensiveCall returns the first call in n whose cost is plain from the
// source: a function of the package under test or of its module given a
// large constant (Fixture(1 << 20)), a test helper of the package that
// does such work itself, strings.Repeat or bytes.Repeat with a large
// count, or a file read; not a single call with small arguments (an
// expression compiled, a route registered), b's methods, builtins,
// conversions or cheap standard-library calls.
func expensiveCall(pass *analysis.Pass, n ast.Node, obj types.Object) ast.Node {
	return expensiveIn(pass, n, obj, 1)
}

// expensiveIn is expensiveCall, looking into the bodies of the package's
// own test helpers depth levels deep.
func expensiveIn(pass *analysis.Pass, n ast.Node, obj types.Object, depth int) ast.Node {
	var found ast.Node
	ast.Inspect(n, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if fn := callee(pass, call); fn != nil && fn.Pkg() != nil {
			path := fn.Pkg().Path()
			switch {
			case sameModule(pass, path) && !isTestingB(fn, obj):
				if bigArgs(pass, call) || depth > 0 && helperDoesWork(pass, fn, obj, depth) {
					found = call
				}
			case (path == "strings" || path == "bytes") && fn.Name() == "Repeat" && len(call.Args) == 2 && atLeast(pass, call.Args[1]):
				found = call
			case path == "os" && (fn.Name() == "ReadFile" || fn.Name() == "Open" || fn.Name() == "ReadDir"),
				path == "io" && fn.Name() == "ReadAll",
				path == "io/ioutil" && fn.Name() == "ReadFile",
				path == "path/filepath" && (fn.Name() == "Walk" || fn.Name() == "WalkDir" || fn.Name() == "Glob"):
				found = call
			}
		}
		return found == nil
	})
	return found
}

// helperDoesWork reports whether fn is declared in a _test.go file of
// the package under analysis and its body does work plain from the
// source (a file read, a large constant loop or make, a large Repeat).
func helperDoesWork(pass *analysis.Pass, fn *types.Func, obj types.Object, depth int) bool {
	for _, f := range pass.Files {
		if !strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || pass.TypesInfo.Defs[fd.Name] != fn {
				continue
			}
			if expensiveIn(pass, fd.Body, obj, depth-1) != nil || bigMake(pass, fd.Body) != nil {
				return true
			}
			found := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if bigLoop(pass, n, nil) != nil {
					found = true
				}
				return !found
			})
			return found
		}
	}
	return false
}

// isTestingB reports whether fn is a method of testing.B.
func isTestingB(fn *types.Func, _ types.Object) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && isNamedPointer(sig.Recv().Type(), "testing", "B")
}

// sameModule reports whether the package at path belongs to the module
// of the package under analysis (or is that package, with or without its
// _test suffix): the code a benchmark measures.
func sameModule(pass *analysis.Pass, path string) bool {
	self := strings.TrimSuffix(pass.Pkg.Path(), "_test")
	path = strings.TrimSuffix(path, "_test")
	if path == self {
		return true
	}
	if isStd(path) {
		return false
	}
	if m := pass.Module; m != nil && m.Path != "" {
		return path == m.Path || strings.HasPrefix(path, m.Path+"/")
	}
	// No module information: the same first three path elements.
	pa, pb := strings.SplitN(self, "/", 4), strings.SplitN(path, "/", 4)
	return len(pa) >= 3 && len(pb) >= 3 && pa[0] == pb[0] && pa[1] == pb[1] && pa[2] == pb[2]
}

// isStd reports whether a path looks like a standard-library package.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && (first == path || stdRoots[first])
}

var stdRoots = map[string]bool{"archive": true, "bufio": true, "bytes": true, "compress": true, "container": true, "context": true,
	"crypto": true, "database": true, "debug": true, "encoding": true, "errors": true, "expvar": true, "flag": true, "fmt": true,
	"go": true, "hash": true, "html": true, "image": true, "index": true, "io": true, "iter": true, "log": true, "maps": true,
	"math": true, "mime": true, "net": true, "os": true, "path": true, "reflect": true, "regexp": true, "runtime": true,
	"slices": true, "sort": true, "strconv": true, "strings": true, "sync": true, "syscall": true, "testing": true, "text": true,
	"time": true, "unicode": true, "unique": true, "unsafe": true, "weak": true, "cmp": true, "embed": true, "structs": true}

// callee returns the function or method a call calls, or nil.
func callee(pass *analysis.Pass, call *ast.CallExpr) *types.Func {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, _ := pass.TypesInfo.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := pass.TypesInfo.Uses[f.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr: // a generic function instantiated explicitly
		if id, ok := f.X.(*ast.Ident); ok {
			fn, _ := pass.TypesInfo.Uses[id].(*types.Func)
			return fn
		}
	}
	return nil
}

// loopFix is the mechanical rewrite of a b.N loop whose counter the body
// does not use into for b.Loop().
func loopFix(pass *analysis.Pass, s ast.Stmt, bn bench) []analysis.SuggestedFix {
	var body *ast.BlockStmt
	switch l := s.(type) {
	case *ast.ForStmt:
		body = l.Body
		if as, ok := l.Init.(*ast.AssignStmt); ok {
			for _, lhs := range as.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && usesObject(pass, body, pass.TypesInfo.Defs[id]) {
					return nil
				}
			}
		}
	case *ast.RangeStmt:
		body = l.Body
		if id, ok := l.Key.(*ast.Ident); ok && usesObject(pass, body, pass.TypesInfo.Defs[id]) {
			return nil
		}
	default:
		return nil
	}
	return []analysis.SuggestedFix{{
		Message: "loop with for " + bn.b.Name() + ".Loop() (Go 1.24; it keeps the loop's calls from being inlined into the benchmark, which can change inlining and allocations)",
		TextEdits: []analysis.TextEdit{{Pos: s.Pos(), End: body.Lbrace,
			NewText: []byte("for " + bn.b.Name() + ".Loop() ")}},
	}}
}

// usesObject reports whether n refers to obj.
func usesObject(pass *analysis.Pass, n ast.Node, obj types.Object) bool {
	if obj == nil {
		return false
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// opaque marks a function the compiler cannot inline, so cannot delete a
// call to: one implemented in assembly (no body) or marked
// //go:noinline.
type opaque struct{}

func (*opaque) AFact()         {}
func (*opaque) String() string { return "opaque" }

// exportOpaque records the pass's functions the compiler cannot inline,
// and those that call one (Sum64String inlined still calls the assembly
// Sum64, which stays).
func exportOpaque(pass *analysis.Pass) {
	var bodies []*ast.FuncDecl
	defer func() {
		for changed := true; changed; {
			changed = false
			for _, fd := range bodies {
				fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
				if !ok || pass.ImportObjectFact(fn, new(opaque)) {
					continue
				}
				calls := false
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if c, ok := n.(*ast.CallExpr); ok {
						if g := callee(pass, c); g != nil && pass.ImportObjectFact(g, new(opaque)) {
							calls = true
						}
					}
					return !calls
				})
				if calls {
					pass.ExportObjectFact(fn, new(opaque))
					changed = true
				}
			}
		}
	}()
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue // the module's code, not its tests or the generated test main
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			noinline := fd.Body == nil || tooBigToInline(fd.Body)
			if fd.Doc != nil {
				for _, c := range fd.Doc.List {
					noinline = noinline || strings.HasPrefix(c.Text, "//go:noinline")
				}
			}
			if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && noinline {
				pass.ExportObjectFact(fn, new(opaque))
			} else if fd.Body != nil {
				bodies = append(bodies, fd)
			}
		}
	}
}

// tooBigToInline estimates, from the size of its body, that the compiler
// will not inline a function: its budget is 80 nodes, and a call that is
// not inlined costs 57 more. Without profile-guided optimization.
func tooBigToInline(body *ast.BlockStmt) bool {
	cost := 0
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case nil:
			return false
		case *ast.CallExpr:
			cost += 2
		case *ast.DeferStmt, *ast.GoStmt, *ast.SelectStmt:
			cost += 100 // never inlined
		}
		cost++
		return true
	})
	return cost > 120
}

// Discard reports a call whose results are all discarded inside a b.N
// loop, to a function of the package under test: once inlined, a pure
// call may be deleted as dead code. Functions in assembly or marked
// //go:noinline are never inlined, so never deleted.
var Discard = newAnalyzer("discard", "report results discarded inside a b.N loop (dead-code elimination risk)", func(pass *analysis.Pass, bn bench) {
	ls, kinds := loops(pass, bn.body, bn)
	for i, l := range ls {
		if kinds[i] != bNLoop {
			continue // b.Loop keeps its body's results alive
		}
		for _, s := range loopBody(l).List {
			var call *ast.CallExpr
			deadInto := ""
			switch s := s.(type) {
			case *ast.ExprStmt:
				call, _ = s.X.(*ast.CallExpr)
			case *ast.AssignStmt:
				blank, into := true, ""
				for _, lhs := range s.Lhs {
					id, ok := lhs.(*ast.Ident)
					switch {
					case ok && id.Name == "_":
					case ok && unread(pass, bn.body, id):
						into = id.Name // r = f(x) with only _ = r after: no read
					default:
						blank = false
					}
				}
				if blank && len(s.Rhs) == 1 {
					call, _ = s.Rhs[0].(*ast.CallExpr)
					deadInto = into
				}
			}
			if call == nil {
				continue
			}
			fn := callee(pass, call)
			if fn == nil || fn.Pkg() == nil || !sameModule(pass, fn.Pkg().Path()) || pass.ImportObjectFact(fn, new(opaque)) {
				continue
			}
			sig := fn.Type().(*types.Signature)
			if sig.Results().Len() == 0 || sig.Recv() != nil && isPointer(sig.Recv().Type()) || passesB(pass, call, bn.b) {
				continue // no result, a method that may change its receiver, or a helper given b
			}
			if deadInto != "" {
				report(pass, call, bn, "the result of "+types.ExprString(call.Fun)+" is assigned to "+deadInto+", which nothing reads (_ = "+deadInto+" is no read), in the b.N loop",
					"the compiler sees that the value is never used: once it inlines the call and sees no side effect it deletes it, and the benchmark times an empty loop",
					"assign the result to a package-level variable (sink = …), or loop with for b.Loop(), which keeps it alive")
				continue
			}
			report(pass, call, bn, "the result of "+types.ExprString(call.Fun)+" is discarded in the b.N loop",
				"if the compiler inlines it and sees no side effect it may delete the call, and the benchmark times an empty loop",
				"assign the result to a package-level variable (sink = …), or loop with for b.Loop(), which keeps it alive", loopFix(pass, l, bn)...)
		}
	}
})

// unread reports whether id is a local variable of body that nothing
// reads: every other mention of it is a store, or the right side of
// _ = v, which reads nothing.
func unread(pass *analysis.Pass, body *ast.BlockStmt, id *ast.Ident) bool {
	v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return false // a parameter, a package variable, a field: read elsewhere
	}
	stores := map[*ast.Ident]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for _, l := range as.Lhs {
			if lid, ok := l.(*ast.Ident); ok {
				stores[lid] = true
			}
		}
		if len(as.Lhs) == 1 && len(as.Rhs) == 1 {
			if b, ok := as.Lhs[0].(*ast.Ident); ok && b.Name == "_" {
				if r, ok := ast.Unparen(as.Rhs[0]).(*ast.Ident); ok {
					stores[r] = true // _ = v: no read
				}
			}
		}
		return true
	})
	read := false
	ast.Inspect(body, func(n ast.Node) bool {
		if u, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[u] == v && !stores[u] {
			read = true
		}
		return !read
	})
	return !read
}

func isPointer(t types.Type) bool {
	_, ok := t.(*types.Pointer)
	return ok
}

// SetBytes reports a benchmark over a byte buffer of 1 KiB or more that
// never calls b.SetBytes.
var SetBytes = newAnalyzer("setbytes", "report benchmarks over a byte buffer that report no b.SetBytes", func(pass *analysis.Pass, bn bench) {
	if callsMethod(pass, bn.body, bn.b, "SetBytes") {
		return
	}
	ls, _ := loops(pass, bn.body, bn)
	if len(ls) == 0 {
		return
	}
	ast.Inspect(bn.body, func(n ast.Node) bool {
		// buf := make([]byte, N), bytes.Repeat(…, N), []byte(strings.Repeat(…, N)),
		// or var buf [N]byte.
		var id *ast.Ident
		var at ast.Node
		var size int64
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != 1 || len(n.Rhs) != 1 {
				return true
			}
			id, _ = n.Lhs[0].(*ast.Ident)
			at, size = n.Rhs[0], byteBufferSize(pass, n.Rhs[0])
		case *ast.ValueSpec:
			if len(n.Names) != 1 || n.Type == nil {
				return true
			}
			if arr, ok := pass.TypesInfo.TypeOf(n.Type).(*types.Array); ok && types.Identical(arr.Elem(), types.Typ[types.Byte]) {
				id, at, size = n.Names[0], n, arr.Len()
			}
		}
		if id == nil || size < 1024 {
			return true
		}
		obj := pass.TypesInfo.ObjectOf(id)
		for _, l := range ls {
			if usesObject(pass, loopBody(l), obj) {
				report(pass, at, bn, "a "+sizeText(size)+" buffer is processed with no b.SetBytes",
					"without it the result has no MB/s: a change in throughput reads as a change in time per op, and benchmarks of different sizes cannot be compared",
					"call b.SetBytes(int64(len("+id.Name+"))) before the loop")
				return false
			}
		}
		return true
	})
})

// byteBufferSize returns the constant size of a []byte an expression
// makes: make([]byte, N), bytes.Repeat(p, N) and []byte(strings.Repeat(s,
// N)) with a constant p or s; 0 otherwise.
func byteBufferSize(pass *analysis.Pass, e ast.Expr) int64 {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || !types.Identical(pass.TypesInfo.TypeOf(call), types.NewSlice(types.Typ[types.Byte])) {
		return 0
	}
	constInt := func(e ast.Expr) int64 {
		tv := pass.TypesInfo.Types[e]
		if tv.Value == nil {
			return 0
		}
		v, ok := constant.Int64Val(constant.ToInt(tv.Value))
		if !ok {
			return 0
		}
		return v
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "make" && len(call.Args) >= 2 {
		return constInt(call.Args[1])
	}
	if tv := pass.TypesInfo.Types[call.Fun]; tv.IsType() && len(call.Args) == 1 {
		call, ok = ast.Unparen(call.Args[0]).(*ast.CallExpr) // []byte(strings.Repeat(…))
		if !ok {
			return 0
		}
	}
	fn := callee(pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Name() != "Repeat" || len(call.Args) != 2 ||
		fn.Pkg().Path() != "bytes" && fn.Pkg().Path() != "strings" {
		return 0
	}
	unit := int64(1)
	if tv := pass.TypesInfo.Types[call.Args[0]]; tv.Value != nil && tv.Value.Kind() == constant.String {
		unit = int64(len(constant.StringVal(tv.Value)))
	} else if lit, ok := ast.Unparen(call.Args[0]).(*ast.CompositeLit); ok {
		unit = int64(len(lit.Elts))
	} else if conv, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr); ok && len(conv.Args) == 1 {
		if tv := pass.TypesInfo.Types[conv.Args[0]]; tv.Value != nil && tv.Value.Kind() == constant.String {
			unit = int64(len(constant.StringVal(tv.Value))) // []byte("ab")
		}
	}
	return unit * constInt(call.Args[1])
}

func sizeText(n int64) string {
	switch {
	case n%(1<<20) == 0:
		return itoa(n>>20) + " MiB"
	case n%(1<<10) == 0:
		return itoa(n>>10) + " KiB"
	}
	return itoa(n) + "-byte"
}

func itoa(n int64) string { return constant.MakeInt64(n).ExactString() }

// LoopTimer reports b.StopTimer or b.StartTimer inside a b.Loop loop.
var LoopTimer = newAnalyzer("looptimer", "report b.StopTimer/b.StartTimer inside a b.Loop loop", func(pass *analysis.Pass, bn bench) {
	ls, kinds := loops(pass, bn.body, bn)
	for i, l := range ls {
		if kinds[i] != bLoopLoop {
			continue
		}
		ast.Inspect(loopBody(l), func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && (isMethodCall(pass, call, bn.b, "StopTimer") || isMethodCall(pass, call, bn.b, "StartTimer")) {
				report(pass, call, bn, types.ExprString(call.Fun)+" inside a b.Loop loop",
					"b.Loop times the loop as a whole and the testing package rejects timer calls inside it, and per-iteration timer calls cost more than small operations",
					"move the untimed work out of the loop, or use a b.N loop with the timer calls and accept their overhead")
			}
			return true
		})
	}
})

// PBNext reports a RunParallel body that never calls pb.Next.
var PBNext = newAnalyzer("pbnext", "report RunParallel bodies that never call pb.Next", func(pass *analysis.Pass, bn bench) {
	ast.Inspect(bn.body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isMethodCall(pass, call, bn.b, "RunParallel") || len(call.Args) != 1 {
			return true
		}
		lit, ok := call.Args[0].(*ast.FuncLit)
		if !ok || len(lit.Type.Params.List) != 1 || len(lit.Type.Params.List[0].Names) != 1 {
			return true
		}
		pb := pass.TypesInfo.Defs[lit.Type.Params.List[0].Names[0]]
		if pb == nil || !isNamedPointer(pb.Type(), "testing", "PB") {
			return true
		}
		next := false
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && isMethodCall(pass, c, pb, "Next") {
				next = true
			}
			return !next
		})
		if !next {
			report(pass, call, bn, "the RunParallel body never calls "+pb.Name()+".Next()",
				"each goroutine runs the body once whatever b.N is, so ns/op falls as b.N grows",
				"loop with for "+pb.Name()+".Next() { … } in the body")
		}
		return true
	})
})

// RunInLoop reports b.Run called inside a loop over b.N.
var RunInLoop = newAnalyzer("runinloop", "report b.Run inside a loop over b.N", func(pass *analysis.Pass, bn bench) {
	ls, kinds := loops(pass, bn.body, bn)
	for i, l := range ls {
		if kinds[i] != bNLoop {
			continue
		}
		ast.Inspect(loopBody(l), func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && isMethodCall(pass, call, bn.b, "Run") {
				report(pass, call, bn, "b.Run inside the b.N loop",
					"each sub-benchmark then runs b.N times over, each with its own b.N, and the outer result times them all",
					"call b.Run outside any loop over b.N; loop over sizes with a plain range over a table")
				return false
			}
			return true
		})
	}
})
