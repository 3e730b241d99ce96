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

// CallInputs says, for each call of a function of another package (or of
// the module's own), whether what the call is given can come back:
//
//   - "call-inputs-recur", at a call whose inputs are all constants or
//     package-level values (every call of the function computes the same
//     value), fields of a pointer receiver the function does not write,
//     parameters every caller in the package passes such a value, or
//     type information (a reflect.Type, a StructField: the same for every
//     value of the type), or whose inputs do not change in the loop
//     around it (every iteration computes the same value): keeping the
//     result is the fix.
//   - "call-on-inputs", at a call that reads what the function was given
//     (its parameters, its receiver, or locals computed from them) and
//     is in no loop that leaves those values alone: the call is the
//     function's work on its inputs, done once per call — there is no
//     result to cache, and fewer or cheaper calls is a change to the
//     algorithm (m.QuoRem(m, pow10(drop), &r) truncating a parameter).
//
// A call that reads other values (a local from another call's result)
// is neither: the matcher says nothing there. Calls of package math with
// constant arguments are ConstMath's.
var CallInputs = &analysis.Analyzer{
	Name: "callinputs",
	Doc:  "whether a call's inputs can recur (constants, loop-invariant values) or are the function's own inputs",
	Run:  runCallInputs,
}

// inputClass is what an input of a call is.
type inputClass uint8

const (
	inputUnknown inputClass = iota // a value the matcher cannot follow
	inputConst                     // a constant, a package-level value, a fresh zero value
	inputType                      // type information (a reflect.Type, a StructField): the same per type
	inputParam                     // computed from the function's parameters or receiver
	// inputTypeKeyed: type information and scalar parameters only (a
	// struct field's tag looked up by the tag name the function is
	// given): the same per type and parameter values.
	inputTypeKeyed
)

// typeInfo reports whether t is reflection's description of a type: a
// reflect.Type, StructField, StructTag or Method, the same for every value
// of the type it describes.
func typeInfo(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "reflect" {
		return false
	}
	switch n.Obj().Name() {
	case "Type", "StructField", "StructTag", "Method":
		return true
	}
	return false
}

func runCallInputs(pass *analysis.Pass) (any, error) {
	recur := recurringParams(pass)
	fresh := freshFuncs(pass)
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ci := newCallInputs(pass, fd)
			ci.recur, ci.fresh = recur, fresh
			// A call made for its effect (a statement of its own,
			// not computing into its receiver) has no value to keep.
			effect := map[*ast.CallExpr]bool{}
			inspectBody(fd.Body, func(n ast.Node) {
				if es, ok := n.(*ast.ExprStmt); ok {
					if call, ok := ast.Unparen(es.X).(*ast.CallExpr); ok {
						effect[call] = true
					}
				}
			})
			// A call whose value is the key of a map's index computes
			// what the lookup is keyed by (cache[typeid(t)]): keeping
			// its value per type would take the same lookup.
			ci.lookupKey = map[*ast.CallExpr]bool{}
			inspectBody(fd.Body, func(n ast.Node) {
				if ix, ok := n.(*ast.IndexExpr); ok {
					if _, isMap := pass.TypesInfo.TypeOf(ix.X).Underlying().(*types.Map); isMap {
						if call, ok := ast.Unparen(ix.Index).(*ast.CallExpr); ok {
							ci.lookupKey[call] = true
						}
					}
				}
			})
			inspectBody(fd.Body, func(n ast.Node) {
				if call, ok := n.(*ast.CallExpr); ok {
					_, sets := receiverSet(pass, call)
					ci.report(call, effect[call] && !sets)
				}
			})
			ci.mapOps()
		}
	}
	return nil, nil
}

// callInputs is one function's view of its values: which locals are
// computed from its parameters (by parameter name) and its loops.
type callInputs struct {
	pass    *analysis.Pass
	fd      *ast.FuncDecl
	origins map[*types.Var]map[string]bool
	loops   []ast.Stmt // the function's for and range loops, outside func literals
	// recur are the package's parameters every caller passes the same
	// value, with that value's text (see recurringParams); notes what
	// the classified inputs read of them.
	recur map[*types.Var]string
	// fresh are the package's functions that return a new value on
	// every call (see freshFuncs).
	fresh map[*types.Func]bool
	// lookupKey are the calls whose value is the key of a map index.
	lookupKey map[*ast.CallExpr]bool
	notes     []string
}

