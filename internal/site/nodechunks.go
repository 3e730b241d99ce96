package site

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"golang.org/x/tools/go/analysis"
)

// NodeChunks finds the function that makes each node of a tree: it
// returns &T{…} (or new(T)) on its only return, T a struct that holds its
// children (a field []*T, or one named for a child: FirstChild). A parser
// calls it once per node of its input, one allocation each, and the nodes
// of one tree live and die together: made from chunks the builder owns,
// a tree of n nodes costs n/64 allocations. yaml.v3's (*parser).node (one
// 160-byte Node per YAML node: −12…−32% allocs/op, −18% time on its
// deepest benchmark, measured by hand) and blackfriday's NewNode (−41%
// allocs/op). A function that also hands out recycled nodes (a free
// list's) has more than one return and is left alone.
var NodeChunks = &analysis.Analyzer{
	Name: "nodechunks",
	Doc:  "a tree's node made with its own allocation by the function that makes every node",
	Run:  runNodeChunks,
}

func runNodeChunks(pass *analysis.Pass) (any, error) {
	decls := declsByFunc(pass)
	var cyclic map[*types.Func]bool // manyCalls, computed on first use
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ret := onlyReturn(fd.Body)
		if ret == nil || len(ret.Results) != 1 {
			return
		}
		made, at := madeNode(pass, fd.Body, ret.Results[0])
		if made == nil {
			return
		}
		named, _ := types.Unalias(made).(*types.Named)
		if named == nil || named.Obj().Pkg() != pass.Pkg {
			return
		}
		link := childLink(named)
		if link == "" {
			return
		}
		size, ok := sizeof(pass.TypesSizes, named)
		if !ok {
			return // a generic node: no size to name
		}
		name := named.Obj().Name()
		how := "&" + name + "{…}"
		if call, ok := ast.Unparen(nodeOf(fd.Body, at).(ast.Expr)).(*ast.CallExpr); ok && len(call.Args) == 1 {
			how = "new(" + name + ")"
		}
		owner := "the code that builds the tree"
		if fd.Recv != nil {
			if r := recvNamed(pass, fd); r != nil && r != named {
				owner = "the " + r.Obj().Name()
			}
		}
		if cyclic == nil {
			cyclic = manyCalls(pass, decls)
		}
		pass.Report(analysis.Diagnostic{
			Category: "node-chunks",
			Pos:      at,
			Related:  singleNodeCalls(pass, decls, cyclic, fd),
			Message: fmt.Sprintf("%s makes every %s of the tree with an allocation of its own (%s, %d bytes, with its %s): one allocation per node of the input, for nodes that live and die with their tree",
				fd.Name.Name, name, how, size, link),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"allocate the nodes in chunks %s owns: a []%s of 64 or more, handing out &chunk[i] and making a new chunk when it is full (never appending to one, so the pointers handed out stay valid): one allocation per chunk instead of one per node; the trade-off: a node still referenced keeps its whole chunk alive, and the last chunk's unused tail is allocated for nothing",
				owner, name)}},
		})
	})
	return nil, nil
}

// onlyReturn returns a body's return statement when it has exactly one
// (function literals aside), or nil.
func onlyReturn(body *ast.BlockStmt) *ast.ReturnStmt {
	var ret *ast.ReturnStmt
	n := 0
	inspectBody(body, func(x ast.Node) {
		if r, ok := x.(*ast.ReturnStmt); ok {
			ret, n = r, n+1
		}
	})
	if n != 1 {
		return nil
	}
	return ret
}

// madeNode returns the struct type T and the position of the &T{…} or
// new(T) that the returned expression is: the expression itself, or a
// local variable assigned from it once (n := &T{…}; …; return n).
func madeNode(pass *analysis.Pass, body *ast.BlockStmt, res ast.Expr) (types.Type, token.Pos) {
	if t := allocated(pass, res); t != nil {
		return t, res.Pos()
	}
	id, ok := ast.Unparen(res).(*ast.Ident)
	if !ok {
		return nil, token.NoPos
	}
	v, _ := pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil {
		return nil, token.NoPos
	}
	var t types.Type
	var at token.Pos
	sets := 0
	inspectBody(body, func(x ast.Node) {
		as, ok := x.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return
		}
		for i, l := range as.Lhs {
			if objOf(pass, l) != v {
				continue
			}
			sets++
			t, at = allocated(pass, as.Rhs[i]), as.Rhs[i].Pos()
		}
	})
	if sets != 1 || t == nil {
		return nil, token.NoPos
	}
	return t, at
}

// allocated returns T for &T{…} or new(T), T a struct type, or nil.
func allocated(pass *analysis.Pass, e ast.Expr) types.Type {
	var t types.Type
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if lit, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok && x.Op == token.AND {
			t = pass.TypesInfo.TypeOf(lit)
		}
	case *ast.CallExpr:
		if isBuiltin(pass, x.Fun, "new") && len(x.Args) == 1 {
			t = pass.TypesInfo.TypeOf(x.Args[0])
		}
	}
	if t == nil {
		return nil
	}
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return nil
	}
	return t
}

