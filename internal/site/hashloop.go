package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// HashLoop finds a loop that mixes each byte of a string or byte slice
// into one integer and does nothing else: a hash function's own loop
// (bigcache's fnv64a.Sum64: hash ^= uint64(key[i]); hash *= prime64).
// Its time is the hash's whole work, one step per byte; the only change is
// another hash function, which is the caller's choice (a Hasher option),
// not a fix at the loop.
var HashLoop = &analysis.Analyzer{
	Name: "hashloop",
	Doc:  "a loop that only mixes each byte of its input into one integer: a hash's whole work",
	Run:  runHashLoop,
}

func runHashLoop(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			var body *ast.BlockStmt
			var over ast.Expr
			elem := ""
			switch l := n.(type) {
			case *ast.ForStmt:
				body = l.Body
				if be, ok := ast.Unparen(l.Cond).(*ast.BinaryExpr); ok {
					if call, ok := ast.Unparen(be.Y).(*ast.CallExpr); ok && isBuiltin(pass, call.Fun, "len") && len(call.Args) == 1 {
						over = call.Args[0]
					}
				}
			case *ast.RangeStmt:
				body, over = l.Body, l.X
				if id, ok := l.Value.(*ast.Ident); ok {
					elem = id.Name
				}
			}
			if body == nil || over == nil || len(body.List) == 0 || !bytesOrString(pass.TypesInfo.TypeOf(over)) {
				return
			}
			acc := mixedInto(pass, body.List, types.ExprString(over), elem)
			if acc == "" {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category:       "hash-loop" + ownWork,
				Pos:            n.Pos(),
				Message:        fmt.Sprintf("the loop mixes each byte of %s into %s and does nothing else: %s's hash, one step per byte", oneLine(types.ExprString(over)), acc, fd.Name.Name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "its time is the hash's whole work: the only change is a different hash function (the caller's choice where the package takes one), not a fix at the loop"}},
			})
		})
	})
	return nil, nil
}

// bytesOrString reports whether t is a string or a byte slice.
func bytesOrString(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		return types.Identical(u.Elem(), types.Typ[types.Byte])
	}
	return false
}

// mixedInto returns the one integer variable every statement of a loop's
// body updates from itself and the input over, read by index or as the
// range's element elem (h ^= uint64(s[i]); h *= prime; h = h*31 +
// uint32(c)), or "".
func mixedInto(pass *analysis.Pass, stmts []ast.Stmt, over, elem string) string {
	acc, readsInput := "", false
	for _, st := range stmts {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return ""
		}
		id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident)
		if !ok {
			return ""
		}
		if b, ok := pass.TypesInfo.TypeOf(id).Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			return ""
		}
		if acc != "" && id.Name != acc {
			return ""
		}
		acc = id.Name
		switch as.Tok {
		case token.XOR_ASSIGN, token.MUL_ASSIGN, token.ADD_ASSIGN, token.SHL_ASSIGN, token.OR_ASSIGN:
		case token.ASSIGN:
			if !mentionsName(as.Rhs[0], acc) {
				return ""
			}
		default:
			return ""
		}
		ast.Inspect(as.Rhs[0], func(m ast.Node) bool {
			if ix, ok := m.(*ast.IndexExpr); ok && types.ExprString(ix.X) == over {
				readsInput = true
			}
			if id, ok := m.(*ast.Ident); ok && elem != "" && id.Name == elem {
				readsInput = true
			}
			return true
		})
	}
	if !readsInput {
		return ""
	}
	return acc
}

// mentionsName reports whether e uses the identifier name.
func mentionsName(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}
