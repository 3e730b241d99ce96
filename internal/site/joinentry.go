package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// JoinEntry finds path.Join (or filepath.Join) of a directory and the
// name of one of its entries (name := info.Name(), a DirEntry's or a
// FileInfo's), once per entry of a walk: Join cleans what it joins, a
// scan and a string of its own beyond the concatenation, though an
// entry's name is one clean element. bmatcuk/doublestar joins every
// matched entry so: −455 allocs/op of Glob's 3846 with the directory and
// the name joined directly, measured by hand.
var JoinEntry = &analysis.Analyzer{
	Name: "joinentry",
	Doc:  "path.Join of a directory and one of its entries' names, per entry",
	Run:  runJoinEntry,
}

func runJoinEntry(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		names := map[types.Object]ast.Node{} // name := info.Name()
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			if entryName(pass, as.Rhs[0]) {
				if o := objOf(pass, as.Lhs[0]); o != nil {
					names[o] = as
				}
			}
		})
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 || !(isFunc(pass, call, "path", "", "Join") || isFunc(pass, call, "path/filepath", "", "Join")) {
				return
			}
			arg := call.Args[1]
			from, byName := names[objOf(pass, arg)]
			if !byName && !entryName(pass, arg) {
				return
			}
			var related []analysis.RelatedInformation
			where := ""
			if byName {
				related = append(related, analysis.RelatedInformation{Pos: from.Pos(), Message: "the entry's name"})
				where = fmt.Sprintf(" (line %d)", pass.Fset.Position(from.Pos()).Line)
			}
			fn := types.ExprString(call.Fun)
			dir := oneLine(types.ExprString(call.Args[0]))
			pass.Report(analysis.Diagnostic{
				Category: "join-entry",
				Pos:      call.Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s(%s, %s) joins a directory and the name of one of its entries%s, once per entry: %s cleans what it joins, a scan and a string of its own, though an entry's name is one clean element",
					fn, dir, oneLine(types.ExprString(arg)), where, fn),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"join them directly where %s is clean (it came from the pattern or the walk): the name alone when %s is \".\", %s + \"/\" + name otherwise; one string per entry and no Clean", dir, dir, dir)}},
			})
		})
	})
	return nil, nil
}

// entryName reports whether e calls Name() on a directory entry or a
// file's description (a type with Name() string and IsDir() bool).
func entryName(pass *analysis.Pass, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Name" {
		return false
	}
	t := pass.TypesInfo.TypeOf(sel.X)
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "IsDir")
	_, isFunc := obj.(*types.Func)
	return isFunc
}
