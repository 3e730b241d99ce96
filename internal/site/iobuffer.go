package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// IOBufferPerCall finds a byte buffer a function makes at every call only
// to fill it and write it to an io.Writer, or to read into it from an
// io.Reader and decode it, then drops it: fastcache's (*bucket).Save makes
// kvs := make([]byte, 0, 2*8*len(b.m)) for each bucket, appends the
// index into it and writes it to the snappy writer; Load makes a buffer
// of the same size to io.ReadFull it; writeUint64's var u64Buf [8]byte
// moves to the heap at every call because w.Write is an interface call.
// Write and Read must not keep p (io.Writer's and io.Reader's contract):
// one buffer, kept by the caller that calls the function in a loop, can
// serve every call.
var IOBufferPerCall = &analysis.Analyzer{
	Name: "iobuffer",
	Doc:  "a byte buffer made at every call only to be written to an io.Writer or read into from an io.Reader, then dropped",
	Run:  runIOBufferPerCall,
}

func runIOBufferPerCall(pass *analysis.Pass) (any, error) {
	// The package's calls of each of its functions inside a loop.
	inLoop := map[*types.Func]string{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectLoops(fd.Body, func(n ast.Node, loop ast.Stmt) {
			call, ok := n.(*ast.CallExpr)
			if !ok || loop == nil {
				return
			}
			if fn := calledFunc(pass, call); fn != nil && inLoop[fn] == "" {
				inLoop[fn] = fmt.Sprintf("%s calls it in the loop at lines %d–%d", fd.Name.Name,
					pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line)
			}
		})
	})
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		inspectBody(fd.Body, func(n ast.Node) {
			var v *types.Var
			var made ast.Expr
			switch x := n.(type) {
			case *ast.AssignStmt:
				if x.Tok != token.DEFINE || len(x.Lhs) != 1 || len(x.Rhs) != 1 {
					return
				}
				call, ok := ast.Unparen(x.Rhs[0]).(*ast.CallExpr)
				if !ok || !isBuiltin(pass, call.Fun, "make") || !isByteSliceType(pass.TypesInfo.TypeOf(call)) {
					return
				}
				id, _ := x.Lhs[0].(*ast.Ident)
				v, _ = pass.TypesInfo.Defs[id].(*types.Var)
				made = call
			case *ast.DeclStmt:
				gd, ok := x.Decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 {
					return
				}
				vs := gd.Specs[0].(*ast.ValueSpec)
				if len(vs.Names) != 1 || len(vs.Values) != 0 {
					return
				}
				a, ok := pass.TypesInfo.TypeOf(vs.Names[0]).Underlying().(*types.Array)
				if !ok || !isByte(a.Elem()) {
					return
				}
				v, _ = pass.TypesInfo.Defs[vs.Names[0]].(*types.Var)
				made = vs.Names[0]
			default:
				return
			}
			if v == nil {
				return
			}
			io, ok := ioOnlyUses(pass, fd.Body, v)
			if !ok || io == nil {
				return
			}
			verb := "write it to " + text(pass, io.recv)
			if io.read {
				verb = "read into it from " + text(pass, io.recv)
			}
			caller := ""
			if fn != nil && inLoop[fn] != "" {
				caller = " (" + inLoop[fn] + ")"
			}
			_, array := made.(*ast.Ident)
			what := fmt.Sprintf("%s (%s)", v.Name(), oneLine(text(pass, made)))
			fix := fmt.Sprintf("let one buffer serve every call: the caller keeps a []byte and passes it in (%s appends into buf[:0], or reads into buf[:n] grown when short, and hands it back for the next call), or %s's receiver keeps it where it outlives the calls; %s must not keep it (the io contract), so it is free again when the call returns", fd.Name.Name, fd.Name.Name, io.name)
			why := "at every call"
			if array {
				what = fmt.Sprintf("%s, a %s,", v.Name(), types.TypeString(v.Type(), types.RelativeTo(pass.Pkg)))
				why = fmt.Sprintf("and, passed to %s through an interface the compiler cannot see through, it moves to the heap at every call", io.name)
				fix = fmt.Sprintf("pass in a scratch slice the caller keeps for all its calls, or append the bytes to a buffer the caller writes anyway: %s must not keep it (the io contract), so one serves every call", io.name)
			}
			pass.Report(analysis.Diagnostic{
				Category:       "io-buffer-per-call",
				Pos:            made.Pos(),
				Message:        fmt.Sprintf("%s makes %s only to %s (line %d) and drop it, %s%s", fd.Name.Name, what, verb, pass.Fset.Position(io.at).Line, why, caller),
				Related:        []analysis.RelatedInformation{{Pos: io.at, Message: "the " + io.name}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
			})
		})
	})
	return nil, nil
}

