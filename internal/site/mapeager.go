package site

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// MapEager finds a map a function makes on every call but writes only
// under conditions: a template engine's evalProgram making blockParams
// := make(map[string]interface{}) and storing into it only when the
// program declares block parameters. When the conditions do not hold,
// the map is allocated and never written; a nil map reads as empty, so
// making it at the first write costs nothing on that path.
var MapEager = &analysis.Analyzer{
	Name: "mapeager",
	Doc:  "a map made on every call but written only under conditions",
	Run:  runMapEager,
}

func runMapEager(pass *analysis.Pass) (any, error) {
	eagerFields(pass)
	eachFunc(pass, func(body *ast.BlockStmt) {
		inspectBody(body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			id, ok := as.Lhs[0].(*ast.Ident)
			if !ok {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, call.Fun, "make") {
				return
			}
			if _, isMap := typeUnder(pass, call.Args[0]).(*types.Map); !isMap {
				return
			}
			obj := pass.TypesInfo.ObjectOf(id)
			if obj == nil {
				return
			}
			if writes, ok := conditionalWrites(pass, body, as, obj); ok {
				lines := make([]string, len(writes))
				for i, w := range writes {
					lines[i] = fmt.Sprint(pass.Fset.Position(w).Line)
				}
				at := "line " + lines[0]
				if len(lines) > 1 {
					at = "lines " + strings.Join(lines, ", ")
				}
				pass.Report(analysis.Diagnostic{
					Category: "map-eager",
					Pos:      as.Pos(),
					Message:  fmt.Sprintf("%s is made on every call but written only under conditions (%s): when they do not hold, an empty map is allocated for nothing", id.Name, at),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"make %s lazily, at its first write under the condition (a nil map reads as empty: lookups, len and range need no map), as long as what it is passed to only reads it", id.Name)}},
				})
			}
		})
	})
	return nil, nil
}

// conditionalWrites returns the positions of the stores into the map
// obj that mk makes, and whether every store is in the branch of an if
// statement after mk, and the map is neither returned, assigned again,
// nor stored anywhere but passed to calls.
func conditionalWrites(pass *analysis.Pass, body *ast.BlockStmt, mk *ast.AssignStmt, obj types.Object) ([]token.Pos, bool) {
	var writes []token.Pos
	ok := true
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if !ok {
			return false
		}
		switch x := n.(type) {
		case *ast.ReturnStmt:
			for _, r := range x.Results {
				if usesObj(pass, r, obj) {
					ok = false
				}
			}
		case *ast.AssignStmt:
			if x == mk {
				return true
			}
			for _, l := range x.Lhs {
				if id, isIdent := l.(*ast.Ident); isIdent && pass.TypesInfo.ObjectOf(id) == obj {
					ok = false // assigned again
				}
				ix, isIndex := l.(*ast.IndexExpr)
				if !isIndex || !isObj(pass, ix.X, obj) {
					continue
				}
				if !underIf(stack, mk.Pos()) {
					ok = false
				}
				writes = append(writes, x.Pos())
			}
			for _, r := range x.Rhs {
				if isObj(pass, r, obj) {
					ok = false // stored: another name may write it
				}
			}
		case *ast.CallExpr:
			if isBuiltin(pass, x.Fun, "delete") && len(x.Args) > 0 && isObj(pass, x.Args[0], obj) && !underIf(stack, mk.Pos()) {
				ok = false
			}
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if kv, isKV := el.(*ast.KeyValueExpr); isKV {
					el = kv.Value
				}
				if isObj(pass, el, obj) {
					ok = false
				}
			}
		}
		return true
	})
	return writes, ok && len(writes) > 0
}

// underIf reports whether the innermost node of stack is inside the body
// or else branch of an if statement that begins after pos.
func underIf(stack []ast.Node, pos token.Pos) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		if is, isIf := stack[i].(*ast.IfStmt); isIf && is.Pos() > pos && stack[i+1] != is.Cond && stack[i+1] != is.Init {
			return true
		}
		if _, isLit := stack[i].(*ast.FuncLit); isLit {
			return false
		}
	}
	return false
}

// isObj reports whether e is the identifier of obj.
func isObj(pass *analysis.Pass, e ast.Expr, obj types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && pass.TypesInfo.ObjectOf(id) == obj
}

