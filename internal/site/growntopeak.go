package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// GrownToPeak finds a method's append to a slice field of its receiver
// (ws.items = append(ws.items, w), ants' workerStack.insert) when the
// package also shrinks that field by reslicing it (ws.items =
// ws.items[:l-1]) and never replaces it (no nil, no make outside a
// composite literal): a stack or queue that keeps its capacity as it
// empties. It grows to the most it has held and stays there, so a heap
// profile's growth at the append is paid once per value as it fills, not
// per operation; sizing it up front needs a bound the code knows (ants'
// default pool has room for MaxInt32 workers). So does a field grown by
// hand: made anew, larger, after its old value was kept to be copied in
// (bigcache's BytesQueue.allocateAdditionalMemory: old := q.array;
// q.array = make([]byte, q.capacity); copy(q.array, old…)).
var GrownToPeak = &analysis.Analyzer{
	Name: "growntopeak",
	Doc:  "an append to a receiver's slice field that the package only reslices: it grows to its peak once",
	Run:  runGrownToPeak,
}

func runGrownToPeak(pass *analysis.Pass) (any, error) {
	type push struct {
		fd  *ast.FuncDecl
		as  *ast.AssignStmt
		fld *types.Var
	}
	var pushes, byHand []push
	shrunk, replaced := map[*types.Var]bool{}, map[*types.Var]bool{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		var recv types.Object
		if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
			recv = pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		}
		inspectAll(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return
			}
			for i, l := range as.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok {
					continue
				}
				f := fieldOf(pass, sel)
				if f == nil {
					continue
				}
				if _, ok := f.Type().Underlying().(*types.Slice); !ok {
					continue
				}
				switch r := ast.Unparen(as.Rhs[i]).(type) {
				case *ast.CallExpr:
					if isBuiltin(pass, r.Fun, "append") && len(r.Args) > 0 && sameField(pass, r.Args[0], f) {
						if recv != nil && objOf(pass, sel.X) == recv && len(as.Lhs) == 1 {
							pushes = append(pushes, push{fd, as, f})
						}
						continue
					}
					if isBuiltin(pass, r.Fun, "make") && recv != nil && objOf(pass, sel.X) == recv && len(as.Lhs) == 1 && savedBefore(pass, fd.Body, l, as.Pos()) {
						// old := q.array; q.array = make(…); copy(q.array, old):
						// grown by hand, its contents carried over.
						byHand = append(byHand, push{fd, as, f})
						continue
					}
					replaced[f] = true
				case *ast.SliceExpr:
					if sameField(pass, r.X, f) {
						shrunk[f] = true
						continue
					}
					replaced[f] = true
				default:
					replaced[f] = true
				}
			}
		})
	})
	for _, p := range pushes {
		if !shrunk[p.fld] || replaced[p.fld] {
			continue
		}
		name := oneLine(text(pass, p.as.Lhs[0]))
		pass.Report(analysis.Diagnostic{
			Category:       "grown-to-peak" + ownWork,
			Pos:            p.as.Pos(),
			Message:        fmt.Sprintf("%s appends to %s, which the package only reslices to shrink and never replaces: it keeps its capacity as it empties, so it grows to the most it has held once and stays there", p.fd.Name.Name, name),
			SuggestedFixes: []analysis.SuggestedFix{{Message: "its growth is paid once per value as it fills, not per operation; room up front needs a bound the code knows (a capacity given where the value is made), and a bound too large reserves memory that is never used"}},
		})
	}
	for _, p := range byHand {
		if replaced[p.fld] {
			continue
		}
		name := oneLine(text(pass, p.as.Lhs[0]))
		var related []analysis.RelatedInformation
		ast.Inspect(p.fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && isBuiltin(pass, call.Fun, "copy") && len(call.Args) == 2 && oneLine(text(pass, call.Args[0])) == name {
				related = append(related, analysis.RelatedInformation{Pos: call.Pos(), Message: "the old contents copied over"})
			}
			return true
		})
		pass.Report(analysis.Diagnostic{
			Category:       "grown-to-peak" + ownWork,
			Pos:            p.as.Pos(),
			Related:        related,
			Message:        fmt.Sprintf("%s makes %s anew, larger, and carries the old contents over, and the package never makes it smaller: a buffer grown by hand, it grows to the most it has held once and stays there", p.fd.Name.Name, name),
			SuggestedFixes: []analysis.SuggestedFix{{Message: "its growth and the copy are paid once per value as it fills, not per operation (a value made for each operation pays them each time); room up front is the capacity given where the value is made, and a bound too large reserves memory that is never used"}},
		})
	}
	return nil, nil
}

// sameField reports whether e selects field f (x.f, for any x).
func sameField(pass *analysis.Pass, e ast.Expr, f *types.Var) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	return ok && fieldOf(pass, sel) == f
}
