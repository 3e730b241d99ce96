package loop

import (
	"bufio"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/gotest"
)

// sources reads module source lines, each file once.
type sources struct {
	root  string
	files map[string][]string
}

func newSources(root string) *sources { return &sources{root: root, files: map[string][]string{}} }

// line returns the trimmed text of line n of file (relative to the module
// root), or "".
func (s *sources) line(file string, n int64) string {
	if s == nil || s.root == "" || file == "" || filepath.IsAbs(file) || n <= 0 {
		return ""
	}
	lines, ok := s.files[file]
	if !ok {
		f, err := os.Open(filepath.Join(s.root, filepath.FromSlash(file)))
		if err == nil {
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 64*1024), 1<<20)
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
			f.Close()
		}
		s.files[file] = lines
	}
	if int(n) > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
}

// parallelBenchmarks returns the benchmark functions of pkg's test files
// that start goroutines: call b.RunParallel or hold a go statement (in a
// closure too, or in a helper of the test files the benchmark calls).
func parallelBenchmarks(pkg gotest.Package) map[string]bool {
	out := map[string]bool{}
	for name, decls := range benchDecls(pkg) {
		for _, fd := range decls {
			if len(goroutineBodies(fd.Body)) > 0 || callsRunParallel(fd.Body) {
				out[name] = true
			}
		}
	}
	return out
}

func callsRunParallel(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "RunParallel" {
				found = true
			}
		}
		return !found
	})
	return found
}

// subBenchmarks returns the benchmark functions of pkg's test files that
// run sub-benchmarks: call b.Run (in a test-file helper they call too).
// Such a benchmark prints a result line per sub-benchmark, which one
// iteration count cannot calibrate.
func subBenchmarks(pkg gotest.Package) map[string]bool {
	out := map[string]bool{}
	for name, decls := range benchDecls(pkg) {
		for _, fd := range decls {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 2 {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Run" {
						out[name] = true
					}
				}
				return !out[name]
			})
		}
	}
	return out
}

// benchDecls returns each benchmark function of pkg's test files with the
// test-file functions it calls directly (benchmarkGet(b, …)), where
// benchmarks often keep their loops and goroutines.
func benchDecls(pkg gotest.Package) map[string][]*ast.FuncDecl {
	paths, _ := filepath.Glob(filepath.Join(pkg.Dir, "*_test.go"))
	fset := token.NewFileSet()
	funcs := map[string]*ast.FuncDecl{}
	var benches []*ast.FuncDecl
	for _, path := range paths {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil {
				continue
			}
			funcs[fd.Name.Name] = fd
			if strings.HasPrefix(fd.Name.Name, "Benchmark") {
				benches = append(benches, fd)
			}
		}
	}
	out := map[string][]*ast.FuncDecl{}
	for _, fd := range benches {
		decls := []*ast.FuncDecl{fd}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok {
					if h := funcs[id.Name]; h != nil && h != fd && !slices.Contains(decls, h) && !strings.HasPrefix(id.Name, "Benchmark") {
						decls = append(decls, h)
					}
				}
			}
			return true
		})
		out[fd.Name.Name] = decls
	}
	return out
}

// mainPackages lists the main packages of the module rooted at dir with
// the packages each imports, directly or not.
func mainPackages(ctx context.Context, dir, tags string) map[string][]string {
	args := []string{"list", "-e", "-deps=false", "-f", "{{if eq .Name \"main\"}}{{.ImportPath}} {{join .Deps \" \"}}{{end}}"}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd, done, err := gotest.GoCommand(ctx, dir, nil, append(args, "./...")...)
	if err != nil {
		return nil
	}
	defer done()
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	mains := map[string][]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			mains[f[0]] = f[1:]
		}
	}
	return mains
}

