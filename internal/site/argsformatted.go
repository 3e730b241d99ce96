package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ArgsFormatted finds a fmt.Sprint, Sprintf or Sprintln that formats a
// function's own variadic ...any parameter, handed on whole:
//
//	func getMessageln(fmtArgs []interface{}) string {
//		msg := fmt.Sprintln(fmtArgs...)
//
// zap's SugaredLogger.Infoln and its kin take the caller's values as
// ...any and promise to format them: the string is what the API makes of
// its arguments (the logger's message is a string), not a value to keep
// or a call to skip. The API's alternative for hot paths is a typed one
// (zap's Logger with Fields).
var ArgsFormatted = &analysis.Analyzer{
	Name: "argsformatted",
	Doc:  "fmt formatting a function's own ...any parameter, handed on whole",
	Run:  runArgsFormatted,
}

func runArgsFormatted(pass *analysis.Pass) (any, error) {
	for fd := range funcDecls(pass) {
		params := map[types.Object]bool{}
		for _, f := range fd.Type.Params.List {
			s, ok := pass.TypesInfo.TypeOf(f.Type).(*types.Slice)
			if e, isEllipsis := f.Type.(*ast.Ellipsis); isEllipsis {
				s, ok = types.NewSlice(pass.TypesInfo.TypeOf(e.Elt)), true
			}
			if !ok {
				continue
			}
			if it, ok := s.Elem().Underlying().(*types.Interface); !ok || !it.Empty() {
				continue
			}
			for _, n := range f.Names {
				params[pass.TypesInfo.Defs[n]] = true
			}
		}
		if len(params) == 0 {
			continue
		}
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || !call.Ellipsis.IsValid() || len(call.Args) == 0 {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" {
				return
			}
			switch fn.Name() {
			case "Sprint", "Sprintf", "Sprintln":
			default:
				return
			}
			id, ok := ast.Unparen(call.Args[len(call.Args)-1]).(*ast.Ident)
			if !ok || !params[pass.TypesInfo.Uses[id]] {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "args-formatted",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s formats %s's own arguments (%s..., its ...any parameter) with fmt.%s: the text a Sprint-style API promises to make of the values its caller passed",
					fd.Name.Name, fd.Name.Name, id.Name, fn.Name()),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "inherent to an API that takes ...any to format: the string is its result, not work to skip or keep; callers on hot paths have the typed alternative (structured fields, a method per type) where the API offers one"}},
			})
		})
	}
	return nil, nil
}
