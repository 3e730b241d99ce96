package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// TypeCacheLookup finds a function of a reflect.Type that looks the type
// up in a cache (a sync.Map, or a map keyed by reflect.Type) before it
// works out whether the type implements interfaces (t.Implements): an
// encoder asking, for every value it writes, whether the value's type has
// a marshaler. The lookup hashes the type and compares it as an
// interface on every call, for types that cannot have a method at all
// (string, int64, bool, []any, map[string]any): those can answer before
// the lookup.
var TypeCacheLookup = &analysis.Analyzer{
	Name: "typecachelookup",
	Doc:  "a per-type cache of method-set answers looked up for every value, types without methods included",
	Run:  runTypeCacheLookup,
}

func runTypeCacheLookup(pass *analysis.Pass) (any, error) {
	for fd := range funcDecls(pass) {
		typeMapHit(pass, fd)
		t := reflectTypeParam(pass, fd)
		if t == nil {
			continue
		}
		if !callsMethod(fd.Body, "Implements") {
			typeCacheHit(pass, fd, t)
			continue
		}
		inspectBody(fd.Body, func(n ast.Node) {
			call, _ := n.(*ast.CallExpr)
			cache, ok := typeLoad(pass, call, t)
			if !ok {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "type-cache-lookup",
				Pos:      call.Pos(),
				Message:  fmt.Sprintf("%s looks %s up in %s (a sync.Map: the type hashed and compared as an interface) on every call, to learn what t's methods are; types that have none, the predeclared kinds and unnamed slices and maps of them, pay for the lookup too", fd.Name.Name, t.Name(), cache),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"answer the types that cannot have methods before the lookup: compare %s with the few it is called with most (string, int64, float64, bool, []any, map[string]any) or switch on an unnamed type's kind, and look up only the others", t.Name())}},
			})
		})
	}
	return nil, nil
}

// typeCacheHit reports a function of a reflect.Type whose first
// statement returns what a sync.Map holds for the type, and builds it
// only on a miss:
//
//	func getTypeInfo(t reflect.Type) *typeInfo {
//		if v, _ := typeInfoCache.Load(t); v != nil {
//			return v.(*typeInfo)
//		}
//
// On a hit the type's information is already cached: what a profile
// shows at the Load is the lookup itself (the type hashed and compared as
// an interface), the cache working as designed, with no change at the
// line ("cache it" is what it does).
func typeCacheHit(pass *analysis.Pass, fd *ast.FuncDecl, t *types.Var) {
	if len(fd.Body.List) == 0 {
		return
	}
	st, ok := fd.Body.List[0].(*ast.IfStmt)
	if !ok || st.Init == nil || !terminates(st.Body.List) {
		return
	}
	as, ok := st.Init.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return
	}
	call, _ := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	cache, ok := typeLoad(pass, call, t)
	if !ok {
		return
	}
	pass.Report(analysis.Diagnostic{
		Category: "type-cache-hit" + ownWork,
		Pos:      call.Pos(),
		Message: fmt.Sprintf("%s looks %s up in %s (a sync.Map keyed by the type) and works the entry out only on a miss: on a hit what it costs is the lookup itself, the type hashed and compared as an interface",
			fd.Name.Name, t.Name(), cache),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"the type's information is already cached: the lookup is the cache working as designed, and \"cache it\" is what it does: nothing to change at this line; where one caller looks the same type up for every value it walks, the caller can keep the answer (a field of the parent type's information) and call %s once per type; %s", fd.Name.Name, ownWorkWords)}},
	})
}

// typeMapHit reports the index of a map the function does not make
// itself by a key derived from a reflect.Type, the type or a one-argument
// call of it:
//
//	t := reflect.TypeOf(x)
//	cache := cacheLoad()
//	c, found := cache[typeid(t)]
//	if !found {
//		c = constructCachedCodec(t, cache)
//	}
//
// segmentio/encoding's json.Append and proto's loadCachedCodec: a
// copy-on-write map of codecs keyed by the type's pointer. The index is
// the cache's lookup: what a profile shows there (runtime.mapaccess) is
// the cache working as designed, and "work it out once per type and keep
// it" is what it does.
func typeMapHit(pass *analysis.Pass, fd *ast.FuncDecl) {
	made := map[types.Object]bool{} // maps the function makes: not a cache
	inspectBody(fd.Body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return
		}
		for i, l := range as.Lhs {
			switch r := ast.Unparen(as.Rhs[i]).(type) {
			case *ast.CompositeLit:
			case *ast.CallExpr:
				if !isBuiltin(pass, r.Fun, "make") {
					continue
				}
			default:
				continue
			}
			if v := objOf(pass, l); v != nil {
				made[v] = true
			}
		}
	})
	inspectBody(fd.Body, func(n ast.Node) {
		ix, ok := n.(*ast.IndexExpr)
		if !ok {
			return
		}
		if _, ok := pass.TypesInfo.TypeOf(ix.X).Underlying().(*types.Map); !ok || made[objOf(pass, ix.X)] {
			return
		}
		key := ast.Unparen(ix.Index)
		if call, ok := key.(*ast.CallExpr); ok && len(call.Args) == 1 && !isBuiltin(pass, call.Fun, "len") {
			key = ast.Unparen(call.Args[0])
		}
		v := objOf(pass, key)
		if v == nil || !isNamed(v.Type(), "reflect", "Type") {
			return
		}
		cache := text(pass, ix.X)
		pass.Report(analysis.Diagnostic{
			Category: "type-cache-hit" + ownWork,
			Pos:      ix.Pos(),
			Message: fmt.Sprintf("%s looks %s up in %s, a map keyed by the type (%s): the per-type cache itself, so what it costs on a hit is the lookup — the key hashed, the map probed",
				fd.Name.Name, v.Name(), cache, text(pass, ix.Index)),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"the type's entry is already cached: the lookup is the cache working as designed, and \"work it out once per type and keep it\" is what %s does: nothing to change at this line; where one caller looks the same type up for every value it walks, the caller can keep the answer and look up once per type; %s", cache, ownWorkWords)}},
		})
	})
}

// typeLoad reports whether call is cache.Load(t) on a sync.Map, and
// returns the cache's text.
func typeLoad(pass *analysis.Pass, call *ast.CallExpr, t *types.Var) (string, bool) {
	if call == nil || len(call.Args) != 1 || objOf(pass, call.Args[0]) != t {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Load" || !isNamed(pass.TypesInfo.TypeOf(sel.X), "sync", "Map") {
		return "", false
	}
	return text(pass, sel.X), true
}

// reflectTypeParam returns fd's parameter of type reflect.Type, if it
// has exactly one.
func reflectTypeParam(pass *analysis.Pass, fd *ast.FuncDecl) *types.Var {
	var found *types.Var
	for _, f := range fd.Type.Params.List {
		for _, name := range f.Names {
			v, _ := pass.TypesInfo.Defs[name].(*types.Var)
			if v != nil && isNamed(v.Type(), "reflect", "Type") {
				if found != nil {
					return nil
				}
				found = v
			}
		}
	}
	return found
}

// callsMethod reports whether body calls a method of that name.
func callsMethod(body *ast.BlockStmt, name string) bool {
	found := false
	inspectBody(body, func(n ast.Node) {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
				found = true
			}
		}
	})
	return found
}