// importing returns the main packages that import one of pkgs: where
// profile-guided optimization of pkgs' code applies.
func importing(mains map[string][]string, pkgs []gotest.Package) []string {
	var out []string
	for m, deps := range mains {
		for _, p := range pkgs {
			if p.ImportPath == m || slices.Contains(deps, p.ImportPath) {
				out = append(out, m)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// untimedLines returns the lines of pkg's test files that run with the
// benchmark timer stopped, as "file:line" relative to root: the
// statements between b.StopTimer() and b.StartTimer(), and the setup
// before b.ResetTimer() or a for b.Loop() loop at the top of a function.
// Profiles leave out the samples that pass through them.
func untimedLines(pkg gotest.Package, root string) map[string]bool {
	out := map[string]bool{}
	eachTestFile(pkg, root, func(fset *token.FileSet, rel string, f *ast.File) {
		mark := func(n ast.Node) { markLines(out, fset, rel, n) }
		ast.Inspect(f, func(n ast.Node) bool {
			var body *ast.BlockStmt
			top := false
			switch n := n.(type) {
			case *ast.FuncDecl:
				body, top = n.Body, true
			case *ast.FuncLit:
				body, top = n.Body, true
			case *ast.BlockStmt:
				body = n
			}
			if body == nil {
				return true
			}
			stopped := false
			if top {
				// Setup before the timer is reset (or before b.Loop,
				// which resets it) is not measured.
				for i, st := range body.List {
					if timerCall(st, "ResetTimer") || isLoopFor(st) {
						for _, setup := range body.List[:i] {
							if !containsTimerCall(setup) {
								mark(setup)
							}
						}
						break
					}
				}
			}
			for _, st := range body.List {
				switch {
				case timerCall(st, "StopTimer"):
					stopped = true
				case timerCall(st, "StartTimer"):
					stopped = false
				case stopped && callsNamed(st, "StartTimer"):
					// A timer started under a condition (`if set {
					// b.StartTimer() }`): what follows may be timed,
					// so its samples stay.
					stopped = false
				case stopped:
					mark(st)
				}
			}
			return true
		})
	})
	return out
}

// markLines adds the lines of n to out as "rel:line". A function
// literal's body runs when it is called, not where it is written: a table
// of closures built before b.ResetTimer and called in the loop is timed
// (zerolog's BenchmarkLogFieldType), so its lines are left out unless it
// is called where it is written.
func markLines(out map[string]bool, fset *token.FileSet, rel string, n ast.Node) {
	later := map[int]bool{}
	called := map[*ast.FuncLit]bool{}
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.CallExpr:
			if fl, ok := ast.Unparen(m.Fun).(*ast.FuncLit); ok {
				called[fl] = true
			}
		case *ast.FuncLit:
			if !called[m] {
				for l := fset.Position(m.Pos()).Line; l <= fset.Position(m.End()).Line; l++ {
					later[l] = true
				}
			}
		}
		return true
	})
	for l := fset.Position(n.Pos()).Line; l <= fset.Position(n.End()).Line; l++ {
		if !later[l] {
			out[rel+":"+strconv.Itoa(l)] = true
		}
	}
}

// setupLines returns the lines of pkg's test files that set a benchmark up
// before its loop, timed or not, as "file:line" relative to root: in a
// function that takes a *testing.B, the statements before the first one
// that holds the loop (a for over b.N, pb.Next or b.Loop, b.RunParallel,
// b.Run). What they allocate is not the loop's per-op cost, even when
// they run with the timer on and their size grows with b.N (bigcache's
// writeToCache makes a cache sized for b.N entries, then runs the loop):
// the heap profiles' difference between two iteration counts cannot tell
// that apart from the loop, the stacks through these lines can.
func setupLines(pkg gotest.Package, root string) map[string]bool {
	out := map[string]bool{}
	eachTestFile(pkg, root, func(fset *token.FileSet, rel string, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			var ft *ast.FuncType
			var body *ast.BlockStmt
			switch n := n.(type) {
			case *ast.FuncDecl:
				ft, body = n.Type, n.Body
			case *ast.FuncLit:
				ft, body = n.Type, n.Body
			}
			if body == nil || !takesB(ft) {
				return true
			}
			for i, st := range body.List {
				if !holdsLoop(st) {
					continue
				}
				for _, setup := range body.List[:i] {
					if !containsTimerCall(setup) {
						markLines(out, fset, rel, setup)
					}
				}
				break
			}
			return true
		})
	})
	return out
}

// eachTestFile calls f with each test file of pkg that parses, and its
// path relative to root with forward slashes.
func eachTestFile(pkg gotest.Package, root string, f func(fset *token.FileSet, rel string, file *ast.File)) {
	paths, _ := filepath.Glob(filepath.Join(pkg.Dir, "*_test.go"))
	fset := token.NewFileSet()
	for _, path := range paths {
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			continue
		}
		f(fset, filepath.ToSlash(rel), file)
	}
}