// nodeOf returns the expression of body that starts at pos.
func nodeOf(body *ast.BlockStmt, pos token.Pos) ast.Node {
	var out ast.Node
	ast.Inspect(body, func(x ast.Node) bool {
		if out == nil {
			if e, ok := x.(ast.Expr); ok && e.Pos() == pos {
				out = e
			}
		}
		return out == nil
	})
	return out
}

// childLink names the field of struct type t that holds its children: a
// slice of *t (Content []*Node; a named slice type too), or a *t field
// named for a child (FirstChild); "" when it has none.
func childLink(t *types.Named) string {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	own := func(x types.Type) bool {
		p, ok := x.(*types.Pointer)
		if !ok {
			return false
		}
		n, _ := types.Unalias(p.Elem()).(*types.Named)
		return n != nil && n.Origin() == t.Origin()
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if s, ok := f.Type().Underlying().(*types.Slice); ok && own(s.Elem()) {
			return f.Name()
		}
		if own(f.Type()) && strings.Contains(strings.ToLower(f.Name()), "child") {
			return f.Name()
		}
	}
	return ""
}

// ChildrenGrown finds a tree's children slice grown one child at a time
// from nothing: parent.F = append(parent.F, child), F a []*T of parent's
// own type T, where nothing in the package gives F room (no make and no
// literal sets it). Every parent's slice is made at its first child and
// made again at its second, third and fifth: an allocation per growth in
// every node with children. yaml.v3's parseChild grows each Node's
// Content this way: a mapping's Content started with room for one
// key/value pair, −7.7% allocs/op, measured by hand.
var ChildrenGrown = &analysis.Analyzer{
	Name: "childrengrown",
	Doc:  "a tree node's children slice grown by one append per child from nil",
	Run:  runChildrenGrown,
}

func runChildrenGrown(pass *analysis.Pass) (any, error) {
	roomed := fieldsGivenRoom(pass, notAppend(pass))
	makers := map[*types.Named]token.Pos{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if ret := onlyReturn(fd.Body); ret != nil && len(ret.Results) == 1 {
			if t, at := madeNode(pass, fd.Body, ret.Results[0]); t != nil {
				if n, _ := types.Unalias(t).(*types.Named); n != nil {
					if _, seen := makers[n]; !seen {
						makers[n] = at
					}
				}
			}
		}
	})
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.ASSIGN {
				return
			}
			sel, ok := ast.Unparen(as.Lhs[0]).(*ast.SelectorExpr)
			if !ok {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, call.Fun, "append") || len(call.Args) != 2 || call.Ellipsis.IsValid() || types.ExprString(call.Args[0]) != types.ExprString(sel) {
				return
			}
			field := fieldOf(pass, sel)
			if field == nil || roomed[field.Origin()] {
				return
			}
			owner := pass.TypesInfo.TypeOf(sel.X)
			if p, ok := owner.(*types.Pointer); ok {
				owner = p.Elem()
			}
			named, _ := types.Unalias(owner).(*types.Named)
			if named == nil || childLink(named) != field.Name() {
				return
			}
			s, ok := field.Type().Underlying().(*types.Slice)
			if !ok {
				return
			}
			if _, ok := s.Elem().(*types.Pointer); !ok {
				return
			}
			name := named.Obj().Name()
			d := analysis.Diagnostic{
				Category: "children-grown",
				Pos:      as.Pos(),
				Message: fmt.Sprintf("%s appends each child to %s, which every %s starts without (nothing in the package gives %s room): a node's children arrive one append at a time, so its slice is made at the first child and made again at the second, third and fifth: an allocation per growth, in every node with children",
					fd.Name.Name, oneLine(types.ExprString(sel)), name, field.Name()),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"give %s room where a node that takes children is made: make([]%s, 0, n) for the children a node of its kind has at least; every parent keeps its own slice, so resetting one to reuse it is no fix",
					field.Name(), types.TypeString(s.Elem(), types.RelativeTo(pass.Pkg)))}},
			}
			if at, ok := makers[named]; ok {
				d.Related = []analysis.RelatedInformation{{Pos: at, Message: "where each " + name + " is made"}}
			}
			pass.Report(d)
		})
	})
	return nil, nil
}

// fieldsGivenRoom returns the slice fields the package gives a capacity
// or contents other than by one append: a composite literal's key that
// sets the field, or an assignment to it of a value gives accepts (by
// origin: a generic type's methods each have the field of their own
// instantiation).
func fieldsGivenRoom(pass *analysis.Pass, gives func(ast.Expr) bool) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				if len(x.Lhs) != len(x.Rhs) {
					return true
				}
				for i, l := range x.Lhs {
					if v := fieldOf(pass, l); v != nil && gives(x.Rhs[i]) {
						out[v.Origin()] = true
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := x.Key.(*ast.Ident); ok {
					if v, _ := pass.TypesInfo.Uses[id].(*types.Var); v != nil && v.IsField() {
						out[v.Origin()] = true
					}
				}
			}
			return true
		})
	}
	return out
}