// recurringParams finds the parameters of the package's unexported
// functions that every call in the package (outside tests) passes a
// value that does not change from call to call: a constant, a
// package-level value, a field of the caller's pointer receiver that the
// caller does not write (a decoder's d.config.TagName), or a parameter
// of the caller that recurs in turn. It returns each with the text of
// the value it is given.
func recurringParams(pass *analysis.Pass) map[*types.Var]string {
	type site struct {
		ci   *callInputs
		call *ast.CallExpr
	}
	calls := map[*types.Func][]site{}
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		test := isTest(pass, f)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && !test {
				decls[fn] = fd
			}
			ci := newCallInputs(pass, fd)
			inspectBody(fd.Body, func(n ast.Node) {
				if call, ok := n.(*ast.CallExpr); ok {
					if fn := calledFunc(pass, call); fn != nil && fn.Pkg() == pass.Pkg {
						calls[fn] = append(calls[fn], site{ci, call})
					}
				}
			})
			if test {
				// A test's calls are its own: any of them with
				// another value makes the parameter vary.
				for fn := range calls {
					for _, s := range calls[fn] {
						if s.ci == ci {
							calls[fn] = append(calls[fn], site{nil, s.call})
						}
					}
				}
			}
		}
	}
	// Calls in function literals (a formatter's closures, a package
	// variable's func), and functions used as values: values this view
	// cannot follow, so their parameters vary.
	for _, f := range pass.Files {
		funs := map[*ast.Ident]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				switch fun := ast.Unparen(call.Fun).(type) {
				case *ast.Ident:
					funs[fun] = true
				case *ast.SelectorExpr:
					funs[fun.Sel] = true
				}
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				ast.Inspect(x.Body, func(m ast.Node) bool {
					if call, ok := m.(*ast.CallExpr); ok {
						if fn := calledFunc(pass, call); fn != nil && fn.Pkg() == pass.Pkg {
							calls[fn] = append(calls[fn], site{nil, call})
						}
					}
					return true
				})
			case *ast.Ident:
				if fn, ok := pass.TypesInfo.Uses[x].(*types.Func); ok && fn.Pkg() == pass.Pkg && !funs[x] {
					calls[fn] = append(calls[fn], site{nil, nil})
				}
			}
			return true
		})
	}
	recur := map[*types.Var]string{}
	for changed := true; changed; {
		changed = false
		for fn, fd := range decls {
			if fn.Exported() || len(calls[fn]) == 0 {
				continue // called from outside the package, or never
			}
			for i := 0; i < fd.Type.Params.NumFields(); i++ {
				p := paramAt(pass, fd, i)
				if p == nil || recur[p] != "" {
					continue
				}
				from, all := "", true
				for _, s := range calls[fn] {
					if s.ci == nil || i >= len(s.call.Args) || fd.Type.Params.NumFields() != len(s.call.Args) {
						all = false
						break
					}
					s.ci.recur = recur
					s.ci.notes = nil
					if s.ci.classify(s.call.Args[i], map[string]bool{}) != inputConst {
						all = false
						break
					}
					if from == "" {
						from = types.ExprString(s.call.Args[i])
						if id, ok := ast.Unparen(s.call.Args[i]).(*ast.Ident); ok {
							if v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var); ok && recur[v] != "" {
								from = recur[v]
							}
						}
					}
				}
				if all && from != "" {
					recur[p] = from
					changed = true
				}
			}
		}
	}
	return recur
}

// stateField reports whether e reads a field through the function's
// pointer receiver (d.config.TagName) that the function never writes:
// the object's state, the same from call to call.
func (ci *callInputs) stateField(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || ci.fd.Recv == nil || len(ci.fd.Recv.List) != 1 || len(ci.fd.Recv.List[0].Names) != 1 {
		return false
	}
	if _, ptr := ci.fd.Recv.List[0].Type.(*ast.StarExpr); !ptr {
		return false
	}
	if s, ok := ci.pass.TypesInfo.Selections[sel]; !ok || s.Kind() != types.FieldVal {
		return false
	}
	recv := ci.pass.TypesInfo.Defs[ci.fd.Recv.List[0].Names[0]]
	x := ast.Expr(sel)
	for {
		sx, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			break
		}
		x = sx.X
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok || recv == nil || ci.pass.TypesInfo.ObjectOf(id) != recv {
		return false
	}
	// Written in the function: an assignment to the field, or to a
	// selector it is part of.
	text := types.ExprString(sel)
	written := false
	inspectBody(ci.fd.Body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return
		}
		for _, l := range as.Lhs {
			lt := types.ExprString(l)
			if lt == text || strings.HasPrefix(text, lt+".") || strings.HasPrefix(lt, text+".") || lt == id.Name {
				written = true
			}
		}
	})
	return !written
}

// resetBy names the other methods of the package that assign a receiver
// field the inputs read ("Reset and SetRequest" for c.request.Header),
// or "".
func (ci *callInputs) resetBy(inputs []ast.Expr) string {
	var by []string
	for _, e := range inputs {
		ast.Inspect(e, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && ci.stateField(sel) {
				for _, m := range ci.setByMethods(sel) {
					if !slices.Contains(by, m) {
						by = append(by, m)
					}
				}
				return false
			}
			return true
		})
	}
	switch len(by) {
	case 0:
		return ""
	case 1:
		return by[0]
	}
	return strings.Join(by[:len(by)-1], ", ") + " and " + by[len(by)-1]
}

// setByMethods returns the other methods of the package that assign the
// receiver's field that sel reads (c.request of c.request.Header): a
// value set again during the object's life.
func (ci *callInputs) setByMethods(sel *ast.SelectorExpr) []string {
	// The field next to the receiver in the chain.
	var field types.Object
	for x := ast.Expr(sel); ; {
		sx, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			break
		}
		if s, ok := ci.pass.TypesInfo.Selections[sx]; ok && s.Kind() == types.FieldVal {
			field = s.Obj()
		}
		x = sx.X
	}
	if field == nil {
		return nil
	}
	var out []string
	for fd := range funcDecls(ci.pass) {
		if fd == ci.fd || fd.Recv == nil || fd.Body == nil {
			continue
		}
		set := false
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || set {
				return
			}
			for _, l := range as.Lhs {
				if sx, ok := ast.Unparen(l).(*ast.SelectorExpr); ok {
					if s, ok := ci.pass.TypesInfo.Selections[sx]; ok && s.Obj() == field {
						set = true
					}
				}
			}
		})
		if set {
			out = append(out, fd.Name.Name)
		}
	}
	return out
}

