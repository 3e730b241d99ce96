package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// MapKeysKnown finds a function that stores more than eight distinct
// constant keys into one map made without room for them: a local made
// with make(map[K]V) or map[K]V{} in the function, or a map field the
// package only ever makes without a size (a Dict's Data, made in its
// constructor). A Go map keeps up to eight entries in its first group:
// the ninth key makes it allocate a table and move the eight, dropping the
// group. The keys are in the code, so their count is known: a size where
// the map is made makes one table. jinja's execFor stores ten keys into
// its loop object's map (length, index, …, cycle) on every for loop: a
// size of ten, −4.8…−8.2% B/op, measured by hand.
var MapKeysKnown = &analysis.Analyzer{
	Name: "mapkeysknown",
	Doc:  "more than eight constant keys stored into a map made without a size",
	Run:  runMapKeysKnown,
}

// mapGroupSlots is the number of entries a Go map holds before it needs
// a table: its first group's.
const mapGroupSlots = 8

func runMapKeysKnown(pass *analysis.Pass) (any, error) {
	unsizedFields := unsizedMapFields(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		unsizedLocals := map[types.Object]token.Pos{}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			if unsizedMap(pass, as.Rhs[0]) {
				if o := objOf(pass, as.Lhs[0]); o != nil {
					unsizedLocals[o] = as.Rhs[0].Pos()
				}
			}
		})
		type stores struct {
			keys  []string
			lines []ast.Node
			made  token.Pos
		}
		byMap := map[string]*stores{}
		var order []string
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 {
				return
			}
			ix, ok := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr)
			if !ok {
				return
			}
			if _, isMap := typeUnder(pass, ix.X).(*types.Map); !isMap {
				return
			}
			tv, ok := pass.TypesInfo.Types[ix.Index]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
				return
			}
			var made token.Pos
			if f := fieldOf(pass, ix.X); f != nil {
				made = unsizedFields[f.Origin()]
			} else if o := objOf(pass, ix.X); o != nil {
				made = unsizedLocals[o]
			}
			if !made.IsValid() {
				return
			}
			k := types.ExprString(ix.X)
			s := byMap[k]
			if s == nil {
				s = &stores{made: made}
				byMap[k] = s
				order = append(order, k)
			}
			key := constant.StringVal(tv.Value)
			if !slices.Contains(s.keys, key) {
				s.keys = append(s.keys, key)
			}
			s.lines = append(s.lines, as)
		})
		for _, k := range order {
			s := byMap[k]
			if len(s.keys) <= mapGroupSlots {
				continue
			}
			var related []analysis.RelatedInformation
			for _, l := range s.lines[1:] {
				related = append(related, analysis.RelatedInformation{Pos: l.Pos(), Message: "a key stored"})
			}
			related = append(related, analysis.RelatedInformation{Pos: s.made, Message: "made without a size"})
			names := s.keys
			if len(names) > 4 {
				names = append(names[:3:3], "…", names[len(names)-1])
			}
			where := fmt.Sprintf("line %d", pass.Fset.Position(s.made).Line)
			if pass.Fset.File(s.made) != pass.Fset.File(fd.Pos()) {
				p := pass.Fset.Position(s.made)
				where = fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
			}
			pass.Report(analysis.Diagnostic{
				Category: "map-keys-known",
				Pos:      s.lines[0].Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s stores %d distinct constant keys into %s (%s), a map made without a size (%s): a map holds %d entries in its first group, so the %dth key makes it allocate a table and move them, dropping the group",
					fd.Name.Name, len(s.keys), oneLine(k), strings.Join(names, ", "), where, mapGroupSlots, mapGroupSlots+1),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"make it with room for its %d keys (make(map[K]V, %d) where it is made, or a constructor that takes a size): one table, no group dropped; the keys are in the code, so the count is known", len(s.keys), len(s.keys))}},
			})
		}
	})
	return nil, nil
}

// unsizedMapFields returns the map fields the package makes, every time
// it makes one, without a size (Data: make(map[string]Value) in a
// constructor), with where the first is made.
func unsizedMapFields(pass *analysis.Pass) map[*types.Var]token.Pos {
	out := map[*types.Var]token.Pos{}
	sized := map[*types.Var]bool{}
	note := func(f *types.Var, e ast.Expr) {
		if f == nil {
			return
		}
		if _, ok := f.Type().Underlying().(*types.Map); !ok {
			return
		}
		if !unsizedMap(pass, e) {
			if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && isBuiltin(pass, call.Fun, "make") {
				sized[f.Origin()] = true
			}
			return
		}
		if _, seen := out[f.Origin()]; !seen {
			out[f.Origin()] = e.Pos()
		}
	}
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.AssignStmt:
				for i, l := range x.Lhs {
					if i < len(x.Rhs) {
						note(fieldOf(pass, l), x.Rhs[i])
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := x.Key.(*ast.Ident); ok {
					if v, _ := pass.TypesInfo.Uses[id].(*types.Var); v != nil && v.IsField() {
						note(v, x.Value)
					}
				}
			}
		})
	}
	for f := range sized {
		delete(out, f)
	}
	return out
}
