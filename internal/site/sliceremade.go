package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// SliceRemade finds a slice field replaced with a new make at every call
// of a function that works on a value it is given (its receiver or a
// pointer parameter), with no test of the room the field already has:
// andybalholm/brotli's decoderDecompressStream makes s.context_modes
// anew for every metablock of a Reader that Reset reuses. The array the
// field held becomes garbage each time; kept, it serves the next call
// whenever it is large enough. Where every caller passes a value it has
// just declared (initZopfliCostModel(&model, …) with var model in the
// caller), the field is always empty there: the value itself, with its
// arrays, is what a longer-lived owner can keep.
var SliceRemade = &analysis.Analyzer{
	Name: "sliceremade",
	Doc:  "a slice field of a value the function is given, replaced by a new make at every call",
	Run:  runSliceRemade,
}

func runSliceRemade(pass *analysis.Pass) (any, error) {
	// Each function's callers that pass, for its owner argument, a
	// local they declare: index of the argument → the caller.
	fresh := map[*types.Func]map[int]string{}
	newByName := map[string]bool{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		locals := map[types.Object]bool{}
		made := map[types.Object]bool{} // locals set from a constructor's result
		inspectBody(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.AssignStmt:
				if len(x.Lhs) == 1 && len(x.Rhs) == 1 {
					id, ok := x.Lhs[0].(*ast.Ident)
					if ok && newValueExpr(pass, x.Rhs[0]) {
						made[pass.TypesInfo.ObjectOf(id)] = true
					}
				}
			case *ast.ValueSpec:
				for _, id := range x.Names {
					locals[pass.TypesInfo.Defs[id]] = true
				}
			case *ast.CallExpr:
				if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
					if m, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func); ok && isInterfaceMethod(m) {
						if id, ok := sel.X.(*ast.Ident); ok && made[pass.TypesInfo.Uses[id]] {
							// Through an interface: every method of
							// that name is the value's just made.
							newByName[m.Name()] = true
						}
					}
				}
				fn := calledFunc(pass, x)
				if fn == nil {
					return
				}
				if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && made[pass.TypesInfo.Uses[id]] {
						// self = newHasher(…); self.Initialize(…): a
						// receiver made just before, once per owner.
						if fresh[fn] == nil {
							fresh[fn] = map[int]string{}
						}
						fresh[fn][-1] = "new"

					}
				}
				for i, a := range x.Args {
					u, ok := ast.Unparen(a).(*ast.UnaryExpr)
					if !ok || u.Op != token.AND {
						continue
					}
					if id, ok := u.X.(*ast.Ident); ok && locals[pass.TypesInfo.Uses[id]] {
						if fresh[fn] == nil {
							fresh[fn] = map[int]string{}
						}
						fresh[fn][i] = fmt.Sprintf("%s declares %s and passes &%s (line %d)", fd.Name.Name, id.Name, id.Name, pass.Fset.Position(x.Pos()).Line)
					}
				}
			}
		})
	})
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if strings.HasPrefix(fd.Name.Name, "New") || strings.HasPrefix(fd.Name.Name, "new") {
			return // a constructor: once per value
		}
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		owners := map[types.Object]int{} // the receiver (-1) and pointer parameters (their index)
		if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
			r := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
			if _, ok := r.Type().Underlying().(*types.Pointer); ok {
				owners[r] = -1 // a value receiver is the method's own copy
			}
		}
		i := 0
		for _, f := range fd.Type.Params.List {
			for _, id := range f.Names {
				if _, ok := pass.TypesInfo.TypeOf(id).Underlying().(*types.Pointer); ok {
					owners[pass.TypesInfo.Defs[id]] = i
				}
				i++
			}
			if len(f.Names) == 0 {
				i++
			}
		}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.ASSIGN {
				return
			}
			sel, ok := as.Lhs[0].(*ast.SelectorExpr)
			if !ok {
				return
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return
			}
			idx, isOwner := owners[pass.TypesInfo.Uses[x]]
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !isOwner || !ok || !isBuiltin(pass, call.Fun, "make") || len(call.Args) < 2 {
				return
			}
			if _, isSlice := pass.TypesInfo.TypeOf(call).Underlying().(*types.Slice); !isSlice {
				return
			}
			field, _ := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
			if field == nil || madeWhenShort(pass, fd.Body, sel, as.Pos()) || readBefore(pass, fd.Body, field, sel, as.End()) {
				// Made only when short, or grown from what it held
				// (old := q.array … copy; len(ht.table)<<1).
				return
			}
			if fresh[fn][idx] == "new" || idx == -1 && fn != nil && newByName[fn.Name()] {
				return // the method of a value just made: once per value
			}
			f := text(pass, sel)
			msg := fmt.Sprintf("%s makes %s anew (%s) at every call that reaches line %d, dropping the array %s held", fd.Name.Name, f, oneLine(text(pass, call)), pass.Fset.Position(as.Pos()).Line, f)
			fix := fmt.Sprintf("keep the array: when cap(%s) is enough, reslice it (%s = %s[:n], cleared where it is read before it is written) and make a new one only when it is short: a %s used many times (reused through a Reset, or per block of one stream) then allocates only when it needs more room", f, f, f, x.Name)
			if by := fresh[fn][idx]; fn != nil && by != "" {
				msg = fmt.Sprintf("%s makes %s (%s) at every call, and %s: each call fills a new %s, whose arrays are made anew every time", fd.Name.Name, f, oneLine(text(pass, call)), by, x.Name)
				fix = fmt.Sprintf("keep %s itself, with its arrays, where it outlives one call (in the longer-lived value that calls %s), and let %s reslice %s when its capacity is enough: a new %s per call makes its arrays anew every time", x.Name, fd.Name.Name, fd.Name.Name, f, x.Name)
			}
			pass.Report(analysis.Diagnostic{
				Category:       "slice-remade",
				Pos:            as.Pos(),
				Message:        msg,
				SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
			})
		})
	})
	return nil, nil
}

// newValueExpr reports whether e makes a new value: a constructor's result
// (newHasher()), &T{…}, T{…} or new(T).
func newValueExpr(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, ok := x.X.(*ast.CompositeLit)
		return x.Op == token.AND && ok
	case *ast.CallExpr:
		if isBuiltin(pass, x.Fun, "new") {
			return true
		}
		cf := calledFunc(pass, x)
		return cf != nil && isConstructorName(cf.Name())
	}
	return false
}

// readBefore reports whether body uses field before end, other than at
// lhs, the assignment's own target: its size from the old one
// (len(ht.table)<<1), its contents kept (old := q.array).
func readBefore(pass *analysis.Pass, body *ast.BlockStmt, field *types.Var, lhs *ast.SelectorExpr, end token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok && s != lhs && s.Pos() < end && pass.TypesInfo.Uses[s.Sel] == field {
			found = true
		}
		return !found
	})
	return found
}

// isInterfaceMethod reports whether fn is a method of an interface.
func isInterfaceMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}