// takesB reports whether a function has a *testing.B parameter.
func takesB(ft *ast.FuncType) bool {
	for _, p := range ft.Params.List {
		if star, ok := p.Type.(*ast.StarExpr); ok {
			if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "B" {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "testing" {
					return true
				}
			}
		}
	}
	return false
}

// holdsLoop reports whether st holds a benchmark's loop: a for statement
// whose header reads b.N or calls Next or Loop, or a call of RunParallel
// or Run.
func holdsLoop(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // a closure's loop runs when it is called
		case *ast.ForStmt:
			found = found || mentionsLoop(n.Cond)
		case *ast.RangeStmt:
			found = found || mentionsLoop(n.X)
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "RunParallel" || sel.Sel.Name == "Run") {
				found = true
			}
		}
		return !found
	})
	return found
}

// mentionsLoop reports whether a loop header reads x.N or calls x.Next()
// or x.Loop().
func mentionsLoop(e ast.Expr) bool {
	if e == nil {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && (sel.Sel.Name == "N" || sel.Sel.Name == "Next" || sel.Sel.Name == "Loop") {
			found = true
		}
		return !found
	})
	return found
}

// timerCall reports whether st is a call x.name().
func timerCall(st ast.Stmt, name string) bool {
	es, ok := st.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == name && len(call.Args) == 0
}

// isLoopFor reports whether st is "for b.Loop() { … }".
func isLoopFor(st ast.Stmt) bool {
	fs, ok := st.(*ast.ForStmt)
	if !ok || fs.Init != nil || fs.Post != nil {
		return false
	}
	call, ok := fs.Cond.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Loop"
}

// callsNamed reports whether st calls a method of that name with no
// arguments anywhere in it.
func callsNamed(st ast.Stmt, name string) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 0 {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// containsTimerCall reports whether a statement calls a timer method or
// runs the benchmark (b.Run, b.RunParallel), which a setup mark must not
// cover.
func containsTimerCall(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				switch sel.Sel.Name {
				case "StopTimer", "StartTimer", "ResetTimer", "Run", "RunParallel", "Loop":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// sharedReceivers returns, for each benchmark of pkg's test files that
// starts goroutines, the variables its goroutines call methods on that are
// declared outside the goroutines' own function, in the benchmark or its
// helper: the state every goroutine shares.
// sync.WaitGroup's Done and Wait and testing.PB's Next are the harness's
// and do not count.
func sharedReceivers(pkg gotest.Package) map[string][]string {
	out := map[string][]string{}
	for name, decls := range benchDecls(pkg) {
		seen := map[string]bool{}
		for _, fd := range decls {
			for _, lit := range goroutineBodies(fd.Body) {
				outer := declaredOutside(fd, lit)
				ast.Inspect(lit.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					sel, ok := call.Fun.(*ast.SelectorExpr)
					if !ok || sel.Sel.Name == "Done" || sel.Sel.Name == "Wait" || sel.Sel.Name == "Next" {
						return true
					}
					if id, ok := sel.X.(*ast.Ident); ok && outer[id.Name] && !seen[id.Name] {
						seen[id.Name] = true
						out[name] = append(out[name], id.Name)
					}
					return true
				})
			}
		}
		slices.Sort(out[name])
	}
	return out
}

// goroutineBodies returns the function literals a benchmark runs on its
// goroutines: RunParallel's body and the functions of go statements.
func goroutineBodies(body *ast.BlockStmt) []*ast.FuncLit {
	var out []*ast.FuncLit
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			if lit, ok := n.Call.Fun.(*ast.FuncLit); ok {
				out = append(out, lit)
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "RunParallel" && len(n.Args) == 1 {
				if lit, ok := n.Args[0].(*ast.FuncLit); ok {
					out = append(out, lit)
				}
			}
		}
		return true
	})
	return out
}

// declaredOutside returns the names fd declares (parameters, := and var)
// outside lit.
func declaredOutside(fd *ast.FuncDecl, lit *ast.FuncLit) map[string]bool {
	out := map[string]bool{}
	for _, p := range fd.Type.Params.List {
		for _, n := range p.Names {
			out[n.Name] = true
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return n != lit
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						out[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				out[id.Name] = true
			}
		}
		return true
	})
	return out
}
