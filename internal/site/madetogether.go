package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// MadeTogether finds two slices of one element type and one length a
// function makes one after the other, at every call, for work that keeps
// neither past the call:
//
//	v1 := make([]int, vLength)
//	v2 := make([]int, vLength)
//
// sergi/go-diff's diffBisect, Myers's two frontier arrays, made again at
// each of the 43 calls of a large diff (it recurses through its halves):
// 86 allocations per op where one make of twice the length, cut in two,
// is 43. The length must be known only at run time (a constant one the
// compiler may keep on the stack) and neither slice may leave the
// function (returned, stored, or sent away: then each is its own value).
var MadeTogether = &analysis.Analyzer{
	Name: "madetogether",
	Doc:  "two slices of one type and one run-time length made one after the other for work that keeps neither",
	Run:  runMadeTogether,
}

func runMadeTogether(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			block, ok := n.(*ast.BlockStmt)
			if !ok {
				return
			}
			for i, s := range block.List {
				v1, m1 := madeSlice(pass, s)
				if v1 == nil {
					continue
				}
				// The second make within the next two statements.
				for _, t := range block.List[i+1 : min(i+3, len(block.List))] {
					v2, m2 := madeSlice(pass, t)
					if v2 == nil || !types.Identical(v1.Type(), v2.Type()) || !sameExpr(m1.Args[1], m2.Args[1]) {
						continue
					}
					if sliceLeaves(pass, fd.Body, v1, true) || sliceLeaves(pass, fd.Body, v2, true) {
						break
					}
					n := text(pass, m1.Args[1])
					elem := types.TypeString(v1.Type(), types.RelativeTo(pass.Pkg))
					// A length that is not a name is named first.
					cut, size := n, "2*"+n
					if _, ok := ast.Unparen(m1.Args[1]).(*ast.Ident); !ok {
						cut, size = "n", "2*n"
					}
					fix := fmt.Sprintf("buf := make(%s, %s); %s, %s := buf[:%s:%s], buf[%s:]", elem, size, v1.Name(), v2.Name(), cut, cut, cut)
					if cut != n {
						fix = fmt.Sprintf("n := %s; ", n) + fix
					}
					pass.Report(analysis.Diagnostic{
						Category: "made-together",
						Pos:      s.Pos(),
						Message: fmt.Sprintf("%s makes %s and %s, two %s of length %s, one after the other at every call, and keeps neither past it: two allocations for buffers that live and die together",
							fd.Name.Name, v1.Name(), v2.Name(), elem, n),
						Related: []analysis.RelatedInformation{{Pos: t.Pos(), Message: "the second make"}},
						SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
							"make them as one and cut it in two (%s): one allocation instead of two, each half as before", fix)}},
					})
					break
				}
			}
		})
	})
	return nil, nil
}

// madeSlice returns the variable s declares or assigns with make([]T, n)
// of a length that is not a constant, and the make.
func madeSlice(pass *analysis.Pass, s ast.Stmt) (*types.Var, *ast.CallExpr) {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, nil
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || len(call.Args) != 2 || !isBuiltin(pass, call.Fun, "make") {
		return nil, nil
	}
	if _, ok := pass.TypesInfo.TypeOf(call).Underlying().(*types.Slice); !ok {
		return nil, nil
	}
	if tv, ok := pass.TypesInfo.Types[call.Args[1]]; !ok || tv.Value != nil {
		return nil, nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, _ := pass.TypesInfo.ObjectOf(id).(*types.Var)
	if v == nil || v.Parent() == pass.Pkg.Scope() {
		return nil, nil
	}
	return v, call
}

// sameExpr reports whether a and b are the same expression text.
func sameExpr(a, b ast.Expr) bool {
	return types.ExprString(a) == types.ExprString(b)
}

// sliceLeaves reports whether v, a local slice, can outlive the call of
// the body: the slice itself (or a part of it cut with a slice
// expression) returned, sent, stored anywhere but a local variable, put
// in a composite literal, or used in a func literal; and, when calls is
// set, passed to a call other than len, cap, copy or clear (which may
// keep it). Its elements read or written are not the slice.
func sliceLeaves(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var, calls bool) bool {
	var whole func(e ast.Expr) bool
	whole = func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			return pass.TypesInfo.Uses[e] == v
		case *ast.SliceExpr:
			return whole(e.X)
		}
		return false
	}
	out := false
	ast.Inspect(body, func(n ast.Node) bool {
		if out {
			return false
		}
		switch n := n.(type) {
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				out = out || whole(r)
			}
		case *ast.SendStmt:
			out = whole(n.Value)
		case *ast.FuncLit:
			out = mentions(pass, n.Body, v)
			return false
		case *ast.AssignStmt:
			for i, r := range n.Rhs {
				if i >= len(n.Lhs) || !whole(r) {
					continue
				}
				id, ok := n.Lhs[i].(*ast.Ident)
				if !ok {
					out = true
					continue
				}
				if obj := pass.TypesInfo.ObjectOf(id); obj == nil || obj.Parent() == pass.Pkg.Scope() {
					out = true
				}
			}
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				out = out || whole(e)
			}
		case *ast.CallExpr:
			if !calls || isBuiltin(pass, n.Fun, "len") || isBuiltin(pass, n.Fun, "cap") || isBuiltin(pass, n.Fun, "copy") || isBuiltin(pass, n.Fun, "clear") {
				return true
			}
			for _, a := range n.Args {
				out = out || whole(a)
			}
		}
		return true
	})
	return out
}
