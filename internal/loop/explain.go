package loop

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/escape"
)

// Escapes runs the compiler's escape analysis on the suite's packages (go
// list -export -gcflags=-m=2 -test). It can run while the benchmarks are
// built: the go command caches each compile.
func Escapes(ctx context.Context, cfg Config) (*escape.Index, error) {
	return escape.Run(ctx, escape.Options{Tests: true, Tags: cfg.Tags}, cfg.patterns()...)
}

// Explain gives every allocation site of doc in the module its escape
// verdict and cause, from ix.
func Explain(ctx context.Context, doc *document.Report, ix *escape.Index) error {
	root, err := moduleRoot(ctx)
	if err != nil {
		return err
	}
	ex := escape.NewExplainer(ix, os.DirFS(root))
	for i := range doc.Allocations {
		a := &doc.Allocations[i]
		if a.File == "" || filepath.IsAbs(a.File) || strings.Contains(a.File, "runtime/") {
			continue
		}
		site := escape.Site{File: a.File, Line: int(a.Line), CallerFile: a.CallerFile, CallerLine: int(a.CallerLine)}
		if a.Via != "" {
			site.Callees = []string{a.Via}
		}
		x := ex.Explain(site)
		verdict := x.Verdict
		if verdict == "" {
			verdict = x.Reason
		}
		a.Escape = &document.Escape{Verdict: verdict, Flow: x.Flow, Cause: string(x.Cause), Reason: x.Reason, Name: x.Name, Fix: x.Fix}
	}
	return nil
}

// moduleRoot returns the directory of the main module's go.mod.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not in a module (no go.mod)")
	}
	return filepath.Dir(mod), nil
}
