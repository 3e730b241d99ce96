package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// AppendVariant finds a string made by a function that has an append
// form, only to be copied into a buffer: buf.WriteString(t.Format(layout)),
// buf.WriteString(strconv.Itoa(n)), b = append(b, fmt.Sprintf(…)...).
// The string is an allocation of its own; the append form (t.AppendFormat,
// strconv.AppendInt, fmt.Appendf) writes into the buffer's spare room —
// a bytes.Buffer's or bufio.Writer's AvailableBuffer, the slice itself —
// with none.
var AppendVariant = &analysis.Analyzer{
	Name: "appendvariant",
	Doc:  "a string made by a function with an append form only to be written into a buffer",
	Run:  runAppendVariant,
}

// appendForm is a library function's append form: the name of the
// function (or method) that takes the destination first.
type appendForm struct {
	pkg, recv, name string
	form            string
	// intArg: Itoa's int becomes AppendInt's int64, base 10.
	intArg bool
}

var appendForms = []appendForm{
	{"time", "Time", "Format", "AppendFormat", false},
	{"strconv", "", "Itoa", "AppendInt", true},
	{"strconv", "", "FormatInt", "AppendInt", false},
	{"strconv", "", "FormatUint", "AppendUint", false},
	{"strconv", "", "FormatFloat", "AppendFloat", false},
	{"strconv", "", "FormatBool", "AppendBool", false},
	{"strconv", "", "Quote", "AppendQuote", false},
	{"strconv", "", "QuoteRune", "AppendQuoteRune", false},
	{"strconv", "", "QuoteToASCII", "AppendQuoteToASCII", false},
	{"fmt", "", "Sprintf", "Appendf", false},
	{"fmt", "", "Sprint", "Append", false},
	{"fmt", "", "Sprintln", "Appendln", false},
}

func runAppendVariant(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			var inner *ast.CallExpr
			var dst, sink string
			switch {
			case isBuiltin(pass, call.Fun, "append") && len(call.Args) == 2 && call.Ellipsis.IsValid():
				inner, _ = ast.Unparen(call.Args[1]).(*ast.CallExpr)
				dst = oneLine(types.ExprString(call.Args[0]))
				sink = "append"
			default:
				sel, isSel := call.Fun.(*ast.SelectorExpr)
				if !isSel || sel.Sel.Name != "WriteString" || len(call.Args) != 1 {
					return true
				}
				t := pass.TypesInfo.TypeOf(sel.X)
				switch {
				case isNamed(t, "bytes", "Buffer"), isNamed(t, "bufio", "Writer"):
					sink = "available"
				case isNamed(t, "strings", "Builder"):
					sink = "scratch"
				default:
					return true
				}
				inner, _ = ast.Unparen(call.Args[0]).(*ast.CallExpr)
				dst = oneLine(types.ExprString(sel.X))
			}
			if inner == nil {
				return true
			}
			fn := calledFunc(pass, inner)
			if fn == nil || fn.Pkg() == nil {
				return true
			}
			for _, f := range appendForms {
				if fn.Pkg().Path() != f.pkg || fn.Name() != f.name || methodRecv(fn) != f.recv {
					continue
				}
				if v := moduleGo(pass); f.pkg == "fmt" && v != "" && versionLess(v, "1.19") {
					continue // fmt.Append* came with Go 1.19
				}
				into := map[string]string{"append": dst, "available": dst + ".AvailableBuffer()", "scratch": "scratch[:0]"}[sink]
				form := appendCall(pass, inner, f, into)
				var fix string
				switch sink {
				case "append":
					fix = fmt.Sprintf("%s = %s", dst, form)
				case "available":
					fix = fmt.Sprintf("%s.Write(%s): it writes into %s's spare room", dst, form, dst)
				default:
					fix = fmt.Sprintf("%s.Write(%s), with var scratch [64]byte on the stack", dst, form)
				}
				pass.Report(analysis.Diagnostic{
					Category: "append-variant",
					Pos:      call.Pos(),
					Message: fmt.Sprintf("%s makes a new string only to copy it into %s",
						oneLine(types.ExprString(inner)), dst),
					SuggestedFixes: []analysis.SuggestedFix{{Message: "its append form writes into the buffer with no string: " + fix}},
				})
			}
			return true
		})
	})
	return nil, nil
}

// appendCall writes the append form of call with dst first.
func appendCall(pass *analysis.Pass, call *ast.CallExpr, f appendForm, dst string) string {
	args := []string{dst}
	for i, a := range call.Args {
		s := oneLine(types.ExprString(a))
		if f.intArg && i == 0 {
			s = "int64(" + s + "), 10"
		}
		args = append(args, s)
	}
	if call.Ellipsis.IsValid() {
		args[len(args)-1] += "..."
	}
	head := f.pkg + "." + f.form
	if f.recv != "" {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			head = oneLine(types.ExprString(sel.X)) + "." + f.form
		}
	}
	return head + "(" + strings.Join(args, ", ") + ")"
}
