package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// JSONMap finds encoding/json encoding or decoding a map of interface
// values (map[string]any, a named type of it such as a logger's Fields):
// encoding sorts the keys and finds each value's type by reflection on
// every call; decoding makes a string of every key and boxes every value
// (float64, json.Number, nested maps). A logger's JSON formatter
// encoding its fields map, a console writer decoding the JSON line it was
// given back into a map to print it. Writing the object by hand, or
// reading only the fields needed with a streaming decoder, avoids both.
var JSONMap = &analysis.Analyzer{
	Name: "jsonmap",
	Doc:  "encoding/json encoding or decoding a map of interface values",
	Run:  runJSONMap,
}

func runJSONMap(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		inspectBody(body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "encoding/json" {
				return
			}
			var arg ast.Expr
			decode := false
			switch fn.Name() {
			case "Marshal", "MarshalIndent":
				if len(call.Args) > 0 {
					arg = call.Args[0]
				}
			case "Encode":
				if len(call.Args) == 1 {
					arg = call.Args[0]
				}
			case "Unmarshal":
				if len(call.Args) == 2 {
					arg, decode = call.Args[1], true
				}
			case "Decode":
				if len(call.Args) == 1 {
					arg, decode = call.Args[0], true
				}
			}
			if arg == nil {
				return
			}
			t := pass.TypesInfo.TypeOf(arg)
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if t == nil || !anyMap(t) {
				return
			}
			what := types.TypeString(t, types.RelativeTo(pass.Pkg))
			if owner, field := apiMapField(pass, arg); decode && owner != "" {
				// The map is a field the package's API hands its
				// callers (a token's Header): its boxing is the type's.
				pass.Report(analysis.Diagnostic{
					Category:       "json-map-api",
					Pos:            call.Pos(),
					Message:        fmt.Sprintf("%s decodes into %s.%s, a %s the package's API exposes: every key becomes a new string and every value is boxed, as the field's type asks", oneLine(text(pass, call)), owner, field, what),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("the API's cost: callers read %s.%s as a map; a typed value (a struct of the fields callers use, beside or instead of the map) is a change of the API, not of this line", owner, field)}},
				})
				return
			}
			if n, ok := t.(*types.Named); decode && ok && n.Obj().Exported() && n.Obj().Pkg() == pass.Pkg {
				// The package's own exported map type (a MapClaims the
				// caller passes to be filled): the caller chose it.
				pass.Report(analysis.Diagnostic{
					Category:       "json-map-api",
					Pos:            call.Pos(),
					Message:        fmt.Sprintf("%s decodes into %s, a %s: the package's exported map type, which the caller chose to be filled: every key becomes a new string and every value is boxed, as the type asks", oneLine(text(pass, call)), text(pass, arg), what),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("the API's cost, the caller's choice of %s: the API-level alternative is a typed value (a struct of the fields the caller reads) decoded in its place", what)}},
				})
				return
			}
			if decode {
				pass.Report(analysis.Diagnostic{
					Category:       "json-map",
					Pos:            call.Pos(),
					Message:        fmt.Sprintf("%s decodes a whole JSON object into %s (%s): every key becomes a new string and every value is boxed (numbers as float64 or json.Number, objects as new maps), on every call", oneLine(text(pass, call)), text(pass, arg), what),
					SuggestedFixes: []analysis.SuggestedFix{{Message: "read only what is used: decode into a struct of those fields, or walk the input with a streaming decoder (json.Decoder.Token) or a hand-written scanner, with no map and no boxing"}},
				})
				return
			}
			pass.Report(analysis.Diagnostic{
				Category:       "json-map",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s encodes %s (%s) with encoding/json: on every call it sorts the map's keys and finds each value's type by reflection", oneLine(text(pass, call)), text(pass, arg), what),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "write the object by hand into the buffer: the keys in a fixed order (sorted once), strings through the JSON escaper (strconv.AppendQuote where its escaping fits), numbers with strconv.Append*, and encoding/json only for values of other types"}},
			})
		})
	})
	return nil, nil
}

// apiMapField returns the exported type and its exported field that arg
// addresses (&token.Header, token a *Token), or "" when arg is no such
// field.
func apiMapField(pass *analysis.Pass, arg ast.Expr) (owner, field string) {
	u, ok := ast.Unparen(arg).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return "", ""
	}
	sel, ok := ast.Unparen(u.X).(*ast.SelectorExpr)
	if !ok || !sel.Sel.IsExported() {
		return "", ""
	}
	t := pass.TypesInfo.TypeOf(sel.X)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || !n.Obj().Exported() || n.Obj().Pkg() != pass.Pkg {
		return "", ""
	}
	return n.Obj().Name(), sel.Sel.Name
}

// anyMap reports whether t is a map whose values are interfaces.
func anyMap(t types.Type) bool {
	m, ok := t.Underlying().(*types.Map)
	if !ok {
		return false
	}
	_, ok = m.Elem().Underlying().(*types.Interface)
	return ok
}
