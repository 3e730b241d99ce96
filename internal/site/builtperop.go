package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/perfloop/perfloop/internal/document"
)

// BuiltPerOp finds a benchmark that builds the value it measures anew on
// every iteration of its loop — a constructor of the module (New…),
// whose result the iteration then calls methods of — while its name is
// not the constructor's: go.uber.org/zap's BenchmarkZapConsole calls
// NewConsoleEncoder in its loop before the AddString calls it is named
// for, and each encoder takes a 1 KiB pooled buffer it never gives back.
// The finding's measure is the line's share of the benchmark's CPU
// profile (internal/findings): the construction in the numbers.
var BuiltPerOp = &analysis.Analyzer{
	Name: "builtperop",
	Doc:  "a benchmark that builds the value it measures on every iteration of its loop",
	Run:  runBuiltPerOp,
}

func runBuiltPerOp(pass *analysis.Pass) (any, error) {
	eachBenchmarkLoop(pass, func(fd *ast.FuncDecl, body *ast.BlockStmt) {
		for _, st := range body.List {
			as, ok := st.(*ast.AssignStmt)
			if !ok || len(as.Lhs) < 1 || len(as.Rhs) != 1 {
				continue
			}
			id, ok := as.Lhs[0].(*ast.Ident)
			call, ok2 := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !ok2 || id.Name == "_" {
				continue
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil || !strings.HasPrefix(fn.Name(), "New") || moduleRoot(fn.Pkg().Path()) != moduleRoot(pass.Pkg.Path()) {
				continue
			}
			if sig := fn.Type().(*types.Signature); sig.Recv() != nil {
				continue
			}
			bench := strings.ToLower(strings.TrimPrefix(fd.Name.Name, "Benchmark"))
			made := strings.ToLower(strings.TrimPrefix(fn.Name(), "New"))
			if strings.Contains(bench, "new") || made != "" && strings.Contains(bench, made) {
				continue // named for what it builds
			}
			obj := pass.TypesInfo.ObjectOf(id)
			if obj == nil || !methodsCalledOn(pass, body, obj) {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Category:       "built-per-op",
				Pos:            call.Pos(),
				Related:        []analysis.RelatedInformation{{Pos: fn.Pos(), Message: document.ConstructorNote + fn.FullName()}},
				Message:        fmt.Sprintf("%s builds %s with %s on every iteration of its loop, then calls its methods: its numbers include the construction", fd.Name.Name, id.Name, oneLine(text(pass, call))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("build %s once, before the loop (then b.ResetTimer), and reset or clone it per iteration the way callers reuse one; or name the benchmark for the construction it measures", id.Name)}},
			})
		}
	})
	return nil, nil
}

// methodsCalledOn reports whether body calls a method of the variable
// obj (enc.AddString(…)).
func methodsCalledOn(pass *analysis.Pass, body *ast.BlockStmt, obj types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || found {
			return !found
		}
		if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(x) == obj {
			if _, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func); ok {
				found = true
			}
		}
		return !found
	})
	return found
}
