// Command judge measures perfloop report's judgement on the labelled
// corpus (internal/judge/testdata/corpus): for every module it fetches the
// module at its labelled version (go mod download), runs perfloop report
// on a writable copy with the labels' flags, keeps the report as the
// module's evidence.json (-save), and prints, per module, the recall of
// the expert's must-find causes on the first screen, the findings of a
// known-false kind, the findings per root cause, and the advice-fit: of
// the first-screen findings that point at a cause, how many carry advice
// the expert accepts (with -v, why each other one does not).
//
// With -offline it runs nothing: it derives the findings again from each
// module's saved evidence.json, as TestCorpus does, which is how a change
// to the rules is checked in seconds. -reshape matches the shapes of code
// again on the module's source first (a second or two per module), so a
// change to internal/site's matchers is judged without running a
// benchmark. -report file.json -src dir derives and shows the findings of
// any saved report again, with its module's shapes matched again.
//
// Usage (from the repository root):
//
//	go build -o /tmp/perfloop ./cmd/perfloop
//	go run ./scripts/judge -perfloop /tmp/perfloop [-save] [-only logrus,btree]
//	go run ./scripts/judge -offline [-reshape]
//	go run ./scripts/judge -report perfloop-report/report.json -src .
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/judge"
	"github.com/perfloop/perfloop/internal/loop"
)

var (
	perfloop = flag.String("perfloop", "perfloop", "perfloop binary to run")
	corpus   = flag.String("corpus", "internal/judge/testdata/corpus", "corpus directory")
	only     = flag.String("only", "", "comma-separated module names to run (default all)")
	save     = flag.Bool("save", false, "write each report as the module's evidence.json (with -offline -reshape: the saved measurements with the shapes matched again)")
	offline  = flag.Bool("offline", false, "derive findings from the saved evidence.json instead of running perfloop")
	verbose  = flag.Bool("v", false, "print every missed cause and false finding")
	show     = flag.Bool("show", false, "print each module's first screen of findings")
	reshape  = flag.Bool("reshape", false, "with -offline, match the shapes of code again on the module's source")
	report   = flag.String("report", "", "derive and show the findings of this saved report.json again (with -src)")
	srcDir   = flag.String("src", ".", "with -report, the module's source directory")
	out      = flag.String("out", "", "with -report, also write the report derived again to this file (JSON)")
)

func main() {
	log.SetFlags(0)
	flag.Parse()
	if *report != "" {
		doc, err := judge.ReadEvidence(*report)
		if err != nil {
			log.Fatal(err)
		}
		loop.FromSource(context.Background(), loop.Config{Dir: *srcDir}, doc)
		doc.Findings, doc.Gate = findings.Derive(doc, findings.Options{})
		showFindings(doc)
		if *out != "" {
			data, err := json.MarshalIndent(doc, "", " ")
			if err == nil {
				err = os.WriteFile(*out, append(data, '\n'), 0o644)
			}
			if err != nil {
				log.Fatal(err)
			}
		}
		return
	}
	dirs, err := filepath.Glob(filepath.Join(*corpus, "*", "labels.json"))
	if err != nil || len(dirs) == 0 {
		log.Fatalf("no labels.json under %s", *corpus)
	}
	var scores []*judge.Score
	var wall []time.Duration
	for _, lp := range dirs {
		dir := filepath.Dir(lp)
		l, err := judge.ReadLabels(lp)
		if err != nil {
			log.Fatal(err)
		}
		if *only != "" && !slices.Contains(strings.Split(*only, ","), l.Name) {
			continue
		}
		start := time.Now()
		var doc *document.Report
		if *offline {
			doc, err = judge.ReadEvidence(filepath.Join(dir, "evidence.json"))
			if err == nil && *reshape {
				err = shapesAgain(l, doc)
				if err == nil && *save {
					// The same measurements with the shapes matched
					// again: what TestCorpus derives from.
					err = judge.WriteEvidence(filepath.Join(dir, "evidence.json"), doc)
				}
			}
			if err == nil {
				doc.Findings, doc.Gate = findings.Derive(doc, findings.Options{})
			}
		} else {
			doc, err = run(l, dir)
		}
		if err != nil {
			log.Fatalf("%s: %v", l.Name, err)
		}
		s := judge.Judge(l, doc)
		if *show {
			fmt.Printf("%s:\n", l.Name)
			showFindings(doc)
		}
		scores = append(scores, s)
		wall = append(wall, time.Since(start))
	}
	fmt.Printf("%-12s %8s %7s %9s %10s %10s %9s %6s\n", "module", "recall", "false", "per-cause", "advice-fit", "first-fix", "generic@5", "time")
	for i, s := range scores {
		fmt.Printf("%-12s %3d/%-3d %7d %9.2f %6d/%-3d %10d %9d %6s\n", s.Module, s.Found, s.MustFind, len(s.False), s.PerCause(), s.Fitting, s.Advised, s.Fix, len(s.Generic), wall[i].Round(time.Second))
		if *verbose {
			for _, m := range s.Missed {
				fmt.Printf("    missed: %s\n", m)
			}
			for _, f := range s.False {
				fmt.Printf("    false: %s\n", f)
			}
			for _, r := range s.Repeats {
				fmt.Printf("    repeated: %s\n", r)
			}
			for _, m := range s.Misfits {
				fmt.Printf("    advice: %s\n", m)
			}
			for _, g := range s.Generic {
				fmt.Printf("    generic: %s\n", g)
			}
			for _, r := range s.Rest {
				fmt.Printf("    no change named: %s\n", r)
			}
		}
	}
}

