package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// SprintfAny finds fmt.Sprintf whose whole format is one %d, %s or %v
// verb applied to a value of interface type: fmt finds the value's dynamic
// type through reflection on every call, where a type switch on the value
// handles the common types directly.
var SprintfAny = &analysis.Analyzer{
	Name: "sprintfany",
	Doc:  "fmt.Sprintf of one verb on an interface value, where a type switch would format the common types directly",
	Run:  runSprintfAny,
}

func runSprintfAny(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) != 2 || !isFunc(pass, c, "fmt", "", "Sprintf") {
				return true
			}
			tv := pass.TypesInfo.Types[c.Args[0]]
			if tv.Value == nil || tv.Value.Kind() != constant.String {
				return true
			}
			format := constant.StringVal(tv.Value)
			t := pass.TypesInfo.TypeOf(c.Args[1])
			value := t != nil && isNamed(t, "reflect", "Value")
			if t == nil || !types.IsInterface(t) && !value {
				return true
			}
			arg := oneLine(types.ExprString(c.Args[1]))
			what := "an interface value"
			if value {
				what = "the value a reflect.Value holds"
			}
			var common string
			switch {
			case value && (format == "%v" || format == "%s" || format == "%d"):
				// fmt formats what a reflect.Value holds, through
				// reflection again; Kind says what it holds.
				common = fmt.Sprintf("a switch on %s.Kind(): %s.String() for a string, strconv.FormatInt(%s.Int(), 10) for an int (a kind whose type has no methods, NumMethod() == 0, so no String method changes what %%v prints)", arg, arg, arg)
			case format == "%d":
				common = "an int with strconv.Itoa, an int64 with strconv.FormatInt"
			case format == "%s" || format == "%v":
				common = "a string as is, a fmt.Stringer with its String method"
			default:
				return true
			}
			pass.Report(analysis.Diagnostic{
				Category: "sprintf-any",
				Pos:      c.Pos(),
				Message:  fmt.Sprintf("fmt.Sprintf(%q, %s) formats %s: fmt finds its dynamic type through reflection, and allocates, on every call", format, arg, what),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"a type switch on %s before formatting: %s; fmt only for the other types", arg, common)}},
			})
			return true
		})
	})
	return nil, nil
}

// MethodByName finds reflect's MethodByName: a search of the type's
// methods by name on every call, which a type without methods never
// needs and a cache per type and name does once. FieldByName is the same
// search of a struct's fields ("field-by-name").
var MethodByName = &analysis.Analyzer{
	Name: "methodbyname",
	Doc:  "reflect's MethodByName on every call, where a check of NumMethod or a cache per type would do",
	Run:  runMethodByName,
}

func runMethodByName(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		// The lookups of one function on one value: a second lookup
		// (another spelling of the name) is a related line.
		byRecv := map[string][]*ast.CallExpr{}
		var order []string
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false // its own function
			}
			c, ok := n.(*ast.CallExpr)
			if ok && len(c.Args) == 1 && isFunc(pass, c, "reflect", "", "FieldByName") {
				fieldByName(pass, c)
				return true
			}
			if !ok || len(c.Args) != 1 || !isFunc(pass, c, "reflect", "", "MethodByName") {
				return true
			}
			recv := types.ExprString(c.Fun.(*ast.SelectorExpr).X)
			if byRecv[recv] == nil {
				order = append(order, recv)
			}
			byRecv[recv] = append(byRecv[recv], c)
			return true
		})
		for _, recv := range order {
			calls := byRecv[recv]
			for i, c := range calls {
				says := fmt.Sprintf("%s.MethodByName(%s) searches the type's methods by name on every call", oneLine(recv), oneLine(types.ExprString(c.Args[0])))
				if _, built := ast.Unparen(c.Args[0]).(*ast.CallExpr); built {
					says += ", with a name it builds first"
				}
				d := analysis.Diagnostic{
					Category: "method-by-name",
					Pos:      c.Pos(),
					Message:  says,
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"return before the lookups when the type has no methods (%s.NumMethod() == 0), and cache what they find per type and name (a map from the reflect.Type and name to the method's index, then %s.Method(i))", oneLine(recv), oneLine(recv))}},
				}
				for j, o := range calls {
					if j != i {
						d.Related = append(d.Related, analysis.RelatedInformation{Pos: o.Pos(), Message: "the same lookup on " + oneLine(recv)})
					}
				}
				pass.Report(d)
			}
		}
	})
	return nil, nil
}