// ioUse is a buffer's pass to a Write or Read.
type ioUse struct {
	at   token.Pos
	recv ast.Expr // the writer or reader
	name string   // "w.Write", "io.ReadFull"
	read bool
}

// ioOnlyUses reports whether every use of v in body keeps it in the
// function: filled (append assigned back to v, an element set, copy,
// encoding/binary), read (an element, len, a range, encoding/binary),
// resliced into v itself, or passed to an io.Writer's Write or an
// io.Reader's Read (io.ReadFull, io.ReadAtLeast), which must not keep it;
// and returns the first such pass.
func ioOnlyUses(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) (*ioUse, bool) {
	var io *ioUse
	ok := true
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !isID || pass.TypesInfo.Uses[id] != v {
			return true
		}
		// Climb through reslicing, indexing and parentheses.
		i := len(stack) - 1
		var use ast.Node = id
		for i > 0 {
			switch p := stack[i-1].(type) {
			case *ast.SliceExpr:
				if p.X != use {
					break
				}
				use, i = p, i-1
				continue
			case *ast.ParenExpr:
				use, i = p, i-1
				continue
			case *ast.IndexExpr:
				if p.X == use {
					return true // one element: a byte read or set
				}
			case *ast.FuncLit:
				ok = false // captured
				return false
			}
			break
		}
		if i == 0 {
			ok = false
			return false
		}
		switch p := stack[i-1].(type) {
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == use {
					return true // v = …
				}
			}
			// On the right: only into v itself (kvs = kvs[8:]).
			if len(p.Lhs) == 1 {
				if lid, ok2 := p.Lhs[0].(*ast.Ident); ok2 && pass.TypesInfo.ObjectOf(lid) == v {
					return true
				}
			}
			ok = false
		case *ast.RangeStmt:
			if p.X != use {
				ok = false
			}
		case *ast.BinaryExpr, *ast.IncDecStmt:
		case *ast.CallExpr:
			if u := ioCall(pass, p, use); u != nil {
				if io == nil {
					io = u
				}
				return true
			}
			if !keepsNot(pass, p, use, stack[:i-1], v) {
				ok = false
			}
		default:
			ok = false
		}
		return ok
	})
	return io, ok
}

// ioCall returns the pass of arg to a Write or Read through an interface
// (w.Write(p), r.Read(p)), or to io.ReadFull or io.ReadAtLeast.
func ioCall(pass *analysis.Pass, call *ast.CallExpr, arg ast.Node) *ioUse {
	if len(call.Args) == 0 {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if fn := calledFunc(pass, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "io" && (fn.Name() == "ReadFull" || fn.Name() == "ReadAtLeast") && len(call.Args) >= 2 && call.Args[1] == arg {
		return &ioUse{at: call.Pos(), recv: call.Args[0], name: "io." + fn.Name(), read: true}
	}
	if (sel.Sel.Name != "Write" && sel.Sel.Name != "Read") || call.Args[0] != arg || len(call.Args) != 1 {
		return nil
	}
	t := pass.TypesInfo.TypeOf(sel.X)
	if t == nil || !types.IsInterface(t) {
		return nil
	}
	return &ioUse{at: call.Pos(), recv: sel.X, name: text(pass, sel.X) + "." + sel.Sel.Name, read: sel.Sel.Name == "Read"}
}

// keepsNot reports whether a call that is not a Write or Read leaves arg
// in the function: len, cap, copy, append assigned back to v, or an
// encoding/binary function or method.
func keepsNot(pass *analysis.Pass, call *ast.CallExpr, arg ast.Node, outer []ast.Node, v *types.Var) bool {
	if isBuiltin(pass, call.Fun, "len") || isBuiltin(pass, call.Fun, "cap") || isBuiltin(pass, call.Fun, "copy") {
		return true
	}
	if isBuiltin(pass, call.Fun, "append") {
		if len(call.Args) == 0 || call.Args[0] != arg || len(outer) == 0 {
			return false
		}
		as, ok := outer[len(outer)-1].(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 {
			return false
		}
		lid, ok := as.Lhs[0].(*ast.Ident)
		return ok && pass.TypesInfo.ObjectOf(lid) == v
	}
	if fn := calledFunc(pass, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "encoding/binary" {
		return true
	}
	return false
}

// isByte reports whether t is byte (uint8).
func isByte(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uint8
}
