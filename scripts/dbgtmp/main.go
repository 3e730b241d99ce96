package main

import (
	"fmt"
	"os"

	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/judge"
)

func main() {
	doc, err := judge.ReadEvidence(os.Args[1])
	if err != nil {
		panic(err)
	}
	fs, gate := findings.Derive(doc, findings.Options{})
	for i, f := range fs {
		fmt.Printf("%2d %s %s %s %.3f %s:%d %s | %s\n", i, f.Section, f.Kind, f.Severity, f.Impact, f.File, f.Line, f.Benchmark, f.Message)
		for _, r := range f.Related {
			fmt.Printf("      also %s:%d\n", r.File, r.Line)
		}
		fmt.Printf("      fix: %s\n", f.Suggestion)
	}
	for _, g := range gate {
		fmt.Println("gate:", g.Rule, g.Verdict, g.Message)
	}
}
