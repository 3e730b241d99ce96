package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// MakeZero reports a benchmark's input slice made with a length
// (make([]string, n)) and then filled by append in a loop: it holds n zero
// values before the ones appended, so the benchmark measures them too
// (go-runewidth's String1Width benchmarks time StringWidth("") for half
// of their calls). The ecosystem's makezero linter reports the pattern in
// any code; here it is the benchmark's numbers it distorts.
var MakeZero = newAnalyzer("makezero", "report a benchmark input made with a length and then appended to", func(pass *analysis.Pass, bn bench) {
	bodies := []*ast.BlockStmt{bn.body}
	// The helpers it hands b to build the input too (benchString1Width(b, …)).
	decls := funcDeclsOf(pass)
	ast.Inspect(bn.body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fd := decls[callee(pass, call)]
		if fd == nil || fd.Body == nil || !strings.HasSuffix(pass.Fset.Position(fd.Pos()).Filename, "_test.go") {
			return true
		}
		for _, a := range call.Args {
			if id, ok := ast.Unparen(a).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == bn.b {
				bodies = append(bodies, fd.Body)
				break
			}
		}
		return true
	})
	for _, body := range bodies {
		makeZero(pass, bn, body)
	}
})

// madeZero remembers the sites makezero reported per pass: a helper many
// benchmarks call is reported once.
var madeZero sync.Map // *analysis.Pass → map[token.Pos]bool

func makeZero(pass *analysis.Pass, bn bench, body *ast.BlockStmt) {
	v, _ := madeZero.LoadOrStore(pass, map[token.Pos]bool{})
	seen := v.(map[token.Pos]bool)
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false // a closure's code is its own benchmark's
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.DEFINE && as.Tok != token.ASSIGN {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			return true
		}
		if b, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || b.Name != "make" {
			return true
		}
		if _, ok := pass.TypesInfo.TypeOf(call).Underlying().(*types.Slice); !ok {
			return true
		}
		if tv, ok := pass.TypesInfo.Types[call.Args[1]]; ok && tv.Value != nil && tv.Value.String() == "0" {
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
		if appendedInLoop(pass, body, v) && !indexStored(pass, body, v) && !seen[as.Pos()] {
			seen[as.Pos()] = true
			report(pass, as, bn,
				fmt.Sprintf("%s has length %s, and a loop then appends to %s: it holds %s zero values before the ones appended", oneLine(types.ExprString(as.Lhs[0])+" := "+types.ExprString(call)), oneLine(types.ExprString(call.Args[1])), id.Name, oneLine(types.ExprString(call.Args[1]))),
				"the benchmark's input is the zero values and then the real ones: every iteration measures the zero values too, and the numbers are not the input's",
				fmt.Sprintf("make it with length 0 and that capacity: make(%s, 0, %s)", types.ExprString(call.Args[0]), oneLine(types.ExprString(call.Args[1]))))
		}
		return true
	})
}

// appendedInLoop reports whether body has v = append(v, …) inside a loop.
func appendedInLoop(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	found := false
	var walk func(n ast.Node, inLoop bool)
	walk = func(n ast.Node, inLoop bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt:
				if m != n {
					walk(x.Body, true)
					return false
				}
			case *ast.RangeStmt:
				if m != n {
					walk(x.Body, true)
					return false
				}
			case *ast.AssignStmt:
				if !inLoop || len(x.Lhs) != 1 || len(x.Rhs) != 1 {
					return true
				}
				l, ok := ast.Unparen(x.Lhs[0]).(*ast.Ident)
				call, ok2 := ast.Unparen(x.Rhs[0]).(*ast.CallExpr)
				if !ok || !ok2 || pass.TypesInfo.ObjectOf(l) != v || len(call.Args) == 0 {
					return true
				}
				if b, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && b.Name == "append" {
					if a, ok := ast.Unparen(call.Args[0]).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(a) == v {
						found = true
					}
				}
			}
			return !found
		})
	}
	walk(body, false)
	return found
}

// indexStored reports whether body stores into v by index (v[i] = …): a
// slice filled both ways is its author's intent.
func indexStored(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	return assigns(pass, body, v, true)
}
