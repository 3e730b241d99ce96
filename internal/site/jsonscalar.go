package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// JSONScalar finds encoding/json run on one string: json.Marshal(s), or
// a json.Encoder made in the function to Encode(s), s a string. Each call
// boxes the string into an interface, runs the reflection-driven encoder
// for it (and, for an Encoder, makes the encoder and its buffer): about
// three allocations and a type switch through reflection to quote one
// string. jinja's encodeJSONString, run for every key and string value
// `tojson` writes: quoting plain strings directly, −30% allocs/op and
// −15% CPU time on the benchmark that uses it, measured by hand.
var JSONScalar = &analysis.Analyzer{
	Name: "jsonscalar",
	Doc:  "encoding/json's reflection run to quote one string",
	Run:  runJSONScalar,
}

func runJSONScalar(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		encoders := map[types.Object]bool{}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && isFunc(pass, call, "encoding/json", "", "NewEncoder") {
				if o := objOf(pass, as.Lhs[0]); o != nil {
					encoders[o] = true
				}
			}
		})
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || pass.TypesInfo.TypeOf(call.Args[0]) == nil || !isStringType(pass.TypesInfo.TypeOf(call.Args[0])) {
				return
			}
			var how string
			switch {
			case isFunc(pass, call, "encoding/json", "", "Marshal"):
				how = "json.Marshal"
			case isFunc(pass, call, "encoding/json", "Encoder", "Encode"):
				sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
				if !ok || !encoders[objOf(pass, sel.X)] {
					return
				}
				how = "a json.Encoder it makes for the call, and its Encode"
			default:
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "json-scalar",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s quotes the string %s through %s: the string is boxed into an interface and run through encoding/json's reflection, about three allocations and a type switch to quote one string, on every call",
					fd.Name.Name, oneLine(types.ExprString(call.Args[0])), how),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "write the quoted string directly into the output: copy runs of bytes that need no escape and write JSON's escapes for the others (\", \\, control bytes, and <, > and & where HTML escaping is on); keep encoding/json only as the fallback for bytes outside plain ASCII when its exact output for them matters"}},
			})
		})
	})
	return nil, nil
}
