package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ComparedCopy finds a copy made only to be compared: entryKey :=
// readKeyFromEntry(wrappedEntry), a function that copies the key's bytes
// into a new slice, then key != entryKey, the copy otherwise used only
// by a log call (bigcache's cacheShard.get and getWithInfo, on every
// hit; by hand, comparing in place with the package's own
// compareKeyFromEntry: 2 → 1 allocs per Get).
var ComparedCopy = &analysis.Analyzer{
	Name: "comparedcopy",
	Doc:  "a fresh copy made only to be compared (and logged)",
	Run:  runComparedCopy,
}

func runComparedCopy(pass *analysis.Pass) (any, error) {
	copiers := map[*types.Func]token.Pos{} // returns a fresh copy: where it is made
	for fd := range funcDecls(pass) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil || fd.Body == nil {
			continue
		}
		if at := returnsCopy(pass, fd); at.IsValid() {
			copiers[fn] = at
		}
	}
	if len(copiers) == 0 {
		return nil, nil
	}
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calledFunc(pass, call)
			made, isCopier := copiers[fn]
			id, isID := as.Lhs[0].(*ast.Ident)
			if !isCopier || !isID {
				return
			}
			v := pass.TypesInfo.ObjectOf(id)
			other, ok := comparedOnly(pass, fd.Body, v)
			if !ok {
				return
			}
			alt := inPlaceCompare(pass, fn)
			fix := fmt.Sprintf("compare the bytes where they are (a string view of the slice %s reads, compared with ==): no copy", fn.Name())
			if alt != "" {
				fix = fmt.Sprintf("compare in place with %s, which the package has: no copy; make the copy only where it is logged", alt)
			}
			pass.Report(analysis.Diagnostic{
				Category:       "compared-copy",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s copies into a new %s (%s) only to compare it with %s, and to log it on the rare path", fd.Name.Name, id.Name, fn.Name(), other),
				Related:        []analysis.RelatedInformation{{Pos: made, Message: allocatingCallee}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
			})
		})
	}
	return nil, nil
}

// returnsCopy matches a function whose result is a new slice it fills by
// copy (dst := make([]byte, n); copy(dst, …); return dst, or a string of
// it), and returns where the slice is made.
func returnsCopy(pass *analysis.Pass, fd *ast.FuncDecl) token.Pos {
	var made types.Object
	var at token.Pos
	copied, returned := false, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(x.Lhs) == 1 && len(x.Rhs) == 1 && made == nil {
				if call, ok := ast.Unparen(x.Rhs[0]).(*ast.CallExpr); ok && isBuiltin(pass, call.Fun, "make") && isByteSliceType(pass.TypesInfo.TypeOf(call)) {
					if id, ok := x.Lhs[0].(*ast.Ident); ok {
						made, at = pass.TypesInfo.ObjectOf(id), call.Pos()
					}
				}
			}
		case *ast.CallExpr:
			if made != nil && isBuiltin(pass, x.Fun, "copy") && len(x.Args) == 2 && objOf(pass, x.Args[0]) == made {
				copied = true
			}
		case *ast.ReturnStmt:
			if made != nil && len(x.Results) == 1 {
				r := ast.Unparen(x.Results[0])
				if call, ok := r.(*ast.CallExpr); ok && len(call.Args) == 1 {
					r = call.Args[0] // string(dst), bytesToString(dst)
				}
				if objOf(pass, r) == made {
					returned = true
				}
			}
		}
		return true
	})
	if made == nil || !copied || !returned {
		return token.NoPos
	}
	return at
}

// comparedOnly reports whether every use of v in body is one side of == or
// != or an argument of a logging call (Printf, Println, Print, Debugf…),
// at least one a comparison, and names the other side of the first.
func comparedOnly(pass *analysis.Pass, body *ast.BlockStmt, v types.Object) (string, bool) {
	parents := parentsOf(body)
	other, ok := "", true
	ast.Inspect(body, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || pass.TypesInfo.Uses[id] != v {
			return true
		}
		switch p := parents[id].(type) {
		case *ast.BinaryExpr:
			if p.Op != token.EQL && p.Op != token.NEQ {
				ok = false
			} else if other == "" {
				o := p.X
				if o == ast.Expr(id) {
					o = p.Y
				}
				other = oneLine(types.ExprString(o))
			}
		case *ast.CallExpr:
			sel, isSel := ast.Unparen(p.Fun).(*ast.SelectorExpr)
			if !isSel || !logName(sel.Sel.Name) {
				ok = false
			}
		default:
			ok = false
		}
		return true
	})
	return other, ok && other != ""
}

// logName reports whether a method's name is a logger's.
func logName(name string) bool {
	for _, p := range []string{"Print", "Log", "Debug", "Info", "Warn", "Error"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// inPlaceCompare is a function of the package that takes fn's first
// parameter and a string or []byte and returns a bool, named compare… or
// equal… (bigcache's compareKeyFromEntry), or "".
func inPlaceCompare(pass *analysis.Pass, fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() == 0 {
		return ""
	}
	first := sig.Params().At(0).Type()
	scope := pass.Pkg.Scope()
	for _, name := range scope.Names() {
		f, ok := scope.Lookup(name).(*types.Func)
		lower := strings.ToLower(name)
		if !ok || f == fn || !strings.HasPrefix(lower, "compare") && !strings.HasPrefix(lower, "equal") {
			continue
		}
		s := f.Type().(*types.Signature)
		if s.Params().Len() == 2 && types.Identical(s.Params().At(0).Type(), first) && s.Results().Len() == 1 &&
			types.Identical(s.Results().At(0).Type(), types.Typ[types.Bool]) {
			return name
		}
	}
	return ""
}
