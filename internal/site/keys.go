package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// MapKeyBuilt finds a map indexed with a string key built on the spot —
// concatenated (a + "/" + b) or formatted (fmt.Sprint*) in the index or in
// a local the index reads — from parts that could be the fields of a
// struct key: every lookup builds a string, and hashes it, only to find
// the entry.
var MapKeyBuilt = &analysis.Analyzer{
	Name: "mapkeybuilt",
	Doc:  "a map indexed with a string key concatenated or formatted for the lookup",
	Run:  runMapKeyBuilt,
}

func runMapKeyBuilt(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		// Locals assigned a built string: key := a + "/" + b.
		built := map[types.Object]ast.Expr{}
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			id, ok := as.Lhs[0].(*ast.Ident)
			if !ok {
				return true
			}
			if obj := pass.TypesInfo.ObjectOf(id); obj != nil && buildsString(pass, as.Rhs[0]) {
				if _, seen := built[obj]; !seen {
					built[obj] = as.Rhs[0]
				} else {
					built[obj] = nil // assigned twice: no one expression
				}
			}
			return true
		})
		reported := map[string]bool{}
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if call, ok := n.(*ast.CallExpr); ok {
				syncMapKeyBuilt(pass, call, built, reported)
				return true
			}
			ix, ok := n.(*ast.IndexExpr)
			if !ok {
				return true
			}
			m, ok := valueTypeUnder(pass, ix.X).(*types.Map)
			if !ok || !isString(m.Key()) {
				return true
			}
			key := ast.Unparen(ix.Index)
			expr := key
			if id, ok := key.(*ast.Ident); ok {
				e, ok := built[pass.TypesInfo.ObjectOf(id)]
				if !ok || e == nil {
					return true
				}
				expr = e
			} else if !buildsString(pass, key) {
				return true
			}
			mapText := types.ExprString(ix.X)
			if reported[mapText] {
				return true
			}
			reported[mapText] = true
			parts := keyParts(pass, expr)
			pass.Report(analysis.Diagnostic{
				Pos:      ix.Pos(),
				Category: "map-key-built",
				Message: fmt.Sprintf("the key of %s is built on every lookup (%s): building the string and hashing it cost as much as the lookup",
					mapText, oneLine(types.ExprString(expr))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"key the map with a struct of the parts (map[struct{ %s }]…, or a small integer per part): no string is built, and the key hashes its fields", parts)}},
			})
			return true
		})
	})
	return nil, nil
}

// syncMapKeyBuilt reports a sync.Map looked up with a string key built
// for the lookup (a cache keyed by input + "\x00" + strings.Join(groups,
// "\x00")): the shape is at the key's building, where the allocation is.
func syncMapKeyBuilt(pass *analysis.Pass, call *ast.CallExpr, built map[types.Object]ast.Expr, reported map[string]bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) == 0 || !isNamed(pass.TypesInfo.TypeOf(sel.X), "sync", "Map") {
		return
	}
	switch sel.Sel.Name {
	case "Load", "LoadOrStore", "LoadAndDelete", "Swap", "CompareAndSwap":
	default:
		return
	}
	key := ast.Unparen(call.Args[0])
	expr := key
	if id, ok := key.(*ast.Ident); ok {
		e, ok := built[pass.TypesInfo.ObjectOf(id)]
		if !ok || e == nil {
			return
		}
		expr = e
	} else if !buildsString(pass, key) {
		return
	}
	mapText := types.ExprString(sel.X)
	if reported[mapText] {
		return
	}
	reported[mapText] = true
	pass.Report(analysis.Diagnostic{
		Pos:      expr.Pos(),
		Category: "map-key-built",
		Message: fmt.Sprintf("the key of the sync.Map %s is built on every lookup (%s): building the string costs as much as the lookup it serves, hit or miss",
			mapText, oneLine(types.ExprString(expr))),
		Related:        []analysis.RelatedInformation{{Pos: call.Pos(), Message: "the lookup"}},
		SuggestedFixes: []analysis.SuggestedFix{{Message: "keep what the lookup finds beside the parts the key is built from (on the value that holds them), and look it up again only when they change; or key the cache with a struct of the parts"}},
	})
}

