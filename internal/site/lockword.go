package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// LockWord finds a lock the package implements on one word: a method
// named Lock, TryLock or Acquire (or RLock) that takes it by an atomic
// compare-and-swap of its receiver or of a field of it (ants' spinLock:
// for !atomic.CompareAndSwapUint32((*uint32)(sl), 0, 1) { … }). Every
// goroutine that takes the lock writes that word: its cache line moving
// between the cores under contention is what any lock costs, not a
// counter to split.
var LockWord = &analysis.Analyzer{
	Name: "lockword",
	Doc:  "a lock taken by an atomic compare-and-swap of one word",
	Run:  runLockWord,
}

func runLockWord(pass *analysis.Pass) (any, error) {
	for fd := range funcDecls(pass) {
		if fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
			continue
		}
		switch fd.Name.Name {
		case "Lock", "TryLock", "Acquire", "RLock", "TryAcquire":
		default:
			continue
		}
		recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		done := false
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || done {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || len(call.Args) == 0 || !strings.HasPrefix(fn.Name(), "CompareAndSwap") {
				return
			}
			var word ast.Expr
			if fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" {
				if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
					word = selectorBase(call.Fun) // s.state.CompareAndSwap(0, 1)
				} else {
					word = call.Args[0] // atomic.CompareAndSwapUint32(&s.state, 0, 1)
				}
			}
			if word == nil || !rootedAt(pass, word, recv) {
				return
			}
			done = true
			pass.Report(analysis.Diagnostic{
				Category:       "lock-word",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s takes the lock by a compare-and-swap of %s: the word every goroutine taking the lock must write", fd.Name.Name, text(pass, word)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "the shared word is the lock itself: goroutines contending for one lock take turns on it by design, and its cache line moves between their cores; a benchmark of many goroutines on one lock measures that"}},
			})
		})
	}
	return nil, nil
}

// selectorBase is x in x.M for a method value's call, or nil.
func selectorBase(e ast.Expr) ast.Expr {
	if s, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
		return s.X
	}
	return nil
}

// rootedAt reports whether e is obj, or reaches it through &, *,
// conversions, field selections and parentheses.
func rootedAt(pass *analysis.Pass, e ast.Expr, obj types.Object) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return obj != nil && pass.TypesInfo.Uses[x] == obj
		case *ast.UnaryExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.CallExpr:
			if len(x.Args) != 1 || !isConversion(pass, x) {
				return false
			}
			e = x.Args[0]
		default:
			return false
		}
	}
}
