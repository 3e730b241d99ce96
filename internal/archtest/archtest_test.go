package archtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// doc is the architecture document, relative to this package.
const doc = "../../docs/ARCHITECTURE.md"

// pkg is what go list says of one of the module's packages.
type pkg struct {
	ImportPath string
	Imports    []string // direct, of the non-test files
	Deps       []string // transitive, of the non-test files
	Module     *struct{ Path string }
}

// modulePackages runs go list -deps -json on the module and returns its
// own packages by their name in the document: "document" for
// internal/document, "cmd/perfloop" for the rest.
func modulePackages(t *testing.T) (map[string]*pkg, func(importPath string) string) {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	cmd.Dir = filepath.Join("..", "..")
	consultSources(t, cmd.Dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps -json ./...: %v\n%s", err, stderr.Bytes())
	}
	var all []*pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(pkg)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("read go list output: %v", err)
		}
		all = append(all, p)
	}
	module := ""
	for _, p := range all {
		if p.Module != nil && strings.HasSuffix(p.ImportPath, "/internal/archtest") {
			module = p.Module.Path
		}
	}
	if module == "" {
		t.Fatal("go list did not list internal/archtest")
	}
	name := func(importPath string) string {
		rel, ok := strings.CutPrefix(importPath, module+"/")
		if !ok {
			return ""
		}
		if short, ok := strings.CutPrefix(rel, "internal/"); ok && !strings.Contains(short, "/") {
			return short
		}
		return rel
	}
	pkgs := map[string]*pkg{}
	for _, p := range all {
		if p.Module != nil && p.Module.Path == module {
			pkgs[name(p.ImportPath)] = p
		}
	}
	return pkgs, name
}

// block returns the lines of the first fenced block whose info string is
// info, with their line numbers.
func block(t *testing.T, text []byte, info string) (lines []string, numbers []int) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(text))
	in, found := false, false
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case !in && !found && strings.TrimSpace(l) == "```"+info:
			in, found = true, true
		case in && strings.TrimSpace(l) == "```":
			in = false
		case in:
			lines, numbers = append(lines, l), append(numbers, n)
		}
	}
	if !found {
		t.Fatalf("%s has no ```%s block", doc, info)
	}
	return lines, numbers
}

// list splits "a, b, c" (or "nothing") into names.
func list(s string) []string {
	s = strings.TrimSpace(s)
	if s == "nothing" || s == "" {
		return nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(f))
	}
	slices.Sort(out)
	return out
}

// claim is one line of the imports block.
type claim struct {
	line int
	text string
	// check returns what go list says against the claim, or "".
	check func() string
}

// parseClaims reads the imports block: "P imports only: A, B" (P's direct
// imports among the module's packages are exactly A and B; "P imports
// nothing"), "nothing but A, B imports P" (exactly A and B import P
// directly) and "P does not depend on: A, B" (neither is among P's
// transitive dependencies). Blank lines and lines starting with # are
// comments.
func parseClaims(lines []string, numbers []int, pkgs map[string]*pkg, name func(string) string) (claims []claim, subjects map[string]bool, errs []string) {
	subjects = map[string]bool{}
	known := func(n int, names ...string) bool {
		for _, p := range names {
			if pkgs[p] == nil {
				errs = append(errs, fmt.Sprintf("%s:%d: no package %q in the module", doc, n, p))
				return false
			}
		}
		return true
	}
	direct := func(p *pkg) []string {
		var out []string
		for _, imp := range p.Imports {
			if n := name(imp); n != "" {
				out = append(out, n)
			}
		}
		slices.Sort(out)
		return out
	}
	for i, l := range lines {
		n := numbers[i]
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		c := claim{line: n, text: l}
		switch {
		case strings.HasSuffix(l, " imports nothing") || strings.Contains(l, " imports only: "):
			subj, rest, _ := strings.Cut(l, " imports ")
			want := list(strings.TrimPrefix(strings.TrimPrefix(rest, "only: "), "nothing"))
			if !known(n, append([]string{subj}, want...)...) {
				continue
			}
			subjects[subj] = true
			c.check = func() string { return diff(want, direct(pkgs[subj]), imports) }
		case strings.HasPrefix(l, "nothing but ") && strings.Contains(l, " imports "):
			who, obj, _ := strings.Cut(strings.TrimPrefix(l, "nothing but "), " imports ")
			want := list(who)
			obj = strings.TrimSpace(obj)
			if !known(n, append([]string{obj}, want...)...) {
				continue
			}
			c.check = func() string {
				var got []string
				for pn, p := range pkgs {
					if slices.Contains(direct(p), obj) {
						got = append(got, pn)
					}
				}
				slices.Sort(got)
				return diff(want, got, importedBy)
			}
		case strings.Contains(l, " does not depend on: "):
			subj, rest, _ := strings.Cut(l, " does not depend on: ")
			not := list(rest)
			if !known(n, append([]string{subj}, not...)...) {
				continue
			}
			c.check = func() string {
				var bad []string
				for _, d := range pkgs[subj].Deps {
					if dn := name(d); slices.Contains(not, dn) {
						bad = append(bad, dn)
					}
				}
				if len(bad) > 0 {
					return "go list -deps says it depends on " + strings.Join(bad, ", ")
				}
				return ""
			}
		default:
			errs = append(errs, fmt.Sprintf("%s:%d: %q is not a claim: want \"P imports only: A, B\", \"P imports nothing\", \"nothing but A, B imports P\" or \"P does not depend on: A, B\"", doc, n, l))
			continue
		}
		claims = append(claims, c)
	}
	return claims, subjects, errs
}

