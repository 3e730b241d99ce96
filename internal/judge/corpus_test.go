package judge

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/findings"
)

// The targets the judgement is held to on every corpus module: recall of
// the must-find causes and no false finding on each; findings per root
// cause at most 1.2 over the corpus, and no module above 1.5 (two are
// above 1.2 today: see docs/judgement.md).
const (
	minRecall         = 0.9
	maxPerCause       = 1.2
	maxPerCauseModule = 1.3
)

// pending are the modules that entered the corpus before the rules met
// their labels, with what the rules give on their saved evidence when
// they entered: the must-find causes found and the false findings.
// TestCorpus holds a pending module to those figures (recall may not
// fall, false findings may not grow) instead of the targets; a module
// leaves this table once it meets the targets.
var pending = map[string]struct {
	found, falses int
	// perCause, when set, bounds the module's findings per root cause
	// in place of maxPerCauseModule: it may not grow.
	perCause float64
}{
	// go-diff's semantic cleanup inserting into the middle of its
	// slice (measured on a fresh input: the benchmark's reused input,
	// which lint's mutated reports, hides it) is a cause no rule reads
	// yet; BenchmarkDiffMain timing its 1 s DiffTimeout is found
	// (timeout-set, RuleBrokenTimeout).
	"godiff": {found: 4, falses: 0},
	// regexp2's compile's AST nodes are told to be chunked (the hand
	// analysis: a one-time cost per pattern, a stress test), the
	// replacement's parse too: no rule tells a compile-once path from
	// the matching it serves yet.
	"regexp2": {found: 3, falses: 2},
	// bigcache's stats map, made in every shard whether stats are on or
	// not, is a one-time cost of New that no benchmark measures outside
	// a broken one (New timed, sized by b.N), whose setup the per-op heap
	// profile leaves out. Its write benchmarks, broken from five sides,
	// are one finding now (the benchmarks of a package whose numbers
	// depend on b.N): findings per cause are in bounds.
	"bigcache": {found: 3, falses: 0},
	// starlark's method calls (String.Attr boxing its receiver again,
	// BindReceiver's bound *Builtin) are costs of one or two of
	// BenchmarkStarlark's 21 sub-benchmarks: the heap profile of the
	// whole benchmark, one for all of them, ranks neither among its
	// sites.
	"starlark": {found: 4, falses: 0},
	// websocket's PreparedMessage builds the uncompressed frame twice
	// (a cache key that holds the compression level): its bytes are
	// measured only in BenchmarkBroadcast, whose 10,000 goroutines the
	// scheduler's work dominates, and no rule reads the key yet.
	"websocket": {found: 2, falses: 0},
	// zap's Sugar benchmarks logging into zaptest's observer (results
	// that vary with b.N) are broken benchmarks no rule reads yet: the
	// observer's cost is left alone as the harness's. (The benchmarks
	// that build their encoder in the timed loop are a built-per-op
	// fixture finding, 41-48% of the CPU under NewJSONEncoder.)
	"zap": {found: 3, falses: 0},
}

// misfits are the findings per module whose advice does not fit their
// cause's label, as they stand; a module whose advice stops fitting
// fails. None for regexp2 since its Match slices are one cause in the
// parts' words (parts-apart), and none for zap since its pool's New
// (pool-new) asks who keeps the buffers With takes and never puts back.
var misfits = map[string]int{}

