package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Loops describes each for and range loop of the module's functions from
// its syntax: what it iterates over or the condition it runs while, the
// step its post statement takes, and what its body does on every
// iteration — the constants it compares with, the counters it increments,
// the functions it calls outside its error paths. A function's own code
// (the lines that call nothing) is mostly its loops: the description
// names what those lines do where the profile says the time goes
// ("the loop at lines 752–754 runs while x%10 == 0, x /= 10 per
// iteration, counting zeros"). It describes; the shape ("loop") has
// advice only for a loop whose work another way does in far fewer steps
// (see loopAdvice), and its related line is the loop's last.
var Loops = &analysis.Analyzer{
	Name: "loops",
	Doc:  "what each loop iterates over and does per iteration, from its syntax",
	Run:  runLoops,
}

func runLoops(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		conv := map[*ast.RangeStmt][2]string{} // base conversion: says, advice
		ast.Inspect(f, func(n ast.Node) bool {
			var body *ast.BlockStmt
			var head string
			switch x := n.(type) {
			case *ast.RangeStmt:
				body, head = x.Body, rangeWords(pass, x)
			case *ast.ForStmt:
				body, head = x.Body, forWords(pass, x)
			default:
				return true
			}
			from, to := pass.Fset.Position(n.Pos()).Line, pass.Fset.Position(n.End()).Line
			msg := fmt.Sprintf("the loop at lines %d–%d %s", from, to, head)
			if from == to {
				msg = fmt.Sprintf("the loop at line %d %s", from, head)
			}
			if sw, cases := dispatch(body); sw != nil {
				// An interpreter's dispatch loop: what runs is the
				// case each op selects, not the loop's syntax.
				msg += fmt.Sprintf(", dispatching on %s over %d cases: its time is the cases the benchmarks' programs run", text(pass, sw), cases)
			} else if does := bodyWords(pass, body); does != "" {
				msg += ", " + does
			}
			d := analysis.Diagnostic{Category: "loop", Pos: n.Pos(), Message: msg,
				Related: []analysis.RelatedInformation{{Pos: n.End() - 1, Message: "the loop's end"}}}
			if f, ok := n.(*ast.ForStmt); ok {
				if inner, says, advice := baseConversion(pass, f); inner != nil {
					conv[inner] = [2]string{says, advice}
				}
			}
			if r, ok := n.(*ast.RangeStmt); ok && conv[r][0] != "" {
				d.Message += ": " + conv[r][0]
				d.SuggestedFixes = []analysis.SuggestedFix{{Message: conv[r][1]}}
			}
			if f, ok := n.(*ast.ForStmt); ok {
				if says, advice := loopAdvice(pass, f); says != "" {
					d.Message += ": " + says
					d.SuggestedFixes = []analysis.SuggestedFix{{Message: advice}}
				} else if s, table, ok := floorScan(pass, f); ok {
					// One load and one branch per byte: the loop is
					// its own cheapest form, no change to name.
					d.Category += ownWork
					d.Message += fmt.Sprintf(": a byte-at-a-time scan of %s through %s, one table lookup and one branch per byte until the first byte it stops at", s, table)
					d.SuggestedFixes = []analysis.SuggestedFix{{Message: "leave it: at one load and one compare per byte the scan is at its floor; only a word-at-a-time scan (8 bytes per step, with bit tricks for the bytes the table marks) is faster, rarely worth its code"}}
				}
			}
			pass.Report(d)
			return true
		})
	}
	return nil, nil
}

// dispatch returns the tag of the switch that is most of a loop's body
// (a bytecode interpreter's switch over its ops, with 16 cases or more)
// and its number of cases, or nil.
func dispatch(body *ast.BlockStmt) (ast.Expr, int) {
	for _, st := range body.List {
		sw, ok := st.(*ast.SwitchStmt)
		if !ok || sw.Tag == nil || len(sw.Body.List) < 16 {
			continue
		}
		return sw.Tag, len(sw.Body.List)
	}
	return nil, 0
}

