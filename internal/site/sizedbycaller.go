package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// SizedByCaller finds an exported constructor that makes a byte buffer of
// the size its caller passes and returns it inside the value it builds:
// json-iterator's Parse(cfg, reader, bufSize) returns &Iterator{buf:
// make([]byte, bufSize)}, NewStream(cfg, out, bufSize) a Stream with
// make([]byte, 0, bufSize). The size is the caller's request and the
// buffer the value's: a fixed-size array cannot hold what the caller asks
// for. What a caller making one per operation can change is to make
// fewer: the package's own way to reuse one (a Reset method, a Borrow
// function) is named when it has one.
var SizedByCaller = &analysis.Analyzer{
	Name: "sizedbycaller",
	Doc:  "an exported constructor's buffer of the size its caller passes, in the value it returns",
	Run:  runSizedByCaller,
}

func runSizedByCaller(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if !fd.Name.IsExported() || fd.Type.Results == nil || len(fd.Type.Results.List) == 0 {
			return
		}
		params := paramSet(pass, fd)
		inspectBody(fd.Body, func(n ast.Node) {
			ret, ok := n.(*ast.ReturnStmt)
			if !ok || len(ret.Results) == 0 {
				return
			}
			ast.Inspect(ret.Results[0], func(m ast.Node) bool {
				call, ok := m.(*ast.CallExpr)
				if !ok || !isBuiltin(pass, call.Fun, "make") || len(call.Args) < 2 {
					return true
				}
				if sl, ok := pass.TypesInfo.TypeOf(call).Underlying().(*types.Slice); !ok || !types.Identical(sl.Elem(), types.Typ[types.Byte]) {
					// A map's hint, or a slice of entries sized by a
					// bound (a cache's capacity), is a limit, not a
					// buffer the caller asks for.
					return true
				}
				size := call.Args[len(call.Args)-1]
				id, ok := ast.Unparen(size).(*ast.Ident)
				v, _ := pass.TypesInfo.Uses[id].(*types.Var)
				if !ok || v == nil || !params[v] {
					return true
				}
				t := pass.TypesInfo.TypeOf(ret.Results[0])
				where := "inside the " + types.TypeString(t, types.RelativeTo(pass.Pkg)) + " it returns"
				if ast.Unparen(ret.Results[0]) == call {
					where = "and returns it"
				}
				reuse := reusers(pass, t)
				advice := fmt.Sprintf("the size is the caller's request, and the buffer the returned value's: no array of fixed size holds it; a caller that calls %s once per operation pays it each time", fd.Name.Name)
				if len(reuse) > 0 {
					advice += fmt.Sprintf(": the package reuses one with %s", strings.Join(reuse, ", "))
				} else {
					advice += ": keeping one value across operations pays it once"
				}
				pass.Report(analysis.Diagnostic{
					Category:       "sized-by-caller",
					Pos:            call.Pos(),
					Message:        fmt.Sprintf("%s makes %s of %s elements, the size its caller passes, %s", fd.Name.Name, oneLine(text(pass, call)), id.Name, where),
					SuggestedFixes: []analysis.SuggestedFix{{Message: advice}},
				})
				return false
			})
		})
	})
	return nil, nil
}

// reusers names the package's exported ways to reuse a value of type t:
// its methods named Reset…, and the functions and methods whose name
// begins with Borrow or Acquire and that return t.
func reusers(pass *analysis.Pass, t types.Type) []string {
	var out []string
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if f := ms.At(i).Obj(); f.Exported() && strings.HasPrefix(f.Name(), "Reset") {
			out = append(out, "("+types.TypeString(t, types.RelativeTo(pass.Pkg))+")."+f.Name())
		}
	}
	returns := func(sig *types.Signature) bool {
		return sig.Results().Len() > 0 && types.Identical(sig.Results().At(0).Type(), t)
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() || !(strings.HasPrefix(fd.Name.Name, "Borrow") || strings.HasPrefix(fd.Name.Name, "Acquire")) {
				continue
			}
			if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && returns(fn.Type().(*types.Signature)) {
				out = append(out, fd.Name.Name)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
