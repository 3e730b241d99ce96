package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ConcatWritten finds a string concatenated only to be written: the
// string argument of a write (io.WriteString, a buffer's WriteString,
// Write([]byte(s)), or a function of the package that does one of them
// with its string parameter) is a + concatenation, or the result of a
// function of the package that returns one (an HTML tag built from its
// name and attributes). The pieces are copied into a new string and the
// string into the writer: writing the pieces in turn copies each once.
var ConcatWritten = &analysis.Analyzer{
	Name: "concatwritten",
	Doc:  "a string concatenated only to be written to a writer",
	Run:  runConcatWritten,
}

// write is one write of a string: the writer's text and how a piece is
// written to it.
type write struct {
	call   *ast.CallExpr
	arg    ast.Expr // the string written
	writer string   // "w", "sb"
	form   string   // a format with one %s for a piece
	helper *ast.FuncDecl
	// iface marks a writer of an interface type: the caller's choice,
	// perhaps unbuffered.
	iface bool
}

func runConcatWritten(pass *analysis.Pass) (any, error) {
	helpers := writerHelpers(pass)
	reported := map[*ast.FuncDecl]bool{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		eachCall(fd.Body, func(call *ast.CallExpr, _ []ast.Node) {
			w, ok := stringWrite(pass, call, helpers)
			if !ok {
				return
			}
			arg := ast.Unparen(w.arg)
			if bin, ok := arg.(*ast.BinaryExpr); ok && buildsString(pass, bin) {
				pieces := concatPieces(pass, bin, nil, 0)
				if len(pieces) < 2 {
					return
				}
				pass.Report(analysis.Diagnostic{
					Category:       "concat-written",
					Pos:            bin.Pos(),
					Message:        fmt.Sprintf("%s concatenates %s into a new string only to write it to %s%s: each piece is copied twice, into the string and then into the writer", fd.Name.Name, oneLine(types.ExprString(bin)), w.writer, through(w)),
					SuggestedFixes: []analysis.SuggestedFix{{Message: piecesAdvice(w, pieces, "")}},
				})
				return
			}
			inner, ok := arg.(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calledFunc(pass, inner)
			if fn == nil || fn.Pkg() != pass.Pkg {
				return
			}
			bd := funcDecl(pass, fn)
			if bd == nil || reported[bd] {
				return
			}
			outer, lines := builtBy(pass, bd, 0)
			if outer == nil {
				return
			}
			reported[bd] = true
			pieces := concatPieces(pass, inner, nil, 0)
			if len(pieces) < 2 {
				return
			}
			d := analysis.Diagnostic{
				Category: "concat-written",
				Pos:      outer.Pos(),
				Message: fmt.Sprintf("%s concatenates %s into a new string at every call, and %s only writes it to %s%s (%s)",
					bd.Name.Name, list(pieces, 5), fd.Name.Name, w.writer, through(w), where(pass, call)),
			}
			for _, l := range lines {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: l, Message: "a piece concatenated"})
			}
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: call.Pos(), Message: "the string written"})
			d.SuggestedFixes = []analysis.SuggestedFix{{Message: piecesAdvice(w, pieces, fmt.Sprintf(" at %s in %s", where(pass, call), fd.Name.Name)) +
				fmt.Sprintf("; %s stays for the callers that keep its string", bd.Name.Name)}}
			pass.Report(d)
		})
	})
	return nil, nil
}

// through names the package's function a write goes through.
func through(w write) string {
	if w.helper == nil {
		return ""
	}
	return " through " + w.helper.Name.Name
}

// where is a call's file and line, for a message.
func where(pass *analysis.Pass, n ast.Node) string {
	p := pass.Fset.Position(n.Pos())
	return fmt.Sprintf("%s:%d", baseName(p.Filename), p.Line)
}

// piecesAdvice says how the pieces are written in turn.
func piecesAdvice(w write, pieces []string, at string) string {
	shown := pieces
	if len(pieces) > 5 {
		shown = append(pieces[:3:3], "", pieces[len(pieces)-1])
	}
	var calls []string
	for _, p := range shown {
		if p == "" {
			calls = append(calls, "…")
			continue
		}
		calls = append(calls, fmt.Sprintf(w.form, p))
	}
	s := fmt.Sprintf("write the pieces to the writer in turn%s (%s): each piece is copied once, into %s, and no string is built in between", at, strings.Join(calls, "; "), w.writer)
	for _, p := range pieces {
		if strings.HasPrefix(p, "strings.Join(") {
			s += fmt.Sprintf("; %s writes its elements in a loop, the separator between them", p)
			break
		}
	}
	if w.helper != nil && len(w.helper.Body.List) > 1 {
		s += fmt.Sprintf("; %s does more than write its string: keep that work where the pieces are written", w.helper.Name.Name)
	}
	if w.iface {
		s += fmt.Sprintf("; where a caller's %s is unbuffered (a file), buffer it: a write per piece would be a system call each", w.writer)
	}
	return s
}