// buildsString reports whether e makes a new string from parts: a
// concatenation with a non-constant operand, or a call of fmt.Sprint,
// Sprintf or Sprintln.
func buildsString(pass *analysis.Pass, e ast.Expr) bool {
	e = ast.Unparen(e)
	if !isString(pass.TypesInfo.TypeOf(e)) {
		return false
	}
	if tv, ok := pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		return false // a constant
	}
	switch x := e.(type) {
	case *ast.BinaryExpr:
		return x.Op == token.ADD
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
			if fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && strings.HasPrefix(fn.Name(), "Sprint") {
				return true
			}
		}
	}
	return false
}

// keyParts names the non-constant operands of a built key, for the
// struct's fields: "e.Region, e.Tier".
func keyParts(pass *analysis.Pass, e ast.Expr) string {
	var parts []string
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		e = ast.Unparen(e)
		if tv, ok := pass.TypesInfo.Types[e]; ok && tv.Value != nil {
			return
		}
		switch x := e.(type) {
		case *ast.BinaryExpr:
			walk(x.X)
			walk(x.Y)
			return
		case *ast.CallExpr:
			// e.Region.String() → e.Region; fmt.Sprintf(f, a, b) → a, b.
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && len(x.Args) == 0 && sel.Sel.Name == "String" {
				parts = append(parts, types.ExprString(sel.X))
				return
			}
			if buildsString(pass, x) {
				for _, a := range x.Args[1:] {
					walk(a)
				}
				return
			}
		}
		parts = append(parts, types.ExprString(e))
	}
	walk(e)
	if len(parts) > 4 {
		parts = append(parts[:4], "…")
	}
	return strings.Join(parts, ", ")
}

func isString(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// FieldsCounted finds the words of a string split into a slice only to
// count them: len(strings.Fields(s)), len(strings.Split(s, sep)).
var FieldsCounted = &analysis.Analyzer{
	Name: "fieldscounted",
	Doc:  "a string split into a slice of words only to take its length",
	Run:  runFieldsCounted,
}

func runFieldsCounted(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) != 1 {
				return true
			}
			if id, ok := c.Fun.(*ast.Ident); !ok || id.Name != "len" {
				return true
			}
			if b, ok := pass.TypesInfo.Uses[c.Fun.(*ast.Ident)].(*types.Builtin); !ok || b.Name() != "len" {
				return true
			}
			inner, ok := ast.Unparen(c.Args[0]).(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := inner.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || (fn.Pkg().Path() != "strings" && fn.Pkg().Path() != "bytes") {
				return true
			}
			var advice string
			switch fn.Name() {
			case "Fields":
				advice = "count the words without building them: walk the bytes and count where a word starts (a space followed by a non-space), or range over " + fn.Pkg().Name() + ".FieldsSeq (Go 1.24), which builds no slice"
			case "Split":
				advice = fmt.Sprintf("count them without building them: %s.Count(s, sep) + 1 is the number of parts Split returns", fn.Pkg().Name())
			default:
				return true
			}
			pass.Report(analysis.Diagnostic{
				Pos:            c.Pos(),
				Category:       "fields-counted",
				Message:        fmt.Sprintf("%s builds a slice of every part only to count them", oneLine(types.ExprString(c))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: advice}},
			})
			return true
		})
	})
	return nil, nil
}

// ReadAll finds io.ReadAll (and ioutil.ReadAll): it grows its buffer by
// doubling and copying as it reads, and holds the whole input in memory.
var ReadAll = &analysis.Analyzer{
	Name: "readall",
	Doc:  "io.ReadAll of a reader whose contents are then processed",
	Run:  runReadAll,
}

