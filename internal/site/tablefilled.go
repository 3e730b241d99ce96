package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// TableFilled finds a function that makes a value and fills an array
// field of it with constants on every call: a markdown parser's New
// setting p.inlineCallback['*'] = emphasis, p.inlineCallback['['] = link
// and a dozen more entries of a [256]inlineParser, some under option
// flags. Every value made carries and fills its own copy of a table that
// is the same for every value with the same options; one table per
// variant, filled once in a package variable and shared by pointer,
// costs neither.
var TableFilled = &analysis.Analyzer{
	Name: "tablefilled",
	Doc:  "a value made with an array field filled entry by entry with constants on every call",
	Run:  runTableFilled,
}

// Bounds of a table worth a shape: its entries set by the function, and
// its size in bytes.
const (
	tableFilledMin  = 8
	tableFilledSize = 256
)

func runTableFilled(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) { tableFilled(pass, fd) })
	return nil, nil
}

// tableEntries are the constant stores into one array field.
type tableEntries struct {
	field  string // p.inlineCallback
	typ    types.Type
	stores []*ast.AssignStmt
	inIf   int // stores under a condition
}

func tableFilled(pass *analysis.Pass, fd *ast.FuncDecl) {
	// The struct variables the function declares, by object.
	made := map[types.Object]ast.Node{}
	tables := map[string]*tableEntries{}
	var order []string
	var walk func(n ast.Node, cond bool)
	walk = func(n ast.Node, cond bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				if x.Init != nil {
					walk(x.Init, cond)
				}
				walk(x.Body, true)
				if x.Else != nil {
					walk(x.Else, true)
				}
				return false
			case *ast.DeclStmt:
				gd, ok := x.Decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					return true
				}
				for _, spec := range gd.Specs {
					for _, name := range spec.(*ast.ValueSpec).Names {
						if obj := pass.TypesInfo.Defs[name]; obj != nil && isStruct(obj.Type()) {
							made[obj] = x
						}
					}
				}
			case *ast.AssignStmt:
				if x.Tok == token.DEFINE {
					for i, l := range x.Lhs {
						id, ok := l.(*ast.Ident)
						if !ok || i >= len(x.Rhs) {
							continue
						}
						if obj := pass.TypesInfo.Defs[id]; obj != nil && madeValue(x.Rhs[i]) {
							made[obj] = x
						}
					}
					return true
				}
				if len(x.Lhs) != 1 || len(x.Rhs) != 1 || x.Tok != token.ASSIGN {
					return true
				}
				ix, ok := x.Lhs[0].(*ast.IndexExpr)
				if !ok || !constantExpr(pass, ix.Index) || !constantValue(pass, x.Rhs[0]) {
					return true
				}
				sel, ok := ast.Unparen(ix.X).(*ast.SelectorExpr)
				if !ok {
					return true
				}
				root, ok := ast.Unparen(sel.X).(*ast.Ident)
				if !ok || made[pass.TypesInfo.Uses[root]] == nil {
					return true
				}
				t := pass.TypesInfo.TypeOf(sel)
				if _, isArray := t.Underlying().(*types.Array); !isArray {
					return true
				}
				key := text(pass, sel)
				te := tables[key]
				if te == nil {
					te = &tableEntries{field: key, typ: t}
					tables[key] = te
					order = append(order, key)
				}
				te.stores = append(te.stores, x)
				if cond {
					te.inIf++
				}
			}
			return true
		})
	}
	walk(fd.Body, false)
	for _, key := range order {
		te := tables[key]
		size, ok := sizeof(pass.TypesSizes, te.typ)
		if len(te.stores) < tableFilledMin || !ok || size < tableFilledSize {
			continue
		}
		root := ast.Unparen(ast.Unparen(te.stores[0].Lhs[0].(*ast.IndexExpr).X).(*ast.SelectorExpr).X).(*ast.Ident)
		decl := made[pass.TypesInfo.Uses[root]]
		first := pass.Fset.Position(te.stores[0].Pos()).Line
		last := pass.Fset.Position(te.stores[len(te.stores)-1].Pos()).Line
		opts := ""
		if te.inIf > 0 {
			opts = fmt.Sprintf(", %d of them under conditions on its options", te.inIf)
		}
		related := make([]analysis.RelatedInformation, 0, len(te.stores))
		for _, st := range te.stores {
			related = append(related, analysis.RelatedInformation{Pos: st.Pos(), Message: "an entry set"})
		}
		variant := "in a package variable"
		if te.inIf > 0 {
			variant = "in a package variable per set of options that selects entries"
		}
		pass.Report(analysis.Diagnostic{
			Category: "table-filled",
			Pos:      decl.Pos(),
			Message: fmt.Sprintf("%s fills %s, a %s of %d bytes in every value it makes, with %d constant entries on every call (lines %d–%d%s): the same table for every value made with the same options",
				fd.Name.Name, te.field, types.TypeString(te.typ, types.RelativeTo(pass.Pkg)), size, len(te.stores), first, last, opts),
			Related: related,
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"share the table: fill it once %s and keep a pointer to it in the value instead of the array, so %s neither fills nor carries %d bytes per value", variant, fd.Name.Name, size)}},
		})
	}
}

// isStruct reports whether t is a struct type.
func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// madeValue reports whether e makes a new struct value: T{…}, &T{…},
// new(T).
func madeValue(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, ok := ast.Unparen(x.X).(*ast.CompositeLit)
		return x.Op == token.AND && ok
	case *ast.CallExpr:
		id, ok := x.Fun.(*ast.Ident)
		return ok && id.Name == "new"
	}
	return false
}

// constantExpr reports whether e is a constant.
func constantExpr(pass *analysis.Pass, e ast.Expr) bool {
	tv, ok := pass.TypesInfo.Types[e]
	return ok && tv.Value != nil
}

// constantValue reports whether e is a constant or a package-level
// function.
func constantValue(pass *analysis.Pass, e ast.Expr) bool {
	if constantExpr(pass, e) {
		return true
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	fn, ok := pass.TypesInfo.Uses[id].(*types.Func)
	return ok && fn.Parent() == pass.Pkg.Scope()
}
