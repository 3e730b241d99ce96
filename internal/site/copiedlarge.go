package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// copyLargeMin is the size from which one assignment's copy is a cost of
// its own: 512 bytes are 64 words moved, with a write barrier for every
// pointer among them while the collector runs.
const copyLargeMin = 512

// CopiedLarge finds assignments in a loop that copy a struct or array
// value of copyLargeMin bytes or more from another variable (yyS[yyp] =
// yyVAL, yyVAL = yyS[yyp+1] in goyacc's parser loop, whose yySymType —
// the grammar's %union, one field per type any rule yields — is 1096
// bytes in xwb1989/sqlparser: 31–36% of its Parse CPU). Each copy moves
// the whole value whatever the code uses of it. The fix shrinks the type
// (its rarely used fields behind one pointer or interface field) or
// copies pointers instead.
var CopiedLarge = &analysis.Analyzer{
	Name: "copiedlarge",
	Doc:  "a loop's assignments that copy a large struct value",
	Run:  runCopiedLarge,
}

func runCopiedLarge(pass *analysis.Pass) (any, error) {
	if pass.TypesSizes == nil {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		type copyAt struct {
			as   *ast.AssignStmt
			line int
		}
		byType := map[types.Type][]copyAt{}
		var order []types.Type
		seen := map[int]bool{}
		eachLoopBody(fd.Body, func(body *ast.BlockStmt) {
			inspectBody(body, func(n ast.Node) {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !copiedValue(as.Rhs[0]) {
					return
				}
				t := pass.TypesInfo.TypeOf(as.Rhs[0])
				if t == nil {
					return
				}
				switch t.Underlying().(type) {
				case *types.Struct, *types.Array:
				default:
					return
				}
				if n, ok := sizeof(pass.TypesSizes, t); !ok || n < copyLargeMin {
					return
				}
				line := pass.Fset.Position(as.Pos()).Line
				if seen[line] {
					return
				}
				seen[line] = true
				k := typeKey(byType, t)
				if byType[k] == nil {
					order = append(order, k)
				}
				byType[k] = append(byType[k], copyAt{as, line})
			})
		})
		for _, t := range order {
			copies := byType[t]
			n, _ := sizeof(pass.TypesSizes, t)
			name := types.TypeString(t, types.RelativeTo(pass.Pkg))
			var lines []string
			for _, c := range copies {
				lines = append(lines, fmt.Sprint(c.line))
			}
			gen := generatedAt(pass, copies[0].as.Pos())
			advice := fmt.Sprintf("each copy moves all %d bytes of a %s whatever the code uses of it: shrink the type — its rarely used fields behind one pointer or interface field — so a copy moves a few words, or keep pointers to the values and copy those", n, name)
			if gen != "" {
				advice += "; the code is generated: make the change in what it is generated from (for goyacc, the grammar's %union) and generate it again"
			}
			for _, c := range copies {
				pass.Report(analysis.Diagnostic{
					Category:       "copied-large",
					Pos:            c.as.Pos(),
					Message:        fmt.Sprintf("%s copies a %s (%d bytes) in its loop at %s: %s%s", fd.Name.Name, name, n, lineList(lines), oneLine(text(pass, c.as)), generatedAt(pass, c.as.Pos())),
					SuggestedFixes: []analysis.SuggestedFix{{Message: advice}},
				})
			}
		}
	})
	return nil, nil
}

// copiedValue reports whether e reads an existing value (a variable, a
// field, an element, a dereference) rather than making one.
func copiedValue(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x.Name != "nil"
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
		return true
	}
	return false
}

// typeKey returns the key of byType identical to t, or t.
func typeKey[V any](byType map[types.Type]V, t types.Type) types.Type {
	for k := range byType {
		if types.Identical(k, t) {
			return k
		}
	}
	return t
}

// eachLoopBody calls f on the body of every for and range loop of a
// function body, outside its func literals (nested loops' bodies too),
// and on the whole body when a goto jumps back to a label before it (a
// state machine's loop: goyacc's parser goes back to yystack).
func eachLoopBody(body *ast.BlockStmt, f func(*ast.BlockStmt)) {
	labels := map[string]token.Pos{}
	back := false
	inspectBody(body, func(n ast.Node) {
		switch s := n.(type) {
		case *ast.LabeledStmt:
			labels[s.Label.Name] = s.Pos()
		case *ast.BranchStmt:
			if p, ok := labels[s.Label.String()]; ok && s.Tok == token.GOTO && s.Label != nil && p < s.Pos() {
				back = true
			}
		}
	})
	if back {
		f(body)
		return
	}
	inspectBody(body, func(n ast.Node) {
		switch l := n.(type) {
		case *ast.ForStmt:
			f(l.Body)
		case *ast.RangeStmt:
			f(l.Body)
		}
	})
}
