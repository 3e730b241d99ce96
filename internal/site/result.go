package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Result finds the work a function does to build the value it returns,
// and the functions that hand another's result on to their caller:
//
//   - "result-computed", at a line of a function: a call whose value
//     becomes (part of) what the function returns (d3 := new(big.Int).Sub(a,
//     b) … return Decimal{value: d3}); a method that sets its receiver and
//     returns it (z.Mul(x, y), z.SetString(s, 10): its first result has
//     the receiver's type) called on a value the function returns; an
//     entry stored into a map the function returns that was made with a
//     size (m := make(map[K]V, n) … m[k] = v … return m). That work and
//     its allocations are the result, not a cost the function can drop:
//     the arithmetic of Sub is Sub.
//   - "input-converted", at a strconv call that converts one of the
//     function's parameters, outside any loop (strconv.AppendFloat(buf[:0],
//     val, 'e', -1, 64) in a float-to-decimal constructor): the
//     conversion of its input is the function's work, done once per
//     call, so "convert once" does not fit it.
//   - "result-passed", at the line of a call: the function returns the
//     callee's result (return d.string(c), or r := d.rescale(e) … return
//     r), or stores it through a pointer parameter (*ptr = m) or into a
//     field of the value it returns (token.Signature, err =
//     p.DecodeSegment(s) with token returned): the value is its
//     caller's, not the function's choice.
//   - "result-forwarded", at an unexported function's declaration: an
//     exported function of the package returns its result, directly or
//     through other functions that return it — the value it allocates is
//     what the API hands its caller, as if the exported function made it.
var Result = &analysis.Analyzer{
	Name: "result",
	Doc:  "the work a function does to build the value it returns, and the functions that return another's result",
	Run:  runResult,
}

// passEdge is one function handing a callee's result on: returned when
// ret, else stored through a pointer parameter.
type passEdge struct {
	caller *types.Func
	pos    token.Pos
	ret    bool
}

func runResult(pass *analysis.Pass) (any, error) {
	decls := map[*types.Func]*ast.FuncDecl{}
	passedBy := map[*types.Func][]passEdge{} // callee → the calls that hand its result on
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			decls[fn] = fd
			r := newResultVars(pass, fd)
			r.computed()
			r.inputConverted()
			for _, e := range r.passed() {
				passedBy[e.callee] = append(passedBy[e.callee], passEdge{caller: fn, pos: e.pos, ret: e.ret})
			}
		}
	}
	// An unexported function whose result reaches an exported function's
	// return through functions that return it.
	for fn, fd := range decls {
		if apiFunc(fn) {
			continue
		}
		chain := forwardedTo(fn, passedBy, map[*types.Func]bool{fn: true})
		if len(chain) == 0 {
			continue
		}
		api := chain[len(chain)-1]
		msg := fmt.Sprintf("%s's result is what the exported %s returns", fn.Name(), funcLabel(api))
		if len(chain) > 1 {
			var through []string
			for _, c := range chain[:len(chain)-1] {
				through = append(through, funcLabel(c))
			}
			msg += " (through " + strings.Join(through, ", ") + ")"
		}
		pass.Report(analysis.Diagnostic{Category: "result-forwarded", Pos: fd.Name.Pos(), Message: msg})
	}
	return nil, nil
}

// forwardedTo returns the functions fn's result is returned through, the
// exported one last, or nil when it reaches none.
func forwardedTo(fn *types.Func, passedBy map[*types.Func][]passEdge, seen map[*types.Func]bool) []*types.Func {
	var best []*types.Func
	for _, e := range passedBy[fn] {
		if !e.ret || seen[e.caller] {
			continue
		}
		if apiFunc(e.caller) {
			return []*types.Func{e.caller}
		}
		seen[e.caller] = true
		if rest := forwardedTo(e.caller, passedBy, seen); rest != nil && (best == nil || len(rest)+1 < len(best)) {
			best = append([]*types.Func{e.caller}, rest...)
		}
	}
	return best
}

// apiFunc reports whether fn is part of its package's API: an exported
// function, an exported method of an exported type, or a method of an
// unexported type behind an exported interface (see exportedAPI).
func apiFunc(fn *types.Func) bool { return exportedAPI(fn) }

// funcLabel names a function as its package's code does: "Decode",
// "(*Decoder).DecodeString", "Decimal.Sub".
func funcLabel(fn *types.Func) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return fn.Name()
	}
	t := sig.Recv().Type()
	star := ""
	if p, ok := t.(*types.Pointer); ok {
		t, star = p.Elem(), "*"
	}
	name := types.TypeString(t, func(*types.Package) string { return "" })
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	if star != "" {
		return "(*" + name + ")." + fn.Name()
	}
	return name + "." + fn.Name()
}

