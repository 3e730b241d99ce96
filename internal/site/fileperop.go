package site

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// FilePerOp finds a benchmark that opens or reads a file in its loop:
// json-iterator's Benchmark_jsoniter_large_file opens, reads and closes
// /tmp/large-file.json on every iteration, and about half of its CPU is
// the file, not the parse. The finding's measure is the line's share of
// the benchmark's CPU profile (internal/findings); the shape says what
// the line does and the fix: read the file once, before the loop, and
// give each iteration a reader over the bytes.
var FilePerOp = &analysis.Analyzer{
	Name: "fileperop",
	Doc:  "a benchmark that opens or reads a file in its loop",
	Run:  runFilePerOp,
}

// fileCalls are the functions of package os that open or read a file.
var fileCalls = map[string]bool{"Open": true, "OpenFile": true, "ReadFile": true}

func runFilePerOp(pass *analysis.Pass) (any, error) {
	eachBenchmark(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch l := n.(type) {
			case *ast.ForStmt:
				body = l.Body
			case *ast.RangeStmt:
				body = l.Body
			default:
				return true
			}
			ast.Inspect(body, func(m ast.Node) bool {
				call, ok := m.(*ast.CallExpr)
				if !ok {
					return true
				}
				fn := calledFunc(pass, call)
				if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "os" || !fileCalls[fn.Name()] {
					return true
				}
				pass.Report(analysis.Diagnostic{
					Category:       "file-per-op",
					Pos:            call.Pos(),
					Message:        fmt.Sprintf("%s calls %s in its loop: every iteration opens and reads the file again, system calls the benchmark times with what it measures", fd.Name.Name, oneLine(text(pass, call))),
					SuggestedFixes: []analysis.SuggestedFix{{Message: "read the file once, before the loop (os.ReadFile, then b.ResetTimer), and give each iteration a reader over the bytes (bytes.NewReader): the loop then times the code, not the file system"}},
				})
				return true
			})
			return false
		})
	})
	return nil, nil
}