// run fetches the module, runs perfloop report on a copy and returns the
// report.
func run(l *judge.Labels, dir string) (*document.Report, error) {
	src, cleanup, err := moduleCopy(l)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	tmp := filepath.Dir(src)
	args := []string{"report", "-json", "-out", filepath.Join(tmp, "report"),
		"-count", fmt.Sprint(max(l.Count, 1)), "-benchtime", l.Benchtime}
	if l.Bench != "" {
		args = append(args, "-bench", l.Bench)
	}
	args = append(args, l.Packages...)
	cmd := exec.Command(*perfloop, args...)
	cmd.Dir = src
	cmd.Stderr = os.Stderr
	rep, err := cmd.Output()
	if err != nil && len(rep) == 0 {
		return nil, fmt.Errorf("perfloop report: %w", err)
	}
	var doc document.Report
	if err := json.Unmarshal(rep, &doc); err != nil {
		return nil, fmt.Errorf("perfloop report: %w", err)
	}
	if *save {
		if err := judge.WriteEvidence(filepath.Join(dir, "evidence.json"), &doc); err != nil {
			return nil, err
		}
	}
	return &doc, nil
}

// showFindings prints a report's first screen of findings.
func showFindings(doc *document.Report) {
	for i, f := range judge.FirstScreenFindings(doc.Findings) {
		fmt.Printf("%2d %s %s %s:%d %s (impact %.2f)\n   %s\n", i+1, f.Kind, f.Section, f.File, f.Line, f.Benchmark, f.Impact, f.Message)
		if len(f.Related) > 0 {
			var rel []string
			for _, r := range f.Related {
				rel = append(rel, fmt.Sprintf("%s:%d", r.File, r.Line))
			}
			fmt.Printf("   related: %s\n", strings.Join(rel, ", "))
		}
		if f.Suggestion != "" {
			shape := f.Shape
			if f.Generic {
				shape = "generic"
			}
			if f.NoChange {
				shape += ", no change named"
			}
			fmt.Printf("   advice [%s]: %s\n", shape, f.Suggestion)
		}
	}
}

// shapesAgain matches the shapes of code again on the module's source at
// the labelled version, in place of the evidence's.
func shapesAgain(l *judge.Labels, doc *document.Report) error {
	src, cleanup, err := moduleCopy(l)
	if err != nil {
		return err
	}
	defer cleanup()
	loop.FromSource(context.Background(), loop.Config{Dir: src, Patterns: l.Packages}, doc)
	return nil
}

// moduleCopy fetches the module at its labelled version and returns a
// writable copy (with the labels' go.mod, tidied), and what removes it.
func moduleCopy(l *judge.Labels) (src string, cleanup func(), err error) {
	out, err := exec.Command("go", "mod", "download", "-json", l.Module+"@"+l.Version).Output()
	if err != nil {
		return "", nil, fmt.Errorf("go mod download %s@%s: %w", l.Module, l.Version, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		return "", nil, fmt.Errorf("go mod download %s@%s: no directory", l.Module, l.Version)
	}
	tmp, err := os.MkdirTemp("", "judge-"+l.Name+"-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	src = filepath.Join(tmp, "src")
	if err := exec.Command("cp", "-r", m.Dir, src).Run(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("copy %s: %w", m.Dir, err)
	}
	if err := exec.Command("chmod", "-R", "u+w", src).Run(); err != nil {
		cleanup()
		return "", nil, err
	}
	_, noSum := os.Stat(filepath.Join(src, "go.sum"))
	if l.GoMod != "" || noSum != nil {
		// A go.mod of the labels', or a module published without its
		// go.sum (gopkg.in/yaml.v3, whose tests need gopkg.in/check.v1):
		// go mod tidy completes it, as its users do before testing it.
		if l.GoMod != "" {
			if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte(l.GoMod), 0o644); err != nil {
				cleanup()
				return "", nil, err
			}
		}
		tidy := exec.Command("go", "mod", "tidy")
		tidy.Dir = src
		if out, err := tidy.CombinedOutput(); err != nil {
			cleanup()
			return "", nil, fmt.Errorf("go mod tidy: %v: %s", err, out)
		}
	}
	return src, cleanup, nil
}
