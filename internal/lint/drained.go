package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Drained reports a reader made once before a benchmark's loop and read
// by every iteration: a strings.Reader, bytes.Reader or bytes.Buffer, or
// an HTTP request made with a body (httptest.NewRequest, http.NewRequest).
// The first iteration reads it to its end; the others read nothing — an
// empty input, or an error that the loop ignores — so the benchmark
// times the first iteration's work once and an empty path b.N times
// (echo's BenchmarkDecompress decompressed its body once: every later
// iteration failed on the gzip header). A reader reset in the loop
// (Reset, Seek, a new body) or made there is not reported.
var Drained = newAnalyzer("drained", "report a reader or request body made before the loop and read by every iteration", func(pass *analysis.Pass, bn bench) {
	ls, _ := loops(pass, bn.body, bn)
	if len(ls) == 0 {
		return
	}
	ast.Inspect(bn.body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || as.Tok != token.DEFINE && as.Tok != token.ASSIGN {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return true
		}
		what := drainable(pass, call)
		if what == "" {
			return true
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var)
		if !ok {
			return true
		}
		for _, l := range ls {
			if as.Pos() >= l.Pos() && as.Pos() < l.End() {
				return true // made in the loop
			}
			body := loopBody(l)
			if body == nil || !usesObject(pass, body, v) || resets(pass, body, v) {
				continue
			}
			report(pass, as, bn,
				fmt.Sprintf("%s is %s made once before the loop, and every iteration reads it", id.Name, what),
				"the first iteration reads it to its end; the others read nothing — an empty input, or an error the loop does not check — so the numbers are one iteration's work spread over b.N and an empty path's",
				fmt.Sprintf("make %s inside the loop (b.StopTimer and b.StartTimer around it when it costs), or reset it at the top of each iteration (Reset or Seek(0, io.SeekStart) on the reader, a new Body for a request)", id.Name))
			return true
		}
		return true
	})
})

// drainable says what a call makes that its readers drain: a reader over
// bytes or a string, or an HTTP request with a body; "" otherwise.
func drainable(pass *analysis.Pass, call *ast.CallExpr) string {
	fn := callee(pass, call)
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	switch path, name := fn.Pkg().Path(), fn.Name(); {
	case path == "strings" && name == "NewReader", path == "bytes" && (name == "NewReader" || name == "NewBuffer" || name == "NewBufferString"):
		return "a reader (" + path + "." + name + ")"
	case path == "net/http/httptest" && name == "NewRequest", path == "net/http" && (name == "NewRequest" || name == "NewRequestWithContext"):
		body := call.Args[len(call.Args)-1]
		if id, ok := ast.Unparen(body).(*ast.Ident); ok && id.Name == "nil" {
			return ""
		}
		if tv := pass.TypesInfo.Types[body]; tv.IsNil() {
			return ""
		}
		return "a request with a body (" + fn.Pkg().Name() + "." + name + ")"
	}
	return ""
}

// resets reports whether body gives v new content: assigns v or its Body,
// or calls its Reset or Seek.
func resets(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				switch l := ast.Unparen(l).(type) {
				case *ast.Ident:
					found = found || pass.TypesInfo.ObjectOf(l) == v
				case *ast.SelectorExpr:
					if id, ok := ast.Unparen(l.X).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == v && l.Sel.Name == "Body" {
						found = true
					}
				}
			}
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Reset" || sel.Sel.Name == "Seek") {
				if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