// fieldByName reports x.FieldByName(name): a search of the struct's
// fields, embedded ones included, on every call, for an index that is the
// same for every value of the type.
func fieldByName(pass *analysis.Pass, c *ast.CallExpr) {
	recv := c.Fun.(*ast.SelectorExpr).X
	x := oneLine(types.ExprString(recv))
	name := oneLine(types.ExprString(c.Args[0]))
	advice := fmt.Sprintf("look it up once per type and name and keep the StructField (a map from the reflect.Type and %s)", name)
	if isNamed(pass.TypesInfo.TypeOf(recv), "reflect", "Value") {
		advice = fmt.Sprintf("look the field's index up once per type and name (%s.Type().FieldByName(%s) gives it; keep it in a map from the reflect.Type and %s), then %s.FieldByIndex(index)", x, name, name, x)
	}
	pass.Report(analysis.Diagnostic{
		Category:       "field-by-name",
		Pos:            c.Pos(),
		Message:        fmt.Sprintf("%s.FieldByName(%s) searches the struct's fields (embedded ones too) by name on every call, for an index that is the same for every value of the type", x, name),
		SuggestedFixes: []analysis.SuggestedFix{{Message: advice}},
	})
}

// MapKeysIndex finds a loop over v.MapKeys(): MapKeys copies every key
// into a new []reflect.Value, and a v.MapIndex(k) in the loop hashes each
// key again to find its value. v.MapRange iterates keys and values in one
// pass without the slice.
var MapKeysIndex = &analysis.Analyzer{
	Name: "mapkeysindex",
	Doc:  "a loop over reflect's MapKeys, looking each value up again with MapIndex",
	Run:  runMapKeysIndex,
}

func runMapKeysIndex(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			r, ok := n.(*ast.RangeStmt)
			if !ok {
				return true
			}
			c, ok := ast.Unparen(r.X).(*ast.CallExpr)
			if !ok || len(c.Args) != 0 || !isFunc(pass, c, "reflect", "Value", "MapKeys") {
				return true
			}
			m := oneLine(types.ExprString(c.Fun.(*ast.SelectorExpr).X))
			key, _ := r.Value.(*ast.Ident)
			fset := pass.Fset
			d := analysis.Diagnostic{
				Category: "map-keys-index",
				Pos:      c.Pos(),
				Message:  fmt.Sprintf("the loop at lines %d–%d ranges over %s.MapKeys(), which copies every key into a new []reflect.Value", fset.Position(r.Pos()).Line, fset.Position(r.End()).Line, m),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"iterate with iter := %s.MapRange() (iter.Key(), iter.Value()): one pass, no slice of keys", m)}},
			}
			if key != nil {
				ast.Inspect(r.Body, func(n ast.Node) bool {
					ic, ok := n.(*ast.CallExpr)
					if !ok || len(ic.Args) != 1 || !isFunc(pass, ic, "reflect", "Value", "MapIndex") {
						return true
					}
					if id, ok := ast.Unparen(ic.Args[0]).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == pass.TypesInfo.Defs[key] {
						d.Related = append(d.Related, analysis.RelatedInformation{Pos: ic.Pos(), Message: "the value looked up again"})
					}
					return true
				})
			}
			if len(d.Related) > 0 {
				d.Message += fmt.Sprintf(", and looks each key's value up again with %s.MapIndex(%s) (line %d)", m, key.Name, fset.Position(d.Related[0].Pos).Line)
				d.SuggestedFixes[0].Message += ", no second lookup"
			}
			pass.Report(d)
			return true
		})
	})
	return nil, nil
}

