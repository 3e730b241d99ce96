package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ExecPerOp finds a benchmark that runs a command in a loop, in its own
// body or in a test helper it calls (exec.Command(…) then Run, Output,
// CombinedOutput or Start): each op starts a child process, start-up
// included, and the benchmark's CPU profile sees only the parent's wait.
// google/go-jsonnet's Benchmark_Builtin_* run a prebuilt ./jsonnet per
// op: 18 of its 20 benchmarks, which fail when the binary is not built
// (b.Fail with no message) and, built, profile at 1–5% of a core. The
// report names the child, not the wait: profile the program itself, or
// benchmark its code in-process.
var ExecPerOp = &analysis.Analyzer{
	Name: "execperop",
	Doc:  "a benchmark that runs a command per op, in a child process its profile does not see",
	Run:  runExecPerOp,
}

// execRuns are the methods of *exec.Cmd that start the process.
var execRuns = map[string]bool{"Run": true, "Output": true, "CombinedOutput": true, "Start": true}

func runExecPerOp(pass *analysis.Pass) (any, error) {
	helpers := map[*types.Func]*ast.FuncDecl{} // the test files' functions
	for _, f := range pass.Files {
		if !isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func); fn != nil {
					helpers[fn] = fd
				}
			}
		}
	}
	eachBenchmark(pass, func(fd *ast.FuncDecl) {
		if cmd := execInLoop(pass, fd.Body); cmd != nil {
			reportExec(pass, fd, cmd, cmd, "")
			return
		}
		reported := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if reported || !ok {
				return !reported
			}
			fn := calledFunc(pass, call)
			h := helpers[fn]
			if h == nil || h == fd {
				return true
			}
			if cmd := execInLoop(pass, h.Body); cmd != nil {
				reportExec(pass, fd, call, cmd, fn.Name())
				reported = true
			}
			return !reported
		})
	})
	return nil, nil
}

// execInLoop returns the exec.Command call of a command a loop of body
// starts, or nil.
func execInLoop(pass *analysis.Pass, body *ast.BlockStmt) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		var loop *ast.BlockStmt
		switch n := n.(type) {
		case *ast.ForStmt:
			loop = n.Body
		case *ast.RangeStmt:
			loop = n.Body
		default:
			return true
		}
		var command *ast.CallExpr
		started := false
		ast.Inspect(loop, func(m ast.Node) bool {
			call, ok := m.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "os/exec" {
				return true
			}
			switch {
			case fn.Name() == "Command" || fn.Name() == "CommandContext":
				if command == nil {
					command = call
				}
			case execRuns[fn.Name()]:
				started = true
			}
			return true
		})
		if command != nil && started {
			found = command
		}
		return found == nil
	})
	return found
}

// reportExec reports benchmark fd's command run per op: at, a line of the
// benchmark (its loop's command, or its call of helper), and cmd, the
// exec.Command call.
func reportExec(pass *analysis.Pass, fd *ast.FuncDecl, at ast.Node, cmd *ast.CallExpr, helper string) {
	via := ""
	if helper != "" {
		via = ", through " + helper
	}
	pos := pass.Fset.Position(cmd.Pos())
	pass.Report(analysis.Diagnostic{
		Category: "exec-per-op",
		Pos:      at.Pos(),
		Related:  []analysis.RelatedInformation{{Pos: cmd.Pos(), Message: "the command started per op"}},
		Message: fmt.Sprintf("%s runs a command per op (%s at line %d%s): each op starts a child process, start-up included, whose work the benchmark's profile does not see",
			fd.Name.Name, oneLine(types.ExprString(cmd)), pos.Line, via),
		SuggestedFixes: []analysis.SuggestedFix{{Message: "profile the program itself (perfloop run on its main package with the same arguments, or perfloop exec to time it), or benchmark the code it runs in-process, calling the package's API in the loop: the test binary's CPU profile holds only the parent's fork and wait"}},
	})
}
