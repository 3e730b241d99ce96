package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// LoweredKey finds strings.ToLower (ToUpper) building a string only to
// look it up in a map: a new string whenever the input has a letter to
// change, where a short key lowered into a stack array and looked up as
// m[string(b[:n])] allocates nothing (the compiler does not copy a
// []byte converted for a map index):
//
//	extra := strings.ToLower(strings.TrimSpace(s[lastDigit:]))
//	if m, ok := bytesSizeTable[extra]; ok { … }
var LoweredKey = &analysis.Analyzer{
	Name: "loweredkey",
	Doc:  "strings.ToLower building a string only to look it up in a map",
	Run:  runLoweredKey,
}

func runLoweredKey(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		// The locals made by ToLower, with the call.
		lowered := map[types.Object]*ast.CallExpr{}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isCaseCall(pass, c) {
				return
			}
			if id := identOf(as.Lhs[0]); id != nil {
				if obj := pass.TypesInfo.Defs[id]; obj != nil {
					lowered[obj] = c
				}
			}
		})
		report := func(c *ast.CallExpr, ix *ast.IndexExpr) {
			fn := calleeFunc(pass, c).Name()
			pass.Report(analysis.Diagnostic{
				Category: "lowered-key",
				Pos:      c.Pos(),
				Related:  []analysis.RelatedInformation{{Pos: ix.Pos(), Message: "the lookup"}},
				Message: fmt.Sprintf("strings.%s builds a new string whenever its input has a letter to change, only to look it up in %s (line %d)",
					fn, oneLine(types.ExprString(ix.X)), pass.Fset.Position(ix.Pos()).Line),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("change the case into a small stack array when the key is short and ASCII (var b [8]byte; n := copy(b[:], key); then the bytes changed in place) and look it up as %s[string(b[:n])], which does not allocate; keep strings.%s for longer or non-ASCII input, whose case mapping can change its bytes", oneLine(types.ExprString(ix.X)), fn)}},
			})
		}
		inspectBody(fd.Body, func(n ast.Node) {
			ix, ok := n.(*ast.IndexExpr)
			if !ok {
				return
			}
			if _, isMap := typeUnder(pass, ix.X).(*types.Map); !isMap {
				return
			}
			switch k := ast.Unparen(ix.Index).(type) {
			case *ast.CallExpr:
				if isCaseCall(pass, k) {
					report(k, ix)
				}
			case *ast.Ident:
				obj := pass.TypesInfo.Uses[k]
				if c := lowered[obj]; c != nil {
					report(c, ix)
					delete(lowered, obj) // one lookup names the call
				}
			}
		})
	})
	return nil, nil
}

// isCaseCall reports whether c is strings.ToLower or strings.ToUpper.
func isCaseCall(pass *analysis.Pass, c *ast.CallExpr) bool {
	return len(c.Args) == 1 && (isFunc(pass, c, "strings", "", "ToLower") || isFunc(pass, c, "strings", "", "ToUpper"))
}
