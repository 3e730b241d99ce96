package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// SliceRegrown finds a function that builds the slice it returns from no
// room on every call: a local declared empty (var s []T, s := []T{},
// make([]T, 0)) and grown by append in a loop whose count is not known
// before it (a lexer's tokens, a parser's children), then returned. Each
// call regrows it from nothing: about log2(n) allocations, each copying
// what it holds so far. A capacity from the input's size is a guess that
// can cost short inputs more than it saves; what removes the growth is a
// slice kept from call to call: in the receiver, appended into from
// s[:0] (when the caller is done with one result before the next call),
// or the caller's own, passed in to append to; or, where the input gives
// one cheaply, a bound counted before the loop. When the callers keep
// each result (a parser's node list stored in its parent's body), no
// slice can be reused: the growth is the function's own work.
var SliceRegrown = &analysis.Analyzer{
	Name: "sliceregrown",
	Doc:  "a returned slice built by append from no room on every call, in a loop of unknown count",
	Run:  runSliceRegrown,
}

func runSliceRegrown(pass *analysis.Pass) (any, error) {
	for fd := range funcDecls(pass) {
		empty := emptySlices(pass, fd.Body)
		if len(empty) == 0 {
			continue
		}
		returned := map[*types.Var]bool{}
		inspectBody(fd.Body, func(n ast.Node) {
			if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) > 0 {
				if v, ok := objOf(pass, ret.Results[0]).(*types.Var); ok && empty[v] {
					returned[v] = true
				}
			}
		})
		var loops []ast.Stmt
		inspectBody(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.ForStmt:
				loops = append(loops, x)
			case *ast.RangeStmt:
				loops = append(loops, x)
			}
		})
		// The appends to each returned empty slice, and the loop of
		// unknown count one of them is in.
		appends := map[*types.Var][]*ast.AssignStmt{}
		grownIn := map[*types.Var]ast.Stmt{}
		filtered := map[*types.Var]string{} // the slice a filter loop keeps some elements of
		var order []*types.Var
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			v, _ := objOf(pass, as.Lhs[0]).(*types.Var)
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if v == nil || !returned[v] || !ok || !isBuiltin(pass, call.Fun, "append") || len(call.Args) < 2 || objOf(pass, call.Args[0]) != v {
				return
			}
			if appends[v] == nil {
				order = append(order, v)
			}
			appends[v] = append(appends[v], as)
			loop := innermost(loops, as)
			if loop == nil || grownIn[v] != nil {
				return
			}
			if r, ok := loop.(*ast.RangeStmt); ok && topLevelIn(r.Body, as) {
				return // one append per element of a known count: presize's
			}
			grownIn[v] = loop
			if r, ok := loop.(*ast.RangeStmt); ok && r.Value != nil && len(call.Args) == 2 && objOf(pass, call.Args[1]) == objOf(pass, r.Value) && objOf(pass, r.Value) != nil {
				if _, isSlice := typeUnder(pass, r.X).(*types.Slice); isSlice {
					filtered[v] = oneLine(types.ExprString(r.X))
				}
			}
		})
		for _, v := range order {
			loop := grownIn[v]
			if loop == nil {
				continue
			}
			from, to := pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line
			msg := fmt.Sprintf("%s returns %s, which starts with no room on every call and grows by append in the loop at lines %d–%d, whose count is not known before it: each call regrows it from nothing (about log2(n) allocations, each copying what it holds)", fd.Name.Name, v.Name(), from, to)
			const bound = "or size it before the loop from a cheap bound of the input, where one exists (a count of the byte that opens each element, with strings.Count): one allocation instead of about log2(n); a bound that overshoots costs bytes"
			advice := fmt.Sprintf("let the caller pass a slice to append to (%s(dst, …) returns append(dst, …)), which it reuses across calls, when it is done with each result before the next call; %s", fd.Name.Name, bound)
			if recv := receiverName(fd); recv != "" && !fd.Name.IsExported() {
				advice = fmt.Sprintf("reuse the slice across calls: keep it in %s and append into %s.%s[:0] on each call, when the caller is done with one result before the next call (or copies what it keeps); %s", recv, recv, v.Name(), bound)
			} else if recv != "" {
				// An exported method hands the slice to its user, who
				// owns it: the receiver cannot keep one to reuse.
				advice = fmt.Sprintf("add a variant beside it that appends to a slice the caller passes (Append%s(dst, …) returning append(dst, …)), which a caller reuses across calls: %s's result belongs to its caller, so %s cannot keep one to reuse; %s", fd.Name.Name, fd.Name.Name, recv, bound)
			}
			if x := filtered[v]; x != "" {
				// A filter: what it keeps is at most its input.
				msg = fmt.Sprintf("%s returns %s, which starts with no room on every call and grows by append as the loop at lines %d–%d keeps some of the elements of %s: about log2(n) allocations, each copying what it holds, though it holds at most len(%s)", fd.Name.Name, v.Name(), from, to, x, x)
				advice = fmt.Sprintf("make it with room for len(%s) (make(…, 0, len(%s))) where most elements are kept: one allocation; where few are (a filter that keeps a handful), that bound overshoots: size it by what the callers keep (a flag that says which), or count the kept elements first", x, x)
			}
			category := "slice-regrown"
			var related []analysis.RelatedInformation
			if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				if at, where := resultKeptBy(pass, fn, resultIndex(pass, fd.Body, v)); at.IsValid() {
					// Each result is part of what the callers build
					// (a parser's node list in its parent's body):
					// no slice to reuse, and its growth is the
					// building's own.
					category += ownWork
					msg += fmt.Sprintf(", and its callers keep each result (%s, line %d)", where, pass.Fset.Position(at).Line)
					advice = "each result is kept as part of what the callers build, so no slice can be reused across calls: its growth is the function's own work, once per result; fewer allocations would take fewer results (skip those that hold nothing) or a count known before the loop"
					related = append(related, analysis.RelatedInformation{Pos: at, Message: "kept"})
				}
			}
			related = append([]analysis.RelatedInformation{{Pos: loop.Pos(), Message: "the loop"}}, related...)
			for _, as := range appends[v] {
				pass.Report(analysis.Diagnostic{
					Category:       category,
					Pos:            as.Pos(),
					Message:        msg,
					Related:        related,
					SuggestedFixes: []analysis.SuggestedFix{{Message: advice}},
				})
			}
		}
	}
	return nil, nil
}

