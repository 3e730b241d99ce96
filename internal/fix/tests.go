package fix

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// testFailures are the failures of one go test -json run, each with its
// reason (one line): a test by "PACKAGE TestName" (a subtest
// "PACKAGE TestName/sub"), and a package that failed outside its tests (a
// test file that does not compile, TestMain's exit) by "PACKAGE".
type testFailures map[string]string

// testEvent is one line of go test -json (cmd/test2json), with the
// build events of Go 1.24 and later.
type testEvent struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
}

// parseTestJSON reads go test -json output, with the go command's stderr
// mixed in (older toolchains print build errors there).
func parseTestJSON(out []byte) testFailures {
	f := testFailures{}
	reason := map[string]string{}  // key → its first telling output line
	pkgFailed := map[string]bool{} // packages with a package-level fail
	var loose string               // the first line of output that is not JSON
	note := func(key, line string) {
		line = strings.TrimSpace(line)
		if _, ok := reason[key]; ok || !telling(line) {
			return
		}
		reason[key] = line
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e testEvent
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			if l := strings.TrimSpace(string(line)); loose == "" && telling(l) {
				loose = l
			}
			continue
		}
		switch e.Action {
		case "build-output":
			note(strings.Fields(e.ImportPath + " ")[0], e.Output)
		case "output":
			note(key(e.Package, e.Test), e.Output)
		case "fail":
			if e.Test == "" {
				pkgFailed[e.Package] = true
			} else {
				f[key(e.Package, e.Test)] = ""
			}
		}
	}
	for k := range f {
		f[k] = cmp.Or(reason[k], "--- FAIL: "+strings.SplitN(k, " ", 2)[1])
	}
	for p := range pkgFailed {
		if slices.ContainsFunc(mapKeys(f), func(k string) bool { return strings.HasPrefix(k, p+" ") }) {
			continue // its tests say why
		}
		f[p] = cmp.Or(reason[p], loose, "FAIL")
	}
	return f
}

func key(pkg, test string) string {
	if test == "" {
		return pkg
	}
	return pkg + " " + test
}

// telling reports whether an output line says something about a failure:
// not the testing package's framing (=== RUN, --- FAIL, FAIL, ok) nor a
// "# package" header.
func telling(line string) bool {
	switch {
	case line == "", line == "FAIL", line == "PASS", strings.HasPrefix(line, "#"),
		strings.HasPrefix(line, "=== "), strings.HasPrefix(line, "--- "),
		strings.HasPrefix(line, "FAIL\t"), strings.HasPrefix(line, "ok "), strings.HasPrefix(line, "ok\t"):
		return false
	}
	return true
}

// without returns the failures of f that base does not have, sorted, one
// line each ("PACKAGE TestName: reason"); a test that failed only
// because a subtest failed is left to the subtest.
func (f testFailures) without(base testFailures) []string {
	var out []string
	for _, k := range f.keys() {
		if _, ok := base[k]; !ok {
			out = append(out, k+": "+f[k])
		}
	}
	return out
}

// lines returns every failure, one line each, as without does.
func (f testFailures) lines() []string { return f.without(nil) }

// keys are the failures' keys, sorted, without the tests that have a
// failing subtest.
func (f testFailures) keys() []string {
	all := mapKeys(f)
	slices.Sort(all)
	var out []string
	for _, k := range all {
		if !slices.ContainsFunc(all, func(o string) bool { return strings.HasPrefix(o, k+"/") }) {
			out = append(out, k)
		}
	}
	return out
}

func mapKeys(m testFailures) []string { return slices.Collect(maps.Keys(m)) }

// runTests runs the tests of pkgs in dir with go test -json and returns
// their failures; err is for a go command that could not run or was
// cancelled.
func runTests(ctx context.Context, dir, tags string, pkgs []string) (testFailures, error) {
	out, err := goRun(ctx, dir, append([]string{"test", "-json", "-count=1", "-tags", tags}, pkgs...)...)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	f := parseTestJSON([]byte(out))
	if err != nil && len(f) == 0 {
		// The go command failed without a test or package failing:
		// say what it said.
		f[strings.Join(pkgs, " ")] = compilerLine(out)
	}
	return f, nil
}

// baselineTests runs, at the commit, the tests of every package a
// candidate's tests will run: the failures they already have are not
// held against the candidates.
func baselineTests(ctx context.Context, opts Options, cands []candidate) (testFailures, error) {
	var pkgs, dirs []string
	for _, c := range cands {
		d := path.Dir(c.File)
		if slices.Contains(dirs, d) {
			continue
		}
		dirs = append(dirs, d)
		ps, _, err := importers(ctx, opts.Dir, d, opts.Tags)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			continue // the candidate says so itself
		}
		for _, p := range ps {
			if !slices.Contains(pkgs, p) {
				pkgs = append(pkgs, p)
			}
		}
	}
	if len(pkgs) == 0 {
		return testFailures{}, nil
	}
	slices.Sort(pkgs)
	return runTests(ctx, opts.Dir, opts.Tags, pkgs)
}

// summary is the first of a candidate's new failures, and how many more
// there are.
func summary(fails []string) string {
	if len(fails) == 1 {
		return fails[0]
	}
	return fmt.Sprintf("%s (and %d more)", fails[0], len(fails)-1)
}