// TestCorpus derives the findings again from each corpus module's saved
// evidence (what perfloop measured on it) and scores them against the
// expert's labels: recall of the must-find causes on the first screen,
// no finding of a kind the expert marked false, and at most 1.2 findings
// per root cause. scripts/judge measures the same on fresh runs.
func TestCorpus(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "corpus", "*"))
	if err != nil || len(dirs) < 4 {
		t.Fatalf("corpus: %d modules, want at least 4 (%v)", len(dirs), err)
	}
	var matching, distinct int
	defer func() {
		if distinct > 0 && float64(matching)/float64(distinct) > maxPerCause {
			t.Errorf("corpus: %.2f findings per root cause > %.1f", float64(matching)/float64(distinct), maxPerCause)
		}
	}()
	for _, dir := range dirs {
		l, err := ReadLabels(filepath.Join(dir, "labels.json"))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(l.Name, func(t *testing.T) {
			doc, err := ReadEvidence(filepath.Join(dir, "evidence.json"))
			if err != nil {
				t.Fatal(err)
			}
			doc.Findings, doc.Gate = findings.Derive(doc, findings.Options{})
			s := Judge(l, doc)
			t.Logf("recall %d/%d, %d false, %.2f findings per cause, %d on the first screen, advice-fit %d/%d", s.Found, s.MustFind, len(s.False), s.PerCause(), s.Fix, s.Fitting, s.Advised)
			for _, m := range s.Misfits {
				t.Logf("advice does not fit: %s", m)
			}
			// Advice-fit is held where it stands: every module's
			// advice fits but for the misfits listed, which may not
			// grow.
			if len(s.Misfits) > misfits[l.Name] {
				t.Errorf("advice-fit %d/%d: %d findings whose advice does not fit, more than the %d recorded", s.Fitting, s.Advised, len(s.Misfits), misfits[l.Name])
			}
			if p, ok := pending[l.Name]; ok {
				for _, f := range s.False {
					t.Logf("false finding (pending): %s", f)
				}
				if s.Found < p.found {
					t.Errorf("recall %d/%d fell below the %d found when the module entered the corpus: missed %v", s.Found, s.MustFind, p.found, s.Missed)
				}
				if len(s.False) > p.falses {
					t.Errorf("%d false findings, more than the %d when the module entered the corpus", len(s.False), p.falses)
				}
			} else {
				if s.Recall() < minRecall {
					t.Errorf("recall %.2f < %.2f: missed %v", s.Recall(), minRecall, s.Missed)
				}
				for _, f := range s.False {
					t.Errorf("false finding: %s", f)
				}
			}
			matching += s.Matching
			distinct += s.Distinct
			limit := maxPerCauseModule
			if p, ok := pending[l.Name]; ok && p.perCause > 0 {
				limit = p.perCause
			}
			if s.PerCause() > limit {
				t.Errorf("%.2f findings per root cause > %.1f", s.PerCause(), limit)
			}
			if s.Fix > document.FirstScreen {
				t.Errorf("%d root causes on the first screen > %d", s.Fix, document.FirstScreen)
			}
		})
	}
}

// TestPredicates checks the matching rules the scores rest on.
func TestPredicates(t *testing.T) {
	tests := []struct {
		p    Predicate
		kind string
		file string
		line int64
		text string
		want bool
	}{
		{Predicate{Kind: "contention"}, "contention", "", 0, "", true},
		{Predicate{Kind: "tight"}, "leave-alone", "", 0, "", true},
		{Predicate{File: "x.go", Line: 3}, "alloc", "x.go", 3, "", true},
		{Predicate{File: "x.go", Line: 3}, "alloc", "x.go", 4, "", false},
		{Predicate{Text: "size the map"}, "alloc", "x.go", 3, "Size The Map on creation", true},
		{Predicate{Text: "size the map", File: "y.go"}, "alloc", "x.go", 3, "size the map", false},
		// A text is a regular expression ("cache its result|memoi"),
		// or a literal when it does not compile.
		{Predicate{Text: "cache its result|memoi"}, "cpu", "x.go", 3, "memoize the lookup", true},
		{Predicate{Text: `memory leak|\bleaks\b`}, "alloc", "x.go", 3, "in BenchmarkRealWorldGitleaksRules", false},
		{Predicate{Text: "inside testing.(*B).Run"}, "cpu", "x.go", 3, "the time inside testing.(*B).Run", true},
	}
	for _, tt := range tests {
		f := findingFor(tt.kind, tt.file, tt.line, tt.text)
		if got := tt.p.Matches(f); got != tt.want {
			t.Errorf("%+v matches %+v = %v, want %v", tt.p, f, got, tt.want)
		}
	}
	c := Cause{ID: "c", File: "x.go", Lines: []int64{10, 20}}
	for line, want := range map[int64]bool{9: true, 11: true, 15: false, 21: true, 22: false} {
		if got := Points(findingFor("alloc", "x.go", line, ""), c); got != want {
			t.Errorf("a finding at x.go:%d points at lines 10, 20: %v, want %v", line, got, want)
		}
	}
	// A cause at call sites in several files.
	c.Also = []Place{{File: "y.go", Lines: []int64{5}}}
	for at, want := range map[string]bool{"y.go:5": true, "y.go:9": false, "z.go:5": false} {
		file, line, _ := strings.Cut(at, ":")
		n, _ := strconv.ParseInt(line, 10, 64)
		if got := Points(findingFor("alloc", file, n, ""), c); got != want {
			t.Errorf("a finding at %s points at x.go:10,20 and y.go:5: %v, want %v", at, got, want)
		}
	}
}

