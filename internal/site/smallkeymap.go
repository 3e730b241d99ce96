package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"iter"

	"golang.org/x/tools/go/analysis"
)

// SmallKeyMap finds a lookup in a fixed table kept as a map whose keys
// are small integers: a package-level map, written only by its literal,
// keyed by an integer type (a token kind, a rune, an opcode) whose
// literal's keys are constants from 0 to at most smallKeyMax. A parser's
// binding powers by token type (bindingPowers[tok]), a lexer's one-rune
// tokens (basicTokens[r]). Each lookup hashes the key and probes; an
// array indexed by the key answers with a bounds check.
var SmallKeyMap = &analysis.Analyzer{
	Name: "smallkeymap",
	Doc:  "a lookup in a package-level map written only by its literal whose keys are small integer constants",
	Run:  runSmallKeyMap,
}

// smallKeyMax is the largest key of a table an array replaces: 256
// entries of a few bytes are a few cache lines.
const smallKeyMax = 255

// smallTable is a package-level map a SmallKeyMap lookup reads.
type smallTable struct {
	entries int
	max     int64
	elem    string
}

func runSmallKeyMap(pass *analysis.Pass) (any, error) {
	tables := map[*types.Var]smallTable{}
	for v, value := range packageVars(pass) {
		if t, ok := smallKeyTable(pass, v, value); ok {
			tables[v] = t
		}
	}
	if len(tables) == 0 {
		return nil, nil
	}
	// Written anywhere else (a store, a delete, an assignment of the
	// whole map): not a fixed table.
	for v := range writtenVars(pass) {
		delete(tables, v)
	}
	eachFunc(pass, func(body *ast.BlockStmt) {
		inspectBody(body, func(n ast.Node) {
			ix, ok := n.(*ast.IndexExpr)
			if !ok {
				return
			}
			v, _ := objOf(pass, ix.X).(*types.Var)
			t, ok := tables[v]
			if !ok {
				return
			}
			key := types.TypeString(pass.TypesInfo.TypeOf(ix.Index), types.RelativeTo(pass.Pkg))
			if tv, ok := pass.TypesInfo.Types[ix.Index]; ok && tv.Value != nil {
				// A constant key: the same answer on every call,
				// which a map lookup computes again each time.
				pass.Report(analysis.Diagnostic{
					Category: "map-small-key",
					Pos:      ix.Pos(),
					Message:  fmt.Sprintf("%s looks up the constant key %s in %s, a fixed table of %d entries: the same answer on every call, found by hashing the key and probing the map each time", text(pass, ix), text(pass, ix.Index), v.Name(), t.entries),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"make %s an array indexed by the key ([%d]%s, filled by the same literal): a constant index into it is a load, with no hashing", v.Name(), t.max+1, t.elem)}},
				})
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "map-small-key",
				Pos:      ix.Pos(),
				Message:  fmt.Sprintf("%s looks a key up in %s, a fixed table of %d entries keyed by %s constants from 0 to %d: each lookup hashes the key and probes the map", text(pass, ix), v.Name(), t.entries, key, t.max),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"make %s an array indexed by the key ([%d]%s, filled by the same literal), so that a lookup is an index; a key past its end needs the map's answer for a missing key (the zero value, or ok false) from a bounds check", v.Name(), t.max+1, t.elem)}},
			})
		})
	})
	return nil, nil
}

// smallKeyTable reports whether v is a map with an integer key type whose
// value is a literal of constant keys from 0 to smallKeyMax.
func smallKeyTable(pass *analysis.Pass, v *types.Var, value ast.Expr) (smallTable, bool) {
	m, ok := v.Type().Underlying().(*types.Map)
	if !ok {
		return smallTable{}, false
	}
	if b, ok := m.Key().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return smallTable{}, false
	}
	lit, ok := ast.Unparen(value).(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return smallTable{}, false
	}
	t := smallTable{entries: len(lit.Elts), max: -1, elem: types.TypeString(m.Elem(), types.RelativeTo(pass.Pkg))}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return smallTable{}, false
		}
		tv, ok := pass.TypesInfo.Types[kv.Key]
		if !ok || tv.Value == nil {
			return smallTable{}, false
		}
		k, exact := constant.Int64Val(constant.ToInt(tv.Value))
		if !exact || k < 0 || k > smallKeyMax {
			return smallTable{}, false
		}
		t.max = max(t.max, k)
	}
	return t, true
}

// writtenVars returns the variables the package's code writes after
// their declaration: assigned, whole or by element (x = …, x[k] = …),
// incremented, deleted from, or whose address is taken.
func writtenVars(pass *analysis.Pass) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	mark := func(e ast.Expr) {
		e = ast.Unparen(e)
		if ix, ok := e.(*ast.IndexExpr); ok {
			e = ix.X
		}
		if v, ok := objOf(pass, e).(*types.Var); ok {
			out[v] = true
		}
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					mark(l)
				}
			case *ast.IncDecStmt:
				mark(x.X)
			case *ast.CallExpr:
				if isBuiltin(pass, x.Fun, "delete") && len(x.Args) > 0 {
					mark(x.Args[0])
				}
			case *ast.UnaryExpr:
				if x.Op == token.AND {
					mark(x.X)
				}
			}
			return true
		})
	}
	return out
}

// packageVars yields the package-level variables declared with a value,
// with that value.
func packageVars(pass *analysis.Pass) iter.Seq2[*types.Var, ast.Expr] {
	return func(yield func(*types.Var, ast.Expr) bool) {
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					if len(vs.Names) != len(vs.Values) {
						continue
					}
					for i, name := range vs.Names {
						if v, ok := pass.TypesInfo.Defs[name].(*types.Var); ok && !yield(v, vs.Values[i]) {
							return
						}
					}
				}
			}
		}
	}
}
