package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

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
	decls := declsByFunc(pass)
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
			counted(pass, fd.Body, v, at)
		}
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
					if uncountedFill(pass, decls, cd, p, 3) {
						// The walk alone finds how many entries
						// there are: no count to size it by.
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

// counted reports a store into map v, made at at without a size, once per
// iteration of a counted loop in the same function (for i := 0; i < n;
// i++ with the store in the loop's own block): n, known before the loop
// (a decoder's entry count read from the input's header), is the size the
// map needs. A range loop over a collection is the presize rewrite's.
func counted(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var, at token.Pos) {
	if m, ok := v.Type().Underlying().(*types.Map); ok && pass.TypesSizes != nil && bigValue(pass, m.Elem()) {
		// Values over 128 bytes are stored out of line, one
		// allocation per store: map-value-indirect's cost, which a
		// size does not remove.
		return
	}
	ast.Inspect(body, func(n ast.Node) bool {
		loop, ok := n.(*ast.ForStmt)
		if !ok || loop.Pos() < at {
			return true
		}
		bound := countedBound(pass, loop)
		if bound == nil {
			return true
		}
		for _, st := range loop.Body.List {
			as, ok := st.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || as.Tok != token.ASSIGN {
				continue
			}
			ix, ok := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr)
			if !ok {
				continue
			}
			if id, ok := ast.Unparen(ix.X).(*ast.Ident); !ok || pass.TypesInfo.ObjectOf(id) != v {
				continue
			}
			name, n := v.Name(), text(pass, bound)
			runs := n + " times"
			if _, alone := ast.Unparen(loop.Cond).(*ast.BinaryExpr); !alone || ast.Unparen(loop.Cond).(*ast.BinaryExpr).Op != token.LSS {
				runs = fmt.Sprintf("%s times where its condition's i < %s decides (%s)", n, n, text(pass, loop.Cond))
			}
			pass.Report(analysis.Diagnostic{
				Category: "map-unsized",
				Pos:      as.Pos(),
				Message: fmt.Sprintf("%s stores one entry per iteration of the loop at lines %d–%d, which runs %s, a count known before the loop; %s was made without a size (line %d): the map grows while the loop fills it, and each growth moves every entry made so far to a larger table",
					text(pass, as.Lhs[0]), pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line, runs, name, pass.Fset.Position(at).Line),
				Related: []analysis.RelatedInformation{{Pos: at, Message: "made without a size"}, {Pos: loop.Pos(), Message: "the counted loop"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"make it with room for all of them: make(map[K]V, %s) where it is made (when %s comes from input, once it is checked against the input's length or a limit): one table, no growth", n, n)}},
			})
			return false
		}
		return true
	})
}

// countedBound returns n of a loop for i := 0; i < n; i++ whose body does
// not assign n or i (but in a branch that returns), or nil.
func countedBound(pass *analysis.Pass, loop *ast.ForStmt) ast.Expr {
	init, ok := loop.Init.(*ast.AssignStmt)
	if !ok || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil
	}
	i, ok := init.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	if tv, ok := pass.TypesInfo.Types[init.Rhs[0]]; !ok || tv.Value == nil || tv.Value.String() != "0" {
		return nil
	}
	// i < n, alone or as one term of the condition's && and ||
	// ((hasSize && i < count) || (!hasSize && !d.foundBreak())): the
	// count where that term decides.
	var cond *ast.BinaryExpr
	var find func(e ast.Expr)
	find = func(e ast.Expr) {
		b, ok := ast.Unparen(e).(*ast.BinaryExpr)
		if !ok || cond != nil {
			return
		}
		switch b.Op {
		case token.LAND, token.LOR:
			find(b.X)
			find(b.Y)
		case token.LSS:
			if id, ok := ast.Unparen(b.X).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == pass.TypesInfo.ObjectOf(i) {
				cond = b
			}
		}
	}
	find(loop.Cond)
	if cond == nil {
		return nil
	}
	if post, ok := loop.Post.(*ast.IncDecStmt); !ok || post.Tok != token.INC {
		return nil
	}
	bound := ast.Unparen(cond.Y)
	var objs []types.Object
	ast.Inspect(bound, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if o := pass.TypesInfo.ObjectOf(id); o != nil {
				objs = append(objs, o)
			}
		}
		return true
	})
	objs = append(objs, pass.TypesInfo.ObjectOf(i))
	changed := false
	ast.Inspect(loop.Body, func(n ast.Node) bool {
		var lhs []ast.Expr
		switch x := n.(type) {
		case *ast.BlockStmt:
			// A branch that leaves the function (skip the rest and
			// return an error) does not change how often the loop
			// runs when it does not.
			if k := len(x.List); x != loop.Body && k > 0 {
				if _, ret := x.List[k-1].(*ast.ReturnStmt); ret {
					return false
				}
			}
		case *ast.AssignStmt:
			lhs = x.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{x.X}
		}
		for _, l := range lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && slices.Contains(objs, pass.TypesInfo.ObjectOf(id)) {
				changed = true
			}
		}
		return !changed
	})
	if changed {
		return nil
	}
	return bound
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
	// uncounted: the loop runs until a condition its body computes
	// (for tMaxX < 1 || tMaxY < 1 {…}), with no length or step to
	// count its iterations by beforehand.
	uncounted bool
}

// uncountedFill reports whether a function fills map p (its parameter)
// in a loop whose iterations nothing counts beforehand, or hands it to a
// function of the package that does (depth calls deep): orb's tile cover
// walks a line through the grid, storing each tile it enters, until the
// walk's float steps pass the segment's end. The map's size is then known
// only by doing the walk; "a count of what the loop stores" does not
// exist.
func uncountedFill(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, fd *ast.FuncDecl, p *types.Var, depth int) bool {
	for _, st := range loopStores(pass, fd.Body, p) {
		if st.uncounted {
			return true
		}
	}
	if depth == 0 {
		return false
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		cd := decls[calledFunc(pass, call)]
		if cd == nil || cd == fd {
			return true
		}
		for i, a := range call.Args {
			if identVar(pass, a) != p {
				continue
			}
			if q := paramAt(pass, cd, i); q != nil && uncountedFill(pass, decls, cd, q, depth-1) {
				found = true
			}
		}
		return true
	})
	return found
}

// uncountedLoop reports whether loop runs until a condition with no
// count behind it: a for with a condition and no post statement, whose
// condition reads no length (for lineEnd < len(text)-1 scans a text, which
// a first pass can count; for tMaxX < 1 || tMaxY < 1 cannot be).
func uncountedLoop(pass *analysis.Pass, loop ast.Stmt) bool {
	f, ok := loop.(*ast.ForStmt)
	if !ok || f.Post != nil || f.Cond == nil {
		return false
	}
	reads := false
	ast.Inspect(f.Cond, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && isBuiltin(pass, call.Fun, "len") {
			reads = true
		}
		return !reads
	})
	return !reads
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
					from: pass.Fset.Position(loop.Pos()).Line, to: pass.Fset.Position(loop.End()).Line,
					uncounted: uncountedLoop(pass, loop)})
			}
		}
	})
	return out
}

// bigValue reports whether t is over 128 bytes, the size above which a
// map stores its values out of line; false when its size is not known
// (a type parameter's).
func bigValue(pass *analysis.Pass, t types.Type) bool {
	n, ok := sizeof(pass.TypesSizes, t)
	return ok && n > 128
}
