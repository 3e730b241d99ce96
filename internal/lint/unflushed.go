package lint

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
)

// Unflushed reports a buffering writer (a type with Reset(io.Writer), or
// with Flush) written to in a benchmark's loop and never closed or flushed
// there: what the writer holds back for Close or Flush — a compressor's
// last block, a bufio.Writer's buffer — is never written in any
// iteration, and the loop times the copy into its buffer. pierrec/lz4's
// BenchmarkCompress{Pg1661,Digits,Twain,Rand} run Reset and io.Copy into
// a Writer with 4 MiB blocks and no Close: no block is ever compressed,
// and they report 33–44 GB/s where the writer compresses about 200 MiB/s.
// It reads the benchmark functions and the helpers they pass b to
// (benchmarkCompress(b, data)), as parallel does.
var Unflushed = &analysis.Analyzer{
	Name:     "unflushed",
	Doc:      "report a buffering writer written in the loop and never closed or flushed there",
	URL:      "https://github.com/perfloop/perfloop/blob/main/docs/lint.md#unflushed",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		return collect(pass, func() {
			for _, bn := range benchmarks(pass) { // with their b.Run closures
				unflushed(pass, bn)
			}
			helpers := func(*ast.BlockStmt, types.Object) bool { return true }
			for _, bn := range withHelpers(pass, helpers) {
				if len(bn.callers) > 0 {
					unflushed(pass, bn)
				}
			}
		}), nil
	},
	ResultType: reflect.TypeFor[[]Finding](),
}

// unflushed reports bn's buffering writers written in a loop over b.N
// and never closed or flushed in it.
func unflushed(pass *analysis.Pass, bn bench) {
	ls, _ := loops(pass, bn.body, bn)
	for _, l := range ls {
		body := loopBody(l)
		if body == nil {
			continue
		}
		reported := map[types.Object]bool{}
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			w, how := writtenTo(pass, call)
			if w == nil || reported[w.obj] || !buffering(w.t) {
				return true
			}
			if callsMethod(pass, body, w.obj, "Close") || callsMethod(pass, body, w.obj, "Flush") {
				return true
			}
			reported[w.obj] = true
			report(pass, call, bn,
				fmt.Sprintf("%s is written in the loop (%s) but never closed or flushed there", w.obj.Name(), how),
				fmt.Sprintf("%s holds back what it is given until Close or Flush (a compressor's block, a buffer's contents): no iteration does that work, so the loop times the copy into its buffer", types.TypeString(w.t, types.RelativeTo(pass.Pkg))),
				fmt.Sprintf("call %s.Close() (or Flush) at the end of each iteration, with Reset at its top, so every iteration does the whole job", w.obj.Name()))
			return true
		})
	}
}

// written is a variable a call writes to, and its type.
type written struct {
	obj types.Object
	t   types.Type
}

// writtenTo returns the variable call writes to — w.Write(…),
// w.WriteString(…), w.ReadFrom(…), or w as the destination of io.Copy,
// io.CopyBuffer, io.WriteString or fmt.Fprint… — and the call's text.
func writtenTo(pass *analysis.Pass, call *ast.CallExpr) (*written, string) {
	var dst ast.Expr
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		switch sel.Sel.Name {
		case "Write", "WriteString", "ReadFrom":
			if _, isMethod := pass.TypesInfo.Selections[sel]; isMethod {
				dst = sel.X
			}
		}
	}
	if fn := callee(pass, call); dst == nil && fn != nil && fn.Pkg() != nil && len(call.Args) > 0 {
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "io.Copy", "io.CopyBuffer", "io.CopyN", "io.WriteString", "fmt.Fprint", "fmt.Fprintf", "fmt.Fprintln":
			dst = call.Args[0]
		}
	}
	id, ok := ast.Unparen(dst).(*ast.Ident)
	if !ok {
		return nil, ""
	}
	obj, ok := pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok {
		return nil, ""
	}
	return &written{obj: obj, t: obj.Type()}, types.ExprString(call)
}

// buffering reports whether t is a writer that holds data back until
// Close or Flush: a method set with Flush, or with Reset(io.Writer) and
// Close (a compressor's writer).
func buffering(t types.Type) bool {
	ms := types.NewMethodSet(t)
	if _, ok := t.Underlying().(*types.Pointer); !ok {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	has := func(name string) *types.Func {
		if s := ms.Lookup(nil, name); s != nil {
			fn, _ := s.Obj().(*types.Func)
			return fn
		}
		return nil
	}
	if has("Flush") != nil {
		return true
	}
	reset, close := has("Reset"), has("Close")
	if reset == nil || close == nil {
		return false
	}
	params := reset.Type().(*types.Signature).Params()
	return params.Len() == 1 && isWriter(params.At(0).Type())
}

// isWriter reports whether t is io.Writer.
func isWriter(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "io" && n.Obj().Name() == "Writer"
}
