package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// CopyRecopied finds a function that returns a fresh copy of bytes it
// holds (v := make([]byte, len(x)); copy(v, x); return v) when every
// caller in the package only reads from the copy, through the package's
// functions that decode a field of it or copy a part out of it, and then
// drops it: bigcache's cacheShard.getEntry copies a whole entry under its
// lock for the iterator's setCurrentEntry, whose readKeyFromEntry and
// readEntry copy the key and the value out of that copy again. Reading
// the parts where the bytes are held saves one allocation and one copy
// of the whole per call.
var CopyRecopied = &analysis.Analyzer{
	Name: "copyrecopied",
	Doc:  "a function returning a fresh copy of bytes that its callers only read parts out of, and drop",
	Run:  runCopyRecopied,
}

// freshCopier is a function returning a fresh copy: where it makes it.
type freshCopier struct {
	fd   *ast.FuncDecl
	make token.Pos
	of   string // what it copies
}

func runCopyRecopied(pass *analysis.Pass) (any, error) {
	copiers := map[*types.Func]freshCopier{}
	readers := map[*types.Func]map[int]bool{} // function → its []byte params only read
	copiesOut := map[*types.Func]bool{}
	for fd := range funcDecls(pass) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil || fd.Body == nil {
			continue
		}
		if c, ok := freshCopy(pass, fd); ok {
			copiers[fn] = c
		}
		sig := fn.Type().(*types.Signature)
		for i := 0; i < sig.Params().Len(); i++ {
			p := sig.Params().At(i)
			if !isByteSliceType(p.Type()) {
				continue
			}
			if out, ok := readsOnly(pass, fd.Body, p); ok {
				if readers[fn] == nil {
					readers[fn] = map[int]bool{}
				}
				readers[fn][i] = true
				copiesOut[fn] = copiesOut[fn] || out
			}
		}
	}
	if len(copiers) == 0 {
		return nil, nil
	}
	// Every call of a freshCopier, and whether its caller only reads.
	type use struct {
		caller  string
		readers []string
		ok      bool
	}
	uses := map[*types.Func][]use{}
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calledFunc(pass, call)
			if _, isCopier := copiers[fn]; !isCopier {
				return
			}
			u := use{caller: fd.Name.Name}
			v := resultVar(pass, fd.Body, call)
			if v != nil {
				u.readers, u.ok = readOnlyUses(pass, fd.Body, v, readers, copiesOut)
			}
			uses[fn] = append(uses[fn], u)
		})
	}
	for fn, c := range copiers {
		us := uses[fn]
		if len(us) == 0 || slices.ContainsFunc(us, func(u use) bool { return !u.ok }) {
			continue
		}
		var callers, rs []string
		for _, u := range us {
			callers = append(callers, u.caller)
			rs = append(rs, u.readers...)
		}
		slices.Sort(rs)
		rs = slices.Compact(rs)
		pass.Report(analysis.Diagnostic{
			Category: "copy-recopied",
			Pos:      c.make,
			Message: fmt.Sprintf("%s returns a fresh copy of %s to %s, which only reads from it (%s, which copy parts out of it again) and drops it",
				c.fd.Name.Name, c.of, strings.Join(callers, " and "), strings.Join(rs, ", ")),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"the parts are copied twice: take them as slices of the copy %s already made for the caller, instead of copying each out again (one allocation per part less), or read them where %s holds %s, copying only what the caller keeps (the whole copy less)", c.fd.Name.Name, c.fd.Name.Name, c.of)}},
		})
	}
	return nil, nil
}

// freshCopy matches v := make([]byte, len(x)); copy(v, x); … return v, …
func freshCopy(pass *analysis.Pass, fd *ast.FuncDecl) (freshCopier, bool) {
	var made types.Object
	var at token.Pos
	var of string
	copied, returned := false, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(x.Lhs) != 1 || len(x.Rhs) != 1 || made != nil {
				break
			}
			call, ok := ast.Unparen(x.Rhs[0]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, call.Fun, "make") || len(call.Args) != 2 || !isByteSliceType(pass.TypesInfo.TypeOf(call)) {
				break
			}
			l, ok := ast.Unparen(call.Args[1]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, l.Fun, "len") || len(l.Args) != 1 {
				break
			}
			if id, ok := x.Lhs[0].(*ast.Ident); ok {
				made, at, of = pass.TypesInfo.ObjectOf(id), x.Pos(), oneLine(types.ExprString(l.Args[0]))
			}
		case *ast.CallExpr:
			if made != nil && isBuiltin(pass, x.Fun, "copy") && len(x.Args) == 2 && objOf(pass, x.Args[0]) == made && oneLine(types.ExprString(x.Args[1])) == of {
				copied = true
			}
		case *ast.ReturnStmt:
			if made != nil && len(x.Results) > 0 && objOf(pass, x.Results[0]) == made {
				returned = true
			}
		}
		return true
	})
	return freshCopier{fd: fd, make: at, of: of}, made != nil && copied && returned
}