// stringWrite reports the write of a string call makes: io.WriteString,
// WriteString or Write([]byte(s)) on a buffer or an io.Writer (not a
// file: a write per piece would be a system call each), or a call of
// one of the package's writer helpers.
func stringWrite(pass *analysis.Pass, call *ast.CallExpr, helpers map[*types.Func]writerHelper) (write, bool) {
	if isFunc(pass, call, "io", "", "WriteString") && len(call.Args) == 2 {
		if isFile(pass.TypesInfo.TypeOf(call.Args[0])) {
			return write{}, false
		}
		w := types.ExprString(call.Args[0])
		return write{call: call, arg: call.Args[1], writer: w, form: "io.WriteString(" + w + ", %s)", iface: types.IsInterface(pass.TypesInfo.TypeOf(call.Args[0]))}, true
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && len(call.Args) == 1 && (sel.Sel.Name == "WriteString" || sel.Sel.Name == "Write") {
		t := pass.TypesInfo.TypeOf(sel.X)
		if t == nil || isFile(t) || !bufferType(t) {
			return write{}, false
		}
		w := types.ExprString(sel.X)
		arg := call.Args[0]
		if sel.Sel.Name == "Write" {
			conv, ok := ast.Unparen(arg).(*ast.CallExpr)
			if !ok || len(conv.Args) != 1 || !isConversion(pass, conv) || !isString(pass.TypesInfo.TypeOf(conv.Args[0])) {
				return write{}, false
			}
			arg = conv.Args[0]
		}
		if !isString(pass.TypesInfo.TypeOf(arg)) {
			return write{}, false
		}
		return write{call: call, arg: arg, writer: w, form: w + ".WriteString(%s)", iface: types.IsInterface(t)}, true
	}
	fn := calledFunc(pass, call)
	h, ok := helpers[fn]
	if !ok || h.str >= len(call.Args) || h.w >= len(call.Args) {
		return write{}, false
	}
	w := types.ExprString(call.Args[h.w])
	return write{call: call, arg: call.Args[h.str], writer: w, form: "io.WriteString(" + w + ", %s)", helper: h.fd, iface: types.IsInterface(pass.TypesInfo.TypeOf(call.Args[h.w]))}, true
}

// bufferType reports whether t is a buffer in memory (bytes.Buffer,
// strings.Builder, bufio.Writer, or a pointer to one) or the io.Writer
// and io.StringWriter interfaces, whose writer the caller chose.
func bufferType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
	case "bytes.Buffer", "strings.Builder", "bufio.Writer", "io.Writer", "io.StringWriter":
		return true
	}
	return false
}

// writerHelper is a function of the package that writes one of its
// string parameters to one of its io.Writer parameters: the indexes of
// both.
type writerHelper struct {
	fd     *ast.FuncDecl
	str, w int
}

// writerHelpers finds the package's functions whose body writes a string
// parameter, unchanged or filtered into itself, to an io.Writer
// parameter with io.WriteString or Write([]byte(s)).
func writerHelpers(pass *analysis.Pass) map[*types.Func]writerHelper {
	out := map[*types.Func]writerHelper{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil || len(fd.Body.List) > 4 {
			return
		}
		eachCall(fd.Body, func(call *ast.CallExpr, _ []ast.Node) {
			w, ok := stringWrite(pass, call, nil)
			if !ok {
				return
			}
			s, _ := objOf(pass, w.arg).(*types.Var)
			wv, _ := objOf(pass, writerExpr(call)).(*types.Var)
			if s == nil || wv == nil || !isParam(fd, pass, s) || !isParam(fd, pass, wv) {
				return
			}
			out[fn] = writerHelper{fd: fd, str: paramIndex(fd, pass, s), w: paramIndex(fd, pass, wv)}
		})
	})
	return out
}

