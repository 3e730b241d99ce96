// Command checkreal runs perfloop check on real optimization commits of
// public Go modules, reversed: each module's release before the
// optimization is checked out as "parent" and the release with it as
// "opt" in a two-commit git repository, and
//
//	perfloop check opt parent
//
// compares the parent (HEAD) against the optimized code (BASE), so the
// optimization undone is a real regression with a known cause. It prints,
// per case, the exit status, the regressed benchmarks, the first cause and
// its distance from the nearest line the change touched, and the time the
// check took, as the Markdown table docs/check.md quotes; a comment-only
// control must not be run at all and pass.
//
// Usage (from the repository root; needs git and the Go module proxy):
//
//	go build -o ./perfloop ./cmd/perfloop
//	go run ./scripts/checkreal -perfloop ./perfloop
//
// It exits 1 when a case does not meet its expectation: exit 1, a
// regressed benchmark matching the case's pattern, the first cause at or
// within two lines of a changed line (and naming its callee where the
// cost grew in code the change did not touch); for the control, exit 0
// and the package not run.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var (
	perfloop = flag.String("perfloop", "perfloop", "perfloop binary to run")
	only     = flag.String("case", "", "run only the cases whose name contains `s`")
	keep     = flag.Bool("keep", false, "keep the repositories (their directories are printed)")
)

// realCase is one optimization commit, reversed.
type realCase struct {
	name            string
	module          string
	parent, opt     string // module versions: before and with the optimization
	what            string // what the optimization did
	bench           string // -bench of the check
	regressed       string // a regressed benchmark must match this
	control         bool   // a comment-only change: not run, exit 0
	edit            func(dir string) error
	wantCalleeNamed bool // the cost grew in code the change did not touch
}

var cases = []realCase{
	{
		name: "levenshtein-stack", module: "github.com/agnivade/levenshtein", parent: "v1.1.0", opt: "v1.1.1",
		what:  "the DP row of strings under 32 runes is a constant-size make, kept on the stack",
		bench: "BenchmarkSimple", regressed: `^BenchmarkSimple/`,
	},
	{
		name: "uuid-error-value", module: "github.com/google/uuid", parent: "v1.1.3", opt: "v1.1.4",
		what:  "invalidLengthError returned by value, not as a pointer: no allocation on a bad length",
		bench: "^BenchmarkParse(BadLength|Len32Truncated)?$", regressed: `^BenchmarkParseBadLength$`,
	},
	{
		name: "runewidth-onerune", module: "github.com/mattn/go-runewidth", parent: "v0.0.21", opt: "v0.0.22",
		what:  "StringWidth of a one-rune string skips grapheme segmentation",
		bench: "String1Width768$", regressed: `^BenchmarkString1Width768/`,
	},
	{
		name: "runewidth-tables", module: "github.com/mattn/go-runewidth", parent: "v0.0.22", opt: "v0.0.23",
		what:  "RuneWidth searches merged interval tables once instead of two tables through inTables",
		bench: "BenchmarkRuneWidthAll$", regressed: `^BenchmarkRuneWidthAll/`, wantCalleeNamed: true,
	},
	{
		name: "control-comments", module: "github.com/agnivade/levenshtein", parent: "v1.1.1", opt: "v1.1.1",
		what:  "comments only: a doc comment reworded and a comment line added inside ComputeDistance",
		bench: "BenchmarkSimple", control: true,
		edit: func(dir string) error {
			p := filepath.Join(dir, "levenshtein.go")
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			s := strings.Replace(string(src), "// ComputeDistance computes", "// ComputeDistance returns", 1)
			s = strings.Replace(s, "\tlenS1 := len(s1)\n", "\t// The row is as long as the shorter string.\n\tlenS1 := len(s1)\n", 1)
			if s == string(src) {
				return errors.New("levenshtein.go: nothing to edit")
			}
			return os.WriteFile(p, []byte(s), 0o644)
		},
	},
}

