package fix

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/stats"
)

// TestCompareReusesBase: the commit's benchmark binaries are built for
// the first candidate of a round and measured against the next ones,
// whose own side alone is built.
func TestCompareReusesBase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	tmp := t.TempDir()
	module := func(name string) string {
		dir := filepath.Join(tmp, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for file, text := range map[string]string{
			"go.mod":    "module example.com/m\n\ngo 1.24\n",
			"m.go":      "package m\n\n// Sum adds.\nfunc Sum(xs []int) (s int) {\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n",
			"m_test.go": "package m\n\nimport \"testing\"\n\nvar sink int\n\nfunc BenchmarkSum(b *testing.B) {\n\txs := make([]int, 100)\n\tfor b.Loop() {\n\t\tsink = Sum(xs)\n\t}\n}\n",
		} {
			if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	base := module("base")
	opts := Options{AB: abtest.Options{Benchtime: "5ms", Timeout: time.Minute, MinRounds: 2, MaxRounds: 2, Budget: 20 * time.Second, Alpha: stats.Alpha, Seed: 1}}
	bases := baseSides{}
	defer bases.close()
	before := builds.Load()
	for i, cand := range []string{module("c1"), module("c2"), module("c3")} {
		r, why, err := compare(context.Background(), opts, [2]abtest.Spec{
			{Role: "BASE", Label: "base", Dir: base},
			{Role: "HEAD", Label: "cand", Dir: cand},
		}, []string{"BenchmarkSum"}, []string{"example.com/m"}, bases, nil)
		if err != nil || r == nil || len(r.Tables) == 0 {
			t.Fatalf("candidate %d: %v, %q, %v", i+1, r, why, err)
		}
	}
	if n := builds.Load() - before; n != 4 {
		t.Errorf("built %d sides for three candidates, want 4 (the commit's once)", n)
	}
}
