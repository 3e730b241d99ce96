package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ReflectMapRange finds a loop over a map through reflection:
//
//	iter := v.MapRange()
//	for iter.Next() {
//		kbuf.SetIterKey(iter)
//		value := iter.Value()
//
// iter.Key() and iter.Value() copy the entry out, into a new allocation
// for a value that is not pointer-shaped (a string, an interface, a
// struct): SetIterKey and SetIterValue copy it into a value the caller
// made once. Where the loop already copies into values it reuses, walking
// the caller's map entry by entry is the encoder's own work: no change at
// the line.
var ReflectMapRange = &analysis.Analyzer{
	Name: "reflectmaprange",
	Doc:  "a loop over a map through reflection (MapRange), and how it copies the entries out",
	Run:  runReflectMapRange,
}

func runReflectMapRange(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			loop, ok := n.(*ast.ForStmt)
			if !ok {
				return true
			}
			next, ok := ast.Unparen(loop.Cond).(*ast.CallExpr)
			if !ok || len(next.Args) != 0 {
				return true
			}
			sel, ok := next.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Next" || !isNamed(pass.TypesInfo.TypeOf(sel.X), "reflect", "MapIter") {
				return true
			}
			iter := objOf(pass, sel.X)
			if iter == nil {
				return true
			}
			var copied []*ast.CallExpr // iter.Key(), iter.Value()
			var into []string          // SetIterKey, SetIterValue
			kept := ""
			var stack []ast.Node
			ast.Inspect(loop.Body, func(m ast.Node) bool {
				if m == nil {
					stack = stack[:len(stack)-1]
					return true
				}
				stack = append(stack, m)
				call, ok := m.(*ast.CallExpr)
				if !ok {
					return true
				}
				s, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				switch {
				case (s.Sel.Name == "Key" || s.Sel.Name == "Value") && len(call.Args) == 0 && objOf(pass, s.X) == iter:
					copied = append(copied, call)
					if k := keptBy(pass, loop.Body, stack); k != "" && kept == "" {
						kept = k
					}
				case (s.Sel.Name == "SetIterKey" || s.Sel.Name == "SetIterValue") && len(call.Args) == 1 && objOf(pass, call.Args[0]) == iter:
					into = append(into, s.Sel.Name)
				}
				return true
			})
			it := types.ExprString(sel.X)
			start, end := pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line
			if len(copied) == 0 {
				if len(into) == 0 {
					return true
				}
				pass.Report(analysis.Diagnostic{
					Category: "reflect-map-range" + ownWork,
					Pos:      next.Pos(),
					Message: fmt.Sprintf("the loop at lines %d–%d walks the map through reflection (%s.Next) and copies each entry into values it made once (%s)",
						start, end, it, strings.Join(unique(into), ", ")),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"walking the caller's map entry by entry is %s's own work, and its copies already go into values it reuses: nothing to change at this line; %s", fd.Name.Name, ownWorkWords)}},
				})
				return true
			}
			var related []analysis.RelatedInformation
			var calls []string
			for _, c := range copied {
				related = append(related, analysis.RelatedInformation{Pos: c.Pos(), Message: "copies the entry out"})
				calls = append(calls, fmt.Sprintf("%s (line %d)", types.ExprString(c), pass.Fset.Position(c.Pos()).Line))
			}
			fix := fmt.Sprintf("copy into values made once before the loop instead: reflect.New(t).Elem() for the key and the value, then k.SetIterKey(%s) and v.SetIterValue(%s) per entry", it, it)
			if kept != "" {
				fix = fmt.Sprintf("the entries are kept past their iteration (%s): make one slice for all of them before the loop (reflect.MakeSlice with the map's Len) and copy each entry into its element with SetIterKey(%s) and SetIterValue(%s): one allocation instead of one per entry", kept, it, it)
			}
			pass.Report(analysis.Diagnostic{
				Category: "reflect-map-range",
				Pos:      next.Pos(),
				Related:  related,
				Message: fmt.Sprintf("the loop at lines %d–%d walks the map through reflection and copies each entry out with %s: reflect copies a value that is not pointer-shaped (a string, an interface, a struct) into a new allocation on every call",
					start, end, list(calls, 2)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
			})
			return true
		})
	})
	return nil, nil
}

// keptBy says where a value the innermost statement of stack makes is
// kept past the loop body: "appended to entries" when it is appended to
// a slice or stored in one, "" otherwise.
func keptBy(pass *analysis.Pass, body *ast.BlockStmt, stack []ast.Node) string {
	var v types.Object
	for i := len(stack) - 1; i >= 0; i-- {
		switch x := stack[i].(type) {
		case *ast.AssignStmt:
			if len(x.Lhs) == 1 {
				v = objOf(pass, x.Lhs[0])
			}
		case *ast.CallExpr:
			if isBuiltin(pass, x.Fun, "append") && len(x.Args) > 0 {
				return "appended to " + types.ExprString(x.Args[0])
			}
		}
		if v != nil {
			break
		}
	}
	if v == nil {
		return ""
	}
	out := ""
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || out != "" || !isBuiltin(pass, call.Fun, "append") || len(call.Args) < 2 {
			return out == ""
		}
		for _, a := range call.Args[1:] {
			ast.Inspect(a, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v {
					out = "appended to " + types.ExprString(call.Args[0])
				}
				return out == ""
			})
		}
		return out == ""
	})
	return out
}

// unique returns words without repeats, in their first order.
func unique(words []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range words {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
