// Package judge measures perfloop's judgement the way its numbers are
// measured: against a reference. The reference is a labelled corpus of
// real modules, each analysed by hand by an expert (go test -bench, pprof
// -top/-list/-peek, -gcflags=-m=2, reading the code): the root causes they
// would write down, and the findings that would be false there.
//
// For one module, Score compares a report's findings with the labels:
//
//   - recall: the share of the must-find causes that the report's first
//     screen (the first ten "fix" findings, the benchmark, broken and
//     leave-alone sections) points at;
//   - false findings: findings (and gate rows) that match a predicate the
//     expert marked false (a predicate naming a benchmark matches the
//     benchmark a finding is about: the one it costs most);
//   - findings per root cause: first-screen findings that point at a
//     cause, divided by the distinct causes they point at;
//   - advice-fit: of the first-screen findings that point at a cause whose
//     labels say what advice fits it, how many carry advice the expert
//     accepts: the suggestion comes from the shape of code the label names
//     (a site matcher's or a rewrite's), or, when the label names none,
//     it matches one of the label's fitting patterns; and nothing the
//     finding says matches one of the cause's bad-advice predicates.
//
// A finding points at a cause when its file is the cause's and its line,
// or one of its related lines, is within one line of one of the cause's
// lines; a broken-benchmark cause is pointed at by a "broken" finding for
// that benchmark.
package judge

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// Labels is one corpus module's hand analysis (labels.json).
type Labels struct {
	Name      string   `json:"name"`
	Module    string   `json:"module"`
	Version   string   `json:"version"`
	Kind      string   `json:"kind"`
	Packages  []string `json:"packages"`
	Bench     string   `json:"bench"`
	Count     int      `json:"count"`
	Benchtime string   `json:"benchtime"`
	// GoMod, when set, is the go.mod to write into a module that has
	// none (it predates modules); go mod tidy then completes it.
	GoMod  string  `json:"gomod,omitempty"`
	Causes []Cause `json:"causes"`
	// LeaveAlone lists the benchmarks the expert would not touch.
	LeaveAlone []struct {
		Benchmark string `json:"benchmark"`
		Why       string `json:"why"`
	} `json:"leave_alone"`
	False []Predicate `json:"false"`
}

// Cause is one root cause the expert found.
type Cause struct {
	ID         string   `json:"id"`
	Kind       string   `json:"kind"`
	File       string   `json:"file"`
	Lines      []int64  `json:"lines"`
	Function   string   `json:"function"`
	Benchmarks []string `json:"benchmarks"`
	Cost       string   `json:"cost"`
	What       string   `json:"what"`
	Fix        string   `json:"fix"`
	Measured   string   `json:"measured"`
	MustFind   bool     `json:"must_find"`
	// Also are the cause's lines in other files: one cause at many call
	// sites (a debug call on a hot path in every renderer).
	Also []Place `json:"also,omitempty"`
	// Advice is the advice an expert accepts for the cause and the
	// advice that does not fit its code; every must-find cause has one.
	Advice *Advice `json:"advice,omitempty"`
}

// Place is a file and lines of it.
type Place struct {
	File  string  `json:"file"`
	Lines []int64 `json:"lines"`
}

// Advice says which advice fits a cause. A finding's advice fits when its
// suggestion comes from Shape (when Shape is set) or matches one of Text
// (when it is not), and nothing the finding says matches a Bad predicate.
type Advice struct {
	// Fits is the advice the expert accepts, in words.
	Fits string `json:"fits"`
	// Shape names the shape of code whose advice fits (a site matcher's
	// or a rewrite's: "regexp-twice", "append-unsized"), when one of
	// them describes the cause.
	Shape string `json:"shape,omitempty"`
	// Text are regular expressions, matched without regard to case
	// against the finding's suggestion, any of which marks advice that
	// fits; read only when Shape is empty.
	Text []string `json:"text,omitempty"`
	// Bad describes advice that does not fit the cause's code.
	Bad []AdvicePredicate `json:"bad,omitempty"`
}

