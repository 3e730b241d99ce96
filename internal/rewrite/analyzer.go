package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Analyzers are the rewrites as go/analysis analyzers, one per kind
// (Name is the kind without its dash: KindOf gives it back), over the
// types of the build the caller loaded (its tags and its Go version):
// each reports a diagnostic at the line of the site, whose Category is
// the shape of the code, Message what the code does there, Related the
// other lines the rewrite edits, and one suggested fix whose message is
// the advice and whose edits are the rewrite — each change where it is
// made, and the import the new code needs (an import left unused is for
// the driver to remove, as go/analysis drivers do; Apply does). Test
// files are read for the names in use but never rewritten. The rules of
// every kind run once per package (one shared analysis), so that the
// names two rewrites introduce never collide.
var Analyzers = func() []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, kind := range Kinds {
		out = append(out, &analysis.Analyzer{
			Name:     strings.ReplaceAll(kind, "-", ""),
			Doc:      "perfloop fix's " + kind + " rewrite (see the package doc of internal/rewrite)",
			Requires: []*analysis.Analyzer{found},
			Run: func(pass *analysis.Pass) (any, error) {
				for _, d := range pass.ResultOf[found].(sites)[kind] {
					pass.Report(d)
				}
				return nil, nil
			},
		})
	}
	return out
}()

// Kinds are the rewrites this package knows, in the order the rules run
// on one function.
var Kinds = []string{"presize", "builder", "strconv", "hoist-const", "hoist-alloc", "field", "grow", "sortfunc", "regexp-once", "outside-lock", "bufio"}

// KindOf returns the rewrite kind of one of Analyzers ("hoist-const"),
// or "" for any other analyzer.
func KindOf(a *analysis.Analyzer) string {
	for i, b := range Analyzers {
		if a == b {
			return Kinds[i]
		}
	}
	return ""
}

// ForReview reports whether a rewrite of the kind changes a type's fields
// or an exported signature: it is written for review, never applied
// automatically.
func ForReview(kind string) bool { return kind == "field" }

// sites are the diagnostics of one package's rewrites, by kind.
type sites map[string][]analysis.Diagnostic

// found runs every rule over the package once.
var found = &analysis.Analyzer{
	Name:       "rewritesites",
	Doc:        "the sites of every rewrite of perfloop fix, by kind",
	Run:        runRules,
	ResultType: reflect.TypeOf(sites(nil)),
}

func runRules(pass *analysis.Pass) (any, error) {
	var files []*ast.File
	var paths []string
	var srcs [][]byte
	names := map[string]bool{}
	for _, f := range pass.Files {
		addNames(names, f)
		path := pass.Fset.File(f.Pos()).Name()
		if strings.HasSuffix(path, "_test.go") || !strings.HasSuffix(path, ".go") {
			continue
		}
		src, err := pass.ReadFile(path)
		if err != nil {
			continue
		}
		files = append(files, f)
		paths = append(paths, path)
		srcs = append(srcs, src)
	}
	gv := ""
	if pass.Module != nil && pass.Module.GoVersion != "" {
		gv = "go" + pass.Module.GoVersion
	}
	info := pass.TypesInfo
	if info == nil {
		info = &types.Info{}
	}
	p := &pkg{fset: pass.Fset, files: files, info: info, types: pass.Pkg, names: names, goVersion: gv}
	out := sites{}
	for i := range files {
		u := p.unit(i, paths[i], srcs[i])
		for _, c := range u.candidates() {
			d, ok := u.diagnostic(c)
			if ok {
				out[c.kind] = append(out[c.kind], d)
			}
		}
	}
	return out, nil
}

// diagnostic reports a candidate: its edits, and the imports it needs,
// as a suggested fix. A candidate whose edits do not give a file that
// parses is not reported.
func (u *unit) diagnostic(c candidate) (analysis.Diagnostic, bool) {
	edits := slices.Clone(c.edits)
	for _, path := range c.imports {
		if e, ok := u.importEdit(path); ok {
			edits = append(edits, e)
		}
	}
	var changes []Change
	var text []analysis.TextEdit
	for _, e := range edits {
		changes = append(changes, Change{Start: u.off(e.pos), End: u.off(e.end), New: []byte(e.text)})
		text = append(text, analysis.TextEdit{Pos: e.pos, End: e.end, NewText: []byte(e.text)})
	}
	if _, err := Apply(u.path, u.src, changes); err != nil {
		return analysis.Diagnostic{}, false
	}
	d := analysis.Diagnostic{
		Pos:      u.tf.LineStart(c.line),
		Category: c.shape,
		Message:  c.says,
	}
	for _, l := range c.lines() {
		if l != c.line {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: u.tf.LineStart(l), Message: "the rewrite edits this line too"})
		}
	}
	for _, l := range c.about {
		if !slices.Contains(c.lines(), l) {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: u.tf.LineStart(l), Message: "the rewrite removes cost charged to this line"})
		}
	}
	d.SuggestedFixes = []analysis.SuggestedFix{{Message: c.advice, TextEdits: text}}
	return d, true
}

// importEdit is the edit that imports path into the file, false when the
// file imports it already: a line in the first import block, or an
// import declaration of its own after the package clause.
func (u *unit) importEdit(path string) (edit, bool) {
	if importOf(u.file, path) != nil {
		return edit{}, false
	}
	spec := strconv.Quote(path)
	for _, d := range u.file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		if g.Lparen.IsValid() && len(g.Specs) > 0 {
			pos := g.Specs[0].Pos()
			return edit{pos: pos, end: pos, text: spec + "\n\t"}, true
		}
		return edit{pos: g.End(), end: g.End(), text: "\nimport " + spec}, true
	}
	end := u.file.Name.End()
	return edit{pos: end, end: end, text: "\n\nimport " + spec}, true
}
