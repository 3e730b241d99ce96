package rewrite

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/perfloop/perfloop/internal/gotest"
)

// A loader finds the export data of the packages a file imports (go
// list -export, once per import path and directory) and type-checks
// packages against it. Export data, not source: the dependencies are
// compiled by the go command once and cached, so checking one file costs
// a go list and a read of the files it imports.
type loader struct {
	mu      sync.Mutex
	exports map[string]string // dir + "\x00" + import path → export file, "" when none
	// offline stops the loader from running go list: imports not seen
	// before stay unresolved (fuzzing).
	offline bool
}

func newLoader() *loader { return &loader{exports: map[string]string{}} }

// check type-checks files as one package. Type errors are not returned:
// the rules ask for the types they need and propose nothing where a
// type is missing.
func (ld *loader) check(fset *token.FileSet, dir string, files []*ast.File, names map[string]bool) *pkg {
	var paths []string
	for _, f := range files {
		addNames(names, f)
		for _, s := range f.Imports {
			if p, err := strconv.Unquote(s.Path.Value); err == nil && p != "unsafe" && p != "C" {
				paths = append(paths, p)
			}
		}
	}
	slices.Sort(paths)
	ld.list(dir, slices.Compact(paths))
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Defs:  map[*ast.Ident]types.Object{},
		Uses:  map[*ast.Ident]types.Object{},

		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{
		Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
			ld.mu.Lock()
			file := ld.exports[dir+"\x00"+path]
			ld.mu.Unlock()
			if file == "" {
				return nil, fmt.Errorf("no export data for %s", path)
			}
			return os.Open(file)
		}),
	}
	p := &pkg{fset: fset, files: files, info: info, names: names, goVersion: goVersion(dir)}
	conf.Error = func(err error) { p.errs = append(p.errs, err) }
	if len(files) > 0 {
		p.types, _ = conf.Check(files[0].Name.Name, fset, files, info)
	}
	return p
}

// list asks the go command for the export data of the paths not known
// yet for dir.
func (ld *loader) list(dir string, paths []string) {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	var todo []string
	for _, p := range paths {
		if _, ok := ld.exports[dir+"\x00"+p]; !ok && !strings.HasPrefix(p, "-") && !strings.ContainsAny(p, " \t\n\\") {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 || ld.offline {
		return
	}
	for _, p := range todo {
		ld.exports[dir+"\x00"+p] = ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	run := ""
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		run = dir
	}
	// The go command's own process group and GOTMPDIR: a Ctrl-C leaves
	// no go-build… directory behind.
	cmd, done, err := gotest.GoCommand(ctx, run, nil, append([]string{"list", "-e", "-export", "-f", "{{.ImportPath}}\t{{.Export}}", "--"}, todo...)...)
	if err != nil {
		return
	}
	defer done()
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		path, file, ok := strings.Cut(sc.Text(), "\t")
		if ok && file != "" {
			ld.exports[dir+"\x00"+path] = file
		}
	}
}

// goVersion returns the go directive of the go.mod above dir, "" when
// there is none.
func goVersion(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for d := abs; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "go" {
					return "go" + f[1]
				}
			}
			return ""
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// atLeast reports whether the module's Go version is v or later (true
// when unknown: the toolchain's own).
func (p *pkg) atLeast(v string) bool {
	if p.goVersion == "" {
		return true
	}
	return compareGo(p.goVersion, v) >= 0
}

// compareGo compares "go1.21.3"-style versions by their numbers.
func compareGo(a, b string) int {
	num := func(s string) []int {
		var out []int
		for _, part := range strings.Split(strings.TrimPrefix(s, "go"), ".") {
			n := 0
			for _, r := range part {
				if r < '0' || r > '9' {
					break
				}
				n = n*10 + int(r-'0')
			}
			out = append(out, n)
		}
		return out
	}
	return slices.Compare(num(a), num(b))
}
