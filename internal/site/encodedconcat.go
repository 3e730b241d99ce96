package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// EncodedConcat finds a string concatenation whose pieces are encoded
// into strings of their own first (base64's EncodeToString, directly or
// through a function of the package that only returns it): each piece
// is allocated to be copied once more into the concatenation. A JWT's
// signing string, header + "." + claims, each segment a base64 string of
// its own, then the signature appended the same way: one buffer sized
// for the whole, each piece encoded into it (Encode, AppendEncode), and
// one conversion make it with one allocation instead of one per piece
// and one per +.
var EncodedConcat = &analysis.Analyzer{
	Name: "encodedconcat",
	Doc:  "a concatenation of strings each encoded into a string of its own first",
	Run:  runEncodedConcat,
}

func runEncodedConcat(pass *analysis.Pass) (any, error) {
	wrappers := encodeWrappers(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			ret, ok := n.(*ast.ReturnStmt)
			if !ok {
				return
			}
			for _, r := range ret.Results {
				be, ok := ast.Unparen(r).(*ast.BinaryExpr)
				if !ok || be.Op != token.ADD || !isString(pass.TypesInfo.TypeOf(be)) {
					continue
				}
				var parts []ast.Expr
				flattenAdd(be, &parts)
				var encoded []string
				for _, p := range parts {
					call, ok := ast.Unparen(p).(*ast.CallExpr)
					if !ok {
						continue
					}
					if how := encodesToString(pass, call, wrappers); how != "" {
						encoded = append(encoded, oneLine(types.ExprString(call)))
					}
				}
				if len(encoded) == 0 {
					continue
				}
				pass.Report(analysis.Diagnostic{
					Category: "encoded-concat",
					Pos:      be.Pos(),
					Message: fmt.Sprintf("%s returns a concatenation of %d pieces, %s encoded into a string of its own first: each encoded piece is allocated only to be copied again into the result",
						fd.Name.Name, len(parts), strings.Join(encoded, " and ")),
					SuggestedFixes: []analysis.SuggestedFix{{Message: "size one buffer for the whole (the encoding's EncodedLen of each piece, plus the other pieces' lengths), encode each piece into it (Encode, or AppendEncode), append the others, and convert it to a string once: one allocation for the result, none per piece"}},
				})
			}
		})
	})
	return nil, nil
}

// flattenAdd appends the operands of a chain of + to parts, in order.
func flattenAdd(e ast.Expr, parts *[]ast.Expr) {
	if be, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && be.Op == token.ADD {
		flattenAdd(be.X, parts)
		flattenAdd(be.Y, parts)
		return
	}
	*parts = append(*parts, e)
}

// encodesToString reports how a call encodes into a new string: "" when
// it does not, else the encoder's call (EncodeToString of an encoding
// package, or a package function in wrappers that only returns one).
func encodesToString(pass *analysis.Pass, call *ast.CallExpr, wrappers map[*types.Func]bool) string {
	fn := calledFunc(pass, call)
	if fn == nil {
		return ""
	}
	if wrappers[fn] {
		return fn.Name()
	}
	if fn.Name() == "EncodeToString" && fn.Pkg() != nil && strings.HasPrefix(fn.Pkg().Path(), "encoding/") {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	return ""
}

// encodeWrappers returns the package's functions whose body only returns
// an encoding package's EncodeToString (func (*Token) EncodeSegment(seg
// []byte) string { return base64.RawURLEncoding.EncodeToString(seg) }).
func encodeWrappers(pass *analysis.Pass) map[*types.Func]bool {
	out := map[*types.Func]bool{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if len(fd.Body.List) != 1 {
			return
		}
		ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return
		}
		call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
		if !ok || encodesToString(pass, call, nil) == "" {
			return
		}
		if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
			out[fn] = true
		}
	})
	return out
}