func runReadAll(pass *analysis.Pass) (any, error) {
	wrapped := readerWrappers(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) != 1 {
				return true
			}
			sel, ok := c.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "ReadAll" {
				return true
			}
			fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || (fn.Pkg().Path() != "io" && fn.Pkg().Path() != "io/ioutil") {
				return true
			}
			arg := oneLine(types.ExprString(c.Args[0]))
			fix := "when the work can go piece by piece, stream the input through one fixed buffer (r.Read into a reused []byte, or a bufio.Reader); when it needs it all, size the buffer from the source's length (a file's Stat().Size(), a bytes.Reader's Len()) and read into it with io.ReadFull"
			var rel []analysis.RelatedInformation
			if w, ok := wrapped[readerField(pass, fd, c.Args[0])]; ok {
				fix = fmt.Sprintf("%s (line %d) already has its input in memory and wraps it in %s for %s, which io.ReadAll copies back here: parse the %s directly there (a decode path that takes it as it is) instead of reading it back through io.ReadAll, and keep io.ReadAll for other readers",
					w.fn, pass.Fset.Position(w.call.Pos()).Line, w.reader, w.ctor, w.kind)
				rel = append(rel, analysis.RelatedInformation{Pos: w.call.Pos(), Message: "where the input is wrapped in a reader"})
			}
			pass.Report(analysis.Diagnostic{
				Pos:            c.Pos(),
				Category:       "readall",
				Message:        fmt.Sprintf("io.ReadAll(%s) reads the whole input into one buffer it grows by doubling, copying what it has read each time", arg),
				Related:        rel,
				SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
			})
			return true
		})
	})
	return nil, nil
}

// A readerWrap is a call that hands a constructor its input wrapped in a
// reader: NewDecoder(strings.NewReader(data)).
type readerWrap struct {
	call   *ast.CallExpr
	fn     string // the function that makes the call: "Decode"
	ctor   string // "NewDecoder"
	reader string // "a strings.Reader"
	kind   string // "string" or "bytes"
}

// readerWrappers finds, by the struct type a constructor returns, the
// first call in the package that gives it a strings.Reader or a
// bytes.Reader of input the caller already holds.
func readerWrappers(pass *analysis.Pass) map[*types.Named]readerWrap {
	out := map[*types.Named]readerWrap{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) == 0 {
				return true
			}
			ctor := calleeFunc(pass, c)
			if ctor == nil || ctor.Pkg() != pass.Pkg {
				return true
			}
			res := ctor.Type().(*types.Signature).Results()
			if res.Len() == 0 {
				return true
			}
			named := pointedStruct(res.At(0).Type())
			if named == nil {
				return true
			}
			for _, a := range c.Args {
				inner, ok := ast.Unparen(a).(*ast.CallExpr)
				if !ok {
					continue
				}
				rf := calleeFunc(pass, inner)
				if rf == nil || rf.Name() != "NewReader" || rf.Pkg() == nil || (rf.Pkg().Path() != "strings" && rf.Pkg().Path() != "bytes") {
					continue
				}
				if _, seen := out[named.Origin()]; !seen {
					kind := map[string]string{"strings": "string", "bytes": "bytes"}[rf.Pkg().Path()]
					out[named.Origin()] = readerWrap{call: c, fn: fd.Name.Name, ctor: ctor.Name(), reader: "a " + rf.Pkg().Path() + ".Reader", kind: kind}
				}
			}
			return true
		})
	})
	return out
}

// readerField returns the named struct type whose field a method reads
// its input from (dec.r in a method of *Decoder), or nil.
func readerField(pass *analysis.Pass, fd *ast.FuncDecl, e ast.Expr) *types.Named {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
		return nil
	}
	if v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var); !ok || !v.IsField() {
		return nil
	}
	if n := recvNamed(pass, fd); n != nil {
		return n.Origin()
	}
	return nil
}
