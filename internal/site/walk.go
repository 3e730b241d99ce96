package site

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// eachFunc calls f with the body of every function declaration and
// function literal of the pass's non-test files.
func eachFunc(pass *analysis.Pass, f func(body *ast.BlockStmt)) {
	for _, file := range pass.Files {
		if isTest(pass, file) {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncDecl:
				if x.Body != nil {
					f(x.Body)
				}
			case *ast.FuncLit:
				f(x.Body)
			}
			return true
		})
	}
}

// eachFuncDecl calls f with every function declaration with a body of
// the pass's non-test files.
func eachFuncDecl(pass *analysis.Pass, f func(fd *ast.FuncDecl)) {
	for _, file := range pass.Files {
		if isTest(pass, file) {
			continue
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				f(fd)
			}
		}
	}
}

// eachBenchmark calls f with every benchmark function (func
// BenchmarkX(b *testing.B)) with a body of the pass's test files.
func eachBenchmark(pass *analysis.Pass, f func(fd *ast.FuncDecl)) {
	for _, file := range pass.Files {
		if !isTestFile(pass, file) {
			continue
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Benchmark") {
				f(fd)
			}
		}
	}
}

// eachBenchmarkLoop calls f with the body of every for and range loop of
// the package's benchmarks (their closures' too: a b.RunParallel body's
// pb.Next loop), nested loops each on their own, and the benchmark.
func eachBenchmarkLoop(pass *analysis.Pass, f func(fd *ast.FuncDecl, body *ast.BlockStmt)) {
	eachBenchmark(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch l := n.(type) {
			case *ast.ForStmt:
				f(fd, l.Body)
			case *ast.RangeStmt:
				f(fd, l.Body)
			}
			return true
		})
	})
}

// declsByFunc indexes the declarations of the pass's non-test functions
// and methods by their objects: the callee of a call, found by
// calledFunc, has its body here when the package declares it.
func declsByFunc(pass *analysis.Pass) map[*types.Func]*ast.FuncDecl {
	decls := map[*types.Func]*ast.FuncDecl{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
			decls[fn] = fd
		}
	})
	return decls
}

// eachPackageVar calls f with every package-level variable of the pass's
// files that is given an initial value, and that value (var x = v).
func eachPackageVar(pass *analysis.Pass, f func(v *types.Var, value ast.Expr)) {
	for _, file := range pass.Files {
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, value := range vs.Values {
					if i >= len(vs.Names) {
						break
					}
					if v, ok := pass.TypesInfo.Defs[vs.Names[i]].(*types.Var); ok {
						f(v, value)
					}
				}
			}
		}
	}
}

// eachBlock calls f with every statement list of the non-test files.
func eachBlock(pass *analysis.Pass, f func(list []ast.Stmt)) {
	for _, file := range pass.Files {
		if isTest(pass, file) {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BlockStmt:
				f(x.List)
			case *ast.CaseClause:
				f(x.Body)
			case *ast.CommClause:
				f(x.Body)
			}
			return true
		})
	}
}

// eachLoop calls f with the body of every for and range loop of the
// non-test files.
func eachLoop(pass *analysis.Pass, f func(body *ast.BlockStmt)) {
	for _, file := range pass.Files {
		if isTest(pass, file) {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ForStmt:
				f(x.Body)
			case *ast.RangeStmt:
				f(x.Body)
			}
			return true
		})
	}
}

// funcDecls yields the function declarations with a body of the pass's
// non-test files.
func funcDecls(pass *analysis.Pass) iter.Seq[*ast.FuncDecl] {
	return func(yield func(*ast.FuncDecl) bool) {
		for _, f := range pass.Files {
			if isTest(pass, f) {
				continue
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && !yield(fd) {
					return
				}
			}
		}
	}
}

// sizeof is t's size, and false when t has none yet: a type parameter,
// or a type built from one, whose size go/types asserts it cannot give.
func sizeof(sizes types.Sizes, t types.Type) (n int64, ok bool) {
	defer func() {
		if recover() != nil {
			n, ok = 0, false
		}
	}()
	if sizes == nil {
		sizes = types.SizesFor("gc", "amd64")
	}
	return sizes.Sizeof(t), true
}

func isTest(pass *analysis.Pass, f *ast.File) bool {
	return strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go")
}