// emptySlices returns the locals of body declared as an empty slice: var
// s []T, s := []T{}, s := make([]T, 0), s := []T(nil), and never
// assigned other than by append to themselves.
func emptySlices(pass *analysis.Pass, body *ast.BlockStmt) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	inspectBody(body, func(n ast.Node) {
		switch x := n.(type) {
		case *ast.DeclStmt:
			gd, ok := x.Decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				return
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Values) != 0 {
					continue
				}
				for _, name := range vs.Names {
					if v, ok := pass.TypesInfo.Defs[name].(*types.Var); ok && isSlice(v.Type()) {
						out[v] = true
					}
				}
			}
		case *ast.AssignStmt:
			if x.Tok != token.DEFINE || len(x.Lhs) != 1 || len(x.Rhs) != 1 {
				return
			}
			if v, ok := pass.TypesInfo.Defs[identOf(x.Lhs[0])].(*types.Var); ok && isSlice(v.Type()) && emptySlice(pass, x.Rhs[0]) {
				out[v] = true
			}
		}
	})
	// Assigned anything but its own append: not built from empty alone.
	inspectBody(body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok == token.DEFINE {
			return
		}
		for i, l := range as.Lhs {
			v, _ := objOf(pass, l).(*types.Var)
			if !out[v] {
				continue
			}
			if len(as.Rhs) != len(as.Lhs) {
				delete(out, v)
				continue
			}
			call, ok := ast.Unparen(as.Rhs[i]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, call.Fun, "append") || len(call.Args) == 0 || objOf(pass, call.Args[0]) != v {
				delete(out, v)
			}
		}
	})
	return out
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

func isSlice(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// emptySlice reports whether e is a slice with no room: []T{}, []T(nil),
// make([]T, 0).
func emptySlice(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return len(x.Elts) == 0
	case *ast.CallExpr:
		if isBuiltin(pass, x.Fun, "make") {
			if len(x.Args) != 2 {
				return false
			}
			tv, ok := pass.TypesInfo.Types[x.Args[1]]
			return ok && tv.Value != nil && tv.Value.String() == "0"
		}
		if isConversion(pass, x) && len(x.Args) == 1 {
			return isNil(pass, x.Args[0])
		}
	}
	return false
}

