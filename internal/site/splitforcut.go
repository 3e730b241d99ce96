package site

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// SplitForCut finds strings.Split (bytes.Split) whose result is used only
// as its first two parts and its length: a []string made to find one
// separator, where strings.Cut returns the two sides with no slice:
//
//	parts := strings.Split(strconv.FormatFloat(v, 'f', -1, 64), ".")
//	… parts[0] … if len(parts) > 1 { … parts[1] … }
//
// When the text split is a number formatted only for this, an Append
// variant into a stack array keeps that string off the heap too.
var SplitForCut = &analysis.Analyzer{
	Name: "splitforcut",
	Doc:  "strings.Split whose result is used only as parts[0], parts[1] and its length",
	Run:  runSplitForCut,
}

func runSplitForCut(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		splits := map[types.Object]*ast.CallExpr{}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || len(c.Args) != 2 || !isFunc(pass, c, "strings", "", "Split") && !isFunc(pass, c, "bytes", "", "Split") {
				return
			}
			if id := identOf(as.Lhs[0]); id != nil {
				if obj := pass.TypesInfo.Defs[id]; obj != nil {
					splits[obj] = c
				}
			}
		})
		if len(splits) == 0 {
			return
		}
		// Every use of each result: parts[0], parts[1] or len(parts).
		ok := map[types.Object]bool{}
		for obj := range splits {
			ok[obj] = true
		}
		var stack []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			id, isID := n.(*ast.Ident)
			if !isID || len(stack) < 2 {
				return true
			}
			obj := pass.TypesInfo.Uses[id]
			if !ok[obj] {
				return true
			}
			switch p := stack[len(stack)-2].(type) {
			case *ast.IndexExpr:
				if tv, isConst := pass.TypesInfo.Types[p.Index]; p.X == id && isConst && tv.Value != nil {
					if i, exact := constant.Int64Val(tv.Value); exact && i <= 1 {
						if len(stack) >= 3 {
							if as, isAssign := stack[len(stack)-3].(*ast.AssignStmt); isAssign && slicesContainsExpr(as.Lhs, p) {
								ok[obj] = false // parts[0] = …: written
							}
						}
						return true
					}
				}
			case *ast.CallExpr:
				if isBuiltin(pass, p.Fun, "len") {
					return true
				}
			}
			ok[obj] = false
			return true
		})
		objs := slices.SortedFunc(maps.Keys(splits), func(a, b types.Object) int { return cmp.Compare(splits[a].Pos(), splits[b].Pos()) })
		for _, obj := range objs {
			c := splits[obj]
			if !ok[obj] {
				continue
			}
			pkg := "strings"
			if isFunc(pass, c, "bytes", "", "Split") {
				pkg = "bytes"
			}
			x, sep := oneLine(types.ExprString(c.Args[0])), oneLine(types.ExprString(c.Args[1]))
			fix := fmt.Sprintf("before, after, found := %s.Cut(%s, %s) gives the two sides with no slice of parts (after is %s[1] when the separator appears at most once)", pkg, x, sep, obj.Name())
			if inner, isCall := ast.Unparen(c.Args[0]).(*ast.CallExpr); isCall {
				if fn := calleeFunc(pass, inner); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "strconv" && len(fn.Name()) > 6 && fn.Name()[:6] == "Format" {
					fix += fmt.Sprintf("; and the number is formatted only to be taken apart: strconv.Append%s into a stack array (var buf [32]byte) keeps that text off the heap, and one pass over it can write the result", fn.Name()[6:])
				}
			}
			pass.Report(analysis.Diagnostic{
				Category: "split-for-cut",
				Pos:      c.Pos(),
				Message: fmt.Sprintf("%s splits %s at %s into a slice of parts, and uses only %s[0], %s[1] and its length: a []%s (and its parts) made to find one separator",
					fd.Name.Name, x, sep, obj.Name(), obj.Name(), map[string]string{"strings": "string", "bytes": "[]byte"}[pkg]),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
			})
		}
	})
	return nil, nil
}

// slicesContainsExpr reports whether list holds e itself.
func slicesContainsExpr(list []ast.Expr, e ast.Expr) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}