func newCallInputs(pass *analysis.Pass, fd *ast.FuncDecl) *callInputs {
	ci := &callInputs{pass: pass, fd: fd, origins: map[*types.Var]map[string]bool{}}
	var fields []*ast.Field
	if fd.Recv != nil {
		fields = append(fields, fd.Recv.List...)
	}
	fields = append(fields, fd.Type.Params.List...)
	for _, fl := range fields {
		for _, n := range fl.Names {
			if v, ok := pass.TypesInfo.Defs[n].(*types.Var); ok && n.Name != "_" {
				ci.origins[v] = map[string]bool{n.Name: true}
			}
		}
	}
	inspectBody(fd.Body, func(n ast.Node) {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			ci.loops = append(ci.loops, n.(ast.Stmt))
		}
	})
	// A local computed from a parameter carries the parameter: to a
	// fixed point, as assignments can come in any order in loops.
	for changed := true; changed; {
		changed = false
		flow := func(to ast.Expr, from ...ast.Expr) {
			v := ci.root(to)
			if v == nil {
				return
			}
			for _, e := range from {
				for _, r := range varsOf(pass, e) {
					for o := range ci.origins[r] {
						if ci.origins[v] == nil {
							ci.origins[v] = map[string]bool{}
						}
						if !ci.origins[v][o] {
							ci.origins[v][o] = true
							changed = true
						}
					}
				}
			}
		}
		inspectBody(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.AssignStmt:
				for i, l := range x.Lhs {
					if len(x.Lhs) == len(x.Rhs) {
						flow(l, x.Rhs[i])
					} else {
						flow(l, x.Rhs...)
					}
				}
			case *ast.ValueSpec:
				for i, n := range x.Names {
					if len(x.Values) == len(x.Names) {
						flow(n, x.Values[i])
					} else if len(x.Values) > 0 {
						flow(n, x.Values...)
					}
				}
			case *ast.RangeStmt:
				for _, l := range []ast.Expr{x.Key, x.Value} {
					if l != nil {
						flow(l, x.X)
					}
				}
			case *ast.CallExpr:
				// z.Mul(x, y) computes into z: z carries x and y.
				if recv, ok := receiverSet(pass, x); ok {
					flow(recv, x.Args...)
				}
				// bson.Unmarshal(data, bg), json.Unmarshal(data,
				// &v): the call fills a local through the pointer
				// it is given, from its other arguments: what it
				// decodes there carries what they carry.
				for i, a := range x.Args {
					if to := filledLocal(pass, a); to != nil {
						others := append(slices.Clone(x.Args[:i]), x.Args[i+1:]...)
						flow(to, others...)
					}
				}
			}
		})
	}
	return ci
}

// root returns the local variable (parameter, receiver, named result)
// an expression reads or writes through: v, v.f, v[i], *v, &v.
func (ci *callInputs) root(e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := ci.pass.TypesInfo.ObjectOf(x).(*types.Var)
			if v == nil || v.IsField() || v.Pos() < ci.fd.Pos() || v.Pos() > ci.fd.End() {
				return nil
			}
			return v
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// receiverSet reports whether call is a method that computes into its
// receiver and returns it (z.Mul(x, y) on a *big.Int), and returns the
// receiver.
func receiverSet(pass *analysis.Pass, call *ast.CallExpr) (ast.Expr, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	s, ok := pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return nil, false
	}
	sig, ok := s.Type().(*types.Signature)
	rt := pass.TypesInfo.TypeOf(sel.X)
	if !ok || sig.Results().Len() == 0 || rt == nil {
		return nil, false
	}
	res := sig.Results().At(0).Type()
	if types.Identical(res, rt) {
		if _, ptr := rt.Underlying().(*types.Pointer); ptr {
			return sel.X, true
		}
	}
	if types.Identical(res, types.NewPointer(rt)) {
		return sel.X, true
	}
	return nil, false
}

// classify says what an input expression is, with the parameters it is
// computed from.
func (ci *callInputs) classify(e ast.Expr, params map[string]bool) inputClass {
	info := ci.pass.TypesInfo
	if tv, ok := info.Types[e]; ok && (tv.Value != nil || tv.IsNil()) {
		return inputConst
	}
	if t := info.TypeOf(e); t != nil && typeInfo(t) {
		return inputType
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		switch obj := info.ObjectOf(x).(type) {
		case *types.Const, *types.Nil, *types.Func:
			return inputConst
		case *types.Var:
			if obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
				return inputConst // package-level
			}
			if from := ci.recur[obj]; from != "" {
				note := fmt.Sprintf("%s is %s at every call", x.Name, from)
				if !slices.Contains(ci.notes, note) {
					ci.notes = append(ci.notes, note)
				}
				return inputConst
			}
			if v := ci.root(x); v != nil && len(ci.origins[v]) > 0 {
				// Computed only from parameters that recur (a name
				// ranged over the split of a recurring tag name).
				recurs := true
				for o := range ci.origins[v] {
					p := ci.param(o)
					if p == nil || ci.recur[p] == "" {
						recurs = false
						break
					}
				}
				if recurs {
					for o := range ci.origins[v] {
						note := fmt.Sprintf("%s is %s at every call", o, ci.recur[ci.param(o)])
						if !slices.Contains(ci.notes, note) {
							ci.notes = append(ci.notes, note)
						}
					}
					return inputConst
				}
				for o := range ci.origins[v] {
					params[o] = true
				}
				return inputParam
			}
		}
		return inputUnknown
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			if _, pkg := info.ObjectOf(id).(*types.PkgName); pkg {
				return ci.classify(x.Sel, params)
			}
		}
		if ci.stateField(x) {
			return inputConst
		}
		return ci.classify(x.X, params)
	case *ast.CallExpr:
		if isBuiltin(ci.pass, x.Fun, "new") {
			return inputConst // a fresh zero value
		}
		if fn := calledFunc(ci.pass, x); fn != nil && fn.Pkg() != nil && (impure(fn) || freshValue(fn) || ci.fresh[fn]) {
			return inputUnknown // time.Since(start): the clock's, not its inputs'; reflect.New: a new value
		}
		var parts []ast.Expr
		parts = append(parts, x.Args...)
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && !isConversion(ci.pass, x) {
			if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodVal {
				parts = append(parts, sel.X)
			}
		}
		if len(parts) == 0 {
			return inputUnknown // time.Now(), rand.Int(): no inputs to follow
		}
		return ci.combine(parts, params)
	case *ast.UnaryExpr:
		return ci.classify(x.X, params)
	case *ast.StarExpr:
		return ci.classify(x.X, params)
	case *ast.BinaryExpr:
		return ci.combine([]ast.Expr{x.X, x.Y}, params)
	case *ast.IndexExpr:
		return ci.combine([]ast.Expr{x.X, x.Index}, params)
	case *ast.SliceExpr:
		parts := []ast.Expr{x.X}
		for _, p := range []ast.Expr{x.Low, x.High, x.Max} {
			if p != nil {
				parts = append(parts, p)
			}
		}
		return ci.combine(parts, params)
	case *ast.CompositeLit:
		var parts []ast.Expr
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			parts = append(parts, el)
		}
		return ci.combine(parts, params)
	}
	return inputUnknown
}

