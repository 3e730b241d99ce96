package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ConversionKept finds a string(b) conversion of a []byte passed to a
// function of the package (directly, or through a function of the
// package that returns part of its string parameter) whose error messages
// keep that parameter (fmt.Errorf("can't convert %s", value)) and whose
// other uses of it keep nothing (see onlyErrorsKeep). The compiler cannot
// keep the converted string on the stack, since the error may outlive the
// call, so every call allocates the copy, error or not. A copy made only
// on the error path (strings.Clone in the error's arguments) lets the
// conversion stay on the stack for short inputs. Where the callee keeps
// the parameter beyond its errors ("conversion-for-callee": NewFromString
// handing it to big.Int.SetString), the copy is the callee's input, and
// only a variant of the callee over []byte avoids it.
var ConversionKept = &analysis.Analyzer{
	Name: "conversionkept",
	Doc:  "a string(b) conversion passed to a function whose error messages keep its parameter",
	Run:  runConversionKept,
}

func runConversionKept(pass *analysis.Pass) (any, error) {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			inspectBody(fd.Body, func(n ast.Node) {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return
				}
				callee := calledFunc(pass, call)
				cd := decls[callee]
				if callee != nil && cd == nil {
					reportForAPI(pass, call, callee)
					return
				}
				if cd == nil || callee == nil {
					return
				}
				for i, a := range call.Args {
					conv := byteConversion(pass, a, decls)
					if conv == nil {
						continue
					}
					p := paramAt(pass, cd, i)
					if p == nil {
						continue
					}
					line := errorKeeps(pass, cd, p)
					// (A function returning part of its parameter,
					// unquote, hands it on: the outer call decides.)
					if !onlyErrorsKeep(pass, decls, cd, p, 2) && !returnsPartOf(pass, cd) {
						// Kept beyond its errors: the copy is the
						// callee's input; only a []byte variant
						// avoids it.
						pass.Report(analysis.Diagnostic{
							Category: "conversion-for-callee",
							Pos:      conv.Pos(),
							Message: fmt.Sprintf("%s copies the bytes to call %s, which takes a string and keeps its parameter %s",
								types.ExprString(conv), callee.Name(), p.Name()),
							SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
								"the conversion is %s's input, not a second representation to drop: parsing from the []byte (a variant of %s over []byte, which the string version calls) copies nothing",
								callee.Name(), callee.Name())}},
						})
						continue
					}
					if line == 0 {
						continue
					}
					text := types.ExprString(conv)
					pass.Report(analysis.Diagnostic{
						Category: "conversion-kept",
						Pos:      conv.Pos(),
						Message: fmt.Sprintf("%s is passed to %s, whose error message at line %d keeps its parameter %s: the copy escapes to the heap on every call, error or not",
							text, callee.Name(), line, p.Name()),
						SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
							"have %s copy %s only on its error paths (strings.Clone(%s) in the error's arguments), so the conversion can stay on the stack for short inputs",
							callee.Name(), p.Name(), p.Name())}},
					})
				}
			})
		}
	}
	return nil, nil
}

// reportForAPI reports a string(b) conversion handed straight to an
// exported function of another package whose parameter there is a string
// (zapio's w.Log.Check(w.Level, string(b)), the logger's message): the
// copy is what that API takes, kept or not beyond the call as it decides;
// only a variant of it over []byte would avoid it ("conversion-for-api").
func reportForAPI(pass *analysis.Pass, call *ast.CallExpr, callee *types.Func) {
	if callee.Pkg() == nil || callee.Pkg() == pass.Pkg || !callee.Exported() {
		return
	}
	sig, ok := callee.Type().(*types.Signature)
	if !ok {
		return
	}
	for i, a := range call.Args {
		conv, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok || len(conv.Args) != 1 || !isStringOf(pass, conv) || i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
			continue
		}
		p := sig.Params().At(i)
		if b, ok := p.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
			continue
		}
		name := callee.Name()
		if r := sig.Recv(); r != nil {
			if n := namedOf(types.Unalias(r.Type())); n != nil {
				name = n.Obj().Name() + "." + name
			}
		}
		pass.Report(analysis.Diagnostic{
			Category: "conversion-for-api",
			Pos:      conv.Pos(),
			Message: fmt.Sprintf("%s copies the bytes to call %s.%s, which takes a string (its parameter %s)",
				types.ExprString(conv), callee.Pkg().Name(), name, p.Name()),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"the copy is the input %s asks for, an API of another package: inherent to calling it with bytes; only a variant of it over []byte would avoid it, or bytes already held as a string", name)}},
		})
	}
}

