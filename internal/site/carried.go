package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Carried finds what a constructor's value carries by design: the time
// it reads once (`return NewRandomWithTime(time.Now())`, an ID's
// timestamp) and the random bytes it reads from crypto/rand
// (`io.ReadAtLeast(rander, buf, n)` with `rander = rand.Reader`, an ID's
// payload). One clock read and one read of randomness per value are what
// the value is: "read the clock once per operation" or "buffer the I/O"
// do not fit them. A function that reads the clock more than once, or
// whose time does not reach its result, is left alone. So is a call of
// another module's constructor that takes no argument and returns an
// array (uuid.NewV7(): a random, time-ordered ID): a new value per call
// is what it is for (value-generated; go.jetify.com/typeid's from).
var Carried = &analysis.Analyzer{
	Name: "carried",
	Doc:  "a clock read or crypto/rand read that the value a function returns carries",
	Run:  runCarried,
}

func runCarried(pass *analysis.Pass) (any, error) {
	randReaders := cryptoReaders(pass)
	// The parameters the package passes a crypto reader to
	// (NewRandomFromReader(rander)): a read from one of them is the
	// randomness too.
	randParams := map[*types.Func]map[int]string{}
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() != pass.Pkg {
				return
			}
			for i, a := range call.Args {
				name := ""
				if v := objOf(pass, a); v != nil && randReaders[v] {
					name = v.Name()
				} else if isCryptoReader(pass, a) {
					name = "rand.Reader"
				}
				if name != "" {
					if randParams[fn] == nil {
						randParams[fn] = map[int]string{}
					}
					randParams[fn][i] = name
				}
			}
		})
	}
	for fd := range funcDecls(pass) {
		if fd.Type.Results == nil || len(fd.Type.Results.List) == 0 {
			continue
		}
		var nows []*ast.CallExpr
		inspectBody(fd.Body, func(n ast.Node) {
			if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 0 && isFunc(pass, call, "time", "", "Now") {
				nows = append(nows, call)
			}
		})
		if len(nows) == 1 && returnedArg(fd, nows[0]) {
			pass.Report(analysis.Diagnostic{
				Category:       "clock-carried",
				Pos:            nows[0].Pos(),
				Message:        fmt.Sprintf("%s reads the clock once per call and hands the time to the value it returns: the time is what that value carries", fd.Name.Name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "one clock read per value is the floor: a cost of the API (time.Now reads the wall and the monotonic clock; a caller that makes many values at once can pass one time to the function that takes it)"}},
			})
		}
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg() == pass.Pkg || sameModule(pass.Pkg.Path(), fn.Pkg().Path()) || !strings.HasPrefix(fn.Name(), "New") {
				return
			}
			sig := fn.Type().(*types.Signature)
			if sig.Results().Len() == 0 {
				return
			}
			if _, isArray := sig.Results().At(0).Type().Underlying().(*types.Array); !isArray {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category:       "value-generated",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s calls %s with no argument, once per call: a new value each time (random or time-ordered bytes) is what the call is for, and what %s's result carries", fd.Name.Name, oneLine(types.ExprString(call)), fd.Name.Name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "a new value per call is the floor: a cost of the API, which caching would break (every call would return the same value); a caller that needs no new value can pass one in where the API takes it"}},
			})
		})
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return
			}
			reader := ""
			switch {
			case isFunc(pass, call, "io", "", "ReadAtLeast"), isFunc(pass, call, "io", "", "ReadFull"):
				if v := objOf(pass, call.Args[0]); v != nil && randReaders[v] {
					reader = v.Name() + ", crypto/rand's reader"
				} else if isCryptoReader(pass, call.Args[0]) {
					reader = "rand.Reader"
				} else if p, ok := v.(*types.Var); ok && isParam(fd, pass, p) {
					self, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
					if by := randParams[self][paramIndex(fd, pass, p)]; by != "" {
						reader = fmt.Sprintf("%s (the package passes %s, crypto/rand's reader)", p.Name(), by)
					} else if entropyName(p.Name()) && len(call.Args) > 1 && returnedArray(pass, fd, call.Args[1]) {
						// New(ms, entropy io.Reader) reading into the
						// ID it returns: the caller's source of
						// randomness, whatever it costs.
						reader = fmt.Sprintf("%s, the source of randomness its caller passes", p.Name())
					}
				} else if dst, ok := objOf(pass, call.Args[len(call.Args)-1]).(*types.Var); ok && len(call.Args) > 1 && isParam(fd, pass, dst) && entropyName(dst.Name()) {
					// MonotonicRead(ms, entropy []byte) filling its
					// caller's entropy from the reader it wraps.
					reader = fmt.Sprintf("%s into %s, the caller's slice: the source of randomness its caller passes", oneLine(types.ExprString(call.Args[0])), dst.Name())
				} else if v != nil && len(call.Args) > 1 && returnedArray(pass, fd, call.Args[1]) {
					// switch e := entropy.(type) { default: io.ReadFull(e, id[6:]) }
					if p := typeSwitchedParam(pass, fd, v); p != nil && entropyName(p.Name()) {
						reader = fmt.Sprintf("%s, the source of randomness its caller passes", p.Name())
					}
				}
			}
			if reader == "" {
				return
			}
			readEscapes(pass, fd, call)
			if strings.HasSuffix(reader, "its caller passes") {
				pass.Report(analysis.Diagnostic{
					Category:       "random-carried",
					Pos:            call.Pos(),
					Message:        fmt.Sprintf("%s reads random bytes from %s, once per call: the randomness is what the value it makes carries, at whatever the source costs", fd.Name.Name, reader),
					SuggestedFixes: []analysis.SuggestedFix{{Message: "one read of randomness per value is the floor, and the source is the caller's choice: crypto/rand costs a system call per read; a buffered or math/rand source costs less where unpredictability is not needed — a cost of the API, not of this line"}},
				})
				return
			}
			pass.Report(analysis.Diagnostic{
				Category:       "random-carried",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s reads random bytes from %s, once per call (a getrandom system call): the randomness is what the value it makes carries", fd.Name.Name, reader),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "one read of randomness per value is the floor: a cost of the API; buffering it would keep random bytes in memory between values, and a faster non-cryptographic source is the caller's choice where the API offers one"}},
			})
		})
	}
	return nil, nil
}

