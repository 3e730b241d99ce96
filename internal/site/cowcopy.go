package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// CowCopy finds a copy-on-write structure's copy of a node it does not
// own: a method that returns its receiver when the receiver's owner field
// is the context it is given (if n.cow == cow { return n }), and
// otherwise makes a new node and copies the receiver's slices into
// slices it makes. After a clone, the first write through each shared
// node copies it: what the clone deferred, paid on the path of every
// write, with an allocation for the node and one for each slice. The
// cost is the design's: not a size hint (the copies are made at full
// capacity) nor a pool (the copies stay in the new tree). google/btree's
// mutableFor: its benchmarks that clone before every write pay it on
// every op.
var CowCopy = &analysis.Analyzer{
	Name: "cowcopy",
	Doc:  "a copy-on-write node copied, with its slices, when the writer does not own it",
	Run:  runCowCopy,
}

func runCowCopy(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 || fd.Type.Params.NumFields() == 0 {
			return
		}
		recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		if recv == nil {
			return
		}
		owner, ctx := ownerGuard(pass, fd.Body, recv)
		if owner == "" {
			return
		}
		var made *ast.AssignStmt
		var copied []ast.Node
		var slices []string
		inspectBody(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.AssignStmt:
				if made == nil && x.Tok == token.DEFINE && len(x.Lhs) == 1 && len(x.Rhs) == 1 && types.Identical(pass.TypesInfo.TypeOf(x.Rhs[0]), recv.Type()) {
					made = x
				}
				if len(x.Lhs) == 1 && len(x.Rhs) == 1 {
					if call, ok := ast.Unparen(x.Rhs[0]).(*ast.CallExpr); ok && isBuiltin(pass, call.Fun, "make") && fieldOf(pass, x.Lhs[0]) != nil {
						copied = append(copied, x)
					}
				}
			case *ast.CallExpr:
				if isBuiltin(pass, x.Fun, "copy") && len(x.Args) == 2 {
					if sel, ok := ast.Unparen(x.Args[1]).(*ast.SelectorExpr); ok && objOf(pass, sel.X) == recv {
						slices = append(slices, sel.Sel.Name)
					}
				}
			}
		})
		if made == nil || len(slices) == 0 {
			return
		}
		name := strings.TrimPrefix(types.TypeString(recv.Type(), types.RelativeTo(pass.Pkg)), "*")
		var related []analysis.RelatedInformation
		for _, c := range copied {
			related = append(related, analysis.RelatedInformation{Pos: c.Pos(), Message: "a slice of the copy"})
		}
		if call, ok := ast.Unparen(made.Rhs[0]).(*ast.CallExpr); ok {
			if fn := calleeFunc(pass, call); fn != nil && fn.Pkg() == pass.Pkg {
				related = append(related, analysis.RelatedInformation{Pos: fn.Pos(), Message: allocatingCallee})
			}
		}
		pass.Report(analysis.Diagnostic{
			Category: "cow-copy",
			Pos:      made.Pos(),
			Related:  related,
			Message: fmt.Sprintf("%s copies %s when it belongs to another copy-on-write owner (%s.%s != %s): a new %s, and %s copied into slices made at full length and capacity: after a clone, the first write through every shared node on its path copies it, an allocation for the node and one per slice",
				fd.Name.Name, recv.Name(), recv.Name(), owner, ctx, name, strings.Join(slices, " and ")),
			SuggestedFixes: []analysis.SuggestedFix{{Message: "copy-on-write's cost, what the clone defers to the writes after it (a benchmark that clones before every write pays it on every op): the copies are already made at full capacity, and they stay in the new tree, so none can go back for reuse; fewer allocations per copied node would take a layout that holds its slices in the node's own allocation (fixed-size arrays), a change of the node type"}},
		})
	})
	return nil, nil
}

// ownerGuard finds `if recv.F == p { return recv }` among a body's
// statements, p one of the function's names other than recv: it returns
// F and p's text, or "".
func ownerGuard(pass *analysis.Pass, body *ast.BlockStmt, recv types.Object) (string, string) {
	for _, st := range body.List {
		is, ok := st.(*ast.IfStmt)
		if !ok || is.Init != nil || is.Else != nil || len(is.Body.List) != 1 {
			continue
		}
		ret, ok := is.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 || objOf(pass, ret.Results[0]) != recv {
			continue
		}
		be, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
		if !ok || be.Op != token.EQL {
			continue
		}
		for _, side := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
			sel, ok := ast.Unparen(side[0]).(*ast.SelectorExpr)
			if !ok || objOf(pass, sel.X) != recv || fieldOf(pass, sel) == nil {
				continue
			}
			if o := objOf(pass, side[1]); o != nil && o != recv {
				if _, isVar := o.(*types.Var); isVar {
					return sel.Sel.Name, o.Name()
				}
			}
		}
	}
	return "", ""
}
