package rewrite

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Analyzers are the rewrites as go/analysis analyzers, one per kind
// (Name is the kind without its dash: KindOf gives it back), over the types of the build the caller loaded (its
// tags and its Go version): each reports a diagnostic at the line At
// would give, whose Category is the shape of the code (Rewrite.Shape),
// Message what the code does there (Says), Related the other lines the
// rewrite edits, and one suggested fix whose message is the advice and
// whose edit is the rewrite, gofmt'd: the bytes from the first change to
// the last. Test files are read for the names in use but never
// rewritten.
var Analyzers = func() []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, kind := range Kinds {
		out = append(out, &analysis.Analyzer{
			Name: strings.ReplaceAll(kind, "-", ""),
			Doc:  "perfloop fix's " + kind + " rewrite (see the package doc of internal/rewrite)",
			Run:  func(pass *analysis.Pass) (any, error) { return nil, runKind(pass, kind) },
		})
	}
	return out
}()

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

// runKind reports the rewrites of one kind in the pass's files.
func runKind(pass *analysis.Pass, kind string) error {
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
	for i := range files {
		u := p.unit(i, paths[i], srcs[i])
		for _, c := range u.candidates() {
			if c.kind != kind {
				continue
			}
			r, err := u.apply(c)
			if err != nil {
				continue // an edit that does not parse: propose nothing
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
			if e, ok := wholeEdit(u.tf, r.Before, r.After); ok {
				d.SuggestedFixes = []analysis.SuggestedFix{{Message: c.advice, TextEdits: []analysis.TextEdit{e}}}
			}
			pass.Report(d)
		}
	}
	return nil
}

// wholeEdit is the one edit that turns before into after: the bytes from
// their first difference to their last.
func wholeEdit(tf *token.File, before, after []byte) (analysis.TextEdit, bool) {
	if bytes.Equal(before, after) || tf.Size() != len(before) {
		return analysis.TextEdit{}, false
	}
	i := 0
	for i < len(before) && i < len(after) && before[i] == after[i] {
		i++
	}
	j := 0
	for j < len(before)-i && j < len(after)-i && before[len(before)-1-j] == after[len(after)-1-j] {
		j++
	}
	return analysis.TextEdit{
		Pos:     tf.Pos(i),
		End:     tf.Pos(len(before) - j),
		NewText: after[i : len(after)-j],
	}, true
}
