package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// PrintfWrapper finds calls of a package's own printf wrapper — a
// function or method that hands its format and arguments to
// fmt.Fprintf(w, format, v...) — with a constant format of literal text
// and %s (or %v) of strings only:
//
//	func (enc *Encoder) writef(format string, v ...any) { fmt.Fprintf(enc.w, format, v...) }
//	enc.writef("%s%s = ", enc.indentStr(key), key.maybeQuoted(i))
//
// Every such call boxes each string into an interface (an allocation per
// argument that escapes through the variadic slice) and parses the
// format; the pieces written in turn to the wrapper's writer cost
// neither.
var PrintfWrapper = &analysis.Analyzer{
	Name: "printfwrapper",
	Doc:  "a call of the package's own fmt.Fprintf wrapper with a constant format of strings only",
	Run:  runPrintfWrapper,
}

// wrapper is a printf wrapper: its writer, as the wrapper writes it, and
// the receiver name that expression starts with.
type wrapper struct {
	writer       string // "enc.w"
	recv         string // "enc", or "" for a function
	line         int
	at           token.Pos // its fmt.Fprintf call
	name         string
	stringWriter bool // the writer has WriteString
}

func runPrintfWrapper(pass *analysis.Pass) (any, error) {
	wrappers := map[*types.Func]wrapper{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if w, ok := printfWrapper(pass, fd); ok {
			if fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func); fn != nil {
				wrappers[fn] = w
			}
		}
	})
	if len(wrappers) == 0 {
		return nil, nil
	}
	// The call sites each wrapper is given strings only at, for the
	// shape at the wrapper's own fmt.Fprintf.
	sites := map[*types.Func][]token.Pos{}
	var order []*types.Func
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || call.Ellipsis.IsValid() || len(call.Args) < 2 {
				return
			}
			fn := calleeFunc(pass, call)
			w, ok := wrappers[fn]
			if !ok {
				return
			}
			parts, ok := stringPieces(pass, call.Args)
			if !ok {
				return
			}
			writer := w.writer
			if w.recv != "" {
				sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
				if !ok {
					return
				}
				writer = oneLine(types.ExprString(sel.X)) + strings.TrimPrefix(w.writer, w.recv)
			}
			var writes []string
			for _, p := range parts {
				if w.stringWriter {
					writes = append(writes, writer+".WriteString("+p+")")
				} else {
					writes = append(writes, "io.WriteString("+writer+", "+p+")")
				}
			}
			count := len(call.Args) - 1
			if sites[fn] == nil {
				order = append(order, fn)
			}
			sites[fn] = append(sites[fn], call.Pos())
			pass.Report(analysis.Diagnostic{
				Category: "printf-wrapper",
				Pos:      call.Pos(),
				Related:  []analysis.RelatedInformation{{Pos: w.at, Message: wrapperFprintf}},
				Message: fmt.Sprintf("%s calls %s, a wrapper of fmt.Fprintf (line %d), with the format %s and %d string%s: each call boxes every argument into an interface and parses the format",
					fd.Name.Name, fn.Name(), w.line, oneLine(types.ExprString(call.Args[0])), count, plural(count)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("write the pieces to the writer directly, with no format and no boxing: %s (a method beside %s that writes a string)", strings.Join(writes, "; "), fn.Name())}},
			})
		})
	})
	for _, fn := range order {
		w := wrappers[fn]
		var related []analysis.RelatedInformation
		var lines []string
		for _, p := range sites[fn] {
			related = append(related, analysis.RelatedInformation{Pos: p, Message: "a call with strings only"})
			lines = append(lines, strconv.Itoa(pass.Fset.Position(p).Line))
		}
		if len(lines) > 4 {
			lines = append(lines[:4], "…")
		}
		n := len(sites[fn])
		pass.Report(analysis.Diagnostic{
			Category: "printf-wrapper",
			Pos:      w.at,
			Related:  related,
			Message: fmt.Sprintf("%s hands its format and arguments to fmt.Fprintf(%s, …), and %d call%s of it pass%s a constant format of strings only (line %s): each boxes its arguments into interfaces and has the format parsed",
				w.name, w.writer, n, plural(n), map[bool]string{true: "es", false: ""}[n == 1], strings.Join(lines, ", ")),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("give those calls a method beside %s that writes a string to %s (WriteString), one call per piece: no format to parse, nothing boxed; keep %s for the formats that need fmt", w.name, w.writer, w.name)}},
		})
	}
	return nil, nil
}

// wrapperFprintf is the message of a call's related location at its
// wrapper's fmt.Fprintf: findings joins the causes at both by it.
const wrapperFprintf = "the wrapper's fmt.Fprintf"