// innermost returns the innermost of loops around n, or nil.
func innermost(loops []ast.Stmt, n ast.Node) ast.Stmt {
	var in ast.Stmt
	for _, l := range loops {
		if l.Pos() <= n.Pos() && n.End() <= l.End() && (in == nil || l.Pos() > in.Pos()) {
			in = l
		}
	}
	return in
}

// topLevelIn reports whether st is a statement of body's own list: run
// once per iteration, not under a condition.
func topLevelIn(body *ast.BlockStmt, st ast.Stmt) bool {
	for _, s := range body.List {
		if s == st {
			return true
		}
	}
	return false
}

// receiverName is the name of fd's pointer receiver, or "".
func receiverName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
		return ""
	}
	if _, ok := fd.Recv.List[0].Type.(*ast.StarExpr); !ok {
		return ""
	}
	return fd.Recv.List[0].Names[0].Name
}

// resultIndex is the position of v among the results of body's return
// statements (0 when it is not found).
func resultIndex(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) int {
	i := 0
	inspectBody(body, func(n ast.Node) {
		if ret, ok := n.(*ast.ReturnStmt); ok {
			for k, r := range ret.Results {
				if objOf(pass, r) == v {
					i = k
				}
			}
		}
	})
	return i
}

// resultKeptBy returns where a function of the package keeps result i of a call
// of fn: stores it in a field, an element or a composite literal, directly
// or through the local it assigns it to; and the text of what keeps it.
func resultKeptBy(pass *analysis.Pass, fn *types.Func, i int) (token.Pos, string) {
	for fd := range funcDecls(pass) {
		// The values the function makes itself (n := &forNode{…}): a
		// result stored in one of their fields is part of what the
		// function builds; one stored in its receiver's or a
		// parameter's field is working state, replaced by the next.
		fresh := map[types.Object]bool{}
		inspectBody(fd.Body, func(n ast.Node) {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
				for k, r := range as.Rhs {
					if allocated(pass, r) != nil {
						if o := objOf(pass, as.Lhs[k]); o != nil {
							fresh[o] = true
						}
					}
				}
			}
		})
		part := func(l ast.Expr) bool {
			sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
			return ok && fresh[objOf(pass, sel.X)]
		}
		locals := map[types.Object]bool{}
		var at token.Pos
		var what string
		keep := func(pos token.Pos, s string) {
			if !at.IsValid() {
				at, what = pos, s
			}
		}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || calledFunc(pass, call) != fn || i >= len(as.Lhs) {
				return
			}
			switch l := ast.Unparen(as.Lhs[i]).(type) {
			case *ast.Ident:
				if o := objOf(pass, l); o != nil {
					locals[o] = true
				}
			case *ast.SelectorExpr:
				if part(l) {
					keep(as.Pos(), oneLine(types.ExprString(l)))
				}
			}
		})
		if len(locals) > 0 {
			kept := func(e ast.Expr) bool {
				if id, ok := ast.Unparen(e).(*ast.Ident); ok && locals[objOf(pass, id)] {
					return true
				}
				call, ok := ast.Unparen(e).(*ast.CallExpr)
				return ok && calledFunc(pass, call) == fn
			}
			inspectBody(fd.Body, func(n ast.Node) {
				switch x := n.(type) {
				case *ast.AssignStmt:
					for k, r := range x.Rhs {
						if k >= len(x.Lhs) || !kept(r) {
							continue
						}
						if part(x.Lhs[k]) {
							keep(x.Pos(), oneLine(types.ExprString(x.Lhs[k])))
						}
					}
				case *ast.CompositeLit:
					for _, el := range x.Elts {
						v := el
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							v = kv.Value
						}
						if kept(v) {
							keep(el.Pos(), "in a "+oneLine(types.ExprString(x.Type)))
						}
					}
				}
			})
		}
		if at.IsValid() {
			return at, what
		}
	}
	return token.NoPos, ""
}