// isNamed reports whether t is the named type pkg.name, or a pointer to
// it.
func isNamed(t types.Type, pkg, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// lockStmt reports whether st is a call X.name() on a sync.RWMutex (or a
// struct embedding one), and returns X's text.
func lockStmt(pass *analysis.Pass, st ast.Stmt, name string) (string, bool) {
	es, ok := st.(*ast.ExprStmt)
	if !ok {
		return "", false
	}
	return lockCall(pass, es.X, name)
}

func lockCall(pass *analysis.Pass, e ast.Expr, name string) (string, bool) {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return "", false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return "", false
	}
	fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return "", false
	}
	return types.ExprString(sel.X), true
}

// deferredUnlock reports whether st is defer X.RUnlock(), with X's text.
func deferredUnlock(pass *analysis.Pass, st ast.Stmt) (string, bool) {
	d, ok := st.(*ast.DeferStmt)
	if !ok {
		return "", false
	}
	return lockCall(pass, d.Call, "RUnlock")
}

// callsAnything reports whether the statements call a function (len and
// cap aside) or hold a function literal.
func callsAnything(pass *analysis.Pass, stmts []ast.Stmt) bool {
	calls := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				calls = true
			case *ast.CallExpr:
				if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
					if b, ok := pass.TypesInfo.Uses[id].(*types.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") {
						return true
					}
				}
				if tv, ok := pass.TypesInfo.Types[x.Fun]; ok && tv.IsType() {
					return true // a conversion
				}
				calls = true
			}
			return !calls
		})
	}
	return calls
}

// nodeText is a node's source text, as the file has it.
func nodeText(pass *analysis.Pass, n ast.Node) string {
	tf := pass.Fset.File(n.Pos())
	if tf == nil {
		return ""
	}
	src, err := pass.ReadFile(tf.Name())
	if err != nil || tf.Offset(n.End()) > len(src) {
		return ""
	}
	return string(src[tf.Offset(n.Pos()):tf.Offset(n.End())])
}

// stmtExpr is the expression a statement reads, for its text: the right
// side of an assignment, a return's first result.
func stmtExpr(st ast.Stmt) ast.Node {
	switch s := st.(type) {
	case *ast.AssignStmt:
		if len(s.Rhs) > 0 {
			return s.Rhs[0]
		}
	case *ast.ReturnStmt:
		if len(s.Results) > 0 {
			return s.Results[0]
		}
	case *ast.ExprStmt:
		return s.X
	}
	return st
}

// oneLine shortens an expression's text to one line of at most 60 bytes.
func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 60 {
		s = s[:57] + "…"
	}
	return s
}

// moduleGo is the module's Go version ("1.21"), or "".
func moduleGo(pass *analysis.Pass) string {
	if pass.Module != nil {
		return pass.Module.GoVersion
	}
	return ""
}

// versionLess compares "1.20.3"-style versions by their numbers.
func versionLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		x, y := 0, 0
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

// eachCall calls f for every call in body outside function literals,
// with the nodes that enclose it, outermost first (the call last).
func eachCall(body *ast.BlockStmt, f func(call *ast.CallExpr, stack []ast.Node)) {
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		stack = append(stack, n)
		if call, ok := n.(*ast.CallExpr); ok {
			f(call, stack)
		}
		return true
	})
}

// inspectLoops calls f for each node under n (function literals left out)
// with the innermost for or range statement around it, nil outside any.
// Of a loop, only its body is visited: its header runs once per
// iteration too, but holds no statement.
func inspectLoops(n ast.Node, f func(m ast.Node, loop ast.Stmt)) {
	var walk func(n ast.Node, loop ast.Stmt)
	walk = func(n ast.Node, loop ast.Stmt) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt:
				if m != n {
					walk(x.Body, x)
					return false
				}
			case *ast.RangeStmt:
				if m != n {
					walk(x.Body, x)
					return false
				}
			}
			if m != nil {
				f(m, loop)
			}
			return true
		})
	}
	walk(n, nil)
}

// eachUse calls f for every use of v in body, with the nodes that
// enclose it, outermost first (the identifier not among them).
func eachUse(pass *analysis.Pass, body ast.Node, v types.Object, f func(id *ast.Ident, stack []ast.Node)) {
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v {
			f(id, stack)
		}
		stack = append(stack, n)
		return true
	})
}
