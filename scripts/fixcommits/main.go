// Command fixcommits runs perfloop fix on real optimization commits of
// public Go repositories, from their parents: each case is a commit whose
// change is mechanical (a slice presized, fmt.Sprintf replaced, a sort
// without reflection, a regexp compiled once), and the question is
// whether fix, given the parent and a benchmark that covers the function,
// makes the same edit (or an equivalent one) at the same site and
// measures a gain.
//
// For each case it clones the repository, checks the parent out, adds the
// case's benchmark when the parent has none that covers the changed
// function, raises the go directive to 1.24 when it is lower (what fix's
// analyzers and b.Loop need; go mod init first for a repository from
// before modules), commits that, and runs
//
//	perfloop fix -json -bench BENCH -count 5 -benchtime 100ms -candidate-time 90s PKG
//
// It prints a Markdown table: the case and its commit, the human's edit,
// whether fix rediscovered it (a kept candidate in the function the human
// edited, with the rewrite and its measured change; or what fix did
// there instead), everything fix kept, and the time fix took.
//
// Usage (from the repository root; needs git, network access to the
// repositories and the Go module proxy):
//
//	go build -o ./perfloop ./cmd/perfloop
//	go run ./scripts/fixcommits -perfloop ./perfloop
//
// -clone-from rewrites where the repositories are cloned from: a
// template in which {owner} and {name} are replaced
// (https://github.com/{owner}/{name}.git by default), so that local
// mirrors can be used.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

var (
	perfloop  = flag.String("perfloop", "perfloop", "perfloop binary to run")
	only      = flag.String("case", "", "run only the cases whose name contains `s`")
	keep      = flag.Bool("keep", false, "keep the repositories (their directories are printed)")
	cloneFrom = flag.String("clone-from", "https://github.com/{owner}/{name}.git", "where to clone a repository from: {owner} and {name} are replaced")
)

// commitCase is one optimization commit.
type commitCase struct {
	name           string
	repo           string // owner/name on GitHub
	parent, commit string // the commit before the optimization, and the optimization
	what           string // the human's edit
	file, fn       string // where the human edited, at the parent: file and function (Recv.Method for a method)
	bench          string // -bench of fix
	pkg            string // the package pattern fix runs on
	// extra are files added to the parent: a benchmark that covers the
	// changed function, when the parent has none.
	extra map[string]string
}