// resultVars is one function's variables that hold (part of) what it
// returns.
type resultVars struct {
	pass *analysis.Pass
	fd   *ast.FuncDecl
	vars map[*types.Var]bool
	// sized are the map variables made with a size (make(map[K]V, n)).
	sized map[*types.Var]string
	// ptrParams are the function's pointer parameters; through names
	// the pointer parameter a map variable was read from.
	ptrParams map[*types.Var]bool
	through   map[*types.Var]string
}

func newResultVars(pass *analysis.Pass, fd *ast.FuncDecl) *resultVars {
	r := &resultVars{pass: pass, fd: fd, vars: map[*types.Var]bool{}, sized: map[*types.Var]string{}, ptrParams: map[*types.Var]bool{}, through: map[*types.Var]string{}}
	if fd.Type.Results != nil {
		for _, fl := range fd.Type.Results.List {
			for _, n := range fl.Names {
				if v, ok := pass.TypesInfo.Defs[n].(*types.Var); ok {
					r.vars[v] = true
				}
			}
		}
	}
	for _, fl := range fd.Type.Params.List {
		for _, n := range fl.Names {
			if v, ok := pass.TypesInfo.Defs[n].(*types.Var); ok {
				if _, ptr := v.Type().Underlying().(*types.Pointer); ptr {
					r.ptrParams[v] = true
				}
			}
		}
	}
	inspectBody(fd.Body, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			for _, e := range n.Results {
				r.markReturned(e)
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				return
			}
			for i, l := range n.Lhs {
				v := r.localVar(l)
				if st, ok := ast.Unparen(l).(*ast.StarExpr); ok {
					// *ptr = make(map[K]V, n): the caller's map,
					// made here with its size.
					if p := r.localVar(st.X); p != nil && r.ptrParams[p] {
						v = p
					}
				}
				call, ok := ast.Unparen(n.Rhs[i]).(*ast.CallExpr)
				if v == nil || !ok || len(call.Args) != 2 || !isBuiltin(pass, call.Fun, "make") {
					continue
				}
				if _, isMap := call.Args[0].(*ast.MapType); isMap || isMapType(v.Type()) {
					r.sized[v] = types.ExprString(call)
				}
			}
		}
	})
	// A map read from a pointer parameter the function made it in with
	// its size is that map (m = *ptr): the caller's, through ptr.
	inspectBody(fd.Body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return
		}
		for i, l := range as.Lhs {
			st, ok := ast.Unparen(as.Rhs[i]).(*ast.StarExpr)
			if !ok {
				continue
			}
			p, v := r.localVar(st.X), r.localVar(l)
			if p != nil && v != nil && r.ptrParams[p] && r.sized[p] != "" {
				r.sized[v], r.through[v] = r.sized[p], p.Name()
			}
		}
	})
	// A method that returns its receiver with no operand of the
	// receiver's type (a filter's Add(data) returning f, for chaining)
	// hands back the container it changed, not a value it computed:
	// z.Add(x, y *Int) returning z computes z from operands of its type.
	if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
		if recv, ok := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]].(*types.Var); ok && r.vars[recv] && !operandOf(pass, fd, recv.Type()) {
			delete(r.vars, recv)
		}
	}
	// What a returned variable is built from is returned too
	// (dq := Decimal{value: &q} … return dq): to a fixed point.
	for changed := true; changed; {
		changed = false
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return
			}
			for i, l := range as.Lhs {
				if v := r.localVar(l); v == nil || !r.vars[v] {
					continue
				}
				before := len(r.vars)
				r.markReturned(as.Rhs[i])
				changed = changed || len(r.vars) > before
			}
		})
	}
	return r
}

// inspectBody calls f on every node of a function's body outside its
// func literals (a closure's return is its own).
func inspectBody(body *ast.BlockStmt, f func(ast.Node)) {
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if n != nil {
			f(n)
		}
		return true
	})
}

// inspectAll calls f on every node of a function's body, its func
// literals' included (a closure's use of a field is the package's).
func inspectAll(body *ast.BlockStmt, f func(ast.Node)) {
	ast.Inspect(body, func(n ast.Node) bool {
		if n != nil {
			f(n)
		}
		return true
	})
}

