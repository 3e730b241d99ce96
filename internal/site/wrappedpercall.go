package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// WrappedPerCall finds a call of a standard library function that wraps
// its reader or writer in a new bufio buffer (4 KiB) on every call unless
// it already is one: gzip.(*Reader).Reset and gzip.NewReader (and flate's
// and zlib's) and xml.NewDecoder with a reader that has no ReadByte,
// xml.NewEncoder with a writer that is not a *bufio.Writer, csv's NewReader
// and NewWriter. A pooled gzip.Reader reset onto a request body still
// makes a new bufio.Reader for each body; the fix is a reused buffered
// reader (or writer) handed to the call, which then uses it as it is.
var WrappedPerCall = &analysis.Analyzer{
	Name: "wrappedpercall",
	Doc:  "a standard library call that wraps its reader or writer in a new bufio buffer on every call",
	Run:  runWrappedPerCall,
}

// bufferer is a library function that buffers its argument unless the
// argument has a method (ReadByte) or is a type (*bufio.Writer).
type bufferer struct {
	pkg, recv, name string
	// byteReader: wraps unless the argument has ReadByte; else wraps
	// unless it is a *bufio.<buffered>.
	byteReader bool
	buffered   string // "Reader" or "Writer"
}

var bufferers = []bufferer{
	{"compress/gzip", "Reader", "Reset", true, ""},
	{"compress/gzip", "", "NewReader", true, ""},
	{"compress/flate", "", "NewReader", true, ""},
	{"compress/flate", "", "NewReaderDict", true, ""},
	{"compress/zlib", "", "NewReader", true, ""},
	{"compress/zlib", "", "NewReaderDict", true, ""},
	{"encoding/xml", "", "NewDecoder", true, ""},
	{"encoding/xml", "", "NewEncoder", false, "Writer"},
	{"encoding/csv", "", "NewReader", false, "Reader"},
	{"encoding/csv", "", "NewWriter", false, "Writer"},
}

func runWrappedPerCall(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil {
				return true
			}
			for _, w := range bufferers {
				if fn.Pkg().Path() != w.pkg || fn.Name() != w.name || methodRecv(fn) != w.recv {
					continue
				}
				arg := call.Args[0]
				t := pass.TypesInfo.TypeOf(arg)
				if t == nil || w.byteReader && hasMethod(t, "ReadByte") || !w.byteReader && isNamed(t, "bufio", w.buffered) {
					continue
				}
				what := "bufio.Reader"
				if w.buffered == "Writer" {
					what = "bufio.Writer"
				}
				callee := types.ExprString(call.Fun)
				if w.recv != "" {
					callee = fmt.Sprintf("%s.(*%s).%s", fn.Pkg().Name(), w.recv, w.name)
				}
				in := oneLine(types.ExprString(arg))
				why := fmt.Sprintf("%s, %s with no ReadByte", in, article(types.TypeString(t, types.RelativeTo(pass.Pkg))))
				fix := fmt.Sprintf("hand it a *bufio.Reader reused from call to call (pooled with what it feeds, br.Reset(%s) first): it reads one as it is", in)
				if !w.byteReader {
					why = fmt.Sprintf("%s, %s and not a *%s", in, article(types.TypeString(t, types.RelativeTo(pass.Pkg))), what)
					fix = fmt.Sprintf("hand it a *%s reused from call to call (pooled, bw.Reset(%s) first, flushed and put back after): it uses one of 4 KiB or more as it is", what, in)
				}
				pass.Report(analysis.Diagnostic{
					Category: "wrapped-per-call",
					Pos:      call.Pos(),
					Message: fmt.Sprintf("%s wraps %s, in a new %s (a 4 KiB buffer) on every call",
						callee, why, what),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
				})
			}
			return true
		})
	})
	return nil, nil
}

// methodRecv is the name of a method's receiver type, or "".
func methodRecv(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// article puts "a" or "an" before a type's name.
func article(name string) string {
	if name != "" && strings.ContainsRune("aeiouAEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}