var cases = []commitCase{
	{
		name: "gomponents-attr-concat", repo: "maragudk/gomponents",
		parent: "f277d1942e9f2ec1ff4a3bc3c409e864103b506b", commit: "92ba5904c1645e6572f5ff1b9d0e0ec629e1afb9",
		what: "`fmt.Sprintf(\" %v\", a.name)` and `fmt.Sprintf` of `%v=\"%v\"` in attr.Render → concatenation", file: "gomponents.go", fn: "attr.Render",
		bench: "^BenchmarkAttrRender$", pkg: ".",
		extra: map[string]string{"attr_bench_test.go": `package gomponents

import "testing"

var sinkAttr string

// BenchmarkAttrRender renders a boolean and a name-value attribute, as
// the commit's own BenchmarkAttr does.
func BenchmarkAttrRender(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sinkAttr = Attr("async").Render() + Attr("href", "/").Render()
	}
}
`},
	},
	{
		name: "gomponents-map-presize", repo: "maragudk/gomponents",
		parent: "ac5c615468e972376d23447de91eb1ea39a315bb~1", commit: "ac5c615468e972376d23447de91eb1ea39a315bb",
		what: "`var nodes []Node` → `make([]Node, 0, len(ts))` in Map", file: "gomponents.go", fn: "Map",
		bench: "^BenchmarkMap$", pkg: ".",
		extra: map[string]string{"map_bench_test.go": `package gomponents

import (
	"strconv"
	"testing"
)

var sinkMap Group

// BenchmarkMap maps 100 items to text nodes.
func BenchmarkMap(b *testing.B) {
	items := make([]string, 100)
	for i := range items {
		items[i] = strconv.Itoa(i)
	}
	for i := 0; i < b.N; i++ {
		sinkMap = Map(items, func(s string) Node { return Text(s) })
	}
}
`},
	},
	{
		name: "httprate-strconv", repo: "go-chi/httprate",
		parent: "be2ba84c12680b356b271bdf6104c9b465f3c1de~1", commit: "be2ba84c12680b356b271bdf6104c9b465f3c1de",
		what: "`fmt.Sprintf(\"%d\", window.Unix())` → `strconv.FormatInt(window.Unix(), 10)` in LimitCounterKey (and 6 headers in OnLimit)", file: "limit_key.go", fn: "LimitCounterKey",
		bench: "^BenchmarkLimitCounterKey$", pkg: ".",
		extra: map[string]string{"key_bench_test.go": `package httprate

import (
	"strconv"
	"testing"
	"time"
)

var sinkKey uint64

// BenchmarkLimitCounterKey hashes 100 keys for one window.
func BenchmarkLimitCounterKey(b *testing.B) {
	keys := make([]string, 100)
	for i := range keys {
		keys[i] = "key-" + strconv.Itoa(i)
	}
	w := time.Unix(1700000000, 0)
	for i := 0; i < b.N; i++ {
		for _, k := range keys {
			sinkKey += LimitCounterKey(k, w)
		}
	}
}
`},
	},
	{
		name: "chromem-sortfunc", repo: "philippgille/chromem-go",
		parent: "31ee6bf325c184b44aa0383d7271c1c0870a6779~1", commit: "31ee6bf325c184b44aa0383d7271c1c0870a6779",
		what: "`sort.Slice(docSim, … > …)` of float32 similarities → `slices.SortFunc` with `cmp.Compare`", file: "collection.go", fn: "Collection.QueryEmbedding",
		bench: "^BenchmarkCollection_Query_NoContent_1000$", pkg: ".",
	},
	{
		name: "xorfilter-slices-sort", repo: "FastFilter/xorfilter",
		parent: "20a6abb8f8fd85ee62b6e90d46636e7aa1edcd9e~1", commit: "20a6abb8f8fd85ee62b6e90d46636e7aa1edcd9e",
		what: "`sort.Slice(array, array[i] < array[j])` of uint64 → `slices.Sort(array)` in pruneDuplicates", file: "xorfilter.go", fn: "pruneDuplicates",
		bench: "^BenchmarkPopulateDuplicates$", pkg: ".",
		// The repository's BenchmarkPopulate100000 has no duplicate key:
		// pruneDuplicates, which sorts, never runs in it.
		extra: map[string]string{"dup_bench_test.go": `package xorfilter

import "testing"

// BenchmarkPopulateDuplicates builds a filter of 10000 keys that hold
// each value twice: Populate sorts them to drop the duplicates.
func BenchmarkPopulateDuplicates(b *testing.B) {
	keys := make([]uint64, 10000)
	for i := range keys {
		keys[i] = uint64(i/2) * 0x9E3779B97F4A7C15
	}
	work := make([]uint64, len(keys))
	for i := 0; i < b.N; i++ {
		copy(work, keys)
		if _, err := Populate(work); err != nil {
			b.Fatal(err)
		}
	}
}
`},
	},
	{
		name: "godotenv-hoist-regexp", repo: "joho/godotenv",
		parent: "992ab0ec47650589f676287dfc39e2edaddca0d7~1", commit: "992ab0ec47650589f676287dfc39e2edaddca0d7",
		what: "`regexp.MustCompile` of constant patterns in parseValue and expandVariables → package variables", file: "godotenv.go", fn: "parseValue",
		bench: "^BenchmarkUnmarshal$", pkg: ".",
		extra: map[string]string{"unmarshal_bench_test.go": `package godotenv

import "testing"

const benchEnv = "export A=1\nB='two'\nC=\"three ${A}\"\n# comment\nD=four # trailing\nE=\"multi\\nline\"\n"

var sinkEnv map[string]string

// BenchmarkUnmarshal parses a small .env file.
func BenchmarkUnmarshal(b *testing.B) {
	for i := 0; i < b.N; i++ {
		m, err := Unmarshal(benchEnv)
		if err != nil {
			b.Fatal(err)
		}
		sinkEnv = m
	}
}
`},
	},
	{
		name: "lo-difference-presize", repo: "samber/lo",
		parent: "1f669cbc2d73147d8a03bd0deaa8947f385c685a~1", commit: "1f669cbc2d73147d8a03bd0deaa8947f385c685a",
		what: "`left := Slice{}` → `make(Slice, 0, len(list1))` (and right) in Difference, before appends under an `if`", file: "intersect.go", fn: "Difference",
		bench: "^BenchmarkDifferenceHalf$", pkg: ".",
		extra: map[string]string{"difference_bench_test.go": `package lo

import "testing"

var sinkLeft, sinkRight []int

// BenchmarkDifferenceHalf takes the difference of two lists of 1000
// integers that share half of their elements.
func BenchmarkDifferenceHalf(b *testing.B) {
	a, c := make([]int, 1000), make([]int, 1000)
	for i := range a {
		a[i], c[i] = i, i+500
	}
	for i := 0; i < b.N; i++ {
		sinkLeft, sinkRight = Difference(a, c)
	}
}
`},
	},
	{
		name: "lo-words-grow", repo: "samber/lo",
		parent: "4e2c33e8a4b6067228ad70fa8e1d00b248ed97bc~1", commit: "4e2c33e8a4b6067228ad70fa8e1d00b248ed97bc",
		what: "`result.Grow(len(str))` before the loop in Words that writes each rune, or a space in its place", file: "string.go", fn: "Words",
		bench: "^BenchmarkWordsLong$", pkg: ".",
		extra: map[string]string{"words_bench_test.go": `package lo

import (
	"strings"
	"testing"
)

var sinkWords []string

// BenchmarkWordsLong splits a 40-word identifier soup into words.
func BenchmarkWordsLong(b *testing.B) {
	s := strings.Repeat("parseHTTPRequest_withJSONBody-v2 ", 10)
	for i := 0; i < b.N; i++ {
		sinkWords = Words(s)
	}
}
`},
	},
}