// markReturned marks the variables a returned expression is built from:
// v, &v, v.f, T{f: v}, &T{v, w}.
func (r *resultVars) markReturned(e ast.Expr) {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			r.markReturned(el)
		}
		return
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			r.markReturned(x.X)
			return
		}
	case *ast.BinaryExpr:
		// sign + intPart + "." + frac: a string built of its parts.
		if x.Op == token.ADD {
			r.markReturned(x.X)
			r.markReturned(x.Y)
			return
		}
	case *ast.TypeAssertExpr:
		// v.(T): a generic dispatcher's value, held as any on the way.
		r.markReturned(x.X)
		return
	case *ast.CallExpr:
		// ugly(buf, json) with func ugly(dst, src []byte) []byte, or
		// append(buf, …): an append-style call hands back its first
		// argument, grown.
		if len(x.Args) > 0 && (isBuiltin(r.pass, x.Fun, "append") || appendStyle(r.pass, x)) {
			r.markReturned(x.Args[0])
			return
		}
	}
	if b := aliased(r.pass, e); b != nil {
		// s = UnsafeString(out): the string is out's bytes.
		r.markReturned(b)
		return
	}
	if v := r.rootVar(e); v != nil {
		r.vars[v] = true
	}
}

// operandOf reports whether one of fd's parameters has type t (or *T
// for t, T for *T): an operand of the receiver's type.
func operandOf(pass *analysis.Pass, fd *ast.FuncDecl, t types.Type) bool {
	base := t
	if p, ok := t.(*types.Pointer); ok {
		base = p.Elem()
	}
	for _, f := range fd.Type.Params.List {
		pt := pass.TypesInfo.TypeOf(f.Type)
		if p, ok := pt.(*types.Pointer); ok {
			pt = p.Elem()
		}
		if pt != nil && types.Identical(pt, base) {
			return true
		}
	}
	return false
}

// appendStyle reports whether call calls a function of the package
// whose first parameter and only result are the same slice type (func
// ugly(dst, src []byte) []byte): it appends to its first argument and
// returns it.
func appendStyle(pass *analysis.Pass, call *ast.CallExpr) bool {
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() != pass.Pkg {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Params().Len() == 0 || sig.Results().Len() != 1 {
		return false
	}
	if _, isSlice := sig.Results().At(0).Type().Underlying().(*types.Slice); !isSlice {
		return false
	}
	return types.Identical(sig.Params().At(0).Type(), sig.Results().At(0).Type())
}

// rootVar returns the local variable (or named result) an expression
// reads its value from: v, v.f, v[i], *v, &v, and for a call of a method
// that returns its receiver's type (z.Add(x, y) returns z), its
// receiver's; nil for anything else.
func (r *resultVars) rootVar(e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return r.localVar(x)
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		case *ast.CallExpr:
			recv, ok := r.setsReceiver(x)
			if !ok {
				return nil
			}
			e = recv
		default:
			return nil
		}
	}
}

// localVar returns the variable an identifier names when it is declared
// in the function (a local, a parameter or a named result).
func (r *resultVars) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := r.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if v == nil || v.IsField() || v.Pos() < r.fd.Pos() || v.Pos() > r.fd.End() {
		return nil
	}
	return v
}

// setsReceiver reports whether call is a method call whose first result
// has its receiver's type (z.Mul(x, y) *big.Int on a *big.Int: the
// convention of methods that compute into their receiver and return it),
// and returns the receiver expression.
func (r *resultVars) setsReceiver(call *ast.CallExpr) (ast.Expr, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	s, ok := r.pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return nil, false
	}
	sig, ok := s.Type().(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return nil, false
	}
	rt := r.pass.TypesInfo.TypeOf(sel.X)
	if rt == nil {
		return nil, false
	}
	res := sig.Results().At(0).Type()
	if _, ptr := rt.Underlying().(*types.Pointer); ptr && types.Identical(res, rt) {
		return sel.X, true
	}
	// An addressable value whose pointer method returns the pointer
	// (var q big.Int; q.QuoRem(…)).
	if types.Identical(res, types.NewPointer(rt)) {
		return sel.X, true
	}
	return nil, false
}

// scalarParams reports whether every parameter of fd (its receiver
// included) is a number, a bool or a string: inputs that can recur, so a
// memo of its results can be kept.
func scalarParams(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	vars := []*types.Var{}
	if sig.Recv() != nil {
		vars = append(vars, sig.Recv())
	}
	for v := range sig.Params().Variables() {
		vars = append(vars, v)
	}
	for _, v := range vars {
		b, ok := v.Type().Underlying().(*types.Basic)
		if !ok || b.Info()&(types.IsNumeric|types.IsBoolean|types.IsString) == 0 {
			return false
		}
	}
	return true
}

// freshResults reports whether fd returns a channel: each caller needs
// its own (a new iterator's), which a memo would hand to every caller at
// once. (A *big.Int kept per input is a memo callers read, not share.)
func freshResults(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	for v := range fn.Type().(*types.Signature).Results().Variables() {
		if _, ok := v.Type().Underlying().(*types.Chan); ok {
			return true
		}
	}
	return false
}

