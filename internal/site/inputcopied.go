package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// InputCopied finds a constructor that copies its string parameter into
// a []byte field of the value it returns (NewStringTokenizer's buf :=
// []byte(sql); return &Tokenizer{buf: buf} in xwb1989/sqlparser) when
// the package only reads that field: indexes and slices of it, read by
// writers' Write methods and by bytes' and utf8's functions — or fills
// it from a reader the value holds (tkn.InStream.Read(tkn.buf)), a mode
// the string path never enters. The copy is the whole input, made once
// per parse (17.6% of Parse3's bytes, 13% of its CPU); reading the
// string itself, or aliasing its bytes for the read-only path, removes
// it (with scanString's sizing, Parse3 −81% B/op, −35% time, measured by
// hand).
var InputCopied = &analysis.Analyzer{
	Name: "inputcopied",
	Doc:  "a constructor copying its string parameter into a []byte field the package only reads",
	Run:  runInputCopied,
}

func runInputCopied(pass *analysis.Pass) (any, error) {
	type conv struct {
		fd    *ast.FuncDecl
		call  *ast.CallExpr
		param string
	}
	// field → the conversions stored into it.
	stored := map[*types.Var][]conv{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		params := stringParams(pass, fd)
		if len(params) == 0 {
			return
		}
		locals := map[types.Object]*ast.CallExpr{} // buf := []byte(sql)
		inspectBody(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.AssignStmt:
				if len(x.Lhs) == 1 && len(x.Rhs) == 1 {
					if c := bytesOfParam(pass, x.Rhs[0], params); c != nil {
						if id, ok := x.Lhs[0].(*ast.Ident); ok {
							locals[pass.TypesInfo.ObjectOf(id)] = c
						}
					}
				}
			case *ast.CompositeLit:
				for _, e := range x.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					key, ok := kv.Key.(*ast.Ident)
					if !ok {
						continue
					}
					f, ok := pass.TypesInfo.ObjectOf(key).(*types.Var)
					if !ok || !f.IsField() {
						continue
					}
					c := bytesOfParam(pass, kv.Value, params)
					if id, ok := ast.Unparen(kv.Value).(*ast.Ident); ok && c == nil {
						c = locals[pass.TypesInfo.Uses[id]]
					}
					if c != nil {
						arg := ast.Unparen(c.Args[0]).(*ast.Ident)
						stored[f] = append(stored[f], conv{fd, c, arg.Name})
					}
				}
			}
		})
	})
	for f, convs := range stored {
		readerMode, ok := fieldOnlyRead(pass, f)
		if !ok {
			continue
		}
		for _, c := range convs {
			msg := fmt.Sprintf("%s copies its string %s into %s (%s), which the package only reads: the copy is the whole input, made on every call", c.fd.Name.Name, c.param, f.Name(), oneLine(text(pass, c.call)))
			adv := fmt.Sprintf("read %s itself — keep the string in the value and index it — or, where the []byte must stay, alias its bytes (unsafe.Slice(unsafe.StringData(%s), len(%s))): nothing on that path writes %s", c.param, c.param, c.param, f.Name())
			if readerMode != "" {
				adv += fmt.Sprintf(" (only the reader path fills it, %s, which a value made from a string never takes)", readerMode)
			}
			pass.Report(analysis.Diagnostic{
				Category:       "input-copied",
				Pos:            c.call.Pos(),
				Message:        msg,
				SuggestedFixes: []analysis.SuggestedFix{{Message: adv}},
			})
		}
	}
	return nil, nil
}

// stringParams returns a function's string parameters.
func stringParams(pass *analysis.Pass, fd *ast.FuncDecl) map[types.Object]bool {
	out := map[types.Object]bool{}
	for _, p := range fd.Type.Params.List {
		for _, n := range p.Names {
			if o := pass.TypesInfo.Defs[n]; o != nil && isString(o.Type()) {
				out[o] = true
			}
		}
	}
	return out
}

