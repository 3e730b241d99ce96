package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// ResultAppended finds a function that returns a new slice ([]T{v},
// make([]T, n)) which a caller in its package appends to a slice of its
// own (child, err := n.Parse(…); out = append(out, child...)): each call
// allocates a slice that lives only until that copy. A parser's nodes
// returning their values to the sequence that collects them, an
// encoder's parts returned to the buffer that joins them. The fix is the
// append form of the call (strconv.AppendInt beside FormatInt): the
// caller passes its slice and the callee appends to it. For a method
// called through an interface, every implementation returning a new
// slice is reported, and the change is the interface's.
var ResultAppended = &analysis.Analyzer{
	Name: "resultappended",
	Doc:  "a function returning a new slice that its caller appends to its own",
	Run:  runResultAppended,
}

// appendSink is a call whose result a caller does something with: where,
// and in which function.
type appendSink struct {
	pos    token.Pos
	caller string
}

// sinks are the functions of a package whose calls a matcher found
// doing something with their result (appended, an error dropped): called
// directly, or through an interface's method.
type sinks struct {
	static, iface map[*types.Func]appendSink
}

// callerSinks finds, in every function of the pass, the calls find
// returns.
func callerSinks(pass *analysis.Pass, find func(*analysis.Pass, *ast.BlockStmt) map[*types.Func]token.Pos) sinks {
	s := sinks{map[*types.Func]appendSink{}, map[*types.Func]appendSink{}}
	for fd := range funcDecls(pass) {
		for fn, pos := range find(pass, fd.Body) {
			sink := appendSink{pos, fd.Name.Name}
			if recv := fn.Type().(*types.Signature).Recv(); recv != nil && types.IsInterface(recv.Type()) {
				s.iface[fn] = sink
			} else {
				s.static[fn] = sink
			}
		}
	}
	return s
}

func (s sinks) empty() bool { return len(s.static)+len(s.iface) == 0 }

// of returns where fd's function is called for its result: directly, or
// through the method of an interface its receiver implements (that
// interface).
func (s sinks) of(pass *analysis.Pass, fd *ast.FuncDecl) (appendSink, types.Type, bool) {
	fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return appendSink{}, nil, false
	}
	if sink, ok := s.static[fn]; ok {
		return sink, nil, true
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return appendSink{}, nil, false
	}
	for m, sink := range s.iface {
		if m.Name() != fn.Name() {
			continue
		}
		it, ok := m.Type().(*types.Signature).Recv().Type().Underlying().(*types.Interface)
		if ok && (types.Implements(recv.Type(), it) || types.Implements(types.NewPointer(recv.Type()), it)) {
			return sink, m.Type().(*types.Signature).Recv().Type(), true
		}
	}
	return appendSink{}, nil, false
}

func runResultAppended(pass *analysis.Pass) (any, error) {
	sinks := callerSinks(pass, appendedCalls)
	if sinks.empty() {
		return nil, nil
	}
	for fd := range funcDecls(pass) {
		sink, through, ok := sinks.of(pass, fd)
		if !ok {
			continue
		}
		made := map[types.Object]ast.Expr{} // v := make([]T, n)
		inspectBody(fd.Body, func(n ast.Node) {
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && len(as.Lhs) == 1 && len(as.Rhs) == 1 && newSlice(pass, as.Rhs[0]) {
				if v := objOf(pass, as.Lhs[0]); v != nil {
					made[v] = as.Rhs[0]
				}
			}
		})
		inspectBody(fd.Body, func(n ast.Node) {
			ret, ok := n.(*ast.ReturnStmt)
			if !ok || len(ret.Results) == 0 {
				return
			}
			slice := ret.Results[0]
			if v := objOf(pass, slice); v != nil && made[v] != nil {
				slice = made[v]
			} else if !newSlice(pass, slice) {
				return
			}
			at := pass.Fset.Position(sink.pos)
			msg := fmt.Sprintf("%s returns a new slice (%s) that %s appends to its own at line %d: each call allocates a slice that lives only until that copy", fd.Name.Name, text(pass, slice), sink.caller, at.Line)
			advice := fmt.Sprintf("let the caller pass its slice and append to it (%s(dst, …) returns append(dst, …)), as strconv.AppendInt does beside FormatInt: the caller's slice grows, with no slice per call", fd.Name.Name)
			if through != nil {
				advice = fmt.Sprintf("let the caller pass its slice and append to it: change %s's %s to take the slice and return it appended to (every implementation appends its values), as strconv.AppendInt does beside FormatInt: the caller's slice grows, with no slice per call", types.TypeString(through, types.RelativeTo(pass.Pkg)), fd.Name.Name)
			}
			pass.Report(analysis.Diagnostic{
				Category:       "result-appended",
				Pos:            slice.Pos(),
				Message:        msg,
				Related:        []analysis.RelatedInformation{{Pos: sink.pos, Message: "the caller's append"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: advice}},
			})
		})
	}
	return nil, nil
}

// appendedCalls returns the functions whose results body appends to a
// slice of its own, with the append: out = append(out, f(x)...), or
// v, err := f(x) … out = append(out, v...).
func appendedCalls(pass *analysis.Pass, body *ast.BlockStmt) map[*types.Func]token.Pos {
	assigned := map[types.Object]*types.Func{} // v := f(x)
	appended := map[types.Object]token.Pos{}
	out := map[*types.Func]token.Pos{}
	inspectBody(body, func(n ast.Node) {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if len(x.Rhs) != 1 || len(x.Lhs) == 0 {
				return
			}
			call, ok := ast.Unparen(x.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return
			}
			fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
			if !ok || fn.Pkg() != pass.Pkg {
				return
			}
			if v := objOf(pass, x.Lhs[0]); v != nil {
				assigned[v] = fn
			}
		case *ast.CallExpr:
			if x.Ellipsis == token.NoPos || len(x.Args) != 2 || !isBuiltin(pass, x.Fun, "append") {
				return
			}
			switch y := ast.Unparen(x.Args[1]).(type) {
			case *ast.CallExpr:
				if fn, ok := typeutil.Callee(pass.TypesInfo, y).(*types.Func); ok && fn.Pkg() == pass.Pkg {
					out[fn] = x.Pos()
				}
			case *ast.Ident:
				if v := objOf(pass, y); v != nil {
					appended[v] = x.Pos()
				}
			}
		}
	})
	for v, pos := range appended {
		if fn := assigned[v]; fn != nil {
			out[fn] = pos
		}
	}
	return out
}

// newSlice reports whether e makes a new slice with something in it: a
// composite literal []T{…} with elements, or make([]T, n).
func newSlice(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		_, ok := pass.TypesInfo.TypeOf(x).Underlying().(*types.Slice)
		return ok && len(x.Elts) > 0
	case *ast.CallExpr:
		if !isBuiltin(pass, x.Fun, "make") || len(x.Args) == 0 {
			return false
		}
		_, ok := pass.TypesInfo.TypeOf(x).Underlying().(*types.Slice)
		return ok
	}
	return false
}
