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
