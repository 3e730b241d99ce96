package check

import (
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

func shardDoc(shard string) *document.Check {
	return &document.Check{Schema: document.CheckSchema, Verdict: document.CheckPass, Base: "main 1ae5dc26f40b", Head: "work tree",
		Shard: shard, Regressions: []document.Regression{}, Budgets: []document.BudgetCheck{}}
}

// The shards of one check join into one verdict: every shard's rows, the
// budgets a benchmark of some shard matched (a budget no benchmark of one
// shard matches may match one of another), the counts added up.
func TestMerge(t *testing.T) {
	a, b := shardDoc("1/2"), shardDoc("2/2")
	a.Verdict = document.CheckFail
	a.Regressions = []document.Regression{{Package: "example.com/ck", Benchmark: "BenchmarkWriteFrame", Unit: "allocs/op", Delta: 1,
		Causes: []document.Cause{{Kind: "alloc", File: "codec.go", Line: 8, Message: "new allocation", Changed: true}}}}
	a.Budgets = []document.BudgetCheck{{Budget: "BenchmarkSum allocs/op == 0", Unit: "allocs/op", Op: "=="}}
	a.Unchanged, a.Rounds, a.WallSeconds = 3, 12, 4.5
	a.Notes = []string{"BenchmarkX: the first iteration is cold", "shared note"}
	a.Unaltered = []string{"example.com/other"}
	b.Budgets = []document.BudgetCheck{{Budget: "BenchmarkSum allocs/op == 0", Benchmark: "BenchmarkSum", Unit: "allocs/op", Op: "==", OK: true},
		{Budget: "BenchmarkGone allocs/op == 0", Unit: "allocs/op", Op: "=="}}
	b.Improvements = []document.Change{{Package: "example.com/ck", Benchmark: "BenchmarkSum", Unit: "sec/op", Delta: -0.2}}
	b.Unchanged, b.Rounds, b.WallSeconds = 2, 9, 6
	b.Notes = []string{"shared note"}
	b.Unaltered = []string{"example.com/other"}

	c, err := Merge([]*document.Check{b, a})
	if err != nil {
		t.Fatal(err)
	}
	if c.Verdict != document.CheckFail || len(c.Regressions) != 1 || len(c.Improvements) != 1 {
		t.Errorf("verdict %s, %d regressions, %d improvements; want fail, 1, 1", c.Verdict, len(c.Regressions), len(c.Improvements))
	}
	var budgets []string
	for _, bc := range c.Budgets {
		budgets = append(budgets, bc.Budget+" → "+bc.Benchmark)
	}
	if want := "BenchmarkSum allocs/op == 0 → BenchmarkSum; BenchmarkGone allocs/op == 0 → "; strings.Join(budgets, "; ") != want {
		t.Errorf("budgets %q, want %q", strings.Join(budgets, "; "), want)
	}
	if c.Unchanged != 5 || c.Rounds != 12 || c.WallSeconds != 6 || c.Shard != "" {
		t.Errorf("unchanged %d rounds %d wall %v shard %q; want 5, 12, 6, none", c.Unchanged, c.Rounds, c.WallSeconds, c.Shard)
	}
	if len(c.Notes) != 2 || len(c.Unaltered) != 1 {
		t.Errorf("notes %q unaltered %q: want each once", c.Notes, c.Unaltered)
	}
	// Nothing failed in shard 2: its pass does not hide shard 1's fail,
	// and a pass of both is a pass.
	a2, b2 := shardDoc("1/2"), shardDoc("2/2")
	if c, err := Merge([]*document.Check{a2, b2}); err != nil || c.Verdict != document.CheckPass {
		t.Errorf("two passes: %v, %v", c, err)
	}
	// An interrupted shard makes the whole check interrupted.
	a3, b3 := shardDoc("1/2"), shardDoc("2/2")
	b3.Verdict = document.CheckInterrupted
	b3.Notes = []string{"interrupted during the rounds"}
	if c, err := Merge([]*document.Check{a3, b3}); err != nil || c.Verdict != document.CheckInterrupted || !strings.Contains(c.Notes[0], "shard 2/2") {
		t.Errorf("an interrupted shard: %+v, %v", c, err)
	}
}

func TestMergeErrors(t *testing.T) {
	other := shardDoc("2/2")
	other.Base = "main 0000000000aa"
	notShard := shardDoc("")
	for _, tt := range []struct {
		name  string
		parts []*document.Check
		want  string
	}{
		{"missing", []*document.Check{shardDoc("1/3"), shardDoc("3/3")}, "shard 2/3 is missing"},
		{"twice", []*document.Check{shardDoc("1/2"), shardDoc("1/2"), shardDoc("2/2")}, "shard 1/2 is given twice"},
		{"counts", []*document.Check{shardDoc("1/2"), shardDoc("2/3")}, "of 2 shards and of 3"},
		{"sides", []*document.Check{shardDoc("1/2"), other}, "compares work tree against main 0000000000aa"},
		{"not a shard", []*document.Check{shardDoc("1/2"), notShard}, "not a shard"},
		{"none", nil, "no shard"},
	} {
		_, err := Merge(tt.parts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.want)
		}
	}
}

func TestShardOf(t *testing.T) {
	keys := []string{"p BenchmarkA", "p BenchmarkB", "p BenchmarkC", "q BenchmarkA", "q BenchmarkD"}
	seen := map[string]int{}
	for i := 1; i <= 2; i++ {
		for _, k := range keys {
			if InShard(k, keys, i, 2) {
				seen[k]++
			}
		}
	}
	for _, k := range keys {
		if seen[k] != 1 {
			t.Errorf("%s is in %d shards, want 1", k, seen[k])
		}
	}
}
