package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// CopyRead finds a method that reads a field of its own type through the
// type's accessor that returns a copy (v.Segments64(), which makes a new
// slice and copies v.segments into it so callers outside the package
// cannot change the value): the package's own code gets the copy only to
// read it. hashicorp/go-version's Compare copies both versions'
// segments on every comparison of different versions (fixed by hand
// together with Compare's string shortcut: 2 → 0 allocs/op). The field
// itself reads the same.
var CopyRead = &analysis.Analyzer{
	Name: "copyread",
	Doc:  "a field read through its own type's copying accessor, by the package's own code",
	Run:  runCopyRead,
}

func runCopyRead(pass *analysis.Pass) (any, error) {
	reported := map[*types.Func]bool{} // accessors already named at their own lines
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() != pass.Pkg {
				return
			}
			field := copiedField(pass, fn)
			if field == "" {
				return
			}
			v, _ := objOf(pass, as.Lhs[0]).(*types.Var)
			if v == nil || !readOnly(pass, fd.Body, v) {
				return
			}
			recv := oneLine(types.ExprString(ast.Unparen(call.Fun).(*ast.SelectorExpr).X))
			d := analysis.Diagnostic{
				Category: "copy-read",
				Pos:      call.Pos(),
				Related:  []analysis.RelatedInformation{{Pos: call.Pos(), Message: "the copy taken to be read"}},
				Message: fmt.Sprintf("%s takes %s, a copy of %s.%s that %s makes for callers outside the package, only to read it: a new slice and a copy per call",
					fd.Name.Name, oneLine(types.ExprString(call)), recv, field, fn.Name()),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"read %s.%s directly: the package's own code does not change it, and the copy protects only the API's callers", recv, field)}},
			}
			pass.Report(d)
			// And at the accessor's make and copy, where the profile
			// puts the cost: the change is at the caller.
			if !reported[fn] {
				reported[fn] = true
				for _, st := range funcDecl(pass, fn).Body.List[:2] {
					d.Pos = st.Pos()
					pass.Report(d)
				}
			}
		})
	})
	return nil, nil
}

// copiedField returns the field of its receiver a method returns a copy
// of (result := make([]T, len(v.f)); copy(result, v.f); return result),
// or "".
func copiedField(pass *analysis.Pass, fn *types.Func) string {
	fd := funcDecl(pass, fn)
	if fd == nil || fd.Body == nil || fd.Recv == nil || len(fd.Body.List) != 3 {
		return ""
	}
	ret, ok := fd.Body.List[2].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return ""
	}
	es, ok := fd.Body.List[1].(*ast.ExprStmt)
	if !ok {
		return ""
	}
	cp, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok || !isBuiltin(pass, cp.Fun, "copy") || len(cp.Args) != 2 {
		return ""
	}
	if objOf(pass, cp.Args[0]) == nil || objOf(pass, cp.Args[0]) != objOf(pass, ret.Results[0]) {
		return ""
	}
	sel, ok := ast.Unparen(cp.Args[1]).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if id, ok := sel.X.(*ast.Ident); !ok || len(fd.Recv.List[0].Names) == 0 || id.Name != fd.Recv.List[0].Names[0].Name {
		return ""
	}
	return sel.Sel.Name
}

// readOnly reports whether v is only read in body after it is assigned:
// indexed or ranged over, its length taken, passed to a call that reads
// it (a slice of it included), never assigned into, appended to,
// returned or stored.
func readOnly(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	ok := true
	inspectBody(body, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if rootIs(pass, l, v) {
					if _, plain := ast.Unparen(l).(*ast.Ident); !plain {
						ok = false // v[i] = …: written
					}
				}
			}
			for _, r := range n.Rhs {
				if id, isID := ast.Unparen(r).(*ast.Ident); isID && objOf(pass, id) == v {
					ok = false // stored in another variable
				}
			}
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if rootIs(pass, r, v) {
					ok = false
				}
			}
		case *ast.CallExpr:
			if isBuiltin(pass, n.Fun, "append") && len(n.Args) > 0 && rootIs(pass, n.Args[0], v) {
				ok = false
			}
		}
	})
	return ok
}

// rootIs reports whether e is v, or an index or slice of it.
func rootIs(pass *analysis.Pass, e ast.Expr, v *types.Var) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return objOf(pass, x) == v
		case *ast.IndexExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		default:
			return false
		}
	}
}