// combine classifies several inputs: the function's inputs when one is,
// constant when all are, unknown otherwise.
func (ci *callInputs) combine(es []ast.Expr, params map[string]bool) inputClass {
	out := inputConst
	typed, scalarOnly := false, true
	for _, e := range es {
		switch ci.classify(e, params) {
		case inputParam:
			out = inputParam
			scalarOnly = scalarOnly && ci.scalarParam(e)
		case inputUnknown:
			if out != inputParam {
				out = inputUnknown
			}
		case inputType:
			typed = true
			if out == inputConst {
				out = inputType
			}
		}
	}
	if out == inputParam && typed && scalarOnly {
		return inputTypeKeyed
	}
	return out
}

// scalarParam reports whether e is a parameter of the function of a
// string, number or bool type: a key that recurs (a tag name).
func (ci *callInputs) scalarParam(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v := ci.param(id.Name)
	if v == nil || ci.pass.TypesInfo.Uses[id] != v {
		return false
	}
	b, ok := v.Type().Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsNumeric|types.IsBoolean|types.IsString) != 0
}

// param returns the function's parameter (or receiver) named name.
func (ci *callInputs) param(name string) *types.Var {
	var fields []*ast.Field
	if ci.fd.Recv != nil {
		fields = append(fields, ci.fd.Recv.List...)
	}
	fields = append(fields, ci.fd.Type.Params.List...)
	for _, fl := range fields {
		for _, n := range fl.Names {
			if n.Name == name {
				v, _ := ci.pass.TypesInfo.Defs[n].(*types.Var)
				return v
			}
		}
	}
	return nil
}

// report reports the call's shape, if it has one; a call made only for
// its effect can be the function's work on its inputs, never a value to
// keep.
func (ci *callInputs) report(call *ast.CallExpr, effect bool) {
	pass := ci.pass
	if ci.writeToGiven(call) {
		return
	}
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Name() == ci.fd.Name.Name && fn.Pkg() == pass.Pkg || isConversion(pass, call) {
		return
	}
	if impure(fn) || freshValue(fn) || ci.fresh[fn] {
		// Its result depends on more than its inputs (the clock, a
		// random source, the process's state), or is a new value each
		// time (reflect.New): nothing recurs.
		return
	}
	inputs := slices.Clone(call.Args)
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		if s, ok := pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodVal {
			if _, sets := receiverSet(pass, call); !sets {
				if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
					if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
						// A method of a value with state (a
						// reader's Read, a pool's Get): what it
						// returns is not a function of its inputs.
						// On state the function was given (its
						// receiver's scanner), the call is its
						// work on that state.
						ci.onState(call, sel.X, fn)
						return
					}
				}
				inputs = append(inputs, sel.X)
			}
		}
	}
	if len(inputs) == 0 {
		return
	}
	params := map[string]bool{}
	ci.notes = nil
	class := ci.combine(inputs, params)
	if fn.Pkg().Path() == "math" && class != inputParam {
		// Constant arguments are ConstMath's; math on values that
		// recur in a loop is not said here either. Math on what the
		// function was given is its arithmetic.
		return
	}
	text := oneLine(types.ExprString(call))
	if len(text) > 80 {
		text = text[:77] + "…"
	}
	name := ci.fd.Name.Name
	fset := pass.Fset
	switch class {
	case inputConst:
		if effect || !ci.valueResult(call) && !ci.sliceResult(call) {
			return
		}
		if len(ci.notes) > 0 {
			pass.Report(analysis.Diagnostic{
				Category:       "call-inputs-recur",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s is given the same values on every call of %s: %s", text, name, strings.Join(ci.notes, ", ")),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "compute its value once where those values are set (beside them, or when the object is made) and pass the result down"}},
			})
			return
		}
		if ci.stateRead(inputs) {
			if by := ci.resetBy(inputs); by != "" {
				// Set again during the object's life (a pooled
				// context's Reset): nothing says the call runs more
				// than once per setting.
				pass.Report(analysis.Diagnostic{
					Category: "call-on-inputs" + ownWork,
					Pos:      call.Pos(),
					Message:  fmt.Sprintf("%s reads fields of its receiver that %s %s again during the object's life", text, by, map[bool]string{false: "sets", true: "set"}[strings.Contains(by, " and ")]),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"the call is %s's own work on what %s set, once per call: computing it where they are set pays it on every setting, which only gains when %s runs more than once per setting (a value kept on first use and cleared there)", name, by, name)}},
				})
				return
			}
			pass.Report(analysis.Diagnostic{
				Category:       "call-inputs-recur",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s is given the same values on every call of %s: fields of its receiver it does not write", text, name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "compute its value once where those fields are set (when the object is made) and keep it beside them"}},
			})
			return
		}
		pass.Report(analysis.Diagnostic{
			Category:       "call-inputs-recur",
			Pos:            call.Pos(),
			Message:        fmt.Sprintf("%s is given the same constants and package-level values on every call of %s", text, name),
			SuggestedFixes: []analysis.SuggestedFix{{Message: "compute its value once and keep it (a package-level var, or the first call's value), since the call has nothing else to depend on"}},
		})
	case inputTypeKeyed:
		if effect || ci.lookupKey[call] {
			return
		}
		keys := slices.Sorted(maps.Keys(params))
		pass.Report(analysis.Diagnostic{
			Category:       "call-inputs-recur",
			Pos:            call.Pos(),
			Message:        fmt.Sprintf("%s reads type information (reflection's description of a type) and %s, which %s is given: the same for every value of the type with the same %s", text, strings.Join(keys, ", "), name, strings.Join(keys, ", ")),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("work it out once per type and %s and keep it, keyed by the reflect.Type and %s (a map filled on first use, or a sync.Map when calls run concurrently)", strings.Join(keys, ", "), strings.Join(keys, ", "))}},
		})
	case inputType:
		if effect || ci.lookupKey[call] {
			return
		}
		pass.Report(analysis.Diagnostic{
			Category:       "call-inputs-recur",
			Pos:            call.Pos(),
			Message:        fmt.Sprintf("%s reads type information (reflection's description of a type) and values that recur: the same for every value of the type", text),
			SuggestedFixes: []analysis.SuggestedFix{{Message: "work it out once per type and keep it, keyed by the reflect.Type (a map filled on first use, or a sync.Map when decoders run concurrently)"}},
		})
	case inputParam:
		if loop := ci.invariantIn(call, inputs); loop != nil && !effect && (ci.valueResult(call) || ci.sliceResult(call)) {
			from, to := fset.Position(loop.Pos()).Line, fset.Position(loop.End()).Line
			pass.Report(analysis.Diagnostic{
				Category:       "call-inputs-recur",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s's inputs do not change in the loop at lines %d–%d: every iteration computes the same value", text, from, to),
				Related:        []analysis.RelatedInformation{{Pos: loop.Pos(), Message: "the loop"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: "call it once before the loop and keep the result"}},
			})
			return
		}
		names := slices.Sorted(maps.Keys(params))
		per := ci.per(call)
		pass.Report(analysis.Diagnostic{
			Category: "call-on-inputs" + ownWork,
			Pos:      call.Pos(),
			Message:  fmt.Sprintf("%s works on what %s is given (%s)", text, name, strings.Join(names, ", ")),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"the call is %s's own work on its inputs, %s: there is no result to cache, and %s", name, per, ownWorkWords)}},
		})
	}
}

