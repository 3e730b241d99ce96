package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
)

// scratchMin is the size from which a value made per call and dropped
// after it is worth a pool: zeroing it costs more than a pool's Get and
// Put, and it is that much garbage every call.
const scratchMin = 2048

// ScratchPerCall finds a large value (scratchMin bytes or more) that a
// function makes for one call and drops when the call returns: the
// package's unexported constructor returning &T{} whose every caller
// only calls methods on the result (goyacc's yyParse:
// yyNewParser().Parse(yylex), a yyParserImpl of 18.6 KiB with its
// 16-slot symbol stack, in xwb1989/sqlparser), or a &T{} or new(T) a
// function uses only as a method receiver. The compiler moves it to the
// heap when a method hands part of it to an interface (the parser's
// lval, passed to the lexer), so each call allocates and zeroes it. A
// sync.Pool of them (vitess's yyParsePooled) makes it once per
// goroutine.
var ScratchPerCall = &analysis.Analyzer{
	Name: "scratchpercall",
	Doc:  "a large value made for one call and dropped when it returns",
	Run:  runScratchPerCall,
}

func runScratchPerCall(pass *analysis.Pass) (any, error) {
	// The package's unexported constructors of large values: function
	// → the &T{} or new(T) it returns.
	made := map[*types.Func]ast.Expr{}
	for fd := range funcDecls(pass) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil || fd.Name.IsExported() || fd.Type.Results == nil || len(fd.Type.Results.List) != 1 || len(fd.Body.List) != 1 {
			continue
		}
		ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		if _, ok := largeNew(pass, ret.Results[0]); ok {
			made[fn] = ret.Results[0]
		}
	}
	// How each constructor's result is used: only as a method receiver
	// (scratch), or otherwise.
	scratch := map[*types.Func]string{} // constructor → a caller's name
	kept := map[*types.Func]bool{}
	for fd := range funcDecls(pass) {
		receivers := methodReceivers(pass, fd.Body)
		locals := scratchLocals(pass, fd.Body, receivers)
		inspectBody(fd.Body, func(n ast.Node) {
			if x, ok := n.(*ast.CallExpr); ok {
				fn := calledFunc(pass, x)
				if made[fn] == nil {
					return
				}
				if receivers[x] || locals[x] {
					scratch[fn] = fd.Name.Name
				} else {
					kept[fn] = true
				}
			}
		})
		// A large &T{} or new(T) the function itself uses only as a
		// method receiver.
		for e := range locals {
			if t, ok := largeNew(pass, e); ok {
				reportScratch(pass, e, fd.Name.Name, fd.Name.Name, t)
			}
		}
	}
	for fn, e := range made {
		if caller := scratch[fn]; caller != "" && !kept[fn] {
			t, _ := largeNew(pass, e)
			reportScratch(pass, e, fn.Name(), caller, t)
		}
	}
	return nil, nil
}

// largeNew returns T for &T{…} or new(T) of a struct or array of at
// least scratchMin bytes.
func largeNew(pass *analysis.Pass, e ast.Expr) (types.Type, bool) {
	var t types.Type
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if _, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok && x.Op.String() == "&" {
			t = pass.TypesInfo.TypeOf(x.X)
		}
	case *ast.CallExpr:
		if isBuiltin(pass, x.Fun, "new") && len(x.Args) == 1 {
			t = pass.TypesInfo.TypeOf(x.Args[0])
		}
	}
	if t == nil || pass.TypesSizes == nil {
		return nil, false
	}
	n, ok := sizeof(pass.TypesSizes, t)
	return t, ok && n >= scratchMin
}

// methodReceivers returns the expressions of a body that are only the
// receiver of a method call (x in x.M(…)).
func methodReceivers(pass *analysis.Pass, body *ast.BlockStmt) map[ast.Expr]bool {
	recv := map[ast.Expr]bool{}
	inspectBody(body, func(n ast.Node) {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return
		}
		if s := pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			recv[ast.Unparen(sel.X)] = true
		}
	})
	return recv
}

// scratchLocals returns the values assigned to a local (p := F(), p :=
// &T{}) whose every use is as a method receiver.
func scratchLocals(pass *analysis.Pass, body *ast.BlockStmt, receivers map[ast.Expr]bool) map[ast.Expr]bool {
	out := map[ast.Expr]bool{}
	inspectBody(body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok.String() != ":=" {
			return
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		if !ok {
			return
		}
		v := pass.TypesInfo.Defs[id]
		if v == nil {
			return
		}
		uses := 0
		only := true
		inspectAll(body, func(m ast.Node) {
			u, ok := m.(*ast.Ident)
			if !ok || pass.TypesInfo.Uses[u] != v {
				return
			}
			uses++
			if !receivers[u] {
				only = false
			}
		})
		if uses > 0 && only {
			out[as.Rhs[0]] = true
		}
	})
	return out
}

func reportScratch(pass *analysis.Pass, at ast.Expr, maker, caller string, t types.Type) {
	n, _ := sizeof(pass.TypesSizes, t)
	name := types.TypeString(t, types.RelativeTo(pass.Pkg))
	who := fmt.Sprintf("%s makes a %s (%s) for each call of %s, which calls its methods and drops it", maker, name, kib(n), caller)
	if maker == caller {
		who = fmt.Sprintf("%s makes a %s (%s) on every call, calls its methods and drops it", maker, name, kib(n))
	}
	pass.Report(analysis.Diagnostic{
		Category: "scratch-per-call",
		Pos:      at.Pos(),
		Message:  who + ": the heap allocates and zeroes it every call" + generatedAt(pass, at.Pos()),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"keep the %ss in a sync.Pool: Get one in %s, reset it (*p = %s{}) and Put it back when the call is done, so a goroutine reuses one instead of making %s per call", name, caller, name, kib(n))}},
	})
}

// generatedAt names the file and line a position has in the Go source
// when a //line directive gives it another (goyacc's parser, positioned
// in "yaccpar"): " (generated code at sql.go:2414)", or "".
func generatedAt(pass *analysis.Pass, pos token.Pos) string {
	adj, raw := pass.Fset.Position(pos), pass.Fset.PositionFor(pos, false)
	if adj.Filename == raw.Filename {
		return ""
	}
	return fmt.Sprintf(" (generated code at %s:%d)", filepath.Base(raw.Filename), raw.Line)
}

// kib formats a size in bytes as KiB.
func kib(n int64) string {
	return fmt.Sprintf("%.1f KiB", float64(n)/1024)
}
