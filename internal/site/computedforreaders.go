package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ComputedForReaders finds a method that computes a value on every call
// and stores it in a field of its receiver that only other functions
// read: a meter's Mark publishing its mean rate (rateMean :=
// float64(m.Count()) / time.Since(m.startTime).Seconds(), stored for
// RateMean and Snapshot), a cache's Set refreshing statistics its Stats
// reports. Every update pays for what only a read needs; computed when
// read, from the state it comes from, it costs the readers instead. The
// store may be a plain assignment or an atomic one (atomic.StoreUint64
// of the field's address, a typed atomic's Store).
var ComputedForReaders = &analysis.Analyzer{
	Name: "computedforreaders",
	Doc:  "a value computed on every call of a method and stored in a receiver field that only other functions read",
	Run:  runComputedForReaders,
}

func runComputedForReaders(pass *analysis.Pass) (any, error) {
	// Which functions read each field, outside the stores themselves.
	readers := map[*types.Var]map[string]bool{}
	storeTargets := map[*ast.SelectorExpr]bool{}
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, func(n ast.Node) {
			if sel, _, ok := fieldStore(pass, n); ok {
				storeTargets[sel] = true
			}
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) > 1 {
				for _, l := range as.Lhs {
					if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && isField(pass, sel) {
						storeTargets[sel] = true // a store of a tuple, not a read
					}
				}
			}
		})
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok || storeTargets[sel] {
					return true
				}
				if v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var); ok && v.IsField() {
					if readers[v] == nil {
						readers[v] = map[string]bool{}
					}
					readers[v][fd.Name.Name] = true
				}
				return true
			})
		}
	}
	for fd := range funcDecls(pass) {
		recv := receiverName(fd)
		if recv == "" {
			continue
		}
		locals := map[types.Object]*ast.AssignStmt{}
		inspectBody(fd.Body, func(n ast.Node) {
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
				if o := objOf(pass, as.Lhs[0]); o != nil {
					locals[o] = as
				}
			}
		})
		inspectBody(fd.Body, func(n ast.Node) {
			if as, ok := n.(*ast.AssignStmt); ok {
				tupleForReaders(pass, fd, recv, as, readers)
			}
			sel, value, ok := fieldStore(pass, n)
			if !ok || rootIdent(sel) != recv {
				return
			}
			field, _ := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
			by := readers[field]
			if field == nil || len(by) == 0 || by[fd.Name.Name] {
				return
			}
			at, expr, what := ast.Node(n), value, oneLine(text(pass, value))
			if def := locals[objOf(pass, value)]; def != nil {
				if usesOf(pass, fd.Body, objOf(pass, value)) > 1 {
					// The method uses the value itself (roaring's
					// ixorBitmap: newCardinality decides which
					// container it returns): not computed only
					// for the readers.
					return
				}
				at, expr, what = def, def.Rhs[0], text(pass, value)
			}
			if !computed(pass, expr) {
				return
			}
			names := slices.Sorted(maps.Keys(by))
			pass.Report(analysis.Diagnostic{
				Category: "computed-for-readers",
				Pos:      at.Pos(),
				Message:  fmt.Sprintf("%s computes %s on every call and stores it in %s, which only %s read", fd.Name.Name, what, text(pass, sel), list(names, 3)),
				Related:  []analysis.RelatedInformation{{Pos: n.Pos(), Message: "the store"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"compute it on read (in %s, from the state it comes from) instead of on every %s: the writers then only record", list(names, 3), fd.Name.Name)}},
			})
		})
	}
	return nil, nil
}

// usesOf counts the uses of obj in body.
func usesOf(pass *analysis.Pass, body *ast.BlockStmt, obj types.Object) int {
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == obj {
			n++
		}
		return true
	})
	return n
}

