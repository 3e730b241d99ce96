package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ErrorBuilt finds an error built with fmt.Errorf in a return statement
// inside a condition: the function's error path. Where a profile finds
// the formatting hot, the benchmark fails on every op (on purpose, or
// because its input is wrong); the text is built whether or not anyone
// reads it. Advice that speeds up formatting in general (strconv.Append*
// instead of fmt) does not fit: the fix is the benchmark's input, or an
// error that formats only when its Error method is called.
var ErrorBuilt = &analysis.Analyzer{
	Name: "errorbuilt",
	Doc:  "an error built with fmt.Errorf on a function's error path",
	Run:  runErrorBuilt,
}

func runErrorBuilt(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			var conds []ast.Expr
			var walk func(n ast.Node) bool
			walk = func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.IfStmt:
					if x.Init != nil {
						ast.Inspect(x.Init, walk)
					}
					ast.Inspect(x.Cond, walk)
					conds = append(conds, x.Cond)
					ast.Inspect(x.Body, walk)
					conds = conds[:len(conds)-1]
					if x.Else != nil {
						ast.Inspect(x.Else, walk)
					}
					return false
				case *ast.ReturnStmt:
					if len(conds) == 0 {
						return false
					}
					for _, r := range x.Results {
						call, ok := ast.Unparen(r).(*ast.CallExpr)
						if !ok || !isFunc(pass, call, "fmt", "", "Errorf") {
							continue
						}
						cond := types.ExprString(conds[len(conds)-1])
						format := ""
						if len(call.Args) > 0 {
							// A constant format, a literal or a named one
							// (errorMsgWith): it says which error is built.
							if tv, ok := pass.TypesInfo.Types[call.Args[0]]; ok && tv.Value != nil {
								format = "(" + types.ExprString(call.Args[0])
								if len(call.Args) > 1 {
									format += ", …"
								}
								format += ")"
							}
						}
						pass.Report(analysis.Diagnostic{
							Category:       "error-built",
							Pos:            call.Pos(),
							Message:        fmt.Sprintf("fmt.Errorf%s builds the error %s returns when %s: its error path, taken on every op where this line is hot", format, fd.Name.Name, cond),
							SuggestedFixes: []analysis.SuggestedFix{{Message: "check that the benchmark's input is meant to fail; if it is, the cost is the error's text: an error type that keeps the cause and formats in its Error method builds it only when it is read"}},
						})
					}
					return false
				}
				return true
			}
			ast.Inspect(fd.Body, walk)
			errorConstructor(pass, fd)
		}
	}
	return nil, nil
}

// errorConstructor reports the formatting of an error constructor: a
// function returning only an error value of a type of its own
// (NewParserError returning &ParserError{Message: fmt.Errorf(format,
// args...).Error()}) that formats its text on every call. Every caller pays for the text, the
// ones that drop the error too (a parser tried on input it may not
// accept).
func errorConstructor(pass *analysis.Pass, fd *ast.FuncDecl) {
	fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || len(fd.Body.List) != 1 {
		return
	}
	res := fn.Type().(*types.Signature).Results()
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || res.Len() != 1 || len(ret.Results) != 1 || !implementsError(res.At(0).Type()) {
		return
	}
	lit := ast.Unparen(ret.Results[0])
	if u, ok := lit.(*ast.UnaryExpr); ok && u.Op == token.AND {
		lit = ast.Unparen(u.X)
	}
	if _, ok := lit.(*ast.CompositeLit); !ok {
		return // fmt.Errorf itself: the text is the error
	}
	ast.Inspect(lit, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, f := range []string{"Errorf", "Sprintf"} {
			if isFunc(pass, call, "fmt", "", f) {
				pass.Report(analysis.Diagnostic{
					Category:       "error-built",
					Pos:            call.Pos(),
					Message:        fmt.Sprintf("%s formats its error's text (fmt.%s) on every call, whether or not the error is ever read", fd.Name.Name, f),
					SuggestedFixes: []analysis.SuggestedFix{{Message: "keep the format and its arguments in the error value and format them in its Error method: a caller that drops the error (a parse tried on input it may not accept) then pays for none of the text"}},
				})
				return false
			}
		}
		return true
	})
}

// implementsError reports whether t, or a pointer to it, is an error.
func implementsError(t types.Type) bool {
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	return types.Implements(t, errType) || types.Implements(types.NewPointer(t), errType)
}