func main() {
	flag.Parse()
	bin, err := filepath.Abs(*perfloop)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("# perfloop fix on real optimization commits — %s, %s\n\n", runtime.Version(), time.Now().UTC().Format("2006-01-02"))
	fmt.Println("| case | commit | the human's edit | rediscovered | what fix kept | time |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, c := range cases {
		if !strings.Contains(c.name, *only) {
			continue
		}
		row, err := run(bin, c)
		if err != nil {
			log.Printf("%s: %v", c.name, err)
			row = fmt.Sprintf("| %s | %s | %s | not run: %s | — | — |", c.name, link(c), c.what, oneLine(err.Error()))
		}
		fmt.Println(row)
	}
}

// fixJSON is what fixcommits reads of perfloop.fix/v1.
type fixJSON struct {
	Kept []struct {
		File, Rewrite string
		Line          int
		Benchmarks    []struct {
			Name, Unit  string
			Delta       float64
			Significant bool
		}
	}
	Rejected []struct {
		File, Rewrite, Reason string
		Line                  int
	}
}

func run(bin string, c commitCase) (string, error) {
	dir, err := os.MkdirTemp("", "fixcommits-"+c.name+"-")
	if err != nil {
		return "", err
	}
	if *keep {
		log.Printf("%s: %s", c.name, dir)
	} else {
		defer os.RemoveAll(dir)
	}
	mod := filepath.Join(dir, "repo")
	owner, name, _ := strings.Cut(c.repo, "/")
	url := strings.NewReplacer("{owner}", owner, "{name}", name).Replace(*cloneFrom)
	if err := cmd("", "git", "clone", "-q", "--no-checkout", url, mod); err != nil {
		return "", err
	}
	git := func(args ...string) error {
		return cmd(mod, "git", append([]string{"-c", "user.email=fixcommits@example.com", "-c", "user.name=fixcommits"}, args...)...)
	}
	if err := git("checkout", "-q", c.parent); err != nil {
		return "", err
	}
	for file, text := range c.extra {
		if err := os.WriteFile(filepath.Join(mod, file), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	if _, err := os.Stat(filepath.Join(mod, "go.mod")); errors.Is(err, fs.ErrNotExist) {
		if err := cmd(mod, "go", "mod", "init", "github.com/"+c.repo); err != nil {
			return "", err
		}
	}
	if err := cmd(mod, "go", "mod", "edit", "-go=1.24"); err != nil {
		return "", err
	}
	if err := cmd(mod, "go", "mod", "tidy"); err != nil {
		return "", err
	}
	if err := git("add", "-A"); err != nil {
		return "", err
	}
	if err := git("commit", "-qm", "the parent, with the case's benchmark"); err != nil {
		return "", err
	}
	from, to, err := funcLines(filepath.Join(mod, c.file), c.fn)
	if err != nil {
		return "", err
	}
	start := time.Now()
	out := filepath.Join(dir, "fixes")
	f := exec.Command(bin, "fix", "-json", "-out", out, "-bench", c.bench, "-count", "5", "-benchtime", "100ms", "-candidate-time", "90s", c.pkg)
	f.Dir = mod
	var stdout, stderr bytes.Buffer
	f.Stdout, f.Stderr = &stdout, &stderr
	err = f.Run()
	took := time.Since(start)
	var ee *exec.ExitError
	if err != nil && (!errors.As(err, &ee) || ee.ExitCode() != 1) {
		return "", fmt.Errorf("perfloop fix: %v: %s", err, oneLine(stderr.String()))
	}
	var res fixJSON
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return "", fmt.Errorf("perfloop fix -json: %v: %s", err, oneLine(stderr.String()))
	}
	at := func(file string, line int) bool {
		return (file == c.file || strings.HasSuffix(file, "/"+c.file)) && line >= from && line <= to
	}
	found := "no: nothing proposed in " + c.fn
	var kept []string
	for _, k := range res.Kept {
		var parts []string
		for _, b := range k.Benchmarks {
			if b.Significant {
				parts = append(parts, fmt.Sprintf("%+.1f%% %s", b.Delta*100, b.Unit))
			}
		}
		desc := fmt.Sprintf("%s at %s:%d (%s)", k.Rewrite, k.File, k.Line, strings.Join(parts, ", "))
		kept = append(kept, desc)
		if at(k.File, k.Line) && strings.HasPrefix(found, "no") {
			found = "yes: " + desc
		}
	}
	if strings.HasPrefix(found, "no") {
		var tried []string
		for _, r := range res.Rejected {
			if at(r.File, r.Line) {
				tried = append(tried, fmt.Sprintf("%s: %s", r.Rewrite, r.Reason))
			}
		}
		if len(tried) > 0 {
			found = "no: tried " + strings.Join(tried, "; ")
		}
	}
	keptText := "(none)"
	if len(kept) > 0 {
		keptText = strings.Join(kept, "; ")
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", c.name, link(c), c.what, found, keptText, took.Round(time.Second)), nil
}

// funcLines returns the lines of the function fn ("Render", or
// "attr.Render" for a method) in file.
func funcLines(file, fn string) (int, int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return 0, 0, err
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			t := fd.Recv.List[0].Type
			if s, ok := t.(*ast.StarExpr); ok {
				t = s.X
			}
			if id, ok := t.(*ast.Ident); ok {
				name = id.Name + "." + name
			}
		}
		if name == fn {
			return fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line, nil
		}
	}
	return 0, 0, fmt.Errorf("%s: no function %s", file, fn)
}

func link(c commitCase) string {
	return fmt.Sprintf("[%s@%s](https://github.com/%s/commit/%s)", c.repo, c.commit[:7], c.repo, c.commit)
}

func cmd(dir, name string, args ...string) error {
	c := exec.Command(name, args...)
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, oneLine(string(out)))
	}
	return nil
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