// notAppend accepts any value but an append: a field set otherwise
// starts with what it is given.
func notAppend(pass *analysis.Pass) func(ast.Expr) bool {
	return func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		return !ok || !isBuiltin(pass, call.Fun, "append")
	}
}

// madeWithMake accepts a make(…): a field made with a size where it is set.
func madeWithMake(pass *analysis.Pass) func(ast.Expr) bool {
	return func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		return ok && isBuiltin(pass, call.Fun, "make")
	}
}

// singleNodeCalls returns the calls of fd's function, in the package,
// that make one node per call of their function: outside any loop, in a
// function many (see manyCalls) does not hold.
func singleNodeCalls(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, cyclic map[*types.Func]bool, fd *ast.FuncDecl) []analysis.RelatedInformation {
	ctor, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if ctor == nil {
		return nil
	}
	var out []analysis.RelatedInformation
	for fn, caller := range decls {
		if caller == fd || cyclic[fn] {
			continue
		}
		looped, once := false, token.NoPos
		inspectLoops(caller.Body, func(m ast.Node, loop ast.Stmt) {
			call, ok := m.(*ast.CallExpr)
			if !ok || calledFunc(pass, call) != ctor {
				return
			}
			if loop != nil {
				looped = true
			} else if !once.IsValid() {
				once = call.Pos()
			}
		})
		if once.IsValid() && !looped {
			out = append(out, analysis.RelatedInformation{Pos: once, Message: document.SingleNodeNote})
		}
	}
	slices.SortFunc(out, func(a, b analysis.RelatedInformation) int {
		pa, pb := pass.Fset.Position(a.Pos), pass.Fset.Position(b.Pos)
		return cmp.Or(cmp.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
	})
	return out
}

// manyCalls returns the package's functions that may run many times in
// one call of the function that reaches them: those on a cycle of the
// static call graph (a recursive-descent parser's), those a function of
// the package calls in a loop, and every function these call in turn (a
// parser's addBlock, called once per block by functions that recurse).
func manyCalls(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl) map[*types.Func]bool {
	many := onCallCycles(pass, decls)
	// A function used as a value (a table of parsers, a callback) is
	// called where the static graph does not see: as often as anything.
	called := map[*ast.Ident]bool{}
	for _, fd := range decls {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				switch f := ast.Unparen(call.Fun).(type) {
				case *ast.Ident:
					called[f] = true
				case *ast.SelectorExpr:
					called[f.Sel] = true
				}
			}
			return true
		})
	}
	for id, obj := range pass.TypesInfo.Uses {
		if fn, ok := obj.(*types.Func); ok && decls[fn] != nil && !called[id] {
			many[fn] = true
		}
	}
	for _, fd := range decls {
		inspectLoops(fd.Body, func(m ast.Node, loop ast.Stmt) {
			if call, ok := m.(*ast.CallExpr); ok && loop != nil {
				if to := calledFunc(pass, call); to != nil && decls[to] != nil {
					many[to] = true
				}
			}
		})
	}
	// Everything they call, to a fixed point.
	for changed := true; changed; {
		changed = false
		for fn, fd := range decls {
			if !many[fn] {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if to := calledFunc(pass, call); to != nil && decls[to] != nil && !many[to] {
						many[to] = true
						changed = true
					}
				}
				return true
			})
		}
	}
	return many
}

// onCallCycles returns the package's functions on a cycle of its static
// call graph (a recursive-descent parser's functions), by Tarjan's
// strongly connected components.
func onCallCycles(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl) map[*types.Func]bool {
	edges := map[*types.Func][]*types.Func{}
	for fn, fd := range decls {
		seen := map[*types.Func]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if to := calledFunc(pass, call); to != nil && decls[to] != nil && !seen[to] {
					seen[to] = true
					edges[fn] = append(edges[fn], to)
				}
			}
			return true
		})
	}
	out := map[*types.Func]bool{}
	index, low := map[*types.Func]int{}, map[*types.Func]int{}
	onStack := map[*types.Func]bool{}
	var stack []*types.Func
	next := 0
	var visit func(v *types.Func)
	visit = func(v *types.Func) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range edges[v] {
			if _, ok := index[w]; !ok {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var comp []*types.Func
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			comp = append(comp, w)
			if w == v {
				break
			}
		}
		if len(comp) > 1 || slices.Contains(edges[v], v) {
			for _, w := range comp {
				out[w] = true
			}
		}
	}
	fns := make([]*types.Func, 0, len(decls))
	for fn := range decls {
		fns = append(fns, fn)
	}
	slices.SortFunc(fns, func(a, b *types.Func) int { return cmp.Compare(a.Pos(), b.Pos()) })
	for _, fn := range fns {
		if _, ok := index[fn]; !ok {
			visit(fn)
		}
	}
	return out
}