// AdvicePredicate describes advice that does not fit a cause: every field
// given must match.
type AdvicePredicate struct {
	// Text is a regular expression matched without regard to case
	// against what the finding says (its message and suggestion).
	Text string `json:"text,omitempty"`
	// Shape is a shape whose advice does not fit there.
	Shape string `json:"shape,omitempty"`
	// Why is the expert's reason.
	Why string `json:"why"`
}

// Predicate describes findings that would be false: every field given must
// match.
type Predicate struct {
	Kind      string `json:"kind,omitempty"`
	File      string `json:"file,omitempty"`
	Line      int64  `json:"line,omitempty"`
	Benchmark string `json:"benchmark,omitempty"`
	Text      string `json:"text,omitempty"`
	Why       string `json:"why"`
}

// ReadLabels reads a labels.json file.
func ReadLabels(path string) (*Labels, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var l Labels
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	for _, c := range l.Causes {
		if err := c.Advice.check(); err != nil {
			return nil, fmt.Errorf("%s: cause %s: %w", path, c.ID, err)
		}
	}
	return &l, nil
}

// check reports an advice label that cannot be applied: no words, nothing
// that marks fitting advice, a pattern that does not compile, or a bad
// predicate that matches everything.
func (a *Advice) check() error {
	if a == nil {
		return nil
	}
	if a.Fits == "" {
		return fmt.Errorf("advice: no fits")
	}
	if a.Shape == "" && len(a.Text) == 0 {
		return fmt.Errorf("advice: neither a shape nor a text pattern")
	}
	for _, t := range a.Text {
		if _, err := compile(t); err != nil {
			return fmt.Errorf("advice: %w", err)
		}
	}
	for _, b := range a.Bad {
		if b.Text == "" && b.Shape == "" {
			return fmt.Errorf("advice: a bad predicate with neither text nor shape")
		}
		if _, err := compile(b.Text); err != nil {
			return fmt.Errorf("advice: %w", err)
		}
	}
	return nil
}

// compile compiles a label's pattern, matched without regard to case.
func compile(pattern string) (*regexp.Regexp, error) {
	return regexp.Compile("(?i)" + pattern)
}

// matchText reports whether pattern (already checked by ReadLabels)
// matches text.
func matchText(pattern, text string) bool {
	re, err := compile(pattern)
	return err == nil && re.MatchString(text)
}

// Fit says whether a finding's advice fits the cause, and why not.
func (a *Advice) Fit(f document.Finding) (bool, string) {
	said := f.Message + " " + f.Suggestion
	for _, b := range a.Bad {
		if (b.Shape == "" || f.Shape == b.Shape) && (b.Text == "" || matchText(b.Text, said)) {
			return false, "bad advice: " + b.Why
		}
	}
	if a.Shape != "" {
		if f.Shape == a.Shape {
			return true, ""
		}
		if f.Shape == "" {
			return false, fmt.Sprintf("no shape, want %s", a.Shape)
		}
		return false, fmt.Sprintf("shape %s, want %s", f.Shape, a.Shape)
	}
	for _, t := range a.Text {
		if matchText(t, f.Suggestion) {
			return true, ""
		}
	}
	return false, "does not say " + a.Fits
}

// Score is how a report's findings compare with a module's labels.
type Score struct {
	Module string
	// MustFind is the number of must-find causes; Found how many of them
	// the first screen points at, and Missed their ids.
	MustFind, Found int
	Missed          []string
	// False lists the findings that match a false predicate, one line
	// each.
	False []string
	// Matching is the number of first-screen findings that name a
	// change (not no_change) and point at a cause; Distinct the number of causes they point at.
	Matching, Distinct int
	// Fix is the number of "fix" findings on the first screen.
	Fix int
	// Repeats lists the causes more than one first-screen finding points
	// at, with where those findings are.
	Repeats []string
	// Rest lists the causes that first-screen findings marked no_change
	// ("where the rest of the time goes") point at, with where: such a
	// row names no change, so it neither finds a cause nor repeats one.
	Rest []string
	// Advised is the number of first-screen findings that point at a
	// cause with an advice label; Fitting how many of them carry advice
	// that fits, and Misfits says, one line each, why the others do not.
	Advised, Fitting int
	Misfits          []string
	// Generic lists the first five "what to do first" findings that name
	// a change (not no_change) in a category's words (generic): the
	// held-out goal is none.
	Generic []string
}