// findingFor is a finding with the fields predicates and causes read.
func findingFor(kind, file string, line int64, text string) document.Finding {
	return document.Finding{Kind: document.Kind(kind), File: file, Line: line, Message: text}
}

// TestAdviceFit checks when a finding's advice fits a cause's advice
// label: by the shape its suggestion comes from when the label names one,
// by the label's patterns otherwise, and never when it matches a bad
// predicate.
func TestAdviceFit(t *testing.T) {
	regexpTwice := &Advice{
		Fits:  "run the regexp once and keep the submatches",
		Shape: "regexp-twice",
		Bad:   []AdvicePredicate{{Text: `compile (it )?once`, Why: "compiled once at registration"}},
	}
	queue := &Advice{
		Fits: "a slice as the item queue",
		Text: []string{`slice (queue|of items)`, `ring buffer`},
		Bad:  []AdvicePredicate{{Text: "make the call concrete", Why: "the escape is not the cost"}, {Shape: "append-unsized", Why: "the queue's length is not known"}},
	}
	tests := []struct {
		name   string
		a      *Advice
		f      document.Finding
		want   bool
		reason string
	}{
		{"shape named", regexpTwice, document.Finding{Shape: "regexp-twice", Suggestion: "run it once"}, true, ""},
		{"no shape", regexpTwice, document.Finding{Suggestion: "keep the submatches", Generic: true}, false, "no shape, want regexp-twice"},
		{"other shape", regexpTwice, document.Finding{Shape: "const-compile"}, false, "shape const-compile, want regexp-twice"},
		{"shape named but bad words", regexpTwice, document.Finding{Shape: "regexp-twice", Suggestion: "Compile once (a package-level regexp.MustCompile)"}, false, "bad advice: compiled once at registration"},
		{"bad words in the message", regexpTwice, document.Finding{Shape: "regexp-twice", Message: "compile it once"}, false, "bad advice: compiled once at registration"},
		{"pattern", queue, document.Finding{Suggestion: "keep the items in a Slice Queue read by index"}, true, ""},
		{"second pattern", queue, document.Finding{Suggestion: "a ring buffer of items"}, true, ""},
		{"pattern only in the message", queue, document.Finding{Message: "a slice queue would do", Suggestion: "call it less"}, false, "does not say a slice as the item queue"},
		{"bad predicate", queue, document.Finding{Suggestion: "a slice queue; make the call concrete"}, false, "bad advice: the escape is not the cost"},
		{"bad shape", queue, document.Finding{Shape: "append-unsized", Suggestion: "a slice queue sized up front"}, false, "bad advice: the queue's length is not known"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason := tt.a.Fit(tt.f)
			if got != tt.want || reason != tt.reason {
				t.Errorf("Fit = %v, %q; want %v, %q", got, reason, tt.want, tt.reason)
			}
		})
	}
}

