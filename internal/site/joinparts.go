package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// JoinParts finds a local slice of strings a loop fills, one part per
// iteration, only to hand it to strings.Join (or bytes.Join) once: the
// slice is made to be copied once more, where a strings.Builder written
// in the loop makes the result with no slice of parts. When the loop
// ranges over a []rune (or []byte) conversion of a string used for
// nothing else (its length at most), the conversion is a copy of the
// input too: ranging over the string decodes its runes in place.
var JoinParts = &analysis.Analyzer{
	Name: "joinparts",
	Doc:  "a local slice of strings a loop fills only to join it",
	Run:  runJoinParts,
}

func runJoinParts(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		eachCall(fd.Body, func(call *ast.CallExpr, _ []ast.Node) {
			if len(call.Args) != 2 || !isFunc(pass, call, "strings", "", "Join") && !isFunc(pass, call, "bytes", "", "Join") {
				return
			}
			v, _ := objOf(pass, call.Args[0]).(*types.Var)
			if v == nil || v.Pos() < fd.Body.Pos() || v.Pos() > fd.Body.End() {
				return
			}
			fills, ok := partsOnlyFilled(pass, fd.Body, v, call)
			if !ok {
				return
			}
			loop := fills[0].loop
			d := analysis.Diagnostic{
				Category: "join-parts",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s fills %s, one part per iteration of the loop at lines %d–%d, only to join it here: the slice of parts is made to be copied once more",
					fd.Name.Name, v.Name(), pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line),
			}
			for _, f := range fills {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: f.at.Pos(), Message: "a part stored"})
			}
			if decl := declOf(pass, fd.Body, v); decl != nil {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: decl.Pos(), Message: "the slice of parts made"})
			}
			advice := "write each part into a strings.Builder in the loop (the separator between parts) and return its String(): no slice of parts; Grow it first when the total length is known"
			if r, conv := rangedConversion(pass, fd.Body, loop); conv != nil {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: conv.Pos(), Message: "the conversion ranged over"})
				advice += fmt.Sprintf("; and range over %s itself (for _, r := range s decodes its runes in place): the copy %s makes goes too", oneLine(types.ExprString(conv.Args[0])), r.Name())
			}
			d.SuggestedFixes = []analysis.SuggestedFix{{Message: advice}}
			pass.Report(d)
		})
	})
	return nil, nil
}

// fill is a store of one part into the slice of parts, in a loop.
type fill struct {
	at   ast.Node
	loop ast.Stmt
}

// partsOnlyFilled returns the stores into v when every use of v in body
// is its declaration (make, a composite literal, var), a store of one
// element (v[i] = x, v = append(v, x)) inside a loop, len(v), or the
// join call; ok is false for any other use (v handed on, returned,
// read element by element, used in a function literal).
func partsOnlyFilled(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var, join *ast.CallExpr) (fills []fill, ok bool) {
	if s, isSlice := v.Type().Underlying().(*types.Slice); !isSlice || !isString(s.Elem()) && !isRuneOrByteSlice(s.Elem()) {
		return nil, false
	}
	ok = true
	var stack []ast.Node
	var loops []ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			if l, isLoop := stack[len(stack)-1].(ast.Stmt); isLoop && len(loops) > 0 && loops[len(loops)-1] == l {
				loops = loops[:len(loops)-1]
			}
			stack = stack[:len(stack)-1]
			return true
		}
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			loops = append(loops, n.(ast.Stmt))
		}
		defer func() { stack = append(stack, n) }()
		id, isID := n.(*ast.Ident)
		if !isID || pass.TypesInfo.Uses[id] != v {
			return true
		}
		if len(stack) == 0 {
			ok = false
			return true
		}
		var loop ast.Stmt
		if len(loops) > 0 {
			loop = loops[len(loops)-1]
		}
		for _, s := range stack {
			if _, lit := s.(*ast.FuncLit); lit {
				ok = false
			}
		}
		switch p := stack[len(stack)-1].(type) {
		case *ast.IndexExpr:
			// v[i] = x: the index expression is the assignment's left.
			as, isAs := nodeAt(stack, 2).(*ast.AssignStmt)
			if !isAs || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || as.Lhs[0] != p || loop == nil {
				ok = false
				return true
			}
			fills = append(fills, fill{as, loop})
		case *ast.AssignStmt:
			// v = append(v, x): the left; the append is judged below.
			if len(p.Lhs) != 1 || p.Lhs[0] != id || p.Tok != token.ASSIGN {
				ok = false
				return true
			}
			c, isCall := ast.Unparen(p.Rhs[0]).(*ast.CallExpr)
			if !isCall || !isBuiltin(pass, c.Fun, "append") || len(c.Args) != 2 || c.Ellipsis.IsValid() || objOf(pass, c.Args[0]) != v || loop == nil {
				ok = false
				return true
			}
			fills = append(fills, fill{p, loop})
		case *ast.CallExpr:
			switch {
			case p == join, isBuiltin(pass, p.Fun, "len"):
			case isBuiltin(pass, p.Fun, "append") && len(p.Args) > 0 && p.Args[0] == id:
				// Its assignment is checked at the left.
			default:
				ok = false
			}
		default:
			ok = false
		}
		return true
	})
	if !ok || len(fills) == 0 {
		return nil, false
	}
	// Every store in one loop, and the join after it, outside it.
	for _, f := range fills[1:] {
		if f.loop != fills[0].loop {
			return nil, false
		}
	}
	if join.Pos() >= fills[0].loop.Pos() && join.Pos() < fills[0].loop.End() {
		return nil, false
	}
	return fills, ok
}

// nodeAt returns the node i places up the stack (1 is the parent).
func nodeAt(stack []ast.Node, i int) ast.Node {
	if len(stack) < i {
		return nil
	}
	return stack[len(stack)-i]
}

// declOf returns the statement in body that declares v.
func declOf(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) ast.Node {
	var out ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if out != nil {
			return false
		}
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				if id, ok := l.(*ast.Ident); ok && pass.TypesInfo.Defs[id] == v {
					out = s
				}
			}
		case *ast.ValueSpec:
			for _, id := range s.Names {
				if pass.TypesInfo.Defs[id] == v {
					out = s
				}
			}
		}
		return true
	})
	return out
}

// rangedConversion returns the variable a range loop ranges over and its
// conversion, when it is set once to []rune(s) or []byte(s) of a string
// and used for nothing but the range and len.
func rangedConversion(pass *analysis.Pass, body *ast.BlockStmt, loop ast.Stmt) (*types.Var, *ast.CallExpr) {
	rs, ok := loop.(*ast.RangeStmt)
	if !ok {
		return nil, nil
	}
	r, _ := objOf(pass, rs.X).(*types.Var)
	if r == nil {
		return nil, nil
	}
	as, ok := declOf(pass, body, r).(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, nil
	}
	conv, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || len(conv.Args) != 1 || !isConversion(pass, conv) || !isRuneOrByteSlice(pass.TypesInfo.TypeOf(conv)) || !isString(pass.TypesInfo.TypeOf(conv.Args[0])) {
		return nil, nil
	}
	only := true
	eachUse(pass, body, r, func(id *ast.Ident, stack []ast.Node) {
		switch p := nodeAt(stack, 1).(type) {
		case *ast.RangeStmt:
			if p != rs || p.X != id {
				only = false
			}
		case *ast.CallExpr:
			if !isBuiltin(pass, p.Fun, "len") {
				only = false
			}
		default:
			only = false
		}
	})
	if !only {
		return nil, nil
	}
	return r, conv
}