// onState reports a call of a method with state (a pointer receiver the
// call does not compute into) on state the function was given, x rooted
// in its receiver or a parameter: "call-on-inputs", the function's own
// work on that state, with no result to keep — never "cache its result"
// (a scanner's Scan, a decoder's Token, a buffer's String).
func (ci *callInputs) onState(call *ast.CallExpr, x ast.Expr, fn *types.Func) {
	v := ci.root(x)
	if v == nil {
		return
	}
	given := ","
	if ci.param(v.Name()) != v {
		// A local read from the parameters only (an element of a
		// variadic operand list the loop ranges over).
		from := slices.Sorted(maps.Keys(ci.origins[v]))
		if len(from) == 0 || !ci.rangedOverParam(v) {
			return
		}
		given = ", read from " + strings.Join(from, ", ") + ","
	}
	name := ci.fd.Name.Name
	ci.pass.Report(analysis.Diagnostic{
		Category: "call-on-inputs" + ownWork,
		Pos:      call.Pos(),
		Message:  fmt.Sprintf("%s works on the state of %s (%s has a pointer receiver)%s which %s is given", oneLine(types.ExprString(call)), oneLine(types.ExprString(x)), fn.Name(), given, name),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"the call is %s's own work on the state it is given, once per call: its result follows that state, so there is no result to cache, and %s", name, ownWorkWords)}},
	})
}

// writeToGiven reports (as "call-on-inputs") a write of the function's
// output through an interface writer it is given (w.WriteByte('{') in a
// JSON converter's rwMapBytes(w jsWriter, …)): what it writes is its
// output, its job, whatever w is at run time.
func (ci *callInputs) writeToGiven(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !types.IsInterface(ci.pass.TypesInfo.TypeOf(sel.X)) {
		return false
	}
	switch sel.Sel.Name {
	case "Write", "WriteByte", "WriteString", "WriteRune":
	default:
		return false
	}
	v := ci.root(sel.X)
	if v == nil || ci.param(v.Name()) != v {
		return false
	}
	name := ci.fd.Name.Name
	ci.pass.Report(analysis.Diagnostic{
		Category: "call-on-inputs" + ownWork,
		Pos:      call.Pos(),
		Message:  fmt.Sprintf("%s works on the state of %s, the writer %s is given: it writes %s's output", oneLine(types.ExprString(call)), oneLine(types.ExprString(sel.X)), name, name),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"writing its output into the writer it is given is %s's job, %s: fewer bytes written is a change to the output, and %s", name, ci.per(call), ownWorkWords)}},
	})
	return true
}

// rangedOverParam reports whether v is the key or value of a range over
// a parameter's value (for _, d := range decimals): an element the
// function is given.
func (ci *callInputs) rangedOverParam(v *types.Var) bool {
	found := false
	inspectBody(ci.fd.Body, func(n ast.Node) {
		r, ok := n.(*ast.RangeStmt)
		if !ok {
			return
		}
		for _, e := range []ast.Expr{r.Key, r.Value} {
			if id, ok := e.(*ast.Ident); ok && ci.pass.TypesInfo.Defs[id] == v {
				if p := ci.root(r.X); p != nil && ci.param(p.Name()) == p {
					found = true
				}
			}
		}
	})
	return found
}

