package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// PaidWhileOff finds a clock read a type's methods make on every call
// while the feature it serves can be off: the type has a time.Duration
// field that the package tests against a named constant or zero (an
// expirable cache's `if res.ttl != noEvictionTTL { start the janitor }`),
// so the off state is known, yet Add and Get call time.Now() with no test
// of that field around the call. With the feature off, the clock read and
// the bookkeeping it feeds (expiry stamps, expiry buckets) are work for
// nothing.
var PaidWhileOff = &analysis.Analyzer{
	Name: "paidwhileoff",
	Doc:  "time.Now() read on every call by a type whose duration setting can turn its use off",
	Run:  runPaidWhileOff,
}

// offTest is a test of a duration field against its off value.
type offTest struct {
	field *types.Var
	text  string // "res.ttl != noEvictionTTL"
	off   string // what the field is when off: "== noEvictionTTL", "<= 0"
	line  int
}

func runPaidWhileOff(pass *analysis.Pass) (any, error) {
	// The duration fields the package tests against an off value, by
	// the struct type that has them.
	tests := map[*types.Var]offTest{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			b, ok := n.(*ast.BinaryExpr)
			if !ok || b.Op != token.EQL && b.Op != token.NEQ && b.Op != token.GTR && b.Op != token.LEQ {
				return
			}
			for i, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				f := durationField(pass, pair[0])
				if f == nil || !offValue(pass, pair[1], b.Op) || i == 1 && (b.Op == token.GTR || b.Op == token.LEQ) {
					continue
				}
				off := "== " + oneLine(types.ExprString(pair[1]))
				if b.Op == token.GTR || b.Op == token.LEQ {
					off = "<= 0"
				}
				if _, seen := tests[f]; !seen {
					tests[f] = offTest{field: f, text: oneLine(types.ExprString(b)), off: off, line: pass.Fset.Position(b.Pos()).Line}
				}
			}
		})
	})
	if len(tests) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) != 1 {
			return
		}
		st := recvStruct(pass, fd)
		if st == nil {
			return
		}
		var test *offTest
		for i := 0; i < st.NumFields(); i++ {
			if t, ok := tests[st.Field(i)]; ok {
				test = &t
				break
			}
		}
		if test == nil {
			return
		}
		eachCall(fd.Body, func(call *ast.CallExpr, stack []ast.Node) {
			if len(call.Args) != 0 || !isFunc(pass, call, "time", "", "Now") {
				return
			}
			if fieldTested(pass, stack, test.field) || exitsBefore(pass, fd.Body, call.Pos(), test.field) {
				return
			}
			recv := fd.Recv.List[0].Names
			x := "the receiver"
			if len(recv) == 1 {
				x = recv[0].Name
			}
			pass.Report(analysis.Diagnostic{
				Category: "paid-while-off",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s reads the clock (time.Now) on every call, with no test of %s.%s around it, though the package knows when that setting turns its use off (%s, line %d)",
					fd.Name.Name, x, test.field.Name(), test.text, test.line),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("when %s.%s %s (the setting off: no TTL, expiry disabled), skip the clock read and the bookkeeping it feeds (expiry stamps, expiry buckets): test it once per call, or keep a bool set when the value is made", x, test.field.Name(), test.off)}},
			})
		})
	})
	return nil, nil
}

// durationField returns the field a selector x.f reads when its type is
// time.Duration, or nil.
func durationField(pass *analysis.Pass, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
	if !ok || !v.IsField() || !isNamed(v.Type(), "time", "Duration") {
		return nil
	}
	return v
}

// offValue reports whether e is what a duration setting's off test
// compares with: a named constant (noEvictionTTL), or zero for > 0 and
// <= 0.
func offValue(pass *analysis.Pass, e ast.Expr, op token.Token) bool {
	tv, ok := pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if _, isConst := pass.TypesInfo.Uses[id].(*types.Const); isConst && (op == token.EQL || op == token.NEQ) {
			return true
		}
	}
	return tv.Value.String() == "0"
}

// recvStruct returns the struct type of a method's receiver, or nil.
func recvStruct(pass *analysis.Pass, fd *ast.FuncDecl) *types.Struct {
	t := pass.TypesInfo.TypeOf(fd.Recv.List[0].Type)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if t == nil {
		return nil
	}
	st, _ := t.Underlying().(*types.Struct)
	return st
}

// fieldTested reports whether an if statement or a condition among the
// enclosing nodes tests the field.
func fieldTested(pass *analysis.Pass, stack []ast.Node, field *types.Var) bool {
	return slices.ContainsFunc(stack, func(n ast.Node) bool {
		var cond ast.Expr
		switch x := n.(type) {
		case *ast.IfStmt:
			cond = x.Cond
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				cond = x.X
			}
		}
		if cond == nil {
			return false
		}
		found := false
		ast.Inspect(cond, func(m ast.Node) bool {
			if sel, ok := m.(*ast.SelectorExpr); ok && pass.TypesInfo.Uses[sel.Sel] == field {
				found = true
			}
			return !found
		})
		return found
	})
}

// exitsBefore reports whether body returns, before pos, from an if
// statement that tests the field: `if c.ttl == 0 { return … }`.
func exitsBefore(pass *analysis.Pass, body *ast.BlockStmt, pos token.Pos, field *types.Var) bool {
	for _, st := range body.List {
		if st.Pos() >= pos {
			return false
		}
		ifs, ok := st.(*ast.IfStmt)
		if !ok || len(ifs.Body.List) == 0 {
			continue
		}
		if _, ret := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); ret && fieldTested(pass, []ast.Node{ifs}, field) {
			return true
		}
	}
	return false
}
