package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// MapCopied finds a map copied entry by entry into a map the function
// makes (for k, v := range src { dst[k] = v }): a full copy on every
// call, which callers that only read it do not need.
var MapCopied = &analysis.Analyzer{
	Name: "mapcopied",
	Doc:  "a map copied entry by entry on every call",
	Run:  runMapCopied,
}

func runMapCopied(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		// The maps the function makes, by variable, with the make.
		made := map[types.Object]ast.Node{}
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, r := range as.Rhs {
				id, ok := as.Lhs[i].(*ast.Ident)
				if !ok {
					continue
				}
				if _, isMap := typeUnder(pass, r).(*types.Map); !isMap {
					continue
				}
				switch x := ast.Unparen(r).(type) {
				case *ast.CallExpr:
					if b, ok := pass.TypesInfo.Uses[calleeIdent(x)].(*types.Builtin); !ok || b.Name() != "make" {
						continue
					}
				case *ast.CompositeLit:
				default:
					continue
				}
				if obj := pass.TypesInfo.ObjectOf(id); obj != nil {
					made[obj] = as
				}
			}
			return true
		})
		ast.Inspect(body, func(n ast.Node) bool {
			rs, ok := n.(*ast.RangeStmt)
			if !ok || rs.Key == nil || rs.Value == nil {
				return true
			}
			if _, isMap := typeUnder(pass, rs.X).(*types.Map); !isMap {
				return true
			}
			stores := copyStores(pass, rs)
			if len(stores) == 0 {
				return true
			}
			dst := ast.Unparen(stores[0].Lhs[0].(*ast.IndexExpr).X).(*ast.Ident)
			mk := made[pass.TypesInfo.ObjectOf(dst)]
			if mk == nil {
				return true
			}
			src := oneLine(types.ExprString(rs.X))
			for _, as := range stores {
				pass.Report(analysis.Diagnostic{
					Category: "map-copied",
					Pos:      as.Pos(),
					Message:  fmt.Sprintf("%s is a copy of %s, made entry by entry on every call", dst.Name, src),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"avoid the copy where %s is only read: read %s directly, and copy it lazily, on the first write, only where it is changed", dst.Name, src)}},
					Related: []analysis.RelatedInformation{{Pos: mk.Pos(), Message: dst.Name + " made"}, {Pos: rs.Pos(), Message: "every entry of " + src}},
				})
			}
			return true
		})
	})
	return nil, nil
}

// copyStores returns the stores of a range loop over a map that copies
// it entry by entry: a body that is one store dst[k] = v under the loop's
// key and value, or a type switch on the value whose every clause, a
// default among them, stores the switch's binding or a method's result
// of it (errors kept as their text: `case error: data[k] = v.Error()`).
// A filter or a transformation is work, not a copy: nil.
func copyStores(pass *analysis.Pass, rs *ast.RangeStmt) []*ast.AssignStmt {
	if len(rs.Body.List) != 1 {
		return nil
	}
	store := func(st ast.Stmt, value func(ast.Expr) bool) *ast.AssignStmt {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return nil
		}
		ix, ok := as.Lhs[0].(*ast.IndexExpr)
		if !ok || !sameIdent(pass, ix.Index, rs.Key) || !value(as.Rhs[0]) {
			return nil
		}
		if _, ok := ast.Unparen(ix.X).(*ast.Ident); !ok {
			return nil
		}
		return as
	}
	if as := store(rs.Body.List[0], func(e ast.Expr) bool { return sameIdent(pass, e, rs.Value) }); as != nil {
		return []*ast.AssignStmt{as}
	}
	ts, ok := rs.Body.List[0].(*ast.TypeSwitchStmt)
	if !ok || ts.Init != nil {
		return nil
	}
	bind, ok := ts.Assign.(*ast.AssignStmt)
	if !ok || len(bind.Lhs) != 1 || len(bind.Rhs) != 1 {
		return nil
	}
	ta, ok := ast.Unparen(bind.Rhs[0]).(*ast.TypeAssertExpr)
	if !ok || !sameIdent(pass, ta.X, rs.Value) {
		return nil
	}
	name := bind.Lhs[0].(*ast.Ident).Name
	// The binding is an object per clause: match it by name.
	bound := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 0 {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				e = ast.Unparen(sel.X)
			}
		}
		id, ok := e.(*ast.Ident)
		return ok && id.Name == name
	}
	var stores []*ast.AssignStmt
	var dst string
	hasDefault := false
	for _, c := range ts.Body.List {
		cc := c.(*ast.CaseClause)
		hasDefault = hasDefault || cc.List == nil
		if len(cc.Body) != 1 {
			return nil
		}
		as := store(cc.Body[0], bound)
		if as == nil {
			return nil
		}
		to := ast.Unparen(as.Lhs[0].(*ast.IndexExpr).X).(*ast.Ident).Name
		if dst != "" && to != dst {
			return nil
		}
		dst = to
		stores = append(stores, as)
	}
	if !hasDefault {
		return nil
	}
	return stores
}