// freshValue reports whether a function returns a new value on every
// call whatever its inputs (reflect.New, reflect.MakeSlice): a value to
// fill, never one to keep.
func freshValue(fn *types.Func) bool {
	if fn.Pkg().Path() != "reflect" {
		return false
	}
	switch fn.Name() {
	case "New", "NewAt", "MakeSlice", "MakeMap", "MakeMapWithSize", "MakeChan", "MakeFunc", "Append", "AppendSlice":
		return true
	}
	return false
}

// freshFuncs finds the package's functions whose every return makes a
// new value (newContainerElem returning reflect.New(et).Elem() or
// reflect.ValueOf(map[string]any{})): a value to fill, never one to keep
// for the next call with the same inputs.
func freshFuncs(pass *analysis.Pass) map[*types.Func]bool {
	out := map[*types.Func]bool{}
	for fd := range funcDecls(pass) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil || fn.Type().(*types.Signature).Results().Len() == 0 {
			continue
		}
		returns, fresh := 0, true
		inspectBody(fd.Body, func(n ast.Node) {
			if ret, ok := n.(*ast.ReturnStmt); ok {
				returns++
				fresh = fresh && len(ret.Results) > 0 && freshExpr(pass, ret.Results[0])
			}
		})
		if returns > 0 && fresh {
			out[fn] = true
		}
	}
	return out
}

// freshExpr reports whether e makes a new value: a composite literal (or
// its address), make or new, a reflect constructor (reflect.New(t),
// with .Elem()), reflect.ValueOf of a new value.
func freshExpr(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, lit := ast.Unparen(x.X).(*ast.CompositeLit)
		return x.Op == token.AND && lit
	case *ast.CallExpr:
		if isBuiltin(pass, x.Fun, "make") || isBuiltin(pass, x.Fun, "new") {
			return true
		}
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Elem" && len(x.Args) == 0 && isNamed(pass.TypesInfo.TypeOf(sel.X), "reflect", "Value") {
			return freshExpr(pass, sel.X)
		}
		fn := calledFunc(pass, x)
		if fn == nil || fn.Pkg() == nil {
			return false
		}
		if freshValue(fn) {
			return true
		}
		return fn.Pkg().Path() == "reflect" && fn.Name() == "ValueOf" && len(x.Args) == 1 && freshExpr(pass, x.Args[0])
	}
	return false
}

// impure reports whether a function's result depends on more than its
// arguments: the clock (time.Since of a start time), a random source, the
// environment, the file system, an atomic value.
func impure(fn *types.Func) bool {
	switch fn.Pkg().Path() {
	case "math/rand", "math/rand/v2", "crypto/rand", "os", "io", "io/fs", "sync/atomic", "runtime", "syscall", "net":
		return true
	case "time":
		switch fn.Name() {
		case "Now", "Since", "Until", "Sleep", "After", "Tick", "NewTimer", "NewTicker", "AfterFunc":
			return true
		}
	}
	return false
}

// stateRead reports whether one of the inputs reads a field of the
// receiver (see stateField).
func (ci *callInputs) stateRead(inputs []ast.Expr) bool {
	found := false
	for _, e := range inputs {
		ast.Inspect(e, func(n ast.Node) bool {
			if x, ok := n.(ast.Expr); ok && ci.stateField(x) {
				found = true
			}
			return !found
		})
	}
	return found
}

// valueResult reports whether call's result is a value to keep: a
// number, a string or a bool, or what a method computes into its
// receiver (z.Exp(x, y, nil)); not a new reader or buffer, whose state
// the caller changes.
func (ci *callInputs) valueResult(call *ast.CallExpr) bool {
	if _, sets := receiverSet(ci.pass, call); sets {
		return true
	}
	t := ci.pass.TypesInfo.TypeOf(call)
	if tup, ok := t.(*types.Tuple); ok && tup.Len() > 0 {
		t = tup.At(0).Type()
	}
	return t != nil && isScalar(t)
}