// MapIndexValue finds reflect's MapIndex with a key made by reflect.ValueOf
// in the same function: every lookup boxes the key and hashes it through
// the map's type, where a type assertion to the map types the callers
// pass indexes the map directly.
var MapIndexValue = &analysis.Analyzer{
	Name: "mapindexvalue",
	Doc:  "reflect's MapIndex with a key boxed by reflect.ValueOf on every lookup",
	Run:  runMapIndexValue,
}

func runMapIndexValue(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		// The locals made by reflect.ValueOf, with the call.
		made := map[types.Object]*ast.CallExpr{}
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, r := range as.Rhs {
				c, ok := ast.Unparen(r).(*ast.CallExpr)
				id, isID := as.Lhs[i].(*ast.Ident)
				if ok && isID && len(c.Args) == 1 && isFunc(pass, c, "reflect", "", "ValueOf") {
					if obj := pass.TypesInfo.ObjectOf(id); obj != nil {
						made[obj] = c
					}
				}
			}
			return true
		})
		ast.Inspect(body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) != 1 || !isFunc(pass, c, "reflect", "Value", "MapIndex") {
				return true
			}
			key := ast.Unparen(c.Args[0])
			valueOf, _ := key.(*ast.CallExpr)
			if valueOf == nil || !isFunc(pass, valueOf, "reflect", "", "ValueOf") || len(valueOf.Args) != 1 {
				valueOf = nil
				if id, ok := key.(*ast.Ident); ok {
					valueOf = made[pass.TypesInfo.ObjectOf(id)]
				}
			}
			if valueOf == nil {
				return true
			}
			m := oneLine(types.ExprString(c.Fun.(*ast.SelectorExpr).X))
			k := oneLine(types.ExprString(valueOf.Args[0]))
			kt := "key"
			if t := pass.TypesInfo.TypeOf(valueOf.Args[0]); t != nil {
				kt = types.TypeString(t, types.RelativeTo(pass.Pkg)) + " key"
			}
			d := analysis.Diagnostic{
				Category: "reflect-map-index",
				Pos:      c.Pos(),
				Message:  fmt.Sprintf("%s.MapIndex looks the %s %s up through reflection: reflect.ValueOf boxes it and MapIndex hashes it through the map's type, on every lookup", m, kt, k),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"a fast path by type assertion for the map types the callers pass (mm, ok := %s.Interface().(map[string]interface{}); then mm[%s]), reflection only for the others", m, k)}},
			}
			if valueOf != key {
				d.Related = []analysis.RelatedInformation{{Pos: valueOf.Pos(), Message: "the key boxed by reflect.ValueOf"}}
			}
			pass.Report(d)
			return true
		})
	})
	return nil, nil
}

// ReflectCall finds reflect's Value.Call: a call whose arguments and
// results pass through slices of reflect.Value, checked against the
// function's type on every call, where a type assertion to the
// signatures the function usually has calls it directly.
var ReflectCall = &analysis.Analyzer{
	Name: "reflectcall",
	Doc:  "a function called through reflect.Value.Call",
	Run:  runReflectCall,
}

func runReflectCall(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) != 1 || !isFunc(pass, c, "reflect", "Value", "Call") {
				return true
			}
			fv := oneLine(types.ExprString(c.Fun.(*ast.SelectorExpr).X))
			pass.Report(analysis.Diagnostic{
				Category: "reflect-call",
				Pos:      c.Pos(),
				Message:  fmt.Sprintf("%s.Call(%s) calls the function through reflection: its arguments and results pass through []reflect.Value and are checked against its type on every call", fv, oneLine(types.ExprString(c.Args[0]))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"type-assert the function to the signatures it usually has, once where it is stored (f, ok := %s.Interface().(func(…) …)), and call those directly; reflect.Value.Call only for the others", fv)}},
			})
			return true
		})
	})
	return nil, nil
}

// isFunc reports whether c calls the function or method name of package
// pkg (on type recv, when recv is not empty).
func isFunc(pass *analysis.Pass, c *ast.CallExpr, pkg, recv, name string) bool {
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != pkg {
		return false
	}
	if recv == "" {
		return true
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() != nil && isNamed(sig.Recv().Type(), pkg, recv)
}