// computed reports the lines where the function computes what it
// returns.
func (r *resultVars) computed() {
	name := r.fd.Name.Name
	advice := fmt.Sprintf("the call is %s's result, so calling it less means calling %s less: keep %s's results for the inputs that recur (a table or a memo), or compute less per call", name, name, name)
	category := "result-computed"
	if !scalarParams(r.pass, r.fd) || freshResults(r.pass, r.fd) {
		// Pointers, slices, structs: inputs that hardly recur, and a
		// memo keyed by them holds what the caller may change.
		advice = fmt.Sprintf("the call is %s's result, computed from what it is given: its own work, with no result to keep; %s", name, ownWorkWords)
		category += ownWork
	}
	report := func(pos token.Pos, msg string) {
		r.pass.Report(analysis.Diagnostic{Category: category, Pos: pos, Message: msg,
			SuggestedFixes: []analysis.SuggestedFix{{Message: advice}}})
	}
	inspectBody(r.fd.Body, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			for _, e := range n.Results {
				if be, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && be.Op == token.ADD && isString(r.pass.TypesInfo.TypeOf(be)) {
					// return tid.Prefix() + "_" + tid.Suffix(): one
					// concatenation, the one allocation of the string
					// returned.
					report(be.Pos(), fmt.Sprintf("%s concatenates the string %s returns", oneLine(types.ExprString(be)), name))
				}
				r.returnedCalls(e, report, name)
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
						v := r.localVar(ix.X)
						switch {
						case v == nil || r.sized[v] == "":
						case r.vars[v]:
							report(n.Pos(), fmt.Sprintf("%s stores into the map %s returns, made with its size (%s): its storage is the result", oneLine(types.ExprString(l)), name, r.sized[v]))
						case r.through[v] != "":
							report(n.Pos(), fmt.Sprintf("%s stores into the map %s fills for its caller through %s, made with its size (%s): its storage is the result", oneLine(types.ExprString(l)), name, r.through[v], r.sized[v]))
						}
						continue
					}
					call, ok := ast.Unparen(n.Rhs[i]).(*ast.CallExpr)
					if !ok || isConversion(r.pass, call) || isBuiltin(r.pass, call.Fun, "len") || isBuiltin(r.pass, call.Fun, "cap") || aliased(r.pass, call) != nil {
						continue
					}
					if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && (isBuiltin(r.pass, call.Fun, "make") || isBuiltin(r.pass, call.Fun, "new")) {
						if v := r.rootVar(sel.X); v != nil && r.vars[v] {
							// feature.Properties = make(geojson.Properties,
							// count/2), feature returned: a part of the
							// value the caller gets.
							report(call.Pos(), fmt.Sprintf("%s makes %s, a part of the value %s returns", oneLine(types.ExprString(call)), oneLine(types.ExprString(sel)), name))
							continue
						}
					}
					if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && r.returnsText(types.ExprString(sel)) && !isError(r.pass.TypesInfo.TypeOf(sel)) {
						// if c.query == nil { c.query = c.request.URL.Query() }
						// return c.query: computed once per receiver, and
						// what the method returns.
						report(call.Pos(), fmt.Sprintf("%s computes %s, which %s keeps and returns", oneLine(types.ExprString(call)), oneLine(types.ExprString(sel)), name))
						continue
					}
					if v := r.localVar(l); v != nil && r.vars[v] && !isError(v.Type()) {
						// An error the call returns is no value it
						// makes for the caller: what it allocates
						// (a decoder's map) is not the result.
						report(call.Pos(), fmt.Sprintf("%s computes %s, which %s returns", oneLine(types.ExprString(call)), v.Name(), name))
					}
				}
			}
			for _, rhs := range n.Rhs {
				r.computedCall(rhs, report, name)
			}
		case *ast.ExprStmt:
			if call, ok := ast.Unparen(n.X).(*ast.CallExpr); ok && isBuiltin(r.pass, call.Fun, "copy") && len(call.Args) == 2 {
				// b := make([]byte, len(buf.data)); copy(b, buf.data);
				// return b: the copy fills the value returned.
				// A copy of what the function is given is the input
				// stored (copy-on-inputs), whatever it is stored in.
				if v := r.rootVar(call.Args[0]); v != nil && r.vars[v] && !r.given(r.rootVar(call.Args[1])) {
					report(call.Pos(), fmt.Sprintf("%s fills %s, which %s returns", oneLine(types.ExprString(call)), v.Name(), name))
				}
				return
			}
			r.computedCall(n.X, report, name)
		}
	})
	// mpoly = make(orb.MultiPolygon, 0, i) in a func literal the
	// function hands a splitter, mpoly its result: made for the caller
	// all the same.
	ast.Inspect(r.fd.Body, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok {
			return true
		}
		ast.Inspect(lit.Body, func(m ast.Node) bool {
			as, ok := m.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				v := r.localVar(l)
				call, ok := ast.Unparen(as.Rhs[i]).(*ast.CallExpr)
				if v == nil || !r.vars[v] || isError(v.Type()) || !ok || !isBuiltin(r.pass, call.Fun, "make") {
					continue
				}
				report(call.Pos(), fmt.Sprintf("%s computes %s, which %s returns", oneLine(types.ExprString(call)), v.Name(), name))
			}
			return true
		})
		return false
	})
}