// TestJudgeAdvice checks what advice-fit counts: first-screen findings
// that point at a cause with an advice label, fitting when the advice
// fits one of the causes they point at.
func TestJudgeAdvice(t *testing.T) {
	l := &Labels{Causes: []Cause{
		{ID: "twice", File: "regexp.go", Lines: []int64{10, 20}, MustFind: true, Advice: &Advice{Fits: "run it once", Shape: "regexp-twice"}},
		{ID: "unlabelled", File: "route.go", Lines: []int64{5}},
	}}
	fix := func(file string, line int64, shape string) document.Finding {
		return document.Finding{Kind: "cpu", Section: document.SectionFix, File: file, Line: line, Shape: shape}
	}
	doc := &document.Report{Findings: []document.Finding{
		fix("regexp.go", 10, "regexp-twice"),
		fix("regexp.go", 21, ""),
		fix("route.go", 5, ""),
		fix("other.go", 1, ""),
	}}
	for i := 0; i < document.FirstScreen; i++ {
		doc.Findings = append(doc.Findings, fix("other.go", 2, ""))
	}
	// Past the first screen: not counted.
	doc.Findings = append(doc.Findings, fix("regexp.go", 20, ""))
	s := Judge(l, doc)
	if s.Advised != 2 || s.Fitting != 1 || len(s.Misfits) != 1 || s.AdviceFit() != 0.5 {
		t.Errorf("advised %d, fitting %d, misfits %q, advice-fit %.2f; want 2, 1, one, 0.50", s.Advised, s.Fitting, s.Misfits, s.AdviceFit())
	}
}

// TestJudgeNoChange: a first-screen row marked no_change ("where the rest
// of the time goes") names no change, so it neither finds its cause nor
// counts as a second finding of it; it is listed in Rest.
func TestJudgeNoChange(t *testing.T) {
	l := &Labels{Causes: []Cause{
		{ID: "clear", File: "encode.s", Lines: []int64{298}, MustFind: true},
		{ID: "clock", File: "cache.go", Lines: []int64{10, 20}, MustFind: true},
	}}
	doc := &document.Report{Findings: []document.Finding{
		{Kind: "cpu", Section: document.SectionFix, File: "cache.go", Line: 10},
		{Kind: "cpu", Section: document.SectionFix, File: "cache.go", Line: 20, NoChange: true},
		{Kind: "cpu", Section: document.SectionFix, File: "encode.s", Line: 298, NoChange: true},
	}}
	s := Judge(l, doc)
	if s.Found != 1 || s.Matching != 1 || s.Distinct != 1 || len(s.Missed) != 1 || s.Missed[0] != "clear" || len(s.Rest) != 2 {
		t.Errorf("found %d, matching %d, distinct %d, missed %q, rest %q; want 1, 1, 1, [clear], two", s.Found, s.Matching, s.Distinct, s.Missed, s.Rest)
	}
}

// TestReadLabelsAdvice checks that an advice label that cannot be applied
// is an error naming the cause.
func TestReadLabelsAdvice(t *testing.T) {
	tests := []struct {
		advice string
		want   string
	}{
		{`{"fits": "x", "shape": "regexp-twice"}`, ""},
		{`{"fits": "x", "text": ["a("]}`, "cause c: advice"},
		{`{"shape": "regexp-twice"}`, "cause c: advice: no fits"},
		{`{"fits": "x"}`, "cause c: advice: neither a shape nor a text pattern"},
		{`{"fits": "x", "text": ["y"], "bad": [{"why": "z"}]}`, "cause c: advice: a bad predicate with neither text nor shape"},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), "labels.json")
		data := `{"name": "m", "causes": [{"id": "c", "advice": ` + tt.advice + `}]}`
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadLabels(path)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: error %v, want %q", tt.advice, err, tt.want)
		}
	}
}

// TestEvidenceHoldsNoMachinePaths: every shape, line and allocation of a
// saved evidence names a file of the module by its path in the module,
// never a path of the machine that measured it (a build cache's file the
// go command wrote for the build is no file of the module's).
func TestEvidenceHoldsNoMachinePaths(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "corpus", "*", "evidence.json"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no evidence: %v", err)
	}
	for _, path := range dirs {
		doc, err := ReadEvidence(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range doc.Shapes {
			if filepath.IsAbs(s.File) {
				t.Errorf("%s: shape %s at %s, a path of the machine", path, s.Name, s.File)
			}
		}
		for _, a := range doc.Allocations {
			if filepath.IsAbs(a.File) {
				t.Errorf("%s: allocation at %s, a path of the machine", path, a.File)
			}
		}
	}
}