// rangeWords says what a range loop iterates over.
func rangeWords(pass *analysis.Pass, r *ast.RangeStmt) string {
	x := oneLine(types.ExprString(r.X))
	t := pass.TypesInfo.TypeOf(r.X)
	if t == nil {
		return "ranges over " + x
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			return "ranges over every rune of " + x + " (decoding UTF-8)"
		}
		if u.Info()&types.IsInteger != 0 {
			return "runs " + x + " times"
		}
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return "ranges over every byte of " + x
		}
		return "ranges over every element of " + x
	case *types.Array:
		return "ranges over every element of " + x
	case *types.Map:
		return "ranges over every entry of " + x
	case *types.Chan:
		return "receives every value from " + x
	case *types.Signature:
		return "ranges over what " + x + " yields"
	}
	return "ranges over " + x
}

// forWords says what a three-clause loop runs while, and the step its
// post statement takes when it is not a plain counter.
func forWords(pass *analysis.Pass, f *ast.ForStmt) string {
	out := "runs until it breaks or returns"
	if f.Cond != nil {
		out = "runs while " + text(pass, f.Cond)
	}
	switch p := f.Post.(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == 1 && len(p.Rhs) == 1 {
			out += ", " + text(pass, p) + " per iteration"
		}
	}
	return out
}

// bodyWords says what a loop's body does on every iteration: the
// constants it compares with, the counters it increments, what it
// appends to and the functions it calls, outside its error paths (a
// branch that ends in return or panic) and its nested loops (described
// by their own shapes).
func bodyWords(pass *analysis.Pass, body *ast.BlockStmt) string {
	var consts, counters, appends, calls []string
	add := func(list *[]string, s string) {
		if !slices.Contains(*list, s) {
			*list = append(*list, s)
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.BlockStmt:
			if x != body && endsFunc(x.List) {
				return false // an error path
			}
		case *ast.IfStmt:
			if never(pass, x.Cond) {
				// if debug.Enabled { … } with a constant false: the
				// compiler drops the branch.
				if x.Else != nil {
					ast.Inspect(x.Else, visit)
				}
				return false
			}
			if endsFunc(x.Body.List) {
				// The condition runs every iteration; the branch is
				// the way out.
				ast.Inspect(x.Cond, visit)
				if x.Else != nil {
					ast.Inspect(x.Else, visit)
				}
				return false
			}
		case *ast.BinaryExpr:
			if x.Op == token.EQL || x.Op == token.NEQ {
				for _, e := range []ast.Expr{x.X, x.Y} {
					if tv, ok := pass.TypesInfo.Types[e]; ok && tv.Value != nil {
						add(&consts, oneLine(types.ExprString(e)))
					}
				}
			}
		case *ast.IncDecStmt:
			if x.Tok == token.INC {
				add(&counters, oneLine(types.ExprString(x.X)))
			}
		case *ast.CallExpr:
			if isBuiltin(pass, x.Fun, "append") && len(x.Args) > 0 {
				add(&appends, oneLine(types.ExprString(x.Args[0])))
				break
			}
			if isConversion(pass, x) || isBuiltin(pass, x.Fun, "len") || isBuiltin(pass, x.Fun, "cap") {
				break
			}
			if _, ok := pass.TypesInfo.Types[x.Fun]; ok {
				add(&calls, oneLine(types.ExprString(x.Fun)))
			}
		}
		return true
	}
	for _, st := range body.List {
		ast.Inspect(st, visit)
	}
	var parts []string
	if len(consts) > 0 {
		parts = append(parts, "comparing with "+list(consts, 4))
	}
	if len(counters) > 0 {
		parts = append(parts, "counting "+list(counters, 3))
	}
	if len(appends) > 0 {
		parts = append(parts, "appending to "+list(appends, 3))
	}
	if len(calls) > 0 {
		parts = append(parts, "calling "+list(calls, 3)+" per iteration")
	}
	return strings.Join(parts, ", ")
}