// returnsText reports whether every return statement of the function
// returns exactly the expression text (one result).
func (r *resultVars) returnsText(text string) bool {
	n, all := 0, true
	inspectBody(r.fd.Body, func(m ast.Node) {
		if ret, ok := m.(*ast.ReturnStmt); ok {
			n++
			all = all && len(ret.Results) == 1 && types.ExprString(ret.Results[0]) == text
		}
	})
	return n > 0 && all
}

// returnedCalls reports the library calls a returned expression is
// built from (return new(big.Int).Exp(x, n, nil), return T{f(x), e}): a
// call of the package's own functions hands their result on instead
// (result-passed), and a conversion computes nothing.
func (r *resultVars) returnedCalls(e ast.Expr, report func(token.Pos, string), name string) {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			r.returnedCalls(el, report, name)
		}
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			r.returnedCalls(x.X, report, name)
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD && isString(r.pass.TypesInfo.TypeOf(x)) {
			// return strings.Repeat(" ", n) + s: each part of the
			// concatenation is the returned string's.
			r.returnedCalls(x.X, report, name)
			r.returnedCalls(x.Y, report, name)
		}
	case *ast.CallExpr:
		if isConversion(r.pass, x) && len(x.Args) == 1 && isString(r.pass.TypesInfo.TypeOf(x)) {
			// return string(buf[:]): the copy into the string is the
			// one allocation of the value returned.
			if _, isSlice := r.pass.TypesInfo.TypeOf(x.Args[0]).Underlying().(*types.Slice); isSlice {
				report(x.Pos(), fmt.Sprintf("%s makes the string %s returns", oneLine(types.ExprString(x)), name))
			}
			return
		}
		if isConversion(r.pass, x) || isError(r.pass.TypesInfo.TypeOf(x)) || aliased(r.pass, x) != nil {
			return // an error is no result the caller asked for; a reinterpretation computes nothing
		}
		if fn := calledFunc(r.pass, x); fn != nil && fn.Pkg() == r.pass.Pkg {
			return
		}
		if _, ok := x.Fun.(*ast.SelectorExpr); !ok {
			return // a builtin, or a call through a func value
		}
		report(x.Pos(), fmt.Sprintf("%s computes the value %s returns", oneLine(types.ExprString(x)), name))
	}
}

// computedCall reports a method call that computes into a value the
// function returns (z.Mul(x, y) with z returned).
func (r *resultVars) computedCall(e ast.Expr, report func(token.Pos, string), name string) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return
	}
	if recv, ok := r.setsReceiver(call); ok {
		if v := r.rootVar(recv); v != nil && r.vars[v] {
			report(call.Pos(), fmt.Sprintf("%s computes into %s, which %s returns", oneLine(types.ExprString(call)), v.Name(), name))
		}
		return
	}
	if v := r.destination(call); v != nil {
		report(call.Pos(), fmt.Sprintf("%s computes into %s, which %s returns", oneLine(types.ExprString(call)), v.Name(), name))
	}
}

// destination returns the returned variable a call writes its result
// into through its first argument, a pointer to it followed by the
// operands (apd's ctx.Add(&result, &a.number, &b.number), with
// Amount{result, …} returned), or nil.
func (r *resultVars) destination(call *ast.CallExpr) *types.Var {
	if len(call.Args) < 2 {
		return nil
	}
	u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	v := r.localVar(u.X)
	if v == nil || !r.vars[v] {
		return nil
	}
	sig, ok := r.pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	if !ok || sig.Params().Len() < 2 || !types.Identical(sig.Params().At(0).Type(), types.NewPointer(v.Type())) {
		return nil
	}
	// An operand of the same type: the callee computes the destination
	// from its operands, as an arithmetic call does.
	for i := 1; i < sig.Params().Len(); i++ {
		if types.Identical(sig.Params().At(i).Type(), sig.Params().At(0).Type()) {
			return v
		}
	}
	return nil
}

// passedCall is one call whose result the function hands on.
type passedCall struct {
	callee *types.Func
	pos    token.Pos
	ret    bool
}