// isStringOf reports whether call is string(x) of a []byte x.
func isStringOf(pass *analysis.Pass, call *ast.CallExpr) bool {
	tv, ok := pass.TypesInfo.Types[call.Fun]
	if !ok || !tv.IsType() {
		return false
	}
	if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Kind() != types.String {
		return false
	}
	s, ok := pass.TypesInfo.TypeOf(call.Args[0]).Underlying().(*types.Slice)
	if !ok {
		return false
	}
	e, ok := s.Elem().Underlying().(*types.Basic)
	return ok && e.Kind() == types.Byte
}

// byteConversion returns the string(b) conversion of a []byte that e is,
// or that e passes to a function of the package returning part of its
// string parameter (unquote(string(b))), or nil.
func byteConversion(pass *analysis.Pass, e ast.Expr, decls map[*types.Func]*ast.FuncDecl) *ast.CallExpr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if isConversion(pass, call) && len(call.Args) == 1 {
		to, from := pass.TypesInfo.TypeOf(call), pass.TypesInfo.TypeOf(call.Args[0])
		if b, ok := to.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			if s, ok := from.Underlying().(*types.Slice); ok {
				if eb, ok := s.Elem().Underlying().(*types.Basic); ok && eb.Kind() == types.Byte {
					return call
				}
			}
		}
		return nil
	}
	fd := decls[calledFunc(pass, call)]
	if fd == nil || len(call.Args) != 1 || !returnsPartOf(pass, fd) {
		return nil
	}
	return byteConversion(pass, call.Args[0], decls)
}

// returnsPartOf reports whether every return of a one-parameter function
// returns its parameter or a slice of it.
func returnsPartOf(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	p := paramAt(pass, fd, 0)
	if p == nil || fd.Type.Params.NumFields() != 1 {
		return false
	}
	ok, any := true, false
	inspectBody(fd.Body, func(n ast.Node) {
		r, isRet := n.(*ast.ReturnStmt)
		if !isRet {
			return
		}
		any = true
		if len(r.Results) != 1 {
			ok = false
			return
		}
		e := ast.Unparen(r.Results[0])
		if s, isSlice := e.(*ast.SliceExpr); isSlice {
			e = s.X
		}
		if id, isID := e.(*ast.Ident); !isID || pass.TypesInfo.ObjectOf(id) != p {
			ok = false
		}
	})
	return ok && any
}

// paramAt returns the i-th parameter of fd.
func paramAt(pass *analysis.Pass, fd *ast.FuncDecl, i int) *types.Var {
	for _, fl := range fd.Type.Params.List {
		for _, n := range fl.Names {
			if i == 0 {
				v, _ := pass.TypesInfo.Defs[n].(*types.Var)
				return v
			}
			i--
		}
		if len(fl.Names) == 0 {
			i--
		}
	}
	return nil
}

// derived returns p and the locals of fd assigned from it (value =
// strings.TrimSpace(value), original := value).
func derived(pass *analysis.Pass, fd *ast.FuncDecl, p *types.Var) map[*types.Var]bool {
	from := map[*types.Var]bool{p: true}
	for changed := true; changed; {
		changed = false
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return
			}
			for i, l := range as.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				v, _ := pass.TypesInfo.ObjectOf(id).(*types.Var)
				if v == nil || from[v] {
					continue
				}
				for _, r := range varsOf(pass, as.Rhs[i]) {
					if from[r] {
						from[v] = true
						changed = true
						break
					}
				}
			}
		})
	}
	return from
}

