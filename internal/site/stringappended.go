package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// StringAppended finds a value's text made with its String method only
// to be appended to a byte slice (e.AppendString(dst, ip.String()),
// append(dst, v.String()...)) where the value's type has an append form
// of the same text (AppendText, AppendTo): the string is allocated and
// copied once more. zerolog's AppendIPAddr formats each address with
// ip.String() into its JSON buffer: net.IP's AppendText writes it there
// directly (an address's text needs no escaping), 10 → 0 allocs per
// ten addresses, measured by hand.
var StringAppended = &analysis.Analyzer{
	Name: "stringappended",
	Doc:  "a String() result only appended to a byte slice, where the type has an append form",
	Run:  runStringAppended,
}

func runStringAppended(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 || !appendsInto(pass, call) {
				return
			}
			for _, a := range call.Args[1:] {
				str, ok := ast.Unparen(a).(*ast.CallExpr)
				if !ok || len(str.Args) != 0 {
					continue
				}
				sel, ok := str.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "String" {
					continue
				}
				t := pass.TypesInfo.TypeOf(sel.X)
				if t == nil {
					continue
				}
				form := textAppender(t)
				if form == "" {
					continue
				}
				x := oneLine(types.ExprString(sel.X))
				pass.Report(analysis.Diagnostic{
					Category: "string-appended",
					Pos:      str.Pos(),
					Message: fmt.Sprintf("%s.String() makes a string only for %s to append it to %s: the text is allocated, then copied again; %s has %s, which writes the same text into the slice",
						x, oneLine(types.ExprString(call.Fun)), oneLine(types.ExprString(call.Args[0])), types.TypeString(t, types.RelativeTo(pass.Pkg)), form),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"append it with %s.%s(dst) instead of the string (where the append escapes or quotes its text, do that around it: an address's or a number's text needs no escaping): no string per value", x, form)}},
				})
			}
		})
	})
	return nil, nil
}

// appendsInto reports whether call appends to its first argument, a
// []byte it returns: the builtin append, or a function whose first
// parameter and first result are []byte.
func appendsInto(pass *analysis.Pass, call *ast.CallExpr) bool {
	if isBuiltin(pass, call.Fun, "append") {
		return call.Ellipsis.IsValid()
	}
	sig, ok := pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	if !ok || sig.Params().Len() < 2 || sig.Results().Len() < 1 {
		return false
	}
	isBytes := func(t types.Type) bool {
		s, ok := t.Underlying().(*types.Slice)
		if !ok {
			return false
		}
		b, ok := s.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return isBytes(sig.Params().At(0).Type()) && isBytes(sig.Results().At(0).Type())
}

// textAppender names the method of t that appends its text to a byte
// slice (AppendText, AppendTo), or "".
func textAppender(t types.Type) string {
	ms := types.NewMethodSet(t)
	if _, isPtr := t.(*types.Pointer); !isPtr {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	for _, name := range []string{"AppendText", "AppendTo"} {
		for i := range ms.Len() {
			f, ok := ms.At(i).Obj().(*types.Func)
			if !ok || f.Name() != name {
				continue
			}
			sig := f.Type().(*types.Signature)
			if sig.Params().Len() == 1 && sig.Results().Len() >= 1 {
				return name
			}
		}
	}
	return ""
}
