package cli

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/store"
)

// TestShardBalancesOnStoredDurations: -shard balances on the wall times
// the store recorded (they were never read: the fingerprint of a run not
// yet measured is not known, and the durations were asked for an empty
// one), and the shards of one commit get the same durations however many
// runs land between their starts, so they split the benchmarks alike.
func TestShardBalancesOnStoredDurations(t *testing.T) {
	ctx := context.Background()
	dsn := filepath.Join(t.TempDir(), "history.db")
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fp := store.Fingerprint{CPU: "Test CPU", GOMAXPROCS: 2, GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64"}
	save := func(commit string, d map[document.BenchKey]time.Duration) {
		t.Helper()
		if _, err := st.Save(ctx, &store.Run{Module: "example.com/m", Commit: commit, Fingerprint: fp, Started: time.Now(),
			Results: []byte("BenchmarkA 1 1 ns/op\n"), Durations: d}); err != nil {
			t.Fatal(err)
		}
	}
	save("c1", map[document.BenchKey]time.Duration{{Package: "example.com/m", Name: "BenchmarkA"}: 9 * time.Second, {Package: "example.com/m", Name: "BenchmarkB"}: time.Second})

	first, err := recordShard(ctx, st, "1/2", "example.com/m", "c2")
	if err != nil {
		t.Fatal(err)
	}
	if got := first.Durations[document.BenchKey{Package: "example.com/m", Name: "BenchmarkA"}]; got != 9*time.Second {
		t.Fatalf("shard 1/2 balances on %v, want the stored 9s of BenchmarkA", first.Durations)
	}
	// Shard 1/2 of c2 is done and stored; shard 2/2 starts only now.
	save("c2", map[document.BenchKey]time.Duration{{Package: "example.com/m", Name: "BenchmarkA"}: time.Second, {Package: "example.com/m", Name: "BenchmarkB"}: 30 * time.Second})
	second, err := recordShard(ctx, st, "2/2", "example.com/m", "c2")
	if err != nil {
		t.Fatal(err)
	}
	if second.Durations[document.BenchKey{Package: "example.com/m", Name: "BenchmarkA"}] != 9*time.Second || second.Durations[document.BenchKey{Package: "example.com/m", Name: "BenchmarkB"}] != time.Second {
		t.Errorf("shard 2/2 of the same commit balances on %v, shard 1/2 on %v: they may split the benchmarks differently", second.Durations, first.Durations)
	}
	// The next commit's shards see the new times.
	next, err := recordShard(ctx, st, "1/2", "example.com/m", "c3")
	if err != nil {
		t.Fatal(err)
	}
	if next.Durations[document.BenchKey{Package: "example.com/m", Name: "BenchmarkB"}] == time.Second {
		t.Errorf("the next commit's shard balances on %v: the times of c2 are left out", next.Durations)
	}
}