// writerExpr is the writer a write call writes to: io.WriteString's
// first argument, or the receiver of a WriteString or Write method.
func writerExpr(call *ast.CallExpr) ast.Expr {
	if len(call.Args) == 2 {
		return call.Args[0]
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// builtBy returns the concatenation fd returns when every one of its
// returns gives a string it builds by + (directly, or by a call of such a
// function of the package) or a variable it was given, and at least one
// builds; lines are the concatenations of the functions it calls.
func builtBy(pass *analysis.Pass, fd *ast.FuncDecl, depth int) (*ast.BinaryExpr, []token.Pos) {
	if depth > 2 || fd.Body == nil || fd.Type.Results == nil || fd.Type.Results.NumFields() != 1 {
		return nil, nil
	}
	var outer *ast.BinaryExpr
	var lines []token.Pos
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				ok = false
				return false
			}
			switch r := ast.Unparen(n.Results[0]).(type) {
			case *ast.BinaryExpr:
				if !buildsString(pass, r) {
					ok = false
					return false
				}
				if outer == nil {
					outer = r
				}
				for _, c := range builderCalls(pass, r) {
					if bd := funcDecl(pass, calledFunc(pass, c)); bd != nil {
						if in, more := builtBy(pass, bd, depth+1); in != nil {
							lines = append(lines, in.Pos())
							lines = append(lines, more...)
						}
					}
				}
			case *ast.Ident, *ast.BasicLit:
			default:
				ok = false
			}
			return false
		}
		return true
	})
	if !ok || outer == nil {
		return nil, nil
	}
	return outer, lines
}

// builderCalls returns the calls of the package's functions among a
// concatenation's operands.
func builderCalls(pass *analysis.Pass, e ast.Expr) []*ast.CallExpr {
	var out []*ast.CallExpr
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			out = append(builderCalls(pass, e.X), builderCalls(pass, e.Y)...)
		}
	case *ast.CallExpr:
		if fn := calledFunc(pass, e); fn != nil && fn.Pkg() == pass.Pkg {
			out = append(out, e)
		}
	}
	return out
}

// concatPieces returns the operands of a concatenation, in order, the
// concatenations of the package's functions it calls expanded in place,
// their parameters standing for the arguments of the call (subst).
func concatPieces(pass *analysis.Pass, e ast.Expr, subst map[string]argOf, depth int) []string {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if a, ok := subst[x.Name]; ok {
			return concatPieces(pass, a.e, a.subst, depth)
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD && isString(pass.TypesInfo.TypeOf(x)) {
			return append(concatPieces(pass, x.X, subst, depth), concatPieces(pass, x.Y, subst, depth)...)
		}
	case *ast.CallExpr:
		if fn := calledFunc(pass, x); fn != nil && fn.Pkg() == pass.Pkg && depth < 2 && len(x.Args) > 0 {
			if bd := funcDecl(pass, fn); bd != nil && bd.Recv == nil {
				if in, _ := builtBy(pass, bd, 0); in != nil {
					inner := map[string]argOf{}
					i := 0
					for _, f := range bd.Type.Params.List {
						for _, n := range f.Names {
							if i < len(x.Args) {
								inner[n.Name] = argOf{x.Args[i], subst}
							}
							i++
						}
					}
					return concatPieces(pass, in, inner, depth+1)
				}
			}
		}
	}
	return []string{oneLine(substituted(types.ExprString(e), subst))}
}

// argOf is the argument a parameter stands for, with the parameters of
// the function that passed it.
type argOf struct {
	e     ast.Expr
	subst map[string]argOf
}

// substituted replaces the identifiers of s that subst names.
func substituted(s string, subst map[string]argOf) string {
	if len(subst) == 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && (s[j] == '_' || 'a' <= s[j]|0x20 && s[j]|0x20 <= 'z' || '0' <= s[j] && s[j] <= '9' || s[j] >= 0x80) {
			j++
		}
		if j == i {
			if s[i] == '"' || s[i] == '`' {
				// A string literal, copied as it is.
				q := s[i]
				j = i + 1
				for j < len(s) && s[j] != q {
					if s[j] == '\\' && q == '"' {
						j++
					}
					j++
				}
				j = min(j+1, len(s))
			} else {
				j = i + 1
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		word := s[i:j]
		if r, ok := subst[word]; ok && (i == 0 || s[i-1] != '.') {
			word = substituted(types.ExprString(r.e), r.subst)
		}
		b.WriteString(word)
		i = j
	}
	return b.String()
}
