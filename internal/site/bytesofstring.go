package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// BytesOfString finds a string copied into a []byte only to be read:
// searched and cut with the bytes package's functions that the strings
// package has too, sliced, indexed, measured, and turned back into
// strings with string(…):
//
//	query := []byte(rawQuery)
//	if i := bytes.IndexAny(query, "&;"); i >= 0 { … }
//	key, err := url.QueryUnescape(string(foundKey))
//
// The copy is made for nothing: the same functions of the strings
// package work on the string itself, a slice of a string is a string
// with no copy, and each string(…) of a part copies it once more. Every
// variable set from the copy (or a slice of it, or nil) is followed; a
// write into one, or one handed to anything else, is no report.
var BytesOfString = &analysis.Analyzer{
	Name: "bytesofstring",
	Doc:  "a string copied into a []byte only to be searched, sliced and converted back",
	Run:  runBytesOfString,
}

// stringsTwins are the bytes functions with a strings function of the
// same name and meaning that reads its input and returns an index, a
// bool, or slices of the input.
var stringsTwins = map[string]bool{
	"Index": true, "IndexAny": true, "IndexByte": true, "IndexRune": true, "IndexFunc": true,
	"LastIndex": true, "LastIndexAny": true, "LastIndexByte": true, "LastIndexFunc": true,
	"Contains": true, "ContainsAny": true, "ContainsRune": true, "ContainsFunc": true, "Count": true,
	"HasPrefix": true, "HasSuffix": true, "EqualFold": true, "Compare": true,
	"Cut": true, "CutPrefix": true, "CutSuffix": true,
	"TrimSpace": true, "Trim": true, "TrimLeft": true, "TrimRight": true, "TrimPrefix": true, "TrimSuffix": true,
	"TrimFunc": true, "TrimLeftFunc": true, "TrimRightFunc": true,
}

func runBytesOfString(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			conv, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || len(conv.Args) != 1 || !isConversion(pass, conv) || !isByteSliceType(pass.TypesInfo.TypeOf(conv)) {
				return
			}
			if tv := pass.TypesInfo.Types[conv.Args[0]]; tv.Value != nil || !isString(tv.Type) {
				return
			}
			id, _ := as.Lhs[0].(*ast.Ident)
			v, _ := pass.TypesInfo.Defs[id].(*types.Var)
			if v == nil {
				return
			}
			funcs, back, ok := onlyReadAsString(pass, fd.Body, v)
			if !ok || len(funcs) == 0 && len(back) == 0 {
				return
			}
			var did []string
			if len(funcs) > 0 {
				did = append(did, "searches and cuts it with "+strings.Join(funcs, ", "))
			}
			if len(back) > 0 {
				var lines []string
				for _, c := range back {
					lines = append(lines, fmt.Sprint(pass.Fset.Position(c.Pos()).Line))
				}
				word := "line "
				if len(lines) > 1 {
					word = "lines "
				}
				did = append(did, "turns parts of it back into strings ("+word+strings.Join(lines, ", ")+")")
			}
			src := oneLine(types.ExprString(conv.Args[0]))
			d := analysis.Diagnostic{
				Category: "bytes-of-string",
				Pos:      conv.Pos(),
				Message: fmt.Sprintf("%s copies %s into %s, a []byte it only reads: it %s",
					fd.Name.Name, src, v.Name(), strings.Join(did, " and ")),
			}
			for _, c := range back {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.Pos(), Message: "a part copied back into a string"})
			}
			fix := fmt.Sprintf("work on %s itself: the strings package has the same functions", src)
			if len(funcs) > 0 {
				fix = fmt.Sprintf("work on %s itself with %s: a slice of a string is a string, with no copy", src, strings.ReplaceAll(strings.Join(funcs, ", "), "bytes.", "strings."))
			}
			if len(back) > 0 {
				fix += ", so the string(…) conversions go with the copy"
			}
			d.SuggestedFixes = []analysis.SuggestedFix{{Message: fix}}
			pass.Report(d)
		})
	})
	return nil, nil
}

