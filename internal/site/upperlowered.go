package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// UpperLowered finds a number formatted with an upper-case verb ('E',
// 'G', 'X') and handed to the package's own function that lowers its
// text with strings.ToLower: cockroachdb/apd's SetFloat64 formats with
// strconv.AppendFloat(buf[:0], f, 'E', -1, 64) and passes the text to
// SetString, whose setString calls strings.ToLower(s). ToLower returns a
// string with no upper-case letter as it is, without allocating; the
// 'E' makes it copy on every call (formatting with 'e', measured by
// hand: SetFloat64 3 → 2 allocs/op).
var UpperLowered = &analysis.Analyzer{
	Name: "upperlowered",
	Doc:  "a number formatted in upper case, then lowered by the package's function it is passed to",
	Run:  runUpperLowered,
}

// upperVerbs are strconv's float and integer formats with upper-case
// letters in their text.
var upperVerbs = map[byte]bool{'E': true, 'G': true, 'X': true}

func runUpperLowered(pass *analysis.Pass) (any, error) {
	decls := declsByFunc(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			callee := calledFunc(pass, call)
			if callee == nil || callee.Pkg() != pass.Pkg {
				return
			}
			for k, a := range call.Args {
				format, verb := upperFormat(pass, a)
				if format == nil {
					continue
				}
				lower := lowersParam(pass, decls, callee, k, 3)
				if lower == nil {
					continue
				}
				at := pass.Fset.Position(lower.Pos())
				pass.Report(analysis.Diagnostic{
					Category: "upper-lowered",
					Pos:      format.Pos(),
					Message: fmt.Sprintf("%s formats with '%c' (its letters in upper case) and passes the text to %s, which lowers it with %s (line %d): the upper case makes ToLower copy the text on every call",
						fd.Name.Name, verb, callee.Name(), oneLine(types.ExprString(lower)), at.Line),
					Related: []analysis.RelatedInformation{{Pos: lower.Pos(), Message: "the text lowered"}},
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"format with '%c' (the same text in lower case, what %s wants): strings.ToLower then returns its argument as it is, without allocating", verb+'a'-'A', callee.Name())}},
				})
				return
			}
		})
	})
	return nil, nil
}

// upperFormat returns the strconv call in e (under a string conversion)
// that formats with an upper-case verb, and the verb.
func upperFormat(pass *analysis.Pass, e ast.Expr) (*ast.CallExpr, byte) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, 0
	}
	if isConversion(pass, call) && len(call.Args) == 1 {
		return upperFormat(pass, call.Args[0])
	}
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "strconv" {
		return nil, 0
	}
	for _, a := range call.Args {
		tv, ok := pass.TypesInfo.Types[a]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			continue
		}
		if v, exact := constant.Int64Val(tv.Value); exact && v < 256 && upperVerbs[byte(v)] {
			if b, ok := tv.Type.Underlying().(*types.Basic); ok && (b.Kind() == types.Uint8 || b.Kind() == types.UntypedRune) {
				return call, byte(v)
			}
		}
	}
	return nil, 0
}

// lowersParam returns the strings.ToLower call that fn applies to its
// parameter k, itself or through the package's functions it passes the
// parameter to, up to depth calls deep; nil when there is none.
func lowersParam(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, fn *types.Func, k, depth int) *ast.CallExpr {
	fd := decls[fn]
	if fd == nil || depth == 0 {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if k >= sig.Params().Len() || !isString(sig.Params().At(k).Type()) {
		return nil
	}
	p := paramAt(pass, fd, k)
	if p == nil {
		return nil
	}
	var found *ast.CallExpr
	inspectBody(fd.Body, func(n ast.Node) {
		call, ok := n.(*ast.CallExpr)
		if !ok || found != nil {
			return
		}
		callee := calledFunc(pass, call)
		if callee == nil || callee.Pkg() == nil {
			return
		}
		for j, a := range call.Args {
			if identVar(pass, a) != p {
				continue
			}
			switch {
			case callee.Pkg().Path() == "strings" && callee.Name() == "ToLower":
				found = call
			case callee.Pkg() == pass.Pkg:
				found = lowersParam(pass, decls, callee, j, depth-1)
			}
			if found != nil {
				return
			}
		}
	})
	return found
}