// required reports whether the document must speak of p: the packages
// of internal/ and cmd/ (not the examples, scripts or the action's test).
func required(p *pkg, name func(string) string) bool {
	n := name(p.ImportPath)
	return !strings.Contains(n, "/") && strings.Contains(p.ImportPath, "/internal/") || strings.HasPrefix(n, "cmd/")
}

// diff says how got differs from want, or "": say turns the names found
// only in got (also) or only in want (!also) into a phrase.
func diff(want, got []string, say func(names string, also bool) string) string {
	var extra, missing []string
	for _, g := range got {
		if !slices.Contains(want, g) {
			extra = append(extra, g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			missing = append(missing, w)
		}
	}
	var parts []string
	if len(extra) > 0 {
		parts = append(parts, "go list says "+say(strings.Join(extra, ", "), true))
	}
	if len(missing) > 0 {
		parts = append(parts, "go list says "+say(strings.Join(missing, ", "), false))
	}
	return strings.Join(parts, "; ")
}

// imports and importedBy phrase a difference of "imports only" and
// "nothing but" claims.
func imports(names string, also bool) string {
	if also {
		return "it also imports " + names
	}
	return "it no longer imports " + names
}

func importedBy(names string, also bool) string {
	if also {
		return names + " also import(s) it"
	}
	return names + " no longer import(s) it"
}

// TestImportClaims checks every claim of the imports block against go
// list, and that every package of internal/ and cmd/ has its "imports"
// line, so the block is the whole import graph of the module's own
// packages.
func TestImportClaims(t *testing.T) {
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, name := modulePackages(t)
	lines, numbers := block(t, text, "imports")
	claims, subjects, errs := parseClaims(lines, numbers, pkgs, name)
	for _, e := range errs {
		t.Error(e)
	}
	for _, c := range claims {
		if msg := c.check(); msg != "" {
			t.Errorf("%s:%d: %q: %s", doc, c.line, c.text, msg)
		}
	}
	for _, pn := range slices.Sorted(func(yield func(string) bool) {
		for pn := range pkgs {
			if !yield(pn) {
				return
			}
		}
	}) {
		if required(pkgs[pn], name) && !subjects[pn] {
			t.Errorf("%s: the imports block says nothing of %s: add \"%s imports only: …\" (or \"imports nothing\")", doc, pn, pn)
		}
	}
}

// TestPackageMap checks that the package map (the fenced block marked
// "text" that starts the document) names every package of internal/ and
// cmd/, each at the start of one of its lines, and no package that does
// not exist.
func TestPackageMap(t *testing.T) {
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, name := modulePackages(t)
	lines, numbers := block(t, text, "text")
	named := map[string]bool{}
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		p, ok := strings.CutPrefix(f[0], "internal/")
		if !ok && !strings.HasPrefix(f[0], "cmd/") {
			continue
		}
		if !ok {
			p = f[0]
		}
		if pkgs[p] == nil {
			t.Errorf("%s:%d: the package map names %s, which go list does not list", doc, numbers[i], f[0])
		}
		named[p] = true
	}
	for pn := range pkgs {
		if required(pkgs[pn], name) && !named[pn] {
			t.Errorf("%s: the package map does not name %s: add a line saying what it provides", doc, pn)
		}
	}
}

// consultSources opens every directory of the module and stats every Go
// file in it. go test caches a passing test's result keyed by the files
// the test itself consulted; go list, a subprocess, is not seen, so
// without this an import added to a package would leave the cached pass
// of these tests standing.
func consultSources(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
