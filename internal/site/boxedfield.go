package site

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// BoxedField finds a value that is not pointer-shaped stored into a
// struct field of type any (interface{}) that the package owns: every
// store boxes the value, an allocation each. jmespath's parser makes an
// ASTNode{nodeType: ASTField, value: token.value} for every identifier:
// value is an interface{}, so each name is copied to the heap; a field of
// type string beside it would hold names with no allocation. A field
// that the package exports on an exported type is the API's, and a field
// of an interface with methods holds implementations by design: neither
// is reported.
var BoxedField = &analysis.Analyzer{
	Name: "boxedfield",
	Doc:  "a string, number or struct stored into a struct field of type any, boxed at every store",
	Run:  runBoxedField,
}

func runBoxedField(pass *analysis.Pass) (any, error) {
	type store struct {
		fn    string
		value ast.Expr
		typ   types.Type
		boxes bool
	}
	stores := map[*types.Var][]store{}
	var fields []*types.Var
	add := func(fd *ast.FuncDecl, f *types.Var, v ast.Expr) {
		if f == nil || f.Pkg() != pass.Pkg || !isEmptyInterface(f.Type()) {
			return
		}
		tv, ok := pass.TypesInfo.Types[v]
		if !ok || tv.IsNil() || tv.Type == nil {
			return
		}
		t := types.Default(tv.Type)
		boxes := !types.IsInterface(t) && tv.Value == nil && boxAllocates(pass, t)
		if stores[f] == nil {
			fields = append(fields, f)
		}
		stores[f] = append(stores[f], store{fd.Name.Name, v, t, boxes})
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.CompositeLit:
				if _, ok := pass.TypesInfo.TypeOf(x).Underlying().(*types.Struct); !ok {
					return
				}
				for _, e := range x.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if id, ok := kv.Key.(*ast.Ident); ok {
						f, _ := pass.TypesInfo.Uses[id].(*types.Var)
						if f != nil && f.IsField() {
							add(fd, f, kv.Value)
						}
					}
				}
			case *ast.AssignStmt:
				if len(x.Lhs) != len(x.Rhs) {
					return
				}
				for i, l := range x.Lhs {
					sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
					if !ok {
						continue
					}
					if s := pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
						f, _ := s.Obj().(*types.Var)
						add(fd, f, x.Rhs[i])
					}
				}
			}
		})
	})
	for _, f := range fields {
		owner := fieldOwner(f)
		if owner == "" || f.Exported() && token0IsUpper(owner) {
			continue // not found, or the API's field
		}
		ss := stores[f]
		byType := map[string]int{}
		var boxed []string // the types whose stores box, in order
		for _, s := range ss {
			ts := types.TypeString(s.typ, types.RelativeTo(pass.Pkg))
			byType[ts]++
			if s.boxes && !slices.Contains(boxed, ts) {
				boxed = append(boxed, ts)
			}
		}
		nBoxed := 0
		for _, s := range ss {
			if s.boxes {
				nBoxed++
			}
		}
		slices.SortStableFunc(boxed, func(a, b string) int { return byType[b] - byType[a] })
		variant := ""
		if len(boxed) > 1 && 2*byType[boxed[0]] < nBoxed {
			// No type holds most of the boxed stores: a variant.
			variant = fmt.Sprintf("give %s fields of their own for its %s values (a kind tells which is set), and keep %s for the pointer-shaped ones: a value stored in a field of its own type is not boxed, and no allocation is made for it",
				owner, andList(boxed), f.Name())
		}
		for _, s := range ss {
			if !s.boxes {
				continue
			}
			ts := types.TypeString(s.typ, types.RelativeTo(pass.Pkg))
			fix := variant
			if fix == "" {
				fix = fmt.Sprintf("give %s a field of type %s for these values, beside %s for the others, and read it where %s is read as %s: %s stored in a field of its own type is not boxed, and no allocation is made for it",
					owner, ts, f.Name(), f.Name(), article(ts), article(ts))
			}
			holds := ""
			if n := len(ss); n > 1 {
				holds = fmt.Sprintf("; the field holds %s at %d of its %d stores in the package%s", article(ts), byType[ts], n, others(byType, ts))
			}
			name := owner + "." + f.Name()
			pass.Report(analysis.Diagnostic{
				Category: "boxed-into-field",
				Pos:      s.value.Pos(),
				Message: fmt.Sprintf("%s stores %s, %s, into %s, whose type is %s: the %s (%d bytes) is boxed, copied to the heap, at every store%s",
					s.fn, oneLine(text(pass, s.value)), article(ts), name, types.TypeString(f.Type(), nil), ts, pass.TypesSizes.Sizeof(s.typ), holds),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
			})
		}
	}
	return nil, nil
}

// isEmptyInterface reports whether t is any (interface{}).
func isEmptyInterface(t types.Type) bool {
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.NumMethods() == 0 && !i.IsComparable()
}

// fieldOwner names the package-level struct type f is a field of, ""
// when none is found.
func fieldOwner(f *types.Var) string {
	owner, _, ok := strings.Cut(fieldName(f), ".")
	if !ok {
		return ""
	}
	return owner
}

// token0IsUpper reports whether name starts with an upper-case letter.
func token0IsUpper(name string) bool {
	return name != "" && strings.ToUpper(name[:1]) == name[:1] && strings.ToLower(name[:1]) != name[:1]
}

// others lists the types of a field's stores other than ts, most first:
// " (the others: 3 []ASTNode, 1 int)".
func others(byType map[string]int, ts string) string {
	var rest []string
	for t := range byType {
		if t != ts {
			rest = append(rest, t)
		}
	}
	if len(rest) == 0 {
		return ""
	}
	slices.SortFunc(rest, func(a, b string) int { return cmp.Or(byType[b]-byType[a], strings.Compare(a, b)) })
	parts := make([]string, len(rest))
	for i, t := range rest {
		parts[i] = fmt.Sprintf("%d %s", byType[t], t)
	}
	return " (the others: " + strings.Join(parts, ", ") + ")"
}
