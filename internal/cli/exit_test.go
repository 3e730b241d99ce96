package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"testing"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{flag.ErrHelp, ExitOK},
		{usageErrorf("bad -count"), ExitUsage},
		{fmt.Errorf("compare: %w", usageErrorf("no files")), ExitUsage},
		{failedError{"2 benchmarks failed"}, ExitFailed},
		{errors.New("go list: boom"), ExitFailed},
		{fmt.Errorf("run: %w", context.Canceled), ExitInterrupted},
	}
	for _, tt := range tests {
		if got := ExitCode(tt.err); got != tt.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

func TestParseFlagsInterspersed(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	count := fs.Int("count", 1, "")
	pos, err := parseFlags(fs, []string{"./a", "-count", "5", "./b", "--", "-notaflag"})
	if err != nil {
		t.Fatal(err)
	}
	if *count != 5 || fmt.Sprint(pos) != "[./a ./b -notaflag]" {
		t.Errorf("count = %d, positional = %v", *count, pos)
	}
}