// onlyErrorsKeep reports whether every use of p in fd (and of the locals
// computed from it) is one that keeps nothing beyond the call — its
// length, an index, a slice or comparison, a range, an assignment to a
// local, a call of strings, bytes, strconv or unicode/utf8, a function of
// the package that keeps it no more (up to depth calls deep) — or an
// error message: then the error messages are what moves a caller's
// conversion to the heap. A use the matcher cannot read (a library method
// given the string, a return, a store into a field) is not.
func onlyErrorsKeep(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, fd *ast.FuncDecl, p *types.Var, depth int) bool {
	from := derived(pass, fd, p)
	ok := true
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if !ok {
			return false
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !isID {
			return true
		}
		if v, _ := pass.TypesInfo.Uses[id].(*types.Var); v == nil || !from[v] {
			return true
		}
		// Climb through slices and parentheses to the expression
		// that uses the value.
		i := len(stack) - 2
		var e ast.Node = id
		for i >= 0 {
			switch x := stack[i].(type) {
			case *ast.ParenExpr:
				e, i = x, i-1
				continue
			case *ast.SliceExpr:
				if x.X == e {
					e, i = x, i-1
					continue
				}
			}
			break
		}
		if i < 0 {
			ok = false
			return true
		}
		ok = keepsNothing(pass, decls, stack[i], e, depth)
		return true
	})
	return ok
}

// keepsNothing reports whether parent's use of e (a string computed from
// a parameter) keeps nothing beyond the call, or keeps it in an error
// message (see onlyErrorsKeep).
func keepsNothing(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, parent, e ast.Node, depth int) bool {
	switch x := parent.(type) {
	case *ast.AssignStmt:
		for _, l := range x.Lhs {
			if l == e {
				return true // written, not read
			}
		}
		for _, l := range x.Lhs {
			if _, ok := l.(*ast.Ident); !ok {
				return false // stored into a field or an element
			}
		}
		return true
	case *ast.ValueSpec, *ast.BinaryExpr, *ast.IndexExpr, *ast.RangeStmt, *ast.SwitchStmt, *ast.CaseClause, *ast.IncDecStmt:
		return true
	case *ast.CallExpr:
		if x.Fun == e {
			return false
		}
		if isBuiltin(pass, x.Fun, "len") || isBuiltin(pass, x.Fun, "cap") || isConversion(pass, x) {
			return true
		}
		fn := calledFunc(pass, x)
		if fn == nil || fn.Pkg() == nil {
			return false
		}
		switch fn.Pkg().Path() {
		case "fmt", "errors", "strings", "bytes", "strconv", "unicode/utf8":
			if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
				return false // a Builder's or a Reader's method keeps it
			}
			return fn.Pkg().Path() != "fmt" || fn.Name() == "Errorf" || fn.Name() == "Sprintf" || fn.Name() == "Sprint"
		}
		cd := decls[fn]
		if cd == nil || fn.Pkg() != pass.Pkg || depth == 0 {
			return false
		}
		for i, a := range x.Args {
			if a == e {
				q := paramAt(pass, cd, i)
				return q != nil && onlyErrorsKeep(pass, decls, cd, q, depth-1)
			}
		}
		return false
	}
	return false
}

// errorKeeps returns the line of the first fmt.Errorf, fmt.Sprintf or
// errors.New in fd that formats p or a local assigned from it, or 0.
func errorKeeps(pass *analysis.Pass, fd *ast.FuncDecl, p *types.Var) int {
	from := map[*types.Var]bool{p: true}
	inspectBody(fd.Body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return
		}
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				continue
			}
			v, _ := pass.TypesInfo.ObjectOf(id).(*types.Var)
			for _, r := range varsOf(pass, as.Rhs[i]) {
				if v != nil && from[r] {
					from[v] = true
				}
			}
		}
	})
	line := 0
	inspectBody(fd.Body, func(n ast.Node) {
		call, ok := n.(*ast.CallExpr)
		if !ok || line != 0 {
			return
		}
		fn := calledFunc(pass, call)
		if fn == nil || fn.Pkg() == nil {
			return
		}
		if !(fn.Pkg().Path() == "fmt" && (fn.Name() == "Errorf" || fn.Name() == "Sprintf") || fn.Pkg().Path() == "errors" && fn.Name() == "New") {
			return
		}
		for _, a := range call.Args {
			if id, ok := ast.Unparen(a).(*ast.Ident); ok {
				if v, _ := pass.TypesInfo.ObjectOf(id).(*types.Var); v != nil && from[v] {
					line = pass.Fset.Position(call.Pos()).Line
				}
			}
		}
	})
	return line
}