// passed reports the calls whose result the function returns or stores
// through a pointer parameter, and returns them.
func (r *resultVars) passed() []passedCall {
	from := map[*types.Var][]*ast.CallExpr{} // a variable assigned the result of calls (one per case of a switch)
	var out []passedCall
	var addAny func(call *ast.CallExpr, how string)
	add := func(call *ast.CallExpr, ret bool, how string) {
		fn := calledFunc(r.pass, call)
		if fn != nil && fn.Pkg() != nil && fn.Pkg() != r.pass.Pkg {
			// Another package of the module's (ewkb's Decode
			// returning wkbcommon's): the shape, with no edge.
			addAny(call, how)
			return
		}
		if fn == nil || fn.Pkg() != r.pass.Pkg {
			return
		}
		if sig, ok := fn.Type().(*types.Signature); !ok || sig.Results().Len() == 0 || isError(sig.Results().At(0).Type()) {
			return // an error alone is no value handed on
		}
		out = append(out, passedCall{fn, call.Pos(), ret})
		r.pass.Report(analysis.Diagnostic{Category: "result-passed", Pos: call.Pos(),
			Message: fmt.Sprintf("%s %s %s's result", r.fd.Name.Name, how, fn.Name())})
	}
	// addAny names a call of the module's, in this package or another
	// of the module's (an internal package's Scan), whose result the
	// function hands on: a shape only, no edge of the chain to an
	// exported function (that is within the package).
	addAny = func(call *ast.CallExpr, how string) {
		fn := calledFunc(r.pass, call)
		if fn == nil || fn.Pkg() == nil || !moduleSiblings(fn.Pkg().Path(), r.pass.Pkg.Path()) {
			return
		}
		if sig, ok := fn.Type().(*types.Signature); !ok || sig.Results().Len() == 0 || isError(sig.Results().At(0).Type()) {
			return
		}
		if fn.Pkg() == r.pass.Pkg {
			out = append(out, passedCall{fn, call.Pos(), false})
		}
		r.pass.Report(analysis.Diagnostic{Category: "result-passed", Pos: call.Pos(),
			Message: fmt.Sprintf("%s %s %s's result", r.fd.Name.Name, how, fn.Name())})
	}
	lits := map[*types.Var]*ast.CompositeLit{} // a variable assigned a value made here
	inspectBody(r.fd.Body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return
		}
		rhs := ast.Unparen(as.Rhs[0])
		if lit := returnedLiteral(rhs); lit != nil {
			if v := r.localVar(as.Lhs[0]); v != nil {
				lits[v] = lit
			}
			return
		}
		if ta, ok := rhs.(*ast.TypeAssertExpr); ok {
			rhs = ast.Unparen(ta.X) // x := f().(*T): f's value, asserted
		}
		call, ok := rhs.(*ast.CallExpr)
		if !ok {
			return
		}
		if v := r.localVar(as.Lhs[0]); v != nil {
			if usesObj(r.pass, call, v) {
				from[v] = nil // v = g(v): the earlier value went into g
			}
			from[v] = append(from[v], call)
		}
	})
	inspectBody(r.fd.Body, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			for _, e := range n.Results {
				if ta, ok := ast.Unparen(e).(*ast.TypeAssertExpr); ok {
					e = ta.X // v.(T): the value held as any on the way
				}
				e = unconverted(r.pass, e) // orb.LineString(ps): the same value
				lit := returnedLiteral(e)
				if v := r.localVar(e); v != nil && lits[v] != nil && len(lits[v].Elts) == 1 {
					// ret := &T{uss: d}; return ret: a wrapper of one
					// value (a value of many fields may hold a part it
					// makes for itself, not what the call is for).
					lit = lits[v]
				}
				if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
					add(call, true, "returns")
				} else if lit != nil {
					// return &context{response: NewResponse(w, e), …}:
					// the call's result is part of the value returned.
					for _, el := range lit.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							el = kv.Value
						}
						if call, ok := ast.Unparen(el).(*ast.CallExpr); ok {
							add(call, true, "returns, inside the value it makes,")
						} else if v := r.localVar(el); v != nil {
							for _, c := range from[v] {
								add(c, true, "returns, inside the value it makes,")
							}
						}
					}
				} else if v := r.localVar(e); v != nil {
					for _, c := range from[v] {
						add(c, true, "returns")
					}
				}
				break // the first result: a value, not its error
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				// mls = append(mls, ls) with mls returned and ls a
				// call's result: the call's value is an element of
				// the one the function hands its caller.
				if v := r.localVar(n.Lhs[0]); v != nil && r.vars[v] {
					if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && isBuiltin(r.pass, call.Fun, "append") && !call.Ellipsis.IsValid() {
						for _, el := range call.Args[1:] {
							el = unconverted(r.pass, el) // orb.Ring(ls)
							if c, ok := ast.Unparen(el).(*ast.CallExpr); ok {
								add(c, true, "appends to the value it returns")
							} else if w := r.localVar(el); w != nil {
								for _, c := range from[w] {
									add(c, true, "appends to the value it returns")
								}
							}
						}
					}
				}
				// s.Geometry = g in an exported method, Geometry an
				// exported field of its receiver: what a Scanner's
				// Scan hands its caller.
				if f := r.exportedRecvField(n.Lhs[0]); f != "" {
					if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
						addAny(call, "stores into its receiver's exported field "+f)
					} else if w := r.localVar(n.Rhs[0]); w != nil {
						for _, c := range from[w] {
							addAny(c, "stores into its receiver's exported field "+f)
						}
					}
				}
			}
			if len(n.Rhs) == 1 {
				// token.Signature, err = p.DecodeSegment(parts[2]) with
				// token returned: the call's result is a field of the
				// value the function hands its caller.
				switch l := ast.Unparen(n.Lhs[0]).(type) {
				case *ast.SelectorExpr, *ast.IndexExpr:
					// layer.Features[i] = f, f a call's result and
					// layer returned: an element of what it returns.
					if v := r.rootVar(l); v != nil && r.vars[v] {
						if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
							add(call, false, "stores, into a field of the value it returns,")
						} else if w := r.localVar(n.Rhs[0]); w != nil && len(n.Lhs) == 1 {
							for _, c := range from[w] {
								add(c, false, "stores, into a part of the value it returns,")
							}
						}
					}
				}
			}
			if len(n.Lhs) != len(n.Rhs) {
				return
			}
			for i, l := range n.Lhs {
				st, ok := ast.Unparen(l).(*ast.StarExpr)
				if !ok {
					continue
				}
				if p := r.localVar(st.X); p == nil || !r.ptrParams[p] {
					continue
				}
				if call, ok := ast.Unparen(n.Rhs[i]).(*ast.CallExpr); ok {
					add(call, false, "stores through its pointer parameter")
				} else if v := r.localVar(n.Rhs[i]); v != nil {
					for _, c := range from[v] {
						add(c, false, "stores through its pointer parameter")
					}
				}
			}
		}
	})
	return out
}

