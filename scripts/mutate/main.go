// Command mutate measures whether the tests bind the judgement's
// thresholds: for every field of findings.DefaultThresholds it rewrites
// the field's value in internal/findings/thresholds.go to twice and then
// half its default, runs the tests of findings and of the corpus
// (go test -count=1 ./internal/findings ./internal/judge) on each mutant,
// and does the same for check's cuts (findings.DefaultCheck in
// internal/findings/check.go, with the tests of internal/check's
// decisions); it prints, per field, whether a test failed (the mutant is
// killed) or all passed (it survives), then the kill ratio and the
// survivors, which are the thresholds no test pins yet.
//
// The mutants are made in a copy of the module in a temporary directory:
// the working tree is never written, and the copy is removed at the end,
// on a failure and on Ctrl-C. The unmutated copy is tested first: if its
// tests fail, no mutant means anything and mutate stops.
//
// Usage (from the repository root):
//
//	go run ./scripts/mutate [-only SiteMin,CPUMin] [-v]
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A set is one literal of thresholds: the file, the variable and its
// struct type, and the tests a mutant of it must fail.
type set struct {
	source, variable, typ string
	tests                 []string // go test arguments after -count=1
}

// sets are the judgement's thresholds: the report's (the findings package
// is their specification, the corpus their use) and check's cuts.
var sets = []set{
	{"internal/findings/thresholds.go", "DefaultThresholds", "Thresholds", []string{"./internal/findings", "./internal/judge"}},
	{"internal/findings/check.go", "DefaultCheck", "CheckThresholds", []string{"./internal/check"}},
}

var (
	only    = flag.String("only", "", "comma-separated fields to mutate (default all)")
	verbose = flag.Bool("v", false, "print the failing tests of each killed mutant")
)

// field is one entry of DefaultThresholds: its name and where its value
// is in the source.
type field struct {
	name       string
	value      string // the value's source text
	start, end int    // byte offsets of the value
}

// mutant is one rewrite of one field, and what the tests said.
type mutant struct {
	factor  float64
	value   string // the rewritten value
	killed  bool
	failing []string // the tests that failed
}

func main() {
	log.SetFlags(0)
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		stop()
		log.Print(err)
		if errors.Is(err, errInterrupted) {
			os.Exit(130)
		}
		os.Exit(1)
	}
}

var errInterrupted = errors.New("interrupted")

func run(ctx context.Context) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "perfloop-mutate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(root, tmp); err != nil {
		return fmt.Errorf("copy %s: %w", root, err)
	}
	total, killed := 0, 0
	var survivors, missing []string
	found := false
	for _, st := range sets {
		src, err := os.ReadFile(filepath.Join(root, st.source))
		if err != nil {
			return err
		}
		fields, miss, err := defaults(src, st)
		if err != nil {
			return fmt.Errorf("%s: %w", st.source, err)
		}
		for _, m := range miss {
			missing = append(missing, st.typ+"."+m)
		}
		if *only != "" {
			want := strings.Split(*only, ",")
			fields = slices.DeleteFunc(fields, func(f field) bool { return !slices.Contains(want, f.name) })
		}
		if len(fields) == 0 {
			continue
		}
		found = true
		fmt.Fprintf(os.Stderr, "testing the unmutated copy in %s: %s\n", tmp, strings.Join(st.tests, " "))
		if ok, out, err := test(ctx, tmp, st.tests); err != nil {
			return err
		} else if !ok {
			return fmt.Errorf("the tests fail without a mutation; fix them first:\n%s", out)
		}
		target := filepath.Join(tmp, st.source)
		results := map[string][]*mutant{}
		for _, f := range fields {
			for _, factor := range []float64{2, 0.5} {
				m := &mutant{factor: factor, value: scaled(f.value, factor)}
				text := slices.Concat(src[:f.start], []byte(m.value), src[f.end:])
				if err := os.WriteFile(target, text, 0o644); err != nil {
					return err
				}
				start := time.Now()
				ok, out, err := test(ctx, tmp, st.tests)
				if err != nil {
					return err
				}
				if !ok && buildFailed(out) {
					return fmt.Errorf("%s = %s does not build:\n%s", f.name, m.value, out)
				}
				m.killed, m.failing = !ok, failingTests(out)
				results[f.name] = append(results[f.name], m)
				fmt.Fprintf(os.Stderr, "%-17s ×%-3g %-10s %s (%s)\n", f.name, factor, m.value, verdict(m.killed), time.Since(start).Round(time.Second))
				if *verbose && m.killed {
					fmt.Fprintf(os.Stderr, "    failing: %s\n", strings.Join(m.failing, ", "))
				}
			}
			if err := os.WriteFile(target, src, 0o644); err != nil {
				return err
			}
		}
		fmt.Printf("%-17s %-8s %-8s %s\n", st.variable, "default", "×2", "×0.5")
		for _, f := range fields {
			ms := results[f.name]
			fmt.Printf("%-17s %-8s %-8s %s\n", f.name, f.value, verdict(ms[0].killed), verdict(ms[1].killed))
			for _, m := range ms {
				total++
				if m.killed {
					killed++
				} else {
					survivors = append(survivors, fmt.Sprintf("%s ×%g (%s)", f.name, m.factor, m.value))
				}
			}
		}
		fmt.Println()
	}
	if !found {
		return fmt.Errorf("-only %s: no such field in %s", *only, setNames())
	}
	fmt.Printf("killed %d of %d mutants (%.0f%%)\n", killed, total, 100*float64(killed)/float64(total))
	if len(survivors) == 0 {
		fmt.Println("survivors: none")
	} else {
		fmt.Printf("survivors (no test pins them):\n\t%s\n", strings.Join(survivors, "\n\t"))
	}
	if len(missing) > 0 {
		fmt.Printf("fields with no default value (zero, not mutated): %s\n", strings.Join(missing, ", "))
	}
	return nil
}