// printfWrapper reports whether fd is a printf wrapper: its last two
// parameters a format string and ...any, its body a call
// fmt.Fprintf(w, format, v...).
func printfWrapper(pass *analysis.Pass, fd *ast.FuncDecl) (wrapper, bool) {
	params := fd.Type.Params.List
	if len(params) == 0 || fd.Body == nil {
		return wrapper{}, false
	}
	last := params[len(params)-1]
	if _, ok := last.Type.(*ast.Ellipsis); !ok || len(last.Names) != 1 {
		return wrapper{}, false
	}
	// The format is the parameter before the arguments: the last name of
	// the previous field, or the first of a field "format string, v ...any"
	// cannot share (the variadic one has its own).
	if len(params) < 2 || len(params[len(params)-2].Names) == 0 {
		return wrapper{}, false
	}
	names := params[len(params)-2].Names
	format := names[len(names)-1]
	if t := pass.TypesInfo.TypeOf(format); t == nil || !isString(t) {
		return wrapper{}, false
	}
	args := last.Names[0]
	var out wrapper
	found := false
	inspectBody(fd.Body, func(n ast.Node) {
		call, ok := n.(*ast.CallExpr)
		if !ok || found || !isFunc(pass, call, "fmt", "", "Fprintf") || len(call.Args) != 3 || !call.Ellipsis.IsValid() {
			return
		}
		f, ok1 := ast.Unparen(call.Args[1]).(*ast.Ident)
		v, ok2 := ast.Unparen(call.Args[2]).(*ast.Ident)
		if !ok1 || !ok2 || pass.TypesInfo.Uses[f] != pass.TypesInfo.Defs[format] || pass.TypesInfo.Uses[v] != pass.TypesInfo.Defs[args] {
			return
		}
		w := ast.Unparen(call.Args[0])
		if rootIdent(w) == "" {
			return // a writer the call computes
		}
		out = wrapper{writer: oneLine(types.ExprString(w)), line: pass.Fset.Position(call.Pos()).Line, at: call.Pos(), name: fd.Name.Name}
		if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
			out.recv = fd.Recv.List[0].Names[0].Name
		}
		if out.recv != "" && !strings.HasPrefix(out.writer, out.recv+".") {
			return // the writer is not the receiver's: a call site cannot name it
		}
		if out.recv == "" {
			if obj := pass.Pkg.Scope().Lookup(rootIdent(w)); obj == nil {
				return // a function's writer must be a package variable
			}
		}
		out.stringWriter = hasMethod(pass.TypesInfo.TypeOf(w), "WriteString")
		found = true
	})
	return out, found
}

// stringPieces returns the pieces a constant format of literal text and
// %s or %v of strings writes, in order: each verb's argument and each
// run of literal text, quoted.
func stringPieces(pass *analysis.Pass, args []ast.Expr) ([]string, bool) {
	tv, ok := pass.TypesInfo.Types[args[0]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return nil, false
	}
	format := constant.StringVal(tv.Value)
	rest := args[1:]
	var parts []string
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, strconv.Quote(lit.String()))
			lit.Reset()
		}
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			lit.WriteByte(format[i])
			continue
		}
		if i+1 >= len(format) {
			return nil, false
		}
		i++
		switch format[i] {
		case '%':
			lit.WriteByte('%')
		case 's', 'v':
			if len(rest) == 0 {
				return nil, false
			}
			t := pass.TypesInfo.TypeOf(rest[0])
			if t == nil || !isString(t.Underlying()) || hasMethod(t, "String") || hasMethod(t, "Error") || hasMethod(t, "Format") {
				return nil, false // a string type with a String method prints by it
			}
			flush()
			piece := oneLine(types.ExprString(rest[0]))
			if _, basic := t.(*types.Basic); !basic {
				piece = "string(" + piece + ")"
			}
			parts = append(parts, piece)
			rest = rest[1:]
		default:
			return nil, false
		}
	}
	flush()
	return parts, len(rest) == 0 && len(args) > 1
}

// hasMethod reports whether a value of type t, or a pointer to it, has a
// method of that name.
func hasMethod(t types.Type, name string) bool {
	if t == nil {
		return false
	}
	sets := []*types.MethodSet{types.NewMethodSet(t)}
	if _, ok := t.(*types.Pointer); !ok {
		sets = append(sets, types.NewMethodSet(types.NewPointer(t)))
	}
	for _, ms := range sets {
		for i := 0; i < ms.Len(); i++ {
			if ms.At(i).Obj().Name() == name {
				return true
			}
		}
	}
	return false
}