// bytesOfParam returns e when it is []byte(p) of one of params.
func bytesOfParam(pass *analysis.Pass, e ast.Expr, params map[types.Object]bool) *ast.CallExpr {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 || !isConversion(pass, c) {
		return nil
	}
	s, ok := pass.TypesInfo.TypeOf(c).Underlying().(*types.Slice)
	if !ok || !types.Identical(s.Elem(), types.Typ[types.Byte]) {
		return nil
	}
	id, ok := ast.Unparen(c.Args[0]).(*ast.Ident)
	if !ok || !params[pass.TypesInfo.Uses[id]] {
		return nil
	}
	return c
}

// fieldOnlyRead reports whether every use of field f in the package reads it
// (index and slice reads, len and cap, conversion to string, an argument
// of a Write method or of bytes' and unicode/utf8's functions), other than
// the composite literals that set it; readerMode is the Read call that
// fills it from a reader the value holds, when there is one.
func fieldOnlyRead(pass *analysis.Pass, f *types.Var) (readerMode string, ok bool) {
	ok = true
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		var stack []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			stack = append(stack, n)
			sel, isSel := n.(*ast.SelectorExpr)
			if !isSel || pass.TypesInfo.Uses[sel.Sel] != f {
				return true
			}
			use, mode := fieldUse(pass, stack)
			switch {
			case use == "read":
			case use == "reader" && readerMode == "":
				readerMode = mode
			case use == "reader":
			default:
				ok = false
			}
			return true
		})
	})
	return readerMode, ok
}

// fieldUse says what the expression at the top of stack (a selector of
// the field) is used for: "read", "reader" (the buffer of a Read on
// another field of the same value: mode is that call), or "write".
func fieldUse(pass *analysis.Pass, stack []ast.Node) (use, mode string) {
	at := stack[len(stack)-1].(ast.Expr)
	for i := len(stack) - 2; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
			at = p
			continue
		case *ast.SliceExpr:
			if p.X == at {
				at = p
				continue // a slice of it: what is done with the slice
			}
			return "read", ""
		case *ast.IndexExpr:
			if p.X != at {
				return "read", ""
			}
			if i > 0 {
				if as, ok := stack[i-1].(*ast.AssignStmt); ok {
					for _, l := range as.Lhs {
						if l == p {
							return "write", ""
						}
					}
				}
				if _, ok := stack[i-1].(*ast.IncDecStmt); ok {
					return "write", ""
				}
			}
			return "read", ""
		case *ast.CallExpr:
			if p.Fun == at {
				return "write", ""
			}
			if isConversion(pass, p) {
				return "read", ""
			}
			if isBuiltin(pass, p.Fun, "len") || isBuiltin(pass, p.Fun, "cap") {
				return "read", ""
			}
			fn := calledFunc(pass, p)
			if fn == nil {
				if sel, ok := ast.Unparen(p.Fun).(*ast.SelectorExpr); ok {
					fn, _ = pass.TypesInfo.Uses[sel.Sel].(*types.Func) // an interface's method
				}
			}
			if fn == nil {
				return "write", ""
			}
			if pkg := fn.Pkg(); pkg != nil && (pkg.Path() == "bytes" || pkg.Path() == "unicode/utf8") && !strings.HasPrefix(fn.Name(), "(") {
				if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() == nil {
					return "read", ""
				}
			}
			if strings.HasPrefix(fn.Name(), "Write") {
				return "read", ""
			}
			if fn.Name() == "Read" {
				if sel, ok := ast.Unparen(p.Fun).(*ast.SelectorExpr); ok {
					if inner, ok := ast.Unparen(sel.X).(*ast.SelectorExpr); ok {
						if v, ok := pass.TypesInfo.Uses[inner.Sel].(*types.Var); ok && v.IsField() {
							return "reader", oneLine(text(pass, p))
						}
					}
				}
			}
			return "write", ""
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == at {
					return "write", "" // the field given another slice
				}
			}
			return "write", "" // handed to a variable: not followed
		case *ast.KeyValueExpr, *ast.CompositeLit:
			return "write", ""
		case *ast.ReturnStmt:
			return "write", ""
		default:
			if _, ok := p.(ast.Stmt); ok {
				return "read", ""
			}
			return "read", ""
		}
	}
	return "read", ""
}