// cryptoReaders returns the package-level variables whose initial value
// is crypto/rand.Reader.
func cryptoReaders(pass *analysis.Pass) map[types.Object]bool {
	out := map[types.Object]bool{}
	eachPackageVar(pass, func(v *types.Var, value ast.Expr) {
		if isCryptoReader(pass, value) {
			out[v] = true
		}
	})
	return out
}

// isCryptoReader reports whether e is crypto/rand.Reader.
func isCryptoReader(pass *analysis.Pass, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" && v.Name() == "Reader"
}

// returnedArg reports whether call is an argument of a call in one of
// fd's return statements (return NewRandomWithTime(time.Now())).
func returnedArg(fd *ast.FuncDecl, call *ast.CallExpr) bool {
	found := false
	inspectBody(fd.Body, func(n ast.Node) {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return
		}
		for _, r := range ret.Results {
			outer, ok := ast.Unparen(r).(*ast.CallExpr)
			if !ok {
				continue
			}
			for _, a := range outer.Args {
				if ast.Unparen(a) == call {
					found = true
				}
			}
		}
	})
	return found
}

// paramIndex is the index of parameter p among fd's parameters, or -1.
func paramIndex(fd *ast.FuncDecl, pass *analysis.Pass, p *types.Var) int {
	i := 0
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			if pass.TypesInfo.Defs[n] == p {
				return i
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	return -1
}

// readEscapes reports a local array whose slice a function reads random
// bytes into through an io.Reader (`var uuid UUID; io.ReadFull(r,
// uuid[:])`): the compiler cannot see through the interface, so the
// array moves to the heap on every call; with crypto/rand's reader, the
// package's default, a direct rand.Read keeps it on the stack.
func readEscapes(pass *analysis.Pass, fd *ast.FuncDecl, call *ast.CallExpr) {
	if len(call.Args) < 2 {
		return
	}
	sl, ok := ast.Unparen(call.Args[1]).(*ast.SliceExpr)
	if !ok {
		return
	}
	v, _ := objOf(pass, sl.X).(*types.Var)
	if v == nil || v.Pos() < fd.Body.Pos() || v.Pos() > fd.End() {
		return // not this function's local
	}
	if _, isArray := v.Type().Underlying().(*types.Array); !isArray {
		return
	}
	if _, isIface := pass.TypesInfo.TypeOf(call.Args[0]).Underlying().(*types.Interface); !isIface {
		return
	}
	size, ok := sizeof(pass.TypesSizes, v.Type())
	if !ok {
		return // a type parameter's: no size to name
	}
	pass.Report(analysis.Diagnostic{
		Category: "read-escapes",
		Pos:      v.Pos(),
		Message: fmt.Sprintf("%s is read into through %s, an io.Reader the compiler cannot see through, so %s moves to the heap on every call (%d bytes)",
			v.Name(), oneLine(types.ExprString(call.Args[0])), v.Name(), size),
		Related: []analysis.RelatedInformation{{Pos: call.Pos(), Message: "the read"}},
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"when %s is crypto/rand's reader (the package's default), call crypto/rand.Read(%s[:]) directly: no interface, so %s stays on the stack (rand.Read does not fail since Go 1.24); keep the io.Reader path for other readers", oneLine(types.ExprString(call.Args[0])), v.Name(), v.Name())}},
	})
}

// entropyName reports whether a parameter's name says it is a source of
// randomness (entropy, rand, rng, rnd).
func entropyName(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "entropy") || strings.Contains(n, "rand") || n == "rng" || n == "rnd"
}

// returnedArray reports whether e is a slice of an array the function
// returns (id[6:] with id a named result or a returned local).
func returnedArray(pass *analysis.Pass, fd *ast.FuncDecl, e ast.Expr) bool {
	sl, ok := ast.Unparen(e).(*ast.SliceExpr)
	if !ok {
		return false
	}
	r := newResultVars(pass, fd)
	v := r.localVar(sl.X)
	if v == nil || !r.vars[v] {
		return false
	}
	_, isArray := v.Type().Underlying().(*types.Array)
	return isArray
}

// typeSwitchedParam returns the parameter a type switch's variable v
// stands for (switch e := entropy.(type) { … }), or nil.
func typeSwitchedParam(pass *analysis.Pass, fd *ast.FuncDecl, v types.Object) *types.Var {
	var out *types.Var
	inspectBody(fd.Body, func(n ast.Node) {
		ts, ok := n.(*ast.TypeSwitchStmt)
		if !ok || out != nil {
			return
		}
		as, ok := ts.Assign.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return
		}
		ta, ok := ast.Unparen(as.Rhs[0]).(*ast.TypeAssertExpr)
		if !ok {
			return
		}
		for _, cc := range ts.Body.List {
			if pass.TypesInfo.Implicits[cc] == v {
				if p, ok := objOf(pass, ta.X).(*types.Var); ok && isParam(fd, pass, p) {
					out = p
				}
			}
		}
	})
	return out
}