// typeUnder is the underlying type of e, or nil.
func typeUnder(pass *analysis.Pass, e ast.Expr) types.Type {
	t := pass.TypesInfo.TypeOf(e)
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// valueTypeUnder is typeUnder of an expression that is a value, nil for
// a type: threadUnsafeSet[T] in make(…) is a generic map type
// instantiated, no map indexed.
func valueTypeUnder(pass *analysis.Pass, e ast.Expr) types.Type {
	if isTypeExpr(pass, e) {
		return nil
	}
	return typeUnder(pass, e)
}

// isTypeExpr reports whether e denotes a type: a type's name, or a
// generic type instantiated (Set[T]).
func isTypeExpr(pass *analysis.Pass, e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv, ok := pass.TypesInfo.Types[e]; ok {
		return tv.IsType()
	}
	switch x := e.(type) {
	case *ast.Ident:
		_, ok := pass.TypesInfo.ObjectOf(x).(*types.TypeName)
		return ok
	case *ast.SelectorExpr:
		_, ok := pass.TypesInfo.ObjectOf(x.Sel).(*types.TypeName)
		return ok
	}
	return false
}

// sameIdent reports whether e and f are identifiers of one object.
func sameIdent(pass *analysis.Pass, e, f ast.Expr) bool {
	a, ok1 := ast.Unparen(e).(*ast.Ident)
	b, ok2 := ast.Unparen(f).(*ast.Ident)
	return ok1 && ok2 && pass.TypesInfo.ObjectOf(a) != nil && pass.TypesInfo.ObjectOf(a) == pass.TypesInfo.ObjectOf(b)
}

// SprintfQuote finds fmt.Sprintf("%q", s) of a string: strconv quotes it
// without fmt, and into a buffer it is written to without a string.
var SprintfQuote = &analysis.Analyzer{
	Name: "sprintfquote",
	Doc:  `fmt.Sprintf("%q", s) of a string, where strconv.Quote or AppendQuote does`,
	Run:  runSprintfQuote,
}

func runSprintfQuote(pass *analysis.Pass) (any, error) {
	available := true
	if v := moduleGo(pass); v != "" && versionLess(v, "1.21") {
		available = false // bytes.Buffer.AvailableBuffer is Go 1.21
	}
	eachFunc(pass, func(body *ast.BlockStmt) {
		written := map[*ast.CallExpr]string{} // Sprintf calls written to a bytes.Buffer, with the buffer
		ast.Inspect(body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) != 1 || !isFunc(pass, c, "bytes", "Buffer", "WriteString") {
				return true
			}
			if arg, ok := ast.Unparen(c.Args[0]).(*ast.CallExpr); ok {
				written[arg] = oneLine(types.ExprString(c.Fun.(*ast.SelectorExpr).X))
			}
			return true
		})
		ast.Inspect(body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) != 2 || !isFunc(pass, c, "fmt", "", "Sprintf") {
				return true
			}
			tv := pass.TypesInfo.Types[c.Args[0]]
			if tv.Value == nil || tv.Value.Kind() != constant.String || constant.StringVal(tv.Value) != "%q" {
				return true
			}
			if b, ok := typeUnder(pass, c.Args[1]).(*types.Basic); !ok || b.Info()&types.IsString == 0 {
				return true
			}
			s := oneLine(types.ExprString(c.Args[1]))
			advice := fmt.Sprintf("strconv.Quote(%s) quotes it without fmt", s)
			if buf, ok := written[c]; ok {
				advice = fmt.Sprintf("quote it straight into the buffer: %s.Write(strconv.AppendQuote(%s.AvailableBuffer(), %s)), no string and no fmt", buf, buf, s)
				if !available {
					advice = fmt.Sprintf("quote it into a reused []byte and write that: %s.Write(strconv.AppendQuote(scratch[:0], %s)), no string and no fmt (%s.AvailableBuffer() in place of scratch from Go 1.21)", buf, s, buf)
				}
			}
			pass.Report(analysis.Diagnostic{
				Category:       "sprintf-quote",
				Pos:            c.Pos(),
				Message:        fmt.Sprintf(`fmt.Sprintf("%%q", %s) quotes a string through fmt: an interface argument, fmt's state and a new string`, s),
				SuggestedFixes: []analysis.SuggestedFix{{Message: advice}},
			})
			return true
		})
	})
	return nil, nil
}

// AppendArena finds a slice grown by append whose elements the function
// hands out by address (return &s[i]): every growth copies the values,
// and the arrays they were in stay alive as long as a pointer handed out
// into them does.
var AppendArena = &analysis.Analyzer{
	Name: "appendarena",
	Doc:  "a slice grown by append whose elements are handed out by address",
	Run:  runAppendArena,
}

func runAppendArena(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		handed := map[string]bool{} // the slices whose elements' addresses it returns
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			ret, ok := n.(*ast.ReturnStmt)
			if !ok {
				return true
			}
			for _, r := range ret.Results {
				if u, ok := ast.Unparen(r).(*ast.UnaryExpr); ok && u.Op == token.AND {
					if ix, ok := ast.Unparen(u.X).(*ast.IndexExpr); ok {
						handed[types.ExprString(ix.X)] = true
					}
				}
			}
			return true
		})
		if len(handed) == 0 {
			return
		}
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || len(c.Args) == 0 {
				return true
			}
			if b, ok := pass.TypesInfo.Uses[calleeIdent(c)].(*types.Builtin); !ok || b.Name() != "append" {
				return true
			}
			s := types.ExprString(as.Lhs[0])
			if !handed[s] || types.ExprString(c.Args[0]) != s {
				return true
			}
			elem := "T"
			if sl, ok := typeUnder(pass, as.Lhs[0]).(*types.Slice); ok {
				elem = types.TypeString(sl.Elem(), types.RelativeTo(pass.Pkg))
			}
			pass.Report(analysis.Diagnostic{
				Category: "append-arena",
				Pos:      as.Pos(),
				Message:  fmt.Sprintf("%s grows by append while the function hands out its elements by address (&%s[…]): each growth copies every %s, and the old arrays stay alive while those pointers do", oneLine(s), oneLine(s), elem),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"keep the %s values in fixed-size chunks that never move ([][]%s, a new chunk when the last one is full): no copying on growth, no old arrays held by the pointers handed out", elem, elem)}},
			})
			return true
		})
	})
	return nil, nil
}