// checkJSON is the part of perfloop.check/v1 the script reads.
type checkJSON struct {
	Verdict     string `json:"verdict"`
	Regressions []struct {
		Benchmark string `json:"benchmark"`
		Unit      string `json:"unit"`
		Delta     float64
		Causes    []struct {
			Kind     string `json:"kind"`
			File     string `json:"file"`
			Line     int    `json:"line"`
			Function string `json:"function"`
			Message  string `json:"message"`
			Callee   string `json:"callee"`
			Changed  bool   `json:"changed"`
			Outside  bool   `json:"outside"`
		} `json:"causes"`
	} `json:"regressions"`
	Unaltered []string `json:"unaltered"`
	Rounds    int      `json:"rounds"`
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("checkreal: ")
	bin, err := exec.LookPath(*perfloop)
	if err != nil {
		log.Fatal(err)
	}
	if bin, err = filepath.Abs(bin); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("# perfloop check on reversed optimization commits — %s, %s\n\n", goVersion(), time.Now().UTC().Format("2006-01-02"))
	fmt.Println("| case | module: parent → opt | what the optimization did | exit | regressed | first cause | from the change | time |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	failed := 0
	for _, c := range cases {
		if *only != "" && !strings.Contains(c.name, *only) {
			continue
		}
		row, ok, err := run(bin, c)
		if err != nil {
			log.Printf("%s: %v", c.name, err)
			failed++
			continue
		}
		fmt.Println(row)
		if !ok {
			failed++
		}
	}
	if failed > 0 {
		log.Printf("%d case(s) did not meet their expectation", failed)
		os.Exit(1)
	}
}

// run builds a case's repository, checks it and returns its table row and
// whether it met its expectation.
func run(bin string, c realCase) (string, bool, error) {
	dir, err := os.MkdirTemp("", "checkreal-"+c.name+"-")
	if err != nil {
		return "", false, err
	}
	if *keep {
		log.Printf("%s: %s", c.name, dir)
	} else {
		defer os.RemoveAll(dir)
	}
	if err := repo(dir, c); err != nil {
		return "", false, err
	}
	start := time.Now()
	cmd := exec.Command(bin, "check", "-json", "-bench", c.bench, "opt", "parent")
	cmd.Dir = dir
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err = cmd.Run()
	took := time.Since(start)
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		return "", false, err
	}
	var res checkJSON
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return "", false, fmt.Errorf("perfloop check -json: %v\n%s", err, stderr.String())
	}
	versions := fmt.Sprintf("%s %s → %s", strings.TrimPrefix(c.module, "github.com/"), c.parent, c.opt)
	if c.control {
		versions = fmt.Sprintf("%s %s, comments edited", strings.TrimPrefix(c.module, "github.com/"), c.opt)
		notRun := len(res.Unaltered) > 0 && res.Rounds == 0
		what := "run"
		if notRun {
			what = "not run: the same machine code"
		}
		ok := code == 0 && notRun
		return fmt.Sprintf("| %s | %s | %s | %d | %s | — | — | %s |", c.name, versions, c.what, code, what, took.Round(100*time.Millisecond)) + mark(ok), ok, nil
	}
	hunks, err := changedLines(dir)
	if err != nil {
		return "", false, err
	}
	re := regexp.MustCompile(c.regressed)
	var names []string
	matched := false
	for _, r := range res.Regressions {
		if !contains(names, r.Benchmark) {
			names = append(names, r.Benchmark)
		}
		matched = matched || re.MatchString(r.Benchmark)
	}
	first, dist, callee := "none", -1, ""
	for _, r := range res.Regressions {
		if !re.MatchString(r.Benchmark) || len(r.Causes) == 0 {
			continue
		}
		k := r.Causes[0]
		first = fmt.Sprintf("%s %s:%d in %s", k.Kind, k.File, k.Line, shortFunc(k.Function))
		if k.Callee != "" {
			callee = k.Callee
			first += ", reaches " + k.Callee
		}
		dist = distance(hunks[k.File], k.Line)
		break
	}
	ok := code == 1 && matched && dist >= 0 && dist <= 2 && (!c.wantCalleeNamed || callee != "")
	from := "—"
	if dist >= 0 {
		from = fmt.Sprintf("%d line(s)", dist)
	}
	return fmt.Sprintf("| %s | %s | %s | %d | %s | %s | %s | %s |", c.name, versions, c.what, code, strings.Join(names, ", "), first, from, took.Round(100*time.Millisecond)) + mark(ok), ok, nil
}

