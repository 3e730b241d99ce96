package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// WideKey finds a sync.Map looked up with a struct key of several words
// (hamba/avro's decoder cache: Load(cacheKey{fingerprint: [32]byte,
// rtype: uintptr}), once per Marshal, Unmarshal, Encode or Decode): the
// key is boxed into an interface and hashed field by field through the
// interface's type on every call, 40 bytes of it there, and compared the
// same way. The lookup is the cache; what a caller can skip is the hash,
// by keeping the last key and its value and comparing before the lookup
// (a Decoder's schema, fixed for its life, makes most calls hit it).
var WideKey = &analysis.Analyzer{
	Name: "widekey",
	Doc:  "a sync.Map looked up with a struct key of several words, hashed through an interface per call",
	Run:  runWideKey,
}

// wideKeyBytes is the size from which a struct key's hash is more than a
// word's.
const wideKeyBytes = 24

func runWideKey(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Load" && sel.Sel.Name != "LoadOrStore" {
				return
			}
			if !isNamed(pass.TypesInfo.TypeOf(sel.X), "sync", "Map") {
				return
			}
			key := call.Args[0]
			t := pass.TypesInfo.TypeOf(key)
			if t == nil || types.IsInterface(t) {
				return
			}
			st, ok := t.Underlying().(*types.Struct)
			if !ok {
				return
			}
			size := pass.TypesSizes.Sizeof(t)
			if size < wideKeyBytes {
				return
			}
			var fields []string
			for i := range st.NumFields() {
				f := st.Field(i)
				fields = append(fields, f.Name()+" "+types.TypeString(f.Type(), types.RelativeTo(pass.Pkg)))
			}
			pass.Report(analysis.Diagnostic{
				Category: "sync-map-wide-key",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s looks %s up with %s, a %d-byte %s {%s}: the key is boxed into an interface and hashed and compared field by field on every call",
					fd.Name.Name, oneLine(text(pass, sel.X)), oneLine(text(pass, key)), size, types.TypeString(t, types.RelativeTo(pass.Pkg)), strings.Join(fields, "; ")),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "the lookup is the cache; the hash of a key this wide is what a caller can skip: keep the last key and its value where the calls come from (a value whose part of the key is fixed for its life, as an encoder's or a decoder's schema is) and compare before the lookup, or key the map by one pointer the key's parts already hang from"}},
			})
		})
	})
	return nil, nil
}
