package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// BuilderResult finds the writes into a local strings.Builder or
// bytes.Buffer whose text the function returns (return b.String()): an
// unescaper's b.WriteRune(c) for every rune it keeps. The writes are the
// function's result, built from what it is given: its own work, as an
// append to a returned slice is. What they cost changes only with how
// the result is built (runs copied in one write between the bytes that
// change, instead of a write per rune).
var BuilderResult = &analysis.Analyzer{
	Name: "builderresult",
	Doc:  "writes into a local strings.Builder or bytes.Buffer whose text the function returns",
	Run:  runBuilderResult,
}

func runBuilderResult(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) { builderResult(pass, fd) })
	return nil, nil
}

func builderResult(pass *analysis.Pass, fd *ast.FuncDecl) {
	// The builders whose text is returned, with the return's line.
	returned := returnedBuilders(pass, fd)
	if len(returned) == 0 {
		return
	}
	name := fd.Name.Name
	inspectBody(fd.Body, func(n ast.Node) {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return
		}
		switch sel.Sel.Name {
		case "Write", "WriteString", "WriteRune", "WriteByte":
		case "Grow":
			if v := localBuilder(pass, fd, sel.X); v != nil && returned[v] != 0 {
				builderGrow(pass, fd, call, v, returned[v])
			}
			return
		default:
			return
		}
		v := localBuilder(pass, fd, sel.X)
		if v == nil || returned[v] == 0 {
			return
		}
		pass.Report(analysis.Diagnostic{
			Category: "builder-result" + ownWork,
			Pos:      call.Pos(),
			Message:  fmt.Sprintf("%s writes into %s, whose text %s returns (line %d): the writes build its result", oneLine(types.ExprString(call)), v.Name(), name, returned[v]),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"the writes are %s's result, built from what it is given: its own work, with nothing to keep between calls; what they cost changes only with how the result is built (the runs between the bytes that change copied in one write each, instead of a write per rune or byte): %s", name, ownWorkWords)}},
		})
	})
}

// builderGrow reports a Grow of a builder whose text the function returns
// when a return after it leaves the builder behind (a rune loop that gives
// up at the first rune it cannot handle): a call that takes that return
// paid for a buffer it drops ("grow-dropped").
func builderGrow(pass *analysis.Pass, fd *ast.FuncDecl, grow *ast.CallExpr, v *types.Var, retLine int) {
	name := fd.Name.Name
	var dropped *ast.ReturnStmt
	inspectBody(fd.Body, func(n ast.Node) {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || dropped != nil || ret.Pos() < grow.End() || len(ret.Results) == 0 || usesVar(pass, ret, v) || v.Parent() == nil || !v.Parent().Contains(ret.Pos()) {
			return
		}
		dropped = ret
	})
	if dropped == nil {
		return
	}
	pass.Report(analysis.Diagnostic{
		Category: "grow-dropped",
		Pos:      grow.Pos(),
		Message: fmt.Sprintf("%s reserves room in %s, whose text %s returns (line %d), but the return at line %d leaves %s behind: every call that takes it has allocated a buffer it drops",
			oneLine(types.ExprString(grow)), v.Name(), name, retLine, pass.Fset.Position(dropped.Pos()).Line, v.Name()),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"reserve the room once the function knows it keeps %s: after the check that returns without it, or at the first write", v.Name())}},
	})
}

// usesVar reports whether n mentions v.
func usesVar(pass *analysis.Pass, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == v {
			found = true
		}
		return !found
	})
	return found
}
