package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// MadePerIteration finds a loop that calls a function of its package
// returning a new value (a pointer to a struct it allocates, a map it
// makes, or another such function's result) on every iteration, and uses
// the value only within that iteration: its fields read or set, its
// methods called, passed to calls. Nothing stores it, appends it, returns
// it, sends it or captures it. A template engine's each-loop copying its
// data frame per element (frame := p.newIterDataFrame(n, i, key)), a
// decoder's state made per item. One value made before the loop and
// reset in each iteration does the same work with one allocation, as
// long as no callee keeps it past its iteration: the advice names the
// callees to check.
var MadePerIteration = &analysis.Analyzer{
	Name: "madeperiteration",
	Doc:  "a new value made by a call on every iteration of a loop and used only within that iteration",
	Run:  runMadePerIteration,
}

func runMadePerIteration(pass *analysis.Pass) (any, error) {
	fresh, source := newValueFuncs(pass)
	if len(fresh) == 0 {
		return nil, nil
	}
	eachFunc(pass, func(body *ast.BlockStmt) {
		inspectBody(body, func(n ast.Node) {
			var loop ast.Node
			var lb *ast.BlockStmt
			switch x := n.(type) {
			case *ast.ForStmt:
				loop, lb = x, x.Body
			case *ast.RangeStmt:
				loop, lb = x, x.Body
			default:
				return
			}
			for _, st := range lb.List {
				as, ok := st.(*ast.AssignStmt)
				if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
					continue
				}
				call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				if !ok {
					continue
				}
				fn := calledFunc(pass, call)
				decl := fresh[fn]
				if decl == nil {
					continue
				}
				v, _ := objOf(pass, as.Lhs[0]).(*types.Var)
				if v == nil {
					continue
				}
				passed, ok := usedWithin(pass, lb, v)
				if !ok {
					continue
				}
				what := types.TypeString(v.Type(), types.RelativeTo(pass.Pkg))
				msg := fmt.Sprintf("%s returns a new %s, made on every iteration of the loop at line %d and used only within that iteration", fn.Name(), what, pass.Fset.Position(loop.Pos()).Line)
				check := ""
				if len(passed) > 0 {
					msg += " (passed to " + list(passed, 3) + ")"
					check = fmt.Sprintf(", as long as %s does not keep it past the iteration", list(passed, 3))
				}
				related := []analysis.RelatedInformation{{Pos: loop.Pos(), Message: "the loop"}}
				// The function called and the ones it has the value
				// from, each "makes the value": their allocations are
				// the loop's.
				for d, seen := decl, map[*ast.FuncDecl]bool{}; d != nil && !seen[d]; d = source[d] {
					seen[d] = true
					related = append(related, analysis.RelatedInformation{Pos: d.Name.Pos(), Message: "makes the value"})
				}
				pass.Report(analysis.Diagnostic{
					Category: "made-per-iteration",
					Pos:      call.Pos(),
					Message:  msg + ": one allocation per element",
					Related:  related,
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"reuse one %s across the loop: make it before the loop and reset it in each iteration (its fields set again, its maps cleared) instead of a new one per element%s", strings.TrimPrefix(what, "*"), check)}},
				})
			}
		})
	})
	return nil, nil
}

// newValueFuncs returns the functions of the package whose result is a new
// value on every call: a pointer to a struct it allocates (&T{…},
// new(T)), a map it makes, or the result of another such function, each
// possibly set up before it is returned.
//
// source gives, for a function whose new value is another's result, that
// function's declaration (newIterDataFrame's is Copy's, Copy's NewFrame's).
func newValueFuncs(pass *analysis.Pass) (fresh map[*types.Func]*ast.FuncDecl, source map[*ast.FuncDecl]*ast.FuncDecl) {
	decls := map[*types.Func]*ast.FuncDecl{}
	for fd := range funcDecls(pass) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil {
			continue
		}
		res := fn.Type().(*types.Signature).Results()
		if res.Len() == 0 || res.Len() > 2 || res.Len() == 2 && !isError(res.At(1).Type()) {
			continue
		}
		switch u := res.At(0).Type().Underlying().(type) {
		case *types.Pointer:
			if _, ok := u.Elem().Underlying().(*types.Struct); !ok {
				continue
			}
		case *types.Map:
		default:
			continue
		}
		decls[fn] = fd
	}
	fresh = map[*types.Func]*ast.FuncDecl{}
	for changed := true; changed; {
		changed = false
		for fn, fd := range decls {
			if fresh[fn] == nil && returnsFresh(pass, fd, fresh) {
				fresh[fn], changed = fd, true
			}
		}
	}
	source = map[*ast.FuncDecl]*ast.FuncDecl{}
	for _, fd := range fresh {
		inspectBody(fd.Body, func(n ast.Node) {
			if call, ok := n.(*ast.CallExpr); ok && source[fd] == nil {
				if from := fresh[calledFunc(pass, call)]; from != nil && from != fd {
					source[fd] = from
				}
			}
		})
	}
	return fresh, source
}

