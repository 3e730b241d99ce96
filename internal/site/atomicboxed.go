package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// AtomicBoxed finds a value that is not a pointer stored into an
// atomic.Value: Store takes an interface, so every Store of a struct or a
// string boxes it, an allocation each. hashicorp/yamux's newStream
// stores time.Time{} into a Stream's readDeadline and writeDeadline: two
// allocations of every stream it opens or accepts, before any deadline
// is set.
var AtomicBoxed = &analysis.Analyzer{
	Name: "atomicboxed",
	Doc:  "a struct or string stored into an atomic.Value, boxed at every Store",
	Run:  runAtomicBoxed,
}

func runAtomicBoxed(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Store" && sel.Sel.Name != "Swap" {
				return
			}
			fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
				return
			}
			recv := fn.Type().(*types.Signature).Recv()
			if recv == nil || !isNamed(recv.Type(), "sync/atomic", "Value") {
				return
			}
			arg := call.Args[len(call.Args)-1]
			t := pass.TypesInfo.TypeOf(arg)
			if t == nil || types.IsInterface(t) || !boxAllocates(pass, t) {
				return
			}
			ts := types.TypeString(t, types.RelativeTo(pass.Pkg))
			fix := fmt.Sprintf("keep it in an atomic.Pointer[%s] (one allocation where a new value is made, none to share a zero value) or, where it fits in a word, an atomic.Int64", ts)
			if isNamed(t, "time", "Time") {
				fix = "keep the time as an atomic.Int64 of its UnixNano (0 for none), or an atomic.Pointer[time.Time] that shares one zero value: no allocation per Store; and store nothing until a deadline is set where Load's nil can mean none"
			}
			pass.Report(analysis.Diagnostic{
				Category:       "atomic-value-boxed",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s stores %s into %s, an atomic.Value: %s boxes the %s (%d bytes) into an interface, an allocation at every call", fd.Name.Name, oneLine(text(pass, arg)), oneLine(text(pass, sel.X)), sel.Sel.Name, ts, pass.TypesSizes.Sizeof(t)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
			})
		})
	})
	return nil, nil
}
