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
// or the caller's own, passed in to append to.
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
		})
		for _, v := range order {
			loop := grownIn[v]
			if loop == nil {
				continue
			}
			from, to := pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line
			msg := fmt.Sprintf("%s returns %s, which starts with no room on every call and grows by append in the loop at lines %d–%d, whose count is not known before it: each call regrows it from nothing (about log2(n) allocations, each copying what it holds)", fd.Name.Name, v.Name(), from, to)
			advice := fmt.Sprintf("let the caller pass a slice to append to (%s(dst, …) returns append(dst, …)), which it reuses across calls; a capacity guessed from the input's size can cost short inputs more than it saves", fd.Name.Name)
			if recv := receiverName(fd); recv != "" {
				advice = fmt.Sprintf("reuse the slice across calls: keep it in %s and append into %s.%s[:0] on each call, when the caller is done with one result before the next call (or copies what it keeps); a sync.Pool of them when it is not; a capacity guessed from the input's size can cost short inputs more than it saves", recv, recv, v.Name())
			}
			for _, as := range appends[v] {
				pass.Report(analysis.Diagnostic{
					Category:       "slice-regrown",
					Pos:            as.Pos(),
					Message:        msg,
					Related:        []analysis.RelatedInformation{{Pos: loop.Pos(), Message: "the loop"}},
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
