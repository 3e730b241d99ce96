package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// FoldTransformer finds a golang.org/x/text/transform.Transformer of the
// package whose Transform maps each rune through unicode.ToLower (or
// ToUpper, ToTitle): a case fold run through the transform machinery.
// transform.String heap-allocates its scratch buffer on every call, feeds
// the input in 128-byte chunks (a Transform that converts its chunk to a
// string copies each), and regrows its output; strings.ToLower does the
// same fold in one pass and returns its input when nothing changes. The
// diagnostic is at the Transform method, with the package's
// transform.String calls as related lines.
var FoldTransformer = &analysis.Analyzer{
	Name: "foldtransformer",
	Doc:  "a transform.Transformer that only maps runes through unicode.ToLower or ToUpper",
	Run:  runFoldTransformer,
}

func runFoldTransformer(pass *analysis.Pass) (any, error) {
	var strs []ast.Node // transform.String calls in the package
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if fn := calledFunc(pass, c); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "golang.org/x/text/transform" && (fn.Name() == "String" || fn.Name() == "Bytes") {
					strs = append(strs, c)
				}
			}
			return true
		})
	})
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || fd.Name.Name != "Transform" || fd.Type.Params.NumFields() != 3 {
			return
		}
		var mapper string
		var loops []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if r, ok := n.(*ast.RangeStmt); ok {
				loops = append(loops, r)
			}
			if c, ok := n.(*ast.CallExpr); ok {
				if fn := calledFunc(pass, c); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "unicode" && (fn.Name() == "ToLower" || fn.Name() == "ToUpper" || fn.Name() == "ToTitle") {
					mapper = "unicode." + fn.Name()
				}
			}
			return true
		})
		if mapper == "" {
			return
		}
		recv := oneLine(types.ExprString(fd.Recv.List[0].Type))
		fold := map[string]string{"unicode.ToLower": "strings.ToLower", "unicode.ToUpper": "strings.ToUpper", "unicode.ToTitle": "strings.ToTitle"}[mapper]
		d := analysis.Diagnostic{
			Category: "fold-transformer",
			Pos:      foldAt(fd, loops),
			Message: fmt.Sprintf("%s maps each rune through %s, run through the x/text transform machinery: transform.String makes a scratch buffer per call, feeds the input in 128-byte chunks and regrows its output",
				recv, mapper),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"fold with %s(s), one pass that returns s itself when nothing changes, where the transformer is this one — or fold each rune where it is compared (%s(r) == r1), and build no folded copy at all", fold, mapper)}},
		}
		for _, l := range loops[min(1, len(loops)):] {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: l.Pos(), Message: "the fold, rune by rune"})
		}
		for _, c := range strs {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.Pos(), Message: "the transform machinery it runs in"})
		}
		pass.Report(d)
	})
	return nil, nil
}

// foldAt is where the fold happens: its first range loop, or the method.
func foldAt(fd *ast.FuncDecl, loops []ast.Node) token.Pos {
	if len(loops) > 0 {
		return loops[0].Pos()
	}
	return fd.Pos()
}