// readsOnly reports whether body only reads from p: indexes or slices it,
// takes its length, copies out of it (copy's source) or converts a part
// of it; out says whether it copies a part out (a copy from it, a string
// of it).
func readsOnly(pass *analysis.Pass, body *ast.BlockStmt, p *types.Var) (out, ok bool) {
	ok = true
	parents := parentsOf(body)
	ast.Inspect(body, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || pass.TypesInfo.Uses[id] != p {
			return true
		}
		e := ast.Node(id)
		// Up through slicing and indexing of p itself.
		for {
			par := parents[e]
			if ix, isIx := par.(*ast.IndexExpr); isIx && ix.X == e {
				// p[i]: an element read, unless assigned to.
				if as, isAs := parents[par].(*ast.AssignStmt); isAs && slices.Contains(as.Lhs, ast.Expr(ix)) {
					ok = false
				}
				return true
			}
			if se, isSe := par.(*ast.SliceExpr); isSe && se.X == e {
				e = par
				continue
			}
			if pe, isPe := par.(*ast.ParenExpr); isPe {
				e = pe
				continue
			}
			break
		}
		switch par := parents[e].(type) {
		case *ast.CallExpr:
			switch {
			case isBuiltin(pass, par.Fun, "len"):
			case isBuiltin(pass, par.Fun, "copy") && len(par.Args) == 2 && par.Args[1] == e:
				out = true
			case isConversion(pass, par) && types.Identical(pass.TypesInfo.TypeOf(par).Underlying(), types.Typ[types.String]):
				out = true
			default:
				if fn := calledFunc(pass, par); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "encoding/binary" {
					break // binary.LittleEndian.Uint16(p[i:]): a field decoded
				}
				ok = false
			}
		default:
			ok = false
		}
		return true
	})
	return out, ok
}

// parentsOf maps each node under root to its parent.
func parentsOf(root ast.Node) map[ast.Node]ast.Node {
	parents := map[ast.Node]ast.Node{}
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			parents[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return parents
}

// resultVar is the variable a call's first result is assigned to (entry,
// err := s.getEntry(k)), or nil.
func resultVar(pass *analysis.Pass, body *ast.BlockStmt, call *ast.CallExpr) *types.Var {
	var v *types.Var
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != call || len(as.Lhs) == 0 {
			return v == nil
		}
		if id, ok := as.Lhs[0].(*ast.Ident); ok {
			v, _ = pass.TypesInfo.ObjectOf(id).(*types.Var)
		}
		return false
	})
	return v
}

// readOnlyUses reports whether every use of v in body passes it to a
// reader (a function whose parameter there only reads it), and names the
// readers that copy a part out; at least one must.
func readOnlyUses(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var, readers map[*types.Func]map[int]bool, copiesOut map[*types.Func]bool) ([]string, bool) {
	parents := parentsOf(body)
	var names []string
	ok, anyOut, seen := true, false, 0
	ast.Inspect(body, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || pass.TypesInfo.Uses[id] != v {
			return true
		}
		seen++
		call, isCall := parents[id].(*ast.CallExpr)
		if !isCall {
			ok = false
			return true
		}
		if isBuiltin(pass, call.Fun, "len") {
			return true
		}
		fn := calledFunc(pass, call)
		i := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return a == ast.Expr(id) })
		if fn == nil || i < 0 || !readers[fn][i] {
			ok = false
			return true
		}
		if copiesOut[fn] {
			anyOut = true
			names = append(names, fn.Name())
		}
		return true
	})
	return names, ok && anyOut && seen > 0
}
