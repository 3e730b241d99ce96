package rewrite

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// strconv finds fmt.Sprintf calls whose format has only literal text,
// %s of strings and %d of integers (and %v of either), and fmt.Sprint of one string or
// integer: the same string without fmt's reflection and boxing.
func (u *unit) strconv(fn *ast.FuncDecl) []candidate {
	var out []candidate
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if c, ok := u.sprintf(call); ok {
			out = append(out, c)
		}
		return true
	})
	return out
}

func (u *unit) sprintf(call *ast.CallExpr) (candidate, bool) {
	path, name := u.pkgFunc(call)
	if path != "fmt" || call.Ellipsis.IsValid() {
		return candidate{}, false
	}
	args := call.Args
	// w is the buffer fmt.Fprint and Fprintf write to: a bytes.Buffer or
	// strings.Builder, whose writes never fail, in a statement of its
	// own (the count and the nil error unused).
	var w string
	var stmt *ast.ExprStmt
	switch name {
	case "Fprint", "Fprintf":
		es, ok := u.parents[call].(*ast.ExprStmt)
		if !ok || len(args) == 0 {
			return candidate{}, false
		}
		if w, ok = u.bufferArg(args[0]); !ok {
			return candidate{}, false
		}
		stmt, args, name = es, args[1:], "S"+strings.TrimPrefix(name, "F")
	default:
		switch u.parents[call].(type) {
		case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
			return candidate{}, false // the result unused: the call must stay a call
		}
	}
	sc, ok := u.qualifier("strconv")
	if !ok {
		return candidate{}, false
	}
	var parts []string
	usesStrconv := false
	arg := func(verb byte, e ast.Expr) bool {
		s, conv, ok := u.formatArg(verb, e, sc)
		parts = append(parts, s)
		usesStrconv = usesStrconv || conv
		return ok
	}
	switch name {
	case "Sprint":
		if len(args) != 1 {
			return candidate{}, false
		}
		verb := byte('s')
		if !u.isString(args[0]) {
			verb = 'd'
		}
		if !arg(verb, args[0]) {
			return candidate{}, false
		}
	case "Sprintf":
		if len(args) == 0 {
			return candidate{}, false
		}
		tv, ok := u.info.Types[args[0]]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			return candidate{}, false
		}
		format := constant.StringVal(tv.Value)
		args := args[1:]
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
				return candidate{}, false
			}
			i++
			switch verb := format[i]; verb {
			case '%':
				lit.WriteByte('%')
			case 's', 'd', 'v':
				if len(args) == 0 {
					return candidate{}, false
				}
				if verb == 'v' {
					// %v of a plain string is %s, of a plain integer %d.
					verb = 'd'
					if u.isString(args[0]) {
						verb = 's'
					}
				}
				flush()
				if !arg(verb, args[0]) {
					return candidate{}, false
				}
				args = args[1:]
			default:
				return candidate{}, false // %v, flags, widths, precisions
			}
		}
		flush()
		if len(args) != 0 {
			return candidate{}, false
		}
	default:
		return candidate{}, false
	}
	if stmt != nil {
		return u.fprintCandidate(call, stmt, w, parts, usesStrconv), true
	}
	expr := strings.Join(parts, " + ")
	switch {
	case len(parts) == 0:
		expr = `""`
	case len(parts) > 1:
		switch u.parents[call].(type) {
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.SliceExpr, *ast.UnaryExpr, *ast.TypeAssertExpr, *ast.StarExpr:
			expr = "(" + expr + ")"
		}
	}
	c := candidate{
		kind:   "strconv",
		line:   u.line(call.Pos()),
		desc:   fmt.Sprintf("strconv: %s → %s", u.text(call), expr),
		shape:  "sprintf-simple",
		says:   fmt.Sprintf("%s formats only strings and integers, through fmt's reflection and an interface per argument", u.text(call)),
		advice: fmt.Sprintf("concatenate and convert directly: %s", expr),
		edits: []edit{
			replace(call, expr),
		},
		drop: []string{"fmt"},
	}
	if usesStrconv {
		c.imports = []string{"strconv"}
	}
	return c, true
}

// formatArg returns the expression that formats e as fmt does with %s
// (a string: itself) or %d (an integer of a basic type: strconv), and
// whether it calls strconv. Named types are refused: fmt would call
// their Format or String method.
func (u *unit) formatArg(verb byte, e ast.Expr, sc string) (string, bool, bool) {
	t := u.typeOf(e)
	if t == nil {
		return "", false, false
	}
	b, ok := types.Unalias(t).(*types.Basic)
	if !ok {
		return "", false, false
	}
	text := u.text(e)
	if verb == 's' {
		if b.Kind() == types.String || b.Kind() == types.UntypedString {
			return text, false, true
		}
		return "", false, false
	}
	switch b.Kind() {
	case types.Int, types.UntypedInt:
		return sc + ".Itoa(" + text + ")", true, true
	case types.Int64:
		return sc + ".FormatInt(" + text + ", 10)", true, true
	case types.Int8, types.Int16, types.Int32, types.UntypedRune:
		return sc + ".FormatInt(int64(" + text + "), 10)", true, true
	case types.Uint64:
		return sc + ".FormatUint(" + text + ", 10)", true, true
	case types.Uint, types.Uint8, types.Uint16, types.Uint32, types.Uintptr:
		return sc + ".FormatUint(uint64(" + text + "), 10)", true, true
	}
	return "", false, false
}

// bufferArg returns the buffer an io.Writer argument is, written as a
// receiver: v for &v of a bytes.Buffer or strings.Builder variable or
// field, p for a pointer to one; false for any other writer.
func (u *unit) bufferArg(e ast.Expr) (string, bool) {
	e = ast.Unparen(e)
	if un, ok := e.(*ast.UnaryExpr); ok && un.Op == token.AND {
		if pure(un.X) && u.isBuffer(un.X) {
			return u.text(un.X), true
		}
		return "", false
	}
	if _, isPtr := u.typeOf(e).(*types.Pointer); isPtr && pure(e) && u.isBuffer(e) {
		return u.text(e), true
	}
	return "", false
}

// fprintCandidate writes fmt.Fprintf(&buf, …) as the buffer's own
// writes, one WriteString per part.
func (u *unit) fprintCandidate(call *ast.CallExpr, stmt *ast.ExprStmt, w string, parts []string, usesStrconv bool) candidate {
	var lines []string
	for _, p := range parts {
		lines = append(lines, w+".WriteString("+p+")")
	}
	text := strings.Join(lines, "\n")
	c := candidate{
		kind:   "strconv",
		line:   u.line(call.Pos()),
		desc:   fmt.Sprintf("strconv: %s → %s", u.text(call), strings.Join(lines, "; ")),
		shape:  "fprintf-buffer",
		says:   fmt.Sprintf("%s formats only strings and integers into a buffer, through fmt's reflection and an interface per argument", u.text(call)),
		advice: fmt.Sprintf("write them into the buffer directly: %s", strings.Join(lines, "; ")),
		edits:  []edit{replace(stmt, text)},
		drop:   []string{"fmt"},
	}
	if usesStrconv {
		c.imports = []string{"strconv"}
	}
	return c
}