func mark(ok bool) string {
	if ok {
		return ""
	}
	return " ✗"
}

// repo makes dir a git repository of two commits, tagged parent and opt:
// the module's parent release, then its opt release (or, for a control,
// the opt release with its edit).
func repo(dir string, c realCase) error {
	git := func(args ...string) error {
		cmd := exec.Command("git", append([]string{"-c", "user.email=checkreal@example.com", "-c", "user.name=checkreal"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	put := func(version string) error {
		src, err := download(c.module, version)
		if err != nil {
			return err
		}
		return copyTree(src, dir)
	}
	if err := git("init", "-q"); err != nil {
		return err
	}
	first, second := c.parent, c.opt
	if c.control {
		first = c.opt
	}
	if err := put(first); err != nil {
		return err
	}
	if c.control {
		if err := c.edit(dir); err != nil {
			return err
		}
	}
	if err := git("add", "-A"); err != nil {
		return err
	}
	if err := git("commit", "-qm", "parent"); err != nil {
		return err
	}
	if err := git("tag", "parent"); err != nil {
		return err
	}
	if err := git("rm", "-rq", "."); err != nil {
		return err
	}
	if err := put(second); err != nil {
		return err
	}
	if err := git("add", "-A"); err != nil {
		return err
	}
	if err := git("commit", "-qm", "opt"); err != nil {
		return err
	}
	return git("tag", "opt")
}

// download returns the directory of a module version in the module cache.
func download(mod, version string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", mod+"@"+version).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %v", mod, version, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", err
	}
	if m.Error != "" {
		return "", errors.New(m.Error)
	}
	return m.Dir, nil
}

// copyTree copies the files of src into dst, writable (the module cache's
// are read-only).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// changedLines returns, per file, the lines of HEAD (parent) the change
// touched, with a deletion counted at the lines on both sides of it.
func changedLines(dir string) (map[string][]int, error) {
	cmd := exec.Command("git", "diff", "-U0", "opt", "parent")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git diff: %v", err)
	}
	hunk := regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)
	lines := map[string][]int{}
	file := ""
	for _, l := range strings.Split(string(out), "\n") {
		if f, ok := strings.CutPrefix(l, "+++ b/"); ok {
			file = f
			continue
		}
		m := hunk.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		start, _ := strconv.Atoi(m[1])
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		if n == 0 {
			lines[file] = append(lines[file], start, start+1)
			continue
		}
		for i := range n {
			lines[file] = append(lines[file], start+i)
		}
	}
	return lines, nil
}

// distance is how far line is from the nearest of lines, or -1.
func distance(lines []int, line int) int {
	best := -1
	for _, l := range lines {
		d := max(l-line, line-l)
		if best < 0 || d < best {
			best = d
		}
	}
	return best
}

// shortFunc drops a function's package path.
func shortFunc(name string) string {
	end := len(name)
	if i := strings.IndexAny(name, "(["); i >= 0 {
		end = i
	}
	slash := strings.LastIndexByte(name[:end], '/')
	if i := strings.IndexByte(name[slash+1:end], '.'); i >= 0 {
		return name[slash+1+i+1:]
	}
	return name
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return "go"
	}
	return strings.TrimSpace(string(out))
}
