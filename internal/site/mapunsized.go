package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// MapUnsized finds a map made without a size (make(map[K]V), map[K]V{})
// that a loop in a function of the package it is handed to then fills
// (the same in the function that makes it is the presize rewrite's
// "map-unsized"):
//
//	lineHash := make(map[string]int)
//	… dmp.diffLinesToStringsMunge(text1, &lineArray, lineHash)
//	// in diffLinesToStringsMunge, once per line:
//	lineHash[line] = len(*lineArray) - 1
//
// The map grows while the loop stores: each growth moves every entry made
// so far to a larger table. A size where it is made, from a count of what
// the loop will store (a cheap first pass when it is not known, such as
// strings.Count of the lines), makes one table.
var MapUnsized = &analysis.Analyzer{
	Name: "mapunsized",
	Doc:  "a map made without a size that a loop then fills",
	Run:  runMapUnsized,
}

func runMapUnsized(pass *analysis.Pass) (any, error) {
	decls := map[*types.Func]*ast.FuncDecl{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
			decls[fn] = fd
		}
	})
	reported := map[token.Pos]bool{}
	report := func(st loopStore, name, where, maker string, at token.Pos) {
		if !reported[st.pos] {
			reported[st.pos] = true
			reportUnsized(pass, st, name, where, maker, at)
		}
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		made := map[*types.Var]token.Pos{} // maps made without a size
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			if !unsizedMap(pass, as.Rhs[0]) {
				return true
			}
			if id, ok := as.Lhs[0].(*ast.Ident); ok {
				if v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var); ok && !v.IsField() {
					made[v] = as.Pos()
				}
			}
			return true
		})
		for v, at := range made {
			// Handed to a function of the package that fills it (a
			// loop in the function that makes it is the presize
			// rewrite's shape, of the same name).
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				callee := calledFunc(pass, call)
				cd := decls[callee]
				if cd == nil || cd == fd {
					return true
				}
				for i, a := range call.Args {
					id, ok := ast.Unparen(a).(*ast.Ident)
					if !ok || pass.TypesInfo.ObjectOf(id) != v {
						continue
					}
					p := paramAt(pass, cd, i)
					if p == nil {
						continue
					}
					for _, st := range loopStores(pass, cd.Body, p) {
						report(st, p.Name(), fmt.Sprintf("line %d in %s", pass.Fset.Position(at).Line, fd.Name.Name), fd.Name.Name, at)
					}
				}
				return true
			})
		}
	})
	return nil, nil
}

// reportUnsized reports a store into a map made without a size.
func reportUnsized(pass *analysis.Pass, st loopStore, name, where, maker string, at token.Pos) {
	pass.Report(analysis.Diagnostic{
		Category: "map-unsized",
		Pos:      st.pos,
		Message: fmt.Sprintf("%s stores into %s, made without a size (%s), once per iteration of the loop at lines %d–%d: the map grows while the loop fills it, and each growth moves every entry made so far to a larger table",
			st.text, name, where, st.from, st.to),
		Related: []analysis.RelatedInformation{{Pos: at, Message: "made without a size"}},
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"give it a size where %s makes it (make(map[K]V, n)), from a count of what the loop stores — a cheap first pass when it is not known (strings.Count of the separators for lines or fields): one table, no growth; where many keys repeat, the count is an upper bound", maker)}},
	})
}

// unsizedMap reports whether e makes a map with no size: make(map[K]V) or
// an empty map literal.
func unsizedMap(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if !isBuiltin(pass, x.Fun, "make") || len(x.Args) != 1 {
			return false
		}
		_, ok := pass.TypesInfo.TypeOf(x).Underlying().(*types.Map)
		return ok
	case *ast.CompositeLit:
		_, ok := pass.TypesInfo.TypeOf(x).Underlying().(*types.Map)
		return ok && len(x.Elts) == 0
	}
	return false
}

// loopStore is a store m[k] = v inside a loop.
type loopStore struct {
	pos      token.Pos
	text     string
	from, to int // the loop's lines
}

// loopStores returns the stores into map v inside loops of body.
func loopStores(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) []loopStore {
	var out []loopStore
	inspectLoops(body, func(m ast.Node, loop ast.Stmt) {
		if loop == nil {
			return
		}
		var lhs []ast.Expr
		switch x := m.(type) {
		case *ast.AssignStmt:
			lhs = x.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{x.X}
		}
		for _, l := range lhs {
			ix, ok := ast.Unparen(l).(*ast.IndexExpr)
			if !ok {
				continue
			}
			if id, ok := ast.Unparen(ix.X).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == v {
				out = append(out, loopStore{pos: m.Pos(), text: oneLine(types.ExprString(l)),
					from: pass.Fset.Position(loop.Pos()).Line, to: pass.Fset.Position(loop.End()).Line})
			}
		}
	})
	return out
}