// AdviceFit is Fitting / Advised (1 with no advised finding).
func (s *Score) AdviceFit() float64 {
	if s.Advised == 0 {
		return 1
	}
	return float64(s.Fitting) / float64(s.Advised)
}

// Recall is Found / MustFind (1 with nothing to find).
func (s *Score) Recall() float64 {
	if s.MustFind == 0 {
		return 1
	}
	return float64(s.Found) / float64(s.MustFind)
}

// PerCause is Matching / Distinct (0 with no matching finding).
func (s *Score) PerCause() float64 {
	if s.Distinct == 0 {
		return 0
	}
	return float64(s.Matching) / float64(s.Distinct)
}

// Judge scores a report's findings and gate against the labels.
func Judge(l *Labels, doc *document.Report) *Score {
	s := &Score{Module: l.Name}
	first := FirstScreenFindings(doc.Findings)
	top := 0
	for _, f := range first {
		if f.Section == document.SectionFix {
			s.Fix++
			if f.NoChange {
				continue // "where the rest of the time goes", shown apart
			}
			if top++; top <= 5 && f.Generic {
				s.Generic = append(s.Generic, fmt.Sprintf("%s %s: %q", f.Kind, where(f.File, f.Line), f.Suggestion))
			}
		}
	}
	matched := map[string]bool{}
	pointers := map[string][]string{}
	for _, f := range first {
		if f.NoChange {
			// "Where the rest of the time goes": no change named, so
			// neither a cause found nor a second finding of one.
			for _, c := range l.Causes {
				if Points(f, c) {
					s.Rest = append(s.Rest, fmt.Sprintf("%s: %s", c.ID, where(f.File, f.Line)))
				}
			}
			continue
		}
		hit := false
		advised, fits := false, false
		var why []string
		for _, c := range l.Causes {
			if Points(f, c) {
				hit = true
				matched[c.ID] = true
				pointers[c.ID] = append(pointers[c.ID], where(f.File, f.Line))
				if c.Advice != nil {
					advised = true
					ok, reason := c.Advice.Fit(f)
					fits = fits || ok
					if !ok {
						why = append(why, c.ID+": "+reason)
					}
				}
			}
		}
		if hit {
			s.Matching++
		}
		if advised {
			s.Advised++
			if fits {
				s.Fitting++
			} else {
				s.Misfits = append(s.Misfits, fmt.Sprintf("%s %s: %q (%s)", f.Kind, where(f.File, f.Line), f.Suggestion, strings.Join(why, "; ")))
			}
		}
	}
	for _, c := range l.Causes {
		if ps := pointers[c.ID]; len(ps) > 1 {
			s.Repeats = append(s.Repeats, fmt.Sprintf("%s: %s", c.ID, strings.Join(ps, ", ")))
		}
	}
	s.Distinct = len(matched)
	for _, c := range l.Causes {
		if !c.MustFind {
			continue
		}
		s.MustFind++
		if matched[c.ID] {
			s.Found++
		} else {
			s.Missed = append(s.Missed, c.ID)
		}
	}
	for _, f := range doc.Findings {
		for _, p := range l.False {
			if p.Matches(f) {
				s.False = append(s.False, fmt.Sprintf("%s %s: %s (false: %s)", f.Kind, where(f.File, f.Line), f.Message, p.Why))
				break
			}
		}
	}
	for _, g := range doc.Gate {
		f := document.Finding{Kind: gateKind(g.Rule), Benchmark: g.Benchmark, Message: g.Message}
		for _, p := range l.False {
			if p.File == "" && p.Line == 0 && p.Matches(f) {
				s.False = append(s.False, fmt.Sprintf("gate %q: %s (false: %s)", g.Rule, g.Message, p.Why))
				break
			}
		}
	}
	return s
}

