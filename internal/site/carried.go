package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Carried finds what a constructor's value carries by design: the time
// it reads once (`return NewRandomWithTime(time.Now())`, an ID's
// timestamp) and the random bytes it reads from crypto/rand
// (`io.ReadAtLeast(rander, buf, n)` with `rander = rand.Reader`, an ID's
// payload). One clock read and one read of randomness per value are what
// the value is: "read the clock once per operation" or "buffer the I/O"
// do not fit them. A function that reads the clock more than once, or
// whose time does not reach its result, is left alone.
var Carried = &analysis.Analyzer{
	Name: "carried",
	Doc:  "a clock read or crypto/rand read that the value a function returns carries",
	Run:  runCarried,
}

func runCarried(pass *analysis.Pass) (any, error) {
	randReaders := cryptoReaders(pass)
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
			if !ok || len(call.Args) == 0 {
				return
			}
			reader := ""
			switch {
			case isFunc(pass, call, "io", "", "ReadAtLeast"), isFunc(pass, call, "io", "", "ReadFull"):
				if v := objOf(pass, call.Args[0]); v != nil && randReaders[v] {
					reader = v.Name()
				} else if isCryptoReader(pass, call.Args[0]) {
					reader = "rand.Reader"
				}
			}
			if reader == "" {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category:       "random-carried",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s reads random bytes from %s, crypto/rand's reader (a getrandom system call), once per call: the randomness is what the value it makes carries", fd.Name.Name, reader),
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
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if i < len(vs.Names) && isCryptoReader(pass, v) {
						out[pass.TypesInfo.Defs[vs.Names[i]]] = true
					}
				}
			}
		}
	}
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