// sliceResult reports whether call's first result is a slice (the
// fields strings.Split returns): the same elements when its inputs are.
func (ci *callInputs) sliceResult(call *ast.CallExpr) bool {
	t := ci.pass.TypesInfo.TypeOf(call)
	if tup, ok := t.(*types.Tuple); ok && tup.Len() > 0 {
		t = tup.At(0).Type()
	}
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// invariantIn returns the innermost loop around call in which none of
// the variables its inputs read is declared or assigned, or nil.
func (ci *callInputs) invariantIn(call *ast.CallExpr, inputs []ast.Expr) ast.Stmt {
	loop := ci.innermostLoop(call)
	if loop == nil {
		return nil
	}
	var vars []*types.Var
	for _, e := range inputs {
		if t := ci.pass.TypesInfo.TypeOf(e); t == nil || !isScalar(t) {
			return nil // a pointer, a slice, a map: what it points at can change
		}
		for _, v := range varsOf(ci.pass, e) {
			if v.Pos() >= ci.fd.Pos() && v.Pos() <= ci.fd.End() && !v.IsField() {
				if loop.Pos() <= v.Pos() && v.Pos() < loop.End() {
					return nil // declared in the loop: a new value each time
				}
				vars = append(vars, v)
			}
		}
	}
	if len(vars) == 0 || assignedBetween(ci.pass, loop, vars, loop.Pos()-1, loop.End()) || callsSetting(ci.pass, loop, vars) {
		return nil
	}
	if leavesAfter(loop, call) {
		return nil // at most once per loop: a fallback that returns
	}
	return loop
}

// leavesAfter reports whether the block of loop's body that holds call
// ends by leaving the loop (a return, a panic, or a break of the loop
// itself): the call runs at most once each time the loop runs, as a
// fast path's fallback (`f, err := strconv.ParseFloat(s, 64); …;
// return f, nil`).
func leavesAfter(loop ast.Stmt, call ast.Node) bool {
	var block *ast.BlockStmt
	breaks := true // an unlabeled break in block leaves loop
	ast.Inspect(loop, func(n ast.Node) bool {
		if n == nil || n == loop || n.Pos() > call.Pos() || n.End() < call.End() {
			return n == loop
		}
		switch x := n.(type) {
		case *ast.BlockStmt:
			block = x
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.ForStmt, *ast.RangeStmt:
			breaks = false
		case *ast.FuncLit:
			block = nil
			return false
		}
		return true
	})
	if block == nil || len(block.List) == 0 {
		return false
	}
	switch last := block.List[len(block.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return last.Tok == token.BREAK && last.Label == nil && breaks
	case *ast.ExprStmt:
		c, ok := last.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := c.Fun.(*ast.Ident)
		return ok && id.Name == "panic"
	}
	return false
}

// innermostLoop returns the innermost loop of the function around call,
// or nil.
func (ci *callInputs) innermostLoop(call ast.Node) ast.Stmt {
	var loop ast.Stmt
	for _, l := range ci.loops {
		if l.Pos() <= call.Pos() && call.End() <= l.End() && (loop == nil || l.Pos() > loop.Pos()) && !onceIn(l, call) {
			loop = l
		}
	}
	return loop
}

// onceIn reports whether n is in the part of a loop statement that runs
// once, before the first iteration: a range statement's expression, a for
// statement's init.
func onceIn(loop ast.Stmt, n ast.Node) bool {
	within := func(e ast.Node) bool {
		return e != nil && e.Pos() <= n.Pos() && n.End() <= e.End()
	}
	switch l := loop.(type) {
	case *ast.RangeStmt:
		return within(l.X)
	case *ast.ForStmt:
		return l.Init != nil && within(l.Init)
	}
	return false
}

// callsSetting reports whether a call in n can change one of the
// variables: a method with a pointer receiver called on it (z.Mul(x, y),
// b.WriteString(s)), or the variable handed to a call when it is not a
// scalar (a pointer, a slice, a struct holding them).
func callsSetting(pass *analysis.Pass, n ast.Node, vars []*types.Var) bool {
	reads := func(e ast.Expr) bool {
		for _, v := range varsOf(pass, e) {
			if slices.Contains(vars, v) {
				return true
			}
		}
		return false
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if fn, _ := pass.TypesInfo.Uses[sel.Sel].(*types.Func); fn != nil {
				if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
					if _, ptr := sig.Recv().Type().(*types.Pointer); ptr && reads(sel.X) {
						found = true
					}
				}
			}
		}
		for _, a := range call.Args {
			if t := pass.TypesInfo.TypeOf(a); t != nil && !isScalar(t) && reads(a) {
				found = true
			}
		}
		return !found
	})
	return found
}

// isScalar reports whether a value of type t is all its contents: a
// number, a string, a bool.
func isScalar(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsNumeric|types.IsString|types.IsBoolean) != 0
}

// aliasOf returns the parameter a local is only ever assigned as itself,
// asserted or converted (o := other.(*set[T])), or nil.
func (ci *callInputs) aliasOf(v *types.Var) *types.Var {
	var from *types.Var
	n := 0
	inspectBody(ci.fd.Body, func(x ast.Node) {
		as, ok := x.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return
		}
		for i, l := range as.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); !ok || ci.pass.TypesInfo.ObjectOf(id) != v {
				continue
			}
			n++
			e := ast.Unparen(as.Rhs[i])
			switch y := e.(type) {
			case *ast.TypeAssertExpr:
				e = y.X
			case *ast.CallExpr:
				if isConversion(ci.pass, y) && len(y.Args) == 1 {
					e = y.Args[0]
				}
			}
			if id, ok := ast.Unparen(e).(*ast.Ident); ok {
				if p, ok := ci.pass.TypesInfo.ObjectOf(id).(*types.Var); ok && ci.param(p.Name()) == p {
					from = p
				}
			} else if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok && isMapType(ci.pass.TypesInfo.TypeOf(sel)) {
				// A map the receiver holds, in a local (bm := b.m).
				if p := ci.root(sel); p != nil && ci.param(p.Name()) == p {
					from = p
				}
			}
		}
	})
	if n != 1 {
		return nil
	}
	return from
}

