package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ErrDiscarded finds a benchmark that drops the error of the call it
// measures, in its loop (_, _ = avro.Marshal(schema, v)): a call that
// fails on every iteration then measures its failure path, and nothing
// says so. hamba/avro's BenchmarkSuperheroGenericEncode gives Marshal a
// map whose "Name" key misses the schema's field "name": every
// iteration formats "avro: missing required field name", a quarter of
// its CPU. The shape is the benchmark's line; internal/findings calls
// the benchmark broken only when the profile shows the module building
// an error on every op.
var ErrDiscarded = &analysis.Analyzer{
	Name: "errdiscarded",
	Doc:  "a benchmark that drops the error of a call in its loop",
	Run:  runErrDiscarded,
}

func runErrDiscarded(pass *analysis.Pass) (any, error) {
	eachBenchmarkLoop(pass, func(fd *ast.FuncDecl, body *ast.BlockStmt) {
		for _, st := range body.List {
			call, at := droppedErr(pass, st)
			if call == nil {
				continue
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil || moduleRoot(fn.Pkg().Path()) != moduleRoot(pass.Pkg.Path()) {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Category:       "error-discarded",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s drops the error %s returns, %s, in its loop", fd.Name.Name, oneLine(text(pass, call.Fun)), at),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "check the error once, before the loop (if _, err := …; err != nil { b.Fatal(err) }): then fix the input the call rejects, or name the benchmark for the failure it measures"}},
			})
		}
	})
	return nil, nil
}

// droppedErr returns the call statement st makes when it drops the
// error the call returns last (f(x); _ = f(x); v, _ = f(x)), and how.
func droppedErr(pass *analysis.Pass, st ast.Stmt) (*ast.CallExpr, string) {
	var call *ast.CallExpr
	var last ast.Expr
	how := "as a statement"
	switch s := st.(type) {
	case *ast.ExprStmt:
		call, _ = s.X.(*ast.CallExpr)
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 {
			return nil, ""
		}
		call, _ = s.Rhs[0].(*ast.CallExpr)
		last = s.Lhs[len(s.Lhs)-1]
		how = "to _"
	}
	if call == nil {
		return nil, ""
	}
	tv, ok := pass.TypesInfo.Types[call]
	if !ok {
		return nil, ""
	}
	var res types.Type = tv.Type
	if t, ok := tv.Type.(*types.Tuple); ok {
		if t.Len() == 0 {
			return nil, ""
		}
		res = t.At(t.Len() - 1).Type()
	}
	if !types.Identical(res, types.Universe.Lookup("error").Type()) {
		return nil, ""
	}
	if last != nil {
		if id, ok := last.(*ast.Ident); !ok || id.Name != "_" {
			return nil, ""
		}
	}
	return call, how
}