// never reports whether cond is false whatever the input: a constant
// false (a build tag's debug.Enabled), or an && one of whose operands is.
func never(pass *analysis.Pass, cond ast.Expr) bool {
	cond = ast.Unparen(cond)
	if tv, ok := pass.TypesInfo.Types[cond]; ok && tv.Value != nil {
		return tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
	}
	if b, ok := cond.(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return never(pass, b.X) || never(pass, b.Y)
	}
	return false
}

// endsFunc reports whether a statement list leaves the function: its
// last statement is a return or a call of panic.
func endsFunc(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch x := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := x.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// text is a node's source text on one line (its printed form when the
// file cannot be read).
func text(pass *analysis.Pass, n ast.Node) string {
	if s := nodeText(pass, n); s != "" {
		return oneLine(s)
	}
	if e, ok := n.(ast.Expr); ok {
		return oneLine(types.ExprString(e))
	}
	return ""
}

// list joins at most n items, then "…".
func list(items []string, n int) string {
	if len(items) > n {
		items = append(items[:n:n], "…")
	}
	return strings.Join(items, ", ")
}

// floorScan reports whether f steps through a string or byte slice one
// byte at a time (for i < len(s) … i++) with a body that is one if on a
// package-level table of 256 entries indexed by the byte
// (!noEscapeTable[s[i]]) whose branch leaves the loop: a scan at one
// load and one branch per byte. A table marking few bytes is tableScan's
// (bytes.IndexAny does better); this one marks more.
func floorScan(pass *analysis.Pass, f *ast.ForStmt) (s, table string, ok bool) {
	cond, isBin := f.Cond.(*ast.BinaryExpr)
	if !isBin || cond.Op != token.LSS || len(f.Body.List) != 1 {
		return "", "", false
	}
	i := objOf(pass, cond.X)
	call, isCall := cond.Y.(*ast.CallExpr)
	if i == nil || !isCall || !isBuiltin(pass, call.Fun, "len") || len(call.Args) != 1 {
		return "", "", false
	}
	seq := call.Args[0]
	if !byteSeq(pass, seq) {
		return "", "", false
	}
	is, isIf := f.Body.List[0].(*ast.IfStmt)
	if !isIf || is.Init != nil || is.Else != nil || len(is.Body.List) == 0 {
		return "", "", false
	}
	switch is.Body.List[len(is.Body.List)-1].(type) {
	case *ast.ReturnStmt:
	case *ast.BranchStmt:
		if is.Body.List[len(is.Body.List)-1].(*ast.BranchStmt).Tok != token.BREAK {
			return "", "", false
		}
	default:
		return "", "", false
	}
	c := ast.Unparen(is.Cond)
	if u, isNot := c.(*ast.UnaryExpr); isNot && u.Op == token.NOT {
		c = ast.Unparen(u.X)
	}
	if b, isCmp := c.(*ast.BinaryExpr); isCmp && (b.Op == token.EQL || b.Op == token.NEQ) {
		if tv, isConst := pass.TypesInfo.Types[b.Y]; isConst && tv.Value != nil {
			c = ast.Unparen(b.X)
		}
	}
	ix, isIndex := c.(*ast.IndexExpr)
	if !isIndex {
		return "", "", false
	}
	inner, isInner := ast.Unparen(ix.Index).(*ast.IndexExpr)
	if !isInner || objOf(pass, inner.Index) != i || types.ExprString(inner.X) != types.ExprString(seq) {
		return "", "", false
	}
	v, isVar := objOf(pass, ix.X).(*types.Var)
	if !isVar || v.Parent() != pass.Pkg.Scope() {
		return "", "", false
	}
	if a, isArray := v.Type().Underlying().(*types.Array); !isArray || a.Len() != 256 {
		return "", "", false
	}
	return oneLine(types.ExprString(seq)), v.Name(), true
}

// byteSeq reports whether e is a string or a byte slice.
func byteSeq(pass *analysis.Pass, e ast.Expr) bool {
	switch t := pass.TypesInfo.TypeOf(e).Underlying().(type) {
	case *types.Basic:
		return t.Info()&types.IsString != 0
	case *types.Slice:
		b, isBasic := t.Elem().Underlying().(*types.Basic)
		return isBasic && b.Kind() == types.Byte
	}
	return false
}