// isByteSliceType reports whether t is []byte.
func isByteSliceType(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// onlyReadAsString follows v, a []byte copy of a string, and the local
// variables set only from it (or slices of it, or nil), through body. It
// reports whether every use reads as a string could be read, with the
// bytes functions called on them and the string(…) conversions of them.
func onlyReadAsString(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) (funcs []string, back []*ast.CallExpr, ok bool) {
	alias := map[*types.Var]bool{v: true}
	var isAlias func(e ast.Expr) bool
	isAlias = func(e ast.Expr) bool {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			w, _ := pass.TypesInfo.Uses[x].(*types.Var)
			return alias[w] || x.Name == "nil"
		case *ast.SliceExpr:
			return !x.Slice3 && isAlias(x.X)
		case *ast.CallExpr:
			// bytes.TrimSpace(x), bytes.Cut(x, sep): slices of x.
			fn := calledFunc(pass, x)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "bytes" || !stringsTwins[fn.Name()] {
				return false
			}
			for _, a := range x.Args {
				if isAlias(a) {
					return true
				}
			}
		}
		return false
	}
	// The locals every assignment sets from an alias join it, until
	// none does.
	sets := map[*types.Var][]ast.Expr{}
	inspectBody(body, func(n ast.Node) {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for i, l := range s.Lhs {
				rhs := s.Rhs[0] // before, after, found := bytes.Cut(x, sep)
				if len(s.Lhs) == len(s.Rhs) {
					rhs = s.Rhs[i]
				}
				if id, isID := l.(*ast.Ident); isID {
					if w, _ := pass.TypesInfo.ObjectOf(id).(*types.Var); w != nil && w != v && isByteSliceType(w.Type()) {
						sets[w] = append(sets[w], rhs)
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range s.Names {
				if w, _ := pass.TypesInfo.Defs[id].(*types.Var); w != nil && isByteSliceType(w.Type()) {
					if i < len(s.Values) {
						sets[w] = append(sets[w], s.Values[i])
					}
				}
			}
		}
	})
	// The greatest set: assume every candidate is one, then drop those
	// set from anything else (foundKey, query = foundKey[:i], … refers
	// to itself), until none drops.
	for w, rhs := range sets {
		alias[w] = len(rhs) > 0
	}
	for changed := true; changed; {
		changed = false
		for w, rhs := range sets {
			if !alias[w] {
				continue
			}
			for _, e := range rhs {
				if !isAlias(e) {
					alias[w], changed = false, true
					break
				}
			}
		}
	}
	ok = true
	seen := map[string]bool{}
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		defer func() { stack = append(stack, n) }()
		id, isID := n.(*ast.Ident)
		if !isID {
			return true
		}
		w, _ := pass.TypesInfo.Uses[id].(*types.Var)
		if w == nil || !alias[w] {
			return true
		}
		// Climb the slices and parentheses of the use.
		var e ast.Expr = id
		i := len(stack) - 1
		for ; i >= 0; i-- {
			if s, isSlice := stack[i].(*ast.SliceExpr); isSlice && s.X == e && !s.Slice3 {
				e = s
				continue
			}
			if p, isParen := stack[i].(*ast.ParenExpr); isParen {
				e = p
				continue
			}
			break
		}
		if i < 0 {
			ok = false
			return true
		}
		switch p := stack[i].(type) {
		case *ast.AssignStmt:
			for j, l := range p.Lhs {
				if l == e {
					return true // set: judged with the alias
				}
				if j < len(p.Rhs) && p.Rhs[j] == e && len(p.Lhs) == len(p.Rhs) {
					if lid, isID := l.(*ast.Ident); isID {
						if lw, _ := pass.TypesInfo.ObjectOf(lid).(*types.Var); alias[lw] || lid.Name == "_" {
							return true
						}
					}
				}
			}
			ok = false
		case *ast.ValueSpec:
			for j, val := range p.Values {
				if val == e {
					if lw, _ := pass.TypesInfo.Defs[p.Names[j]].(*types.Var); alias[lw] {
						return true
					}
				}
			}
			ok = false
		case *ast.IndexExpr:
			// A read of one byte, unless it is written.
			if i > 0 {
				switch q := stack[i-1].(type) {
				case *ast.AssignStmt:
					for _, l := range q.Lhs {
						if l == p {
							ok = false
						}
					}
				case *ast.IncDecStmt, *ast.UnaryExpr:
					ok = false
				}
			}
		case *ast.CallExpr:
			switch {
			case isBuiltin(pass, p.Fun, "len"):
			case isConversion(pass, p) && isString(pass.TypesInfo.TypeOf(p)):
			default:
				fn := calledFunc(pass, p)
				if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "bytes" || !stringsTwins[fn.Name()] {
					ok = false
					return true
				}
				if name := "bytes." + fn.Name(); !seen[name] {
					seen[name] = true
					funcs = append(funcs, name)
				}
			}
		case *ast.RangeStmt:
			if p.X != e || p.Value != nil {
				ok = false
			}
		case *ast.BinaryExpr:
			// x == nil, x != nil: a string has no nil, but the test
			// is len's.
			if !isNil(pass, p.X) && !isNil(pass, p.Y) {
				ok = false
			}
		default:
			ok = false
		}
		return true
	})
	// The parts turned back into strings: string(x[a:b]), string(bytes.TrimSpace(x)).
	inspectBody(body, func(n ast.Node) {
		if c, isCall := n.(*ast.CallExpr); isCall && len(c.Args) == 1 && isConversion(pass, c) && isString(pass.TypesInfo.TypeOf(c)) && isAlias(c.Args[0]) {
			back = append(back, c)
		}
	})
	return funcs, back, ok
}
