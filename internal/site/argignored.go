package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ArgIgnored finds a value a function makes only to hand it to a callback
// it is given, where one of the package's own callers passes a callback
// that never reads it: json-iterator's ReadObjectCB reads each key with
// iter.ReadString() (a new string) for its callback, and skipObject's
// callback, which skips the value, ignores the key. Every key skipped is
// a string made for nothing; for the callers that ignore it, the value
// need not be made.
var ArgIgnored = &analysis.Analyzer{
	Name: "argignored",
	Doc:  "a value made only for a callback that one of the package's own callers ignores",
	Run:  runArgIgnored,
}

func runArgIgnored(pass *analysis.Pass) (any, error) {
	// The package's calls that pass a func literal ignoring one of its
	// parameters: callee → parameter index of the callback → argument
	// index the literal ignores → the call.
	type ignore struct {
		call *ast.CallExpr
		by   string
	}
	ignored := map[*types.Func]map[[2]int][]ignore{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectAll(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() != pass.Pkg {
				return
			}
			for i, a := range call.Args {
				lit, ok := ast.Unparen(a).(*ast.FuncLit)
				if !ok {
					continue
				}
				j := 0
				for _, fl := range lit.Type.Params.List {
					names := fl.Names
					if len(names) == 0 {
						names = []*ast.Ident{nil}
					}
					for _, name := range names {
						if name == nil || name.Name == "_" || usesOf(pass, lit.Body, pass.TypesInfo.Defs[name]) == 0 {
							if ignored[fn] == nil {
								ignored[fn] = map[[2]int][]ignore{}
							}
							ignored[fn][[2]int{i, j}] = append(ignored[fn][[2]int{i, j}], ignore{call, fd.Name.Name})
						}
						j++
					}
				}
			}
		})
	})
	if len(ignored) == 0 {
		return nil, nil
	}

	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil || ignored[fn] == nil {
			return
		}
		sig := fn.Type().(*types.Signature)
		for key, igs := range ignored[fn] {
			if key[0] >= sig.Params().Len() {
				continue
			}
			cb := sig.Params().At(key[0])
			// The variables passed to the callback as argument key[1].
			passed := map[types.Object]bool{}
			inspectBody(fd.Body, func(n ast.Node) {
				call, ok := n.(*ast.CallExpr)
				if !ok || key[1] >= len(call.Args) {
					return
				}
				if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == cb {
					if a, ok := ast.Unparen(call.Args[key[1]]).(*ast.Ident); ok {
						passed[pass.TypesInfo.Uses[a]] = true
					}
				}
			})
			inspectBody(fd.Body, func(n ast.Node) {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
					return
				}
				id, ok := as.Lhs[0].(*ast.Ident)
				made, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				if !ok || !isCall || !passed[pass.TypesInfo.ObjectOf(id)] || onlyPassed(pass, fd.Body, pass.TypesInfo.ObjectOf(id), cb) == false {
					return
				}
				var by, names []string
				var related []analysis.RelatedInformation
				for i, ig := range igs {
					related = append(related, analysis.RelatedInformation{Pos: ig.call.Pos(), Message: "passes a callback that ignores " + id.Name})
					if i < 3 {
						p := pass.Fset.Position(ig.call.Pos())
						by = append(by, fmt.Sprintf("%s (%s:%d)", ig.by, filepath.Base(p.Filename), p.Line))
						names = append(names, ig.by)
					}
				}
				if len(igs) > 3 {
					by = append(by, fmt.Sprintf("%d more", len(igs)-3))
				}
				pass.Report(analysis.Diagnostic{
					Category: "arg-ignored",
					Pos:      as.Pos(),
					Message:  fmt.Sprintf("%s makes %s with %s only to pass it to %s, and the callbacks %s pass never read it", fd.Name.Name, id.Name, oneLine(text(pass, made)), cb.Name(), andList(by)),
					Related:  related,
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"for %s, %s is made for nothing on every call of the callback: give the callers that ignore it a way that does not make it (a variant of %s that skips over it, checking it as %s does, or a callback that takes what it needs valid only during the call)", andList(names), id.Name, fd.Name.Name, oneLine(text(pass, made.Fun)))}},
				})
			})
		}
	})
	return nil, nil
}

// onlyPassed reports whether every use of v in body is as an argument of
// a call of cb.
func onlyPassed(pass *analysis.Pass, body *ast.BlockStmt, v types.Object, cb types.Object) bool {
	args := map[token.Pos]bool{}
	inspectBody(body, func(n ast.Node) {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return
		}
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == cb {
			for _, a := range call.Args {
				if ai, ok := ast.Unparen(a).(*ast.Ident); ok && pass.TypesInfo.Uses[ai] == v {
					args[ai.Pos()] = true
				}
			}
		}
	})
	inspectBody(body, func(n ast.Node) {
		// Assigned, not read.
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					args[id.Pos()] = true
				}
			}
		}
	})
	ok := true
	inspectBody(body, func(n ast.Node) {
		if id, isID := n.(*ast.Ident); isID && pass.TypesInfo.Uses[id] == v && !args[id.Pos()] {
			ok = false
		}
	})
	return ok
}

// andList joins names as a sentence does: "a", "a and b", "a, b and c".
func andList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