// returnedLiteral returns the composite literal e is, or takes the
// address of (T{…}, &T{…}), or nil.
func returnedLiteral(e ast.Expr) *ast.CompositeLit {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// calledFunc returns the function or method a call calls statically, nil
// for a call through a value or an interface.
func calledFunc(pass *analysis.Pass, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X // a generic function instantiated: f[T](…)
	case *ast.IndexListExpr:
		fun = f.X
	}
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	fn, _ := pass.TypesInfo.Uses[id].(*types.Func)
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return nil
	}
	return fn
}

// isBuiltin reports whether fun names the builtin name.
func isBuiltin(pass *analysis.Pass, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := pass.TypesInfo.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// isConversion reports whether call is a type conversion (string(b)).
func isConversion(pass *analysis.Pass, call *ast.CallExpr) bool {
	tv, ok := pass.TypesInfo.Types[call.Fun]
	return ok && tv.IsType()
}

// isStringType reports whether t's underlying type is string.
func isStringType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// isRuneOrByteSlice reports whether t is []rune or []byte.
func isRuneOrByteSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Int32 || b.Kind() == types.Uint8)
}

// elemWord names what a []rune or []byte holds: "runes" or "bytes".
func elemWord(t types.Type) string {
	if b, ok := t.Underlying().(*types.Slice).Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Int32 {
		return "runes"
	}
	return "bytes"
}

// isError reports whether t is the error interface.
func isError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// inputConverted reports the strconv calls outside loops that convert
// one of the function's parameters.
func (r *resultVars) inputConverted() {
	params := paramSet(r.pass, r.fd)
	if len(params) == 0 || r.fd.Type.Results == nil {
		return
	}
	name := r.fd.Name.Name
	inspectLoops(r.fd.Body, func(n ast.Node, loop ast.Stmt) {
		if m, ok := n.(*ast.CallExpr); ok && loop == nil {
			r.converted(m, params, name)
		}
	})
}

