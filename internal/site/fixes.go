package site

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/perfloop/perfloop/internal/rewrite"
)

// Fix is a suggested fix one of Fixers makes at a line of the module's
// non-test code: a candidate of perfloop fix.
type Fix struct {
	// Rewrite names it (RewriteOf); Shape is the diagnostic's category
	// (the analyzer's name when it has none).
	Rewrite, Shape string
	// File is relative to the module root; Line is the diagnostic's.
	File string
	Line int
	// Lines are every line the fix is about: the diagnostic's, its
	// related lines and the lines its edits start and end on.
	Lines []int
	// Function is the function the line is in, named as profiles name
	// it.
	Function string
	// Says is what the code does there (the diagnostic's message),
	// Advice the fix's message.
	Says, Advice string
	// Edits are the fix's changes to the file as loaded, but those of
	// its import declarations: rewrite.Apply imports what the new code
	// names, so that the changes of several fixes to one file go
	// together without two edits of one import block.
	Edits []rewrite.Change
}

// Fixes runs the analyzers (Fixers when nil) over the program's packages
// and returns their suggested fixes with edits in the module's non-test
// files, once each (a file is in a package and in its test variant), in
// file and line order: one type check per package, shared by every
// analyzer and every fix in it.
func (p *Program) Fixes(analyzers []*analysis.Analyzer) ([]Fix, error) {
	if analyzers == nil {
		analyzers = Fixers
	}
	g, err := checker.Analyze(analyzers, p.Packages, &checker.Options{Sequential: true})
	if err != nil {
		return nil, fmt.Errorf("run the fixers: %w", err)
	}
	seen := map[string]bool{}
	var out []Fix
	for act := range g.All() {
		rw := RewriteOf(act.Analyzer)
		if !act.IsRoot || act.Err != nil || rw == "" {
			continue
		}
		for _, d := range act.Diagnostics {
			if len(d.SuggestedFixes) == 0 || len(d.SuggestedFixes[0].TextEdits) == 0 {
				continue
			}
			fset := act.Package.Fset
			pos := fset.Position(d.Pos)
			if strings.HasSuffix(pos.Filename, "_test.go") || !strings.HasSuffix(pos.Filename, ".go") {
				continue
			}
			f := Fix{
				Rewrite:  rw,
				Shape:    cmp.Or(d.Category, act.Analyzer.Name),
				File:     p.Rel(pos.Filename),
				Line:     pos.Line,
				Function: funcName(act.Package, d.Pos),
				Says:     d.Message,
				Advice:   d.SuggestedFixes[0].Message,
			}
			lines := []int{pos.Line}
			for _, r := range d.Related {
				if rp := fset.Position(r.Pos); rp.Filename == pos.Filename {
					lines = append(lines, rp.Line)
				}
			}
			header := headerEnd(act.Package, pos.Filename)
			other := false
			for _, e := range d.SuggestedFixes[0].TextEdits {
				tf := fset.File(e.Pos)
				if tf == nil || tf.Name() != pos.Filename {
					other = true // an edit of another file: not one candidate's
					break
				}
				if header.IsValid() && e.End <= header {
					continue // the import declarations
				}
				lines = append(lines, tf.Line(e.Pos), tf.Line(e.End))
				f.Edits = append(f.Edits, rewrite.Change{Start: tf.Offset(e.Pos), End: tf.Offset(e.End), New: e.NewText})
			}
			if other || len(f.Edits) == 0 {
				continue
			}
			slices.Sort(lines)
			f.Lines = slices.Compact(lines)
			k := fmt.Sprintf("%s:%d %s %v", f.File, f.Line, f.Rewrite, f.Edits)
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b Fix) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Rewrite, b.Rewrite))
	})
	return out, nil
}

// headerEnd is the end of a file's import declarations (its package
// clause when it has none): an edit before it is an import's.
func headerEnd(pkg *packages.Package, filename string) token.Pos {
	for _, f := range pkg.Syntax {
		if pkg.Fset.File(f.Pos()).Name() != filename {
			continue
		}
		end := f.Name.End()
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.IMPORT {
				break
			}
			end = g.End()
		}
		return end
	}
	return token.NoPos
}

// Span is a function declaration of the module's non-test code: its file
// (relative to the module root), the lines it spans and its name as
// profiles name it.
type Span struct {
	File     string
	From, To int
	Function string
}

// Callees returns the functions of the module's non-test code that the
// calls at a line of a file call (statically: a function, or a method of
// a concrete type), each once.
func (p *Program) Callees(file string, line int) []Span {
	var out []Span
	for _, pkg := range p.Packages {
		for _, f := range pkg.Syntax {
			tf := pkg.Fset.File(f.Pos())
			if tf == nil || p.Rel(tf.Name()) != file || line > tf.LineCount() {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || tf.Line(call.Pos()) > line || tf.Line(call.End()) < line {
					return true
				}
				if fn, ok := typeutil.Callee(pkg.TypesInfo, call).(*types.Func); ok {
					if s, ok := p.declOf(fn); ok && !slices.Contains(out, s) {
						out = append(out, s)
					}
				}
				return true
			})
		}
	}
	return out
}

// declOf finds the declaration of a function in the program's non-test
// files.
func (p *Program) declOf(fn *types.Func) (Span, bool) {
	if fn.Pkg() == nil || !fn.Pos().IsValid() {
		return Span{}, false
	}
	fn = fn.Origin()
	// Positions compare by file and line: a function of another package
	// comes from its export data, with positions of their own.
	want := p.Fset.Position(fn.Pos())
	for _, pkg := range p.Packages {
		if pkg.Types == nil || pkg.Types.Path() != fn.Pkg().Path() {
			continue
		}
		for _, f := range pkg.Syntax {
			tf := pkg.Fset.File(f.Pos())
			if tf == nil || strings.HasSuffix(tf.Name(), "_test.go") {
				continue
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || pkg.TypesInfo.Defs[fd.Name] == nil {
					continue
				}
				if at := pkg.Fset.Position(fd.Name.Pos()); fd.Name.Name == fn.Name() && at.Line == want.Line && sameFile(at.Filename, want.Filename) {
					return Span{File: p.Rel(tf.Name()), From: tf.Line(fd.Pos()), To: tf.Line(fd.End()), Function: funcName(pkg, fd.Pos())}, true
				}
			}
		}
	}
	return Span{}, false
}

// sameFile reports whether two names are of one file: export data may
// name a file by its path alone.
func sameFile(a, b string) bool {
	return a == b || strings.HasSuffix(a, "/"+b) || strings.HasSuffix(b, "/"+a)
}