// mapOps reports the function's map operations on what it was given: a
// lookup, a store or a delete in a map of its receiver or parameters
// with a key computed from them, a range over such a map, each in no
// loop that leaves those values alone ("map-on-inputs"). A cache's Set
// storing the key it is given, a table's lookup of the name it is asked
// for: the function's own work, nothing to look up once and keep.
func (ci *callInputs) mapOps() {
	pass := ci.pass
	stores := map[ast.Expr]bool{}
	inspectBody(ci.fd.Body, func(n ast.Node) {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				stores[ast.Unparen(l)] = true
			}
		}
	})
	name := ci.fd.Name.Name
	op := func(at ast.Node, what string, m, key ast.Expr) {
		// The map is the receiver's or a parameter's, the key (none for
		// a range) computed from what the function was given.
		v := ci.root(m)
		if v != nil && ci.param(v.Name()) != v {
			v = ci.aliasOf(v) // o := other.(*set[T]): the parameter, asserted
		}
		if v == nil {
			return
		}
		params := map[string]bool{v.Name(): true}
		ci.notes = nil
		if key != nil && ci.combine([]ast.Expr{key}, params) != inputParam {
			return
		}
		names := slices.Sorted(maps.Keys(params))
		per := ci.per(at)
		pass.Report(analysis.Diagnostic{
			Category: "map-on-inputs" + ownWork,
			Pos:      at.Pos(),
			Message:  fmt.Sprintf("%s %s, with what %s is given (%s)", oneLine(text(pass, at)), what, name, strings.Join(names, ", ")),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"the map operation is %s's own work on its inputs, %s, not work repeated: it costs hashing the key and probing (a store also grows the map), so a cheaper key (an integer or a small struct instead of a string) or fewer calls are the changes", name, per)}},
		})
	}
	inspectBody(ci.fd.Body, func(n ast.Node) {
		switch x := n.(type) {
		case *ast.IndexExpr:
			if !isMapType(pass.TypesInfo.TypeOf(x.X)) {
				return
			}
			what := "looks a key up in " + text(pass, x.X)
			if stores[x] {
				what = "stores into " + text(pass, x.X)
			}
			op(x, what, x.X, x.Index)
		case *ast.CallExpr:
			if isBuiltin(pass, x.Fun, "delete") && len(x.Args) == 2 {
				op(x, "deletes from "+text(pass, x.Args[0]), x.Args[0], x.Args[1])
			}
			if isBuiltin(pass, x.Fun, "copy") && len(x.Args) == 2 {
				ci.copyIn(x)
			}
			if isBuiltin(pass, x.Fun, "append") && len(x.Args) == 2 && x.Ellipsis.IsValid() {
				// append(out, m...): the copy of m into the buffer
				// its caller gave it (a RawMessage's Rewrite).
				ci.copyIn(x)
			}
		case *ast.RangeStmt:
			if isMapType(pass.TypesInfo.TypeOf(x.X)) {
				op(x.X, "is the map the loop ranges over", x.X, nil)
			}
		}
	})
}

// copyIn reports a copy of what the function is given (a parameter's
// bytes) into its receiver's or a parameter's storage, by copy or by an
// append of its elements ("copy-on-inputs"): a queue's push storing the
// entry it is given, an encoder appending its input to the output. The
// bytes copied are the function's own work; fewer is a change to what its
// callers store.
func (ci *callInputs) copyIn(call *ast.CallExpr) {
	pass := ci.pass
	unslice := func(e ast.Expr) ast.Expr {
		for {
			se, ok := ast.Unparen(e).(*ast.SliceExpr)
			if !ok {
				return e
			}
			e = se.X
		}
	}
	if base := text(pass, unslice(call.Args[0])); base == text(pass, unslice(call.Args[1])) && call.Args[0] != call.Args[1] {
		ci.shift(call, base)
		return
	}
	dst, src := ci.root(unslice(call.Args[0])), ci.root(unslice(call.Args[1]))
	if dst == nil || src == nil || dst == src || ci.param(src.Name()) != src {
		return
	}
	if _, ok := src.Type().Underlying().(*types.Slice); !ok {
		if b, ok := src.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
			return
		}
	}
	name := ci.fd.Name.Name
	pass.Report(analysis.Diagnostic{
		Category: "copy-on-inputs" + ownWork,
		Pos:      call.Pos(),
		Message:  fmt.Sprintf("%s copies %s, which %s is given, into %s", oneLine(text(pass, call)), src.Name(), name, oneLine(text(pass, call.Args[0]))),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"storing what it is given is %s's own work, %s: the bytes copied are the callers' to reduce (fewer or smaller values stored), not a copy to remove here", name, ci.per(call))}},
	})
}

// shift reports a copy of a slice's elements within the same slice
// ("shift-in-place"): ristretto's B-tree node moving its keys up one slot
// to insert (copy(n[keyOffset(lo+1):…], n[keyOffset(lo):…])), a queue
// moving what is left to its front. What moves is what follows the slot:
// keeping the elements in order in one array costs that, the function's
// own work, not a copy to remove.
func (ci *callInputs) shift(call *ast.CallExpr, base string) {
	if _, ok := ci.pass.TypesInfo.TypeOf(call.Args[0]).Underlying().(*types.Slice); !ok {
		return
	}
	if fd := ci.fd; fd.Recv != nil && fd.Name.IsExported() && exportedRecv(ci.pass, fd) {
		return // an exported removal callers may make from the front: shift-remove's
	}
	name := ci.fd.Name.Name
	ci.pass.Report(analysis.Diagnostic{
		Category: "shift-in-place" + ownWork,
		Pos:      call.Pos(),
		Message:  fmt.Sprintf("%s moves elements of %s to other places in %s", oneLine(text(ci.pass, call)), base, base),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"the elements that move are those after the place %s opens or closes, %s: keeping elements in order in one array costs that, %s's own work: it follows the array's length (a smaller array moves less, and more of them are searched), not a copy to remove here", name, ci.per(call), name)}},
	})
}

// per says how often n runs for one call of the function: "once per
// call", or once per iteration of its innermost loop.
func (ci *callInputs) per(n ast.Node) string {
	if loop := ci.innermostLoop(n); loop != nil {
		fset := ci.pass.Fset
		return fmt.Sprintf("once per iteration of the loop at lines %d–%d", fset.Position(loop.Pos()).Line, fset.Position(loop.End()).Line)
	}
	return "once per call"
}

// filledLocal returns the local a call fills through argument e: &v of a
// local v, or a local pointer made in the function (bg := &T{}).
func filledLocal(pass *analysis.Pass, e ast.Expr) ast.Expr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		if id, ok := ast.Unparen(u.X).(*ast.Ident); ok {
			if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != pass.Pkg.Scope() {
				return id
			}
		}
		return nil
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Parent() == pass.Pkg.Scope() {
		return nil
	}
	if _, ptr := v.Type().Underlying().(*types.Pointer); !ptr {
		return nil
	}
	return id
}