// converted reports a call outside loops that converts one of the
// function's parameters (params): a strconv call, or []rune(s)/[]byte(s)
// of an exported function's string handed to the package's own function.
func (r *resultVars) converted(m *ast.CallExpr, params map[*types.Var]bool, name string) {
	if fn, _ := r.pass.TypesInfo.Defs[r.fd.Name].(*types.Func); fn != nil && exportedAPI(fn) {
		if callee := calledFunc(r.pass, m); callee != nil && callee.Pkg() == r.pass.Pkg {
			// []rune(text) or []byte(text) of a string
			// the exported function is given, handed to
			// the package's own function: the API takes
			// strings, the package's work is on runes.
			// (Handed to bytes.Contains, it is a
			// conversion strings.Contains avoids.)
			for _, a := range m.Args {
				conv, ok := ast.Unparen(a).(*ast.CallExpr)
				if !ok || !isConversion(r.pass, conv) || len(conv.Args) != 1 || !isRuneOrByteSlice(r.pass.TypesInfo.TypeOf(conv)) {
					continue
				}
				if v := r.localVar(conv.Args[0]); v != nil && params[v] && !assignedIn(r.pass, r.fd.Body, v) && isStringType(v.Type()) {
					r.pass.Report(analysis.Diagnostic{Category: "input-converted", Pos: conv.Pos(),
						Message: fmt.Sprintf("%s converts %s's parameter %s, a string, once per call: the API takes a string and the work is on its %s", oneLine(types.ExprString(conv)), name, v.Name(), elemWord(r.pass.TypesInfo.TypeOf(conv))),
						SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
							"the conversion is %s's work on its input, not a repeat: callers that already hold the %s need a variant that takes them; or work on the string directly", name, elemWord(r.pass.TypesInfo.TypeOf(conv)))}}})
				}
			}
		}
	}
	fn := calledFunc(r.pass, m)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "strconv" {
		return
	}
	// The value converted: the first argument, or the second of an
	// Append form (AppendUint(buf, v, base)); the others are the
	// destination and options (a base, a bit size, a format).
	i := 0
	if strings.HasPrefix(fn.Name(), "Append") {
		i = 1
	}
	if i < len(m.Args) {
		if v := r.localVar(m.Args[i]); v != nil && params[v] && !assignedIn(r.pass, r.fd.Body, v) {
			category := "input-converted"
			if fn, _ := r.pass.TypesInfo.Defs[r.fd.Name].(*types.Func); fn == nil || !exportedAPI(fn) {
				// An encoder's helper formatting the float it is
				// given (encodeFloat's AppendFloat): its work, no
				// API of its own to charge it to, no change named.
				category += ownWork
			}
			r.pass.Report(analysis.Diagnostic{Category: category, Pos: m.Pos(),
				Message: fmt.Sprintf("%s converts %s's parameter %s, once per call", oneLine(types.ExprString(m)), name, v.Name()),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"the conversion is %s's work on its input, not a repeat: a faster path only for inputs that allow one, or fewer calls of %s", name, name)}}})
		}
	}
}

// assignedIn reports whether v is assigned anywhere in body.
func assignedIn(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return !found
		}
		for _, l := range as.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == v {
				found = true
			}
		}
		return !found
	})
	return found
}

// isMapType reports whether t is a map type.
func isMapType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// exportedRecvField returns the exported field of the function's receiver
// that e assigns (s.Geometry), when the function is an exported method,
// or "".
func (r *resultVars) exportedRecvField(e ast.Expr) string {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || r.fd.Recv == nil || len(r.fd.Recv.List) == 0 || len(r.fd.Recv.List[0].Names) == 0 || !r.fd.Name.IsExported() || !sel.Sel.IsExported() {
		return ""
	}
	recv := r.pass.TypesInfo.Defs[r.fd.Recv.List[0].Names[0]]
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok || recv == nil || r.pass.TypesInfo.Uses[id] != recv {
		return ""
	}
	if s, ok := r.pass.TypesInfo.Selections[sel]; !ok || s.Kind() != types.FieldVal {
		return ""
	}
	return sel.Sel.Name
}

// moduleSiblings reports whether two package paths are likely of one module:
// the same first three elements of a path whose first has a dot
// (github.com/paulmach/orb/encoding/ewkb and …/encoding/internal/wkbcommon).
func moduleSiblings(a, b string) bool {
	if a == b {
		return true
	}
	pa, pb := strings.SplitN(a, "/", 4), strings.SplitN(b, "/", 4)
	if len(pa) < 3 || len(pb) < 3 || !strings.Contains(pa[0], ".") {
		return false
	}
	return pa[0] == pb[0] && pa[1] == pb[1] && pa[2] == pb[2]
}

// unconverted returns the value a conversion T(x) converts, x, when the
// conversion only renames its type (orb.LineString(ps), same underlying
// type: the same value), or e (string(b) copies: another value).
func unconverted(pass *analysis.Pass, e ast.Expr) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !isConversion(pass, call) {
		return e
	}
	from, to := pass.TypesInfo.TypeOf(call.Args[0]), pass.TypesInfo.TypeOf(call)
	if from == nil || to == nil || !types.Identical(from.Underlying(), to.Underlying()) {
		return e
	}
	return call.Args[0]
}

// given reports whether v is a parameter of the function or its receiver.
func (r *resultVars) given(v *types.Var) bool {
	if v == nil {
		return false
	}
	if r.fd.Recv != nil && len(r.fd.Recv.List) == 1 && len(r.fd.Recv.List[0].Names) == 1 && r.pass.TypesInfo.Defs[r.fd.Recv.List[0].Names[0]] == v {
		return true
	}
	return paramSet(r.pass, r.fd)[v]
}