// setNames lists the sets' variables.
func setNames() string {
	var names []string
	for _, st := range sets {
		names = append(names, st.variable)
	}
	return strings.Join(names, " or ")
}

// moduleRoot is the directory of the go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory: run mutate from the repository")
		}
		dir = parent
	}
}

// defaults finds the fields of the set's literal in src, in source
// order, and the fields of its type it leaves out.
func defaults(src []byte, st set) (fields []field, missing []string, err error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, st.source, src, 0)
	if err != nil {
		return nil, nil, err
	}
	var declared []string
	var lit *ast.CompositeLit
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			if s, ok := n.Type.(*ast.StructType); ok && n.Name.Name == st.typ {
				for _, f := range s.Fields.List {
					for _, name := range f.Names {
						declared = append(declared, name.Name)
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if name.Name == st.variable && i < len(n.Values) {
					lit, _ = n.Values[i].(*ast.CompositeLit)
				}
			}
		}
		return true
	})
	if lit == nil {
		return nil, nil, fmt.Errorf("no %s = %s{…} literal", st.variable, st.typ)
	}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return nil, nil, fmt.Errorf("%s: every value needs its field name", st.variable)
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		start, end := fset.Position(kv.Value.Pos()).Offset, fset.Position(kv.Value.End()).Offset
		fields = append(fields, field{name: key.Name, value: string(src[start:end]), start: start, end: end})
	}
	for _, name := range declared {
		if !slices.ContainsFunc(fields, func(f field) bool { return f.name == name }) {
			missing = append(missing, name)
		}
	}
	return fields, missing, nil
}

// scaled is the source text of value times factor: a number when value is
// a numeric literal, otherwise the product.
func scaled(value string, factor float64) string {
	if v, err := strconv.ParseFloat(strings.ReplaceAll(value, "_", ""), 64); err == nil {
		return strconv.FormatFloat(v*factor, 'g', -1, 64)
	}
	return fmt.Sprintf("(%s) * %g", value, factor)
}

// test runs go test with args in dir and reports whether the tests
// passed, with their output.
func test(ctx context.Context, dir string, args []string) (bool, []byte, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-count=1"}, args...)...)
	cmd.Dir = dir
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		return false, nil, errInterrupted
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return false, nil, fmt.Errorf("go test: %w", err)
	}
	return err == nil, out.Bytes(), nil
}

func buildFailed(out []byte) bool {
	return bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]"))
}

// failingTests lists the tests go test reports as failed, innermost
// names included ("TestSpec/alloc-site-edge").
func failingTests(out []byte) []string {
	var names []string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(line, "--- FAIL: "); ok {
			name, _, _ = strings.Cut(name, " ")
			names = append(names, name)
		}
	}
	return names
}

func verdict(killed bool) string {
	if killed {
		return "killed"
	}
	return "survives"
}

// copyTree copies the module's files under root into dst, leaving out
// version-control directories.
func copyTree(root, dst string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && (d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn"):
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		return copyFile(path, to)
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
