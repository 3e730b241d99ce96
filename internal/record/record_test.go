package record

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/store"
)

// TestShardPattern: the pattern selects exactly the top-level benchmarks
// of the shard's results, quoted, and keeps the user's sub-benchmark part.
func TestShardPattern(t *testing.T) {
	results := []byte("pkg: example.com/m\n" +
		"BenchmarkA/small-2 100 10 ns/op\nBenchmarkA/large-2 100 20 ns/op\nBenchmarkB.x-2 100 5 ns/op\n")
	tests := []struct {
		user, want string
		match      []string
		miss       []string
	}{
		{".", `^(?:BenchmarkA|BenchmarkB\.x)$`, []string{"BenchmarkA", "BenchmarkB.x"}, []string{"BenchmarkBax", "BenchmarkAB", "BenchmarkC"}},
		{"A/small", `^(?:BenchmarkA|BenchmarkB\.x)$/small`, nil, nil},
	}
	for _, tt := range tests {
		got := ShardPattern(results, tt.user)
		if got != tt.want {
			t.Errorf("ShardPattern(%q) = %q, want %q", tt.user, got, tt.want)
		}
		re := regexp.MustCompile(got)
		for _, m := range tt.match {
			if !re.MatchString(m) {
				t.Errorf("%s does not match %s", got, m)
			}
		}
		for _, m := range tt.miss {
			if re.MatchString(m) {
				t.Errorf("%s matches %s", got, m)
			}
		}
	}
}

// TestResultLines counts result lines only: not configuration, not
// failure or other output.
func TestResultLines(t *testing.T) {
	data := []byte("goos: linux\npkg: example.com/m\nBenchmarkA-2 100 10 ns/op\n--- FAIL: BenchmarkB\nBenchmarkC-2 1 5 ns/op\n\n")
	if got := ResultLines(data); got != 2 {
		t.Errorf("ResultLines = %d, want 2", got)
	}
}

// TestPrevious: the newest recorded ancestor in git order, not the newest
// recorded run; none when only the commit itself is recorded.
func TestPrevious(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(cmd.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	var commits []string
	for i := 0; i < 3; i++ {
		git("commit", "-q", "--allow-empty", "-m", "c")
		commits = append(commits, git("rev-parse", "HEAD"))
	}
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	save := func(commit string, started time.Time) {
		t.Helper()
		_, err := st.Save(ctx, &store.Run{Module: "example.com/m", Commit: commit, Started: started,
			Results: []byte("pkg: example.com/m\nBenchmarkWork-2 100 1000 ns/op\n")})
		if err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	if got, err := Previous(ctx, st, "example.com/m", repo, commits[2]); err != nil || got != "" {
		t.Fatalf("empty store: Previous = %q, %v; want none", got, err)
	}
	save(commits[2], now)
	if got, err := Previous(ctx, st, "example.com/m", repo, commits[2]); err != nil || got != "" {
		t.Fatalf("only the commit itself: Previous = %q, %v; want none", got, err)
	}
	// The first commit recorded last, the second first: git order decides.
	save(commits[1], now.Add(-time.Hour))
	save(commits[0], now.Add(time.Hour))
	if got, err := Previous(ctx, st, "example.com/m", repo, commits[2]); err != nil || got != commits[1] {
		t.Fatalf("Previous = %q, %v; want %s", got, err, commits[1])
	}
	if got, err := Previous(ctx, st, "example.com/other", repo, commits[2]); err != nil || got != "" {
		t.Fatalf("another module: Previous = %q, %v; want none", got, err)
	}
}
