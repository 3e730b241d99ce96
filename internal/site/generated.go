package site

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Generated marks a file the go command treats as generated (a comment
// "// Code generated … DO NOT EDIT." before the package clause): a change
// made there is lost when the file is generated again, so a fix at its
// lines belongs in its generator. paulmach/orb's vector_tile.pb.go, whose
// extension maps and scratch buffers both hand analyses fixed by hand and
// flagged "edit the generator".
var Generated = &analysis.Analyzer{
	Name: "generated",
	Doc:  "a file marked as generated",
	Run:  runGenerated,
}

func runGenerated(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		if isTest(pass, f) || !ast.IsGenerated(f) {
			continue
		}
		// The files the go command writes for a build (cgo's, in its
		// cache, named without .go) are no file of the module's.
		if name := pass.Fset.Position(f.Package).Filename; !strings.HasSuffix(name, ".go") {
			continue
		}
		pass.Report(analysis.Diagnostic{
			Category: "generated-file",
			Pos:      f.Package,
			Message:  fmt.Sprintf("%s is generated (Code generated … DO NOT EDIT)", filepath.Base(pass.Fset.Position(f.Package).Filename)),
		})
	}
	return nil, nil
}