// usesObj reports whether e mentions obj.
func usesObj(pass *analysis.Pass, e ast.Expr, obj types.Object) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == obj {
			found = true
		}
		return !found
	})
	return found
}

// eagerFields reports a map field a constructor makes in the composite
// literal of every value (&visitor{…, exprFunc: make(map[K]V)}) while the
// package writes it only under conditions, in other functions: a value
// that never meets them carries an empty map allocated for nothing. Every
// other use of the field must read it (an index, len, range, delete: a
// nil map answers them all).
func eagerFields(pass *analysis.Pass) {
	type eager struct {
		kv     *ast.KeyValueExpr
		fn     string
		writes []token.Pos
		bad    bool // assigned, passed on, or written unconditionally
		uses   int
		known  int
	}
	byField := map[*types.Var]*eager{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			cl, ok := n.(*ast.CompositeLit)
			if !ok {
				return
			}
			st, ok := typeUnder(pass, cl).(*types.Struct)
			if !ok {
				return
			}
			for _, el := range cl.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, ok := kv.Key.(*ast.Ident)
				call, isCall := ast.Unparen(kv.Value).(*ast.CallExpr)
				if !ok || !isCall || !isBuiltin(pass, call.Fun, "make") {
					continue
				}
				for f := range st.Fields() {
					if f.Name() != key.Name {
						continue
					}
					if _, isMap := f.Type().Underlying().(*types.Map); isMap && byField[f.Origin()] == nil {
						byField[f.Origin()] = &eager{kv: kv, fn: fd.Name.Name}
					} else if e := byField[f.Origin()]; e != nil && e.kv != kv {
						e.bad = true // made in two literals: not one constructor
					}
				}
			}
		})
	})
	if len(byField) == 0 {
		return
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		var stack []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if e := byField[mapField(pass, x)]; e != nil {
					e.uses++
				}
			case *ast.IndexExpr:
				if e := byField[mapField(pass, x.X)]; e != nil {
					e.known++
				}
			case *ast.RangeStmt:
				if e := byField[mapField(pass, x.X)]; e != nil {
					e.known++
				}
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if e := byField[mapField(pass, l)]; e != nil {
						e.bad = true // assigned: not made once by the literal
					}
					ix, ok := l.(*ast.IndexExpr)
					if !ok {
						continue
					}
					if e := byField[mapField(pass, ix.X)]; e != nil {
						if fd.Body.Pos() > e.kv.Pos() || fd.Body.End() < e.kv.Pos() {
							if !underIf(stack, fd.Body.Pos()) {
								e.bad = true
							}
							e.writes = append(e.writes, x.Pos())
						} else {
							e.bad = true // written by the constructor itself
						}
					}
				}
			case *ast.CallExpr:
				for _, b := range []string{"len", "delete"} {
					if isBuiltin(pass, x.Fun, b) && len(x.Args) > 0 {
						if e := byField[mapField(pass, x.Args[0])]; e != nil {
							e.known++
						}
					}
				}
			}
			return true
		})
	})
	fields := slices.SortedFunc(maps.Keys(byField), func(a, b *types.Var) int { return cmp.Compare(byField[a].kv.Pos(), byField[b].kv.Pos()) })
	for _, f := range fields {
		e := byField[f]
		if e.bad || e.uses > e.known || len(e.writes) == 0 {
			continue
		}
		lines := make([]string, len(e.writes))
		for i, w := range e.writes {
			lines[i] = fmt.Sprint(pass.Fset.Position(w).Line)
		}
		slices.Sort(lines)
		at := "line " + lines[0]
		if len(lines) > 1 {
			at = "lines " + strings.Join(lines, ", ")
		}
		pass.Report(analysis.Diagnostic{
			Category: "map-eager",
			Pos:      e.kv.Pos(),
			Message:  fmt.Sprintf("%s makes %s with every value it builds, but the package writes it only under conditions (%s): a value that never meets them carries an empty map allocated for nothing", e.fn, f.Name(), at),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"make %s lazily, at its first write (if x.%s == nil { x.%s = make(…) }): a nil map reads as empty (lookups, len, range and delete need no map), so %s allocates one object less per value", f.Name(), f.Name(), f.Name(), e.fn)}},
		})
	}
}