// fieldStore reports whether n stores a value into a field: x.f = v,
// atomic.StoreT(&x.f, v), x.f.Store(v) on a typed atomic; it returns
// the field's selector and the value.
func fieldStore(pass *analysis.Pass, n ast.Node) (*ast.SelectorExpr, ast.Expr, bool) {
	switch x := n.(type) {
	case *ast.AssignStmt:
		if x.Tok != token.ASSIGN || len(x.Lhs) != 1 || len(x.Rhs) != 1 {
			return nil, nil, false
		}
		sel, ok := ast.Unparen(x.Lhs[0]).(*ast.SelectorExpr)
		return sel, x.Rhs[0], ok && isField(pass, sel)
	case *ast.ExprStmt:
		call, ok := ast.Unparen(x.X).(*ast.CallExpr)
		if !ok {
			return nil, nil, false
		}
		fn := calledFunc(pass, call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" || !strings.HasPrefix(fn.Name(), "Store") {
			return nil, nil, false
		}
		if fs, ok := call.Fun.(*ast.SelectorExpr); ok && len(call.Args) == 1 {
			if sel, ok := ast.Unparen(fs.X).(*ast.SelectorExpr); ok && isField(pass, sel) {
				return sel, call.Args[0], true // x.f.Store(v)
			}
		}
		if len(call.Args) == 2 {
			if u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr); ok && u.Op == token.AND {
				if sel, ok := ast.Unparen(u.X).(*ast.SelectorExpr); ok && isField(pass, sel) {
					return sel, call.Args[1], true // atomic.StoreT(&x.f, v)
				}
			}
		}
	}
	return nil, nil, false
}

func isField(pass *analysis.Pass, sel *ast.SelectorExpr) bool {
	v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
	return ok && v.IsField()
}

// rootIdent is the name x.a.b is rooted in, or "".
func rootIdent(e ast.Expr) string {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// computed reports whether e computes something: a call (not a
// conversion of a plain value) or arithmetic other than a step of one.
func computed(pass *analysis.Pass, e ast.Expr) bool {
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && (isBuiltin(pass, call.Fun, "make") || isBuiltin(pass, call.Fun, "new")) {
		// Storage made for the value's state (a filter's
		// bl.bitset = make([]uint64, sz>>6)), which other methods
		// fill as well as read: no result computed for readers.
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if !isConversion(pass, x) {
				found = true
			}
		case *ast.BinaryExpr:
			switch x.Op {
			case token.MUL, token.QUO, token.REM:
				found = true
			}
		}
		return !found
	})
	return found
}

// tupleForReaders reports a field that a method's multi-result call of
// the package's own function stores on every call
// (`g.cluster, g.remaining, g.boundaries, g.state = StepString(g.remaining, g.state)`)
// when only other methods read it (IsWordBoundary, LineBreak) and the
// package has another function of the same signature that the method
// could call until the field is first asked for (FirstGraphemeClusterInString):
// every call pays for a result most callers never read. An error field
// is left alone: an error is the call's own outcome, not extra work.
func tupleForReaders(pass *analysis.Pass, fd *ast.FuncDecl, recv string, as *ast.AssignStmt, readers map[*types.Var]map[string]bool) {
	if as.Tok != token.ASSIGN || len(as.Lhs) < 2 || len(as.Rhs) != 1 {
		return
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return
	}
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() != pass.Pkg {
		return
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() != nil {
		return
	}
	var sibling *types.Func
	for _, name := range pass.Pkg.Scope().Names() {
		o, ok := pass.Pkg.Scope().Lookup(name).(*types.Func)
		if !ok || o == fn || !types.Identical(o.Type(), fn.Type()) {
			continue
		}
		if sibling != nil {
			return // more than one: which is the cheaper is not known
		}
		sibling = o
	}
	if sibling == nil || sig.Results().Len() != len(as.Lhs) {
		return
	}
	// The results the sibling does not compute: those its named results
	// call otherwise (boundaries where it has width).
	other := sibling.Type().(*types.Signature).Results()
	for i, l := range as.Lhs {
		mine, theirs := sig.Results().At(i).Name(), other.At(i).Name()
		if mine == "" || theirs == "" || mine == theirs {
			continue
		}
		sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
		if !ok || rootIdent(sel) != recv {
			continue
		}
		field, _ := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
		if field == nil || !field.IsField() || isError(field.Type()) {
			continue
		}
		by := readers[field]
		if len(by) == 0 || by[fd.Name.Name] {
			continue
		}
		names := slices.Sorted(maps.Keys(by))
		pass.Report(analysis.Diagnostic{
			Category: "computed-for-readers",
			Pos:      as.Pos(),
			Message: fmt.Sprintf("%s calls %s on every call and stores its result %s, which only %s read: every %s pays for computing it, though callers that never ask for it need only the other results",
				fd.Name.Name, oneLine(text(pass, call)), text(pass, sel), list(names, 3), fd.Name.Name),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"compute it lazily: call %s (the package's function of the same signature, which returns %s in place of %s) until %s is first called, then switch to %s from there", sibling.Name(), theirs, mine, list(names, 3), fn.Name())}},
		})
	}
}