// returnsFresh reports whether every return of fd gives a new value (or
// nil) as its first result, and one at least a new value.
func returnsFresh(pass *analysis.Pass, fd *ast.FuncDecl, fresh map[*types.Func]*ast.FuncDecl) bool {
	made := map[types.Object]bool{}
	inspectBody(fd.Body, func(n ast.Node) {
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				if o := objOf(pass, l); o != nil && newValue(pass, as.Rhs[i], fresh) {
					made[o] = true
				}
			}
		}
	})
	ok, some := true, false
	inspectBody(fd.Body, func(n ast.Node) {
		ret, isRet := n.(*ast.ReturnStmt)
		if !isRet || !ok {
			return
		}
		if len(ret.Results) == 0 {
			ok = false
			return
		}
		r := ast.Unparen(ret.Results[0])
		switch {
		case isNil(pass, r):
		case newValue(pass, r, fresh):
			some = true
		case made[objOf(pass, r)] && !reassigned(pass, fd.Body, objOf(pass, r)) && !storedIn(pass, fd.Body, objOf(pass, r)):
			some = true
		default:
			ok = false
		}
	})
	return ok && some
}

// storedIn reports whether body stores o where it outlives the call
// besides returning it: assigned to something else, appended to a slice,
// put in a composite literal or sent on a channel (yaml.v3's parseChild
// appends the child it returns to its parent's Content: the tree keeps
// it).
func storedIn(pass *analysis.Pass, body *ast.BlockStmt, o types.Object) bool {
	is := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		return objOf(pass, e) == o
	}
	found := false
	inspectBody(body, func(n ast.Node) {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for i, r := range x.Rhs {
				if is(r) && (i >= len(x.Lhs) || objOf(pass, x.Lhs[i]) != o) {
					found = true
				}
			}
		case *ast.CallExpr:
			if isBuiltin(pass, x.Fun, "append") {
				for _, a := range x.Args[min(1, len(x.Args)):] {
					found = found || is(a)
				}
			}
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				found = found || is(el)
			}
		case *ast.SendStmt:
			found = found || is(x.Value)
		}
	})
	return found
}

// newValue reports whether e makes a new value: &T{…}, new(T), make of a
// map, a map literal, or a call of a fresh function.
func newValue(pass *analysis.Pass, e ast.Expr, fresh map[*types.Func]*ast.FuncDecl) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		_, ok := ast.Unparen(x.X).(*ast.CompositeLit)
		return x.Op == token.AND && ok
	case *ast.CompositeLit:
		return isMapType(pass.TypesInfo.TypeOf(x))
	case *ast.CallExpr:
		if isBuiltin(pass, x.Fun, "new") {
			return true
		}
		if isBuiltin(pass, x.Fun, "make") {
			return isMapType(pass.TypesInfo.TypeOf(x))
		}
		return fresh[calledFunc(pass, x)] != nil
	}
	return false
}

// reassigned reports whether anything assigns to o after its definition.
func reassigned(pass *analysis.Pass, body *ast.BlockStmt, o types.Object) bool {
	found := false
	inspectBody(body, func(n ast.Node) {
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok != token.DEFINE {
			for _, l := range as.Lhs {
				if objOf(pass, l) == o {
					found = true
				}
			}
		}
	})
	return found
}

// usedWithin reports whether every use of v in the loop body keeps it
// within the iteration: a field read or set, a method called, an argument
// of a call (the calls named, in order); false when any use stores,
// appends, returns, sends or captures it, takes its address, or assigns
// it, and when it is not used at all.
func usedWithin(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) ([]string, bool) {
	var passed []string
	seen := map[string]bool{}
	ok, used := true, false
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		defer func() { stack = append(stack, n) }()
		id, isID := n.(*ast.Ident)
		if !isID || pass.TypesInfo.Uses[id] != v {
			return true
		}
		used = true
		for _, s := range stack {
			switch s.(type) {
			case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
				ok = false
			}
		}
		if len(stack) == 0 {
			ok = false
			return true
		}
		switch p := stack[len(stack)-1].(type) {
		case *ast.SelectorExpr:
			if p.X != id {
				ok = false
			}
		case *ast.CallExpr:
			if p.Fun == id || isBuiltin(pass, p.Fun, "append") || isConversion(pass, p) {
				ok = false
				break
			}
			name := text(pass, p.Fun)
			if !seen[name] {
				seen[name] = true
				passed = append(passed, name)
			}
		default:
			ok = false
		}
		return true
	})
	return passed, ok && used
}