// FirstScreenFindings returns what the report shows first: the first ten
// "fix" findings, then the benchmark, broken and leave-alone sections;
// the costs of the API (section "api") and the notes on the benchmarks'
// code are never first.
func FirstScreenFindings(fs []document.Finding) []document.Finding {
	var out []document.Finding
	n := 0
	for _, f := range fs {
		if f.Section == document.SectionAPI {
			continue // what the API forces: a section of its own, never first
		}
		if f.Rule.Note() {
			continue // measured too small to distort: the appendix's
		}
		if f.Section == document.SectionFix || f.Section == "" {
			if n == document.FirstScreen {
				continue
			}
			n++
		}
		out = append(out, f)
	}
	return out
}

// Points reports whether finding f points at cause c.
func Points(f document.Finding, c Cause) bool {
	if c.Kind == "broken" || c.File == "" {
		if f.Kind != "broken" && !(c.Kind == "fixture" && f.Kind == "fixture") && !(c.Kind == "io" && f.Kind == "io") {
			return false
		}
		// A failing benchmark's finding at the line that reported the
		// failure points at the cause of that line, not at every cause
		// of its benchmarks.
		failure := f.Rule == document.RuleBrokenFails && f.File != "" && c.File != ""
		for _, b := range c.Benchmarks {
			for _, fb := range append([]string{f.Benchmark}, f.Benchmarks...) {
				if fb != "" && sameBenchmark(fb, b) && !failure {
					return true
				}
			}
		}
		if c.File == "" {
			return false
		}
	}
	lines := []document.Location{{File: f.File, Line: f.Line}}
	lines = append(lines, f.Related...)
	places := append([]Place{{File: c.File, Lines: c.Lines}}, c.Also...)
	for _, l := range lines {
		for _, p := range places {
			if l.File != p.File {
				continue
			}
			for _, cl := range p.Lines {
				if d := l.Line - cl; d >= -1 && d <= 1 {
					return true
				}
			}
		}
	}
	return false
}

// sameBenchmark reports whether two benchmark names name the same
// benchmark or one is a sub-benchmark of the other.
func sameBenchmark(a, b string) bool {
	return a == b || strings.HasPrefix(a, b+"/") || strings.HasPrefix(b, a+"/")
}

// kinds maps the labels' kind names to perfloop's where they differ.
var kinds = map[string]string{"tight": "leave-alone"}

// Matches reports whether finding f is one the predicate says is false.
func (p Predicate) Matches(f document.Finding) bool {
	if p.Kind != "" {
		k := p.Kind
		if m, ok := kinds[k]; ok {
			k = m
		}
		if f.Kind != document.Kind(k) {
			return false
		}
	}
	if p.File != "" || p.Line != 0 {
		ok := false
		lines := append([]document.Location{{File: f.File, Line: f.Line}}, f.Related...)
		if p.Text != "" && p.Line != 0 {
			// What a message says is about the finding's own line; its
			// related lines carry their own notes.
			lines = lines[:1]
		}
		for _, l := range lines {
			if (p.File == "" || l.File == p.File) && (p.Line == 0 || l.Line == p.Line) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	// A predicate about one benchmark is about the benchmark the finding
	// is about (the one it costs most), not every benchmark it lists.
	if p.Benchmark != "" && (f.Benchmark == "" || !sameBenchmark(f.Benchmark, p.Benchmark)) {
		return false
	}
	if p.Text != "" {
		text := strings.ToLower(f.Message + " " + f.Suggestion + " " + f.Gain)
		if !strings.Contains(text, strings.ToLower(p.Text)) && !matchesPattern(p.Text, text) {
			return false
		}
	}
	return true
}

// matchesPattern reports whether text matches pattern as a
// case-insensitive regular expression ("cache its result|memoi"); a
// pattern that does not compile ("inside testing.(*B).Run") is a literal,
// which Matches tests first.
func matchesPattern(pattern, text string) bool {
	re, err := regexp.Compile("(?i)" + pattern)
	return err == nil && re.MatchString(text)
}

func gateKind(rule string) document.Kind {
	switch rule {
	case "contention":
		return document.KindContention
	case "already tight":
		return document.KindLeaveAlone
	}
	return "gate"
}

func where(file string, line int64) string {
	if line <= 0 {
		return file
	}
	return fmt.Sprintf("%s:%d", file, line)
}
