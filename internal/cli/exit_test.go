package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
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

// TestFlagsValidatedUpFront: a bad flag value is exit 2 and one line on
// stderr naming the flag, before anything is built or run.
func TestFlagsValidatedUpFront(t *testing.T) {
	// Nothing may run; should something, it runs on an empty directory.
	t.Chdir(t.TempDir())
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"report", "-profiletime", "banana"}, "-profiletime"},
		{[]string{"report", "-profiletime", "0s"}, "-profiletime"},
		{[]string{"report", "-profiletime", "1x"}, "-profiletime"},
		{[]string{"bench", "-benchtime", "-5s"}, "-benchtime"},
		{[]string{"bench", "-benchtime", "0x"}, "-benchtime"},
		{[]string{"profile", "-benchtime", "0s"}, "-benchtime"},
		{[]string{"bench", "-cpu", "a,b"}, "-cpu"},
		{[]string{"bench", "-cpu", "0"}, "-cpu"},
		{[]string{"report", "-cpu", "1,,2"}, "-cpu"},
		{[]string{"diff", "-alpha", "NaN", "HEAD"}, "-alpha"},
		{[]string{"diff", "-alpha", "1.5", "HEAD"}, "-alpha"},
		{[]string{"explain", "-min-share", "5"}, "-min-share"},
		{[]string{"bench", "-count", "0"}, "-count"},
		{[]string{"bench", "-nosuchflag"}, "-nosuchflag"},
		// A -bench that is not a regexp, checked as go test checks it
		// (each /-separated element compiled), by every command that
		// takes -bench: not "did not build" after the builds.
		{[]string{"bench", "-bench", "["}, `-bench "["`},
		{[]string{"bench", "-bench", "Encode/[", "./..."}, `-bench "Encode/["`},
		{[]string{"profile", "-bench", "("}, "-bench"},
		{[]string{"explain", "-bench", "["}, "-bench"},
		{[]string{"report", "-bench", "["}, "-bench"},
		{[]string{"fix", "-bench", "["}, "-bench"},
		{[]string{"diff", "-bench", "[", "HEAD"}, "-bench"},
		{[]string{"check", "-bench", "[", "HEAD"}, "-bench"},
		{[]string{"record", "-bench", "["}, "-bench"},
		{[]string{"pgo", "-bench", "["}, "-bench"},
		{[]string{"trace", "-bench", "["}, "-bench"},
		{[]string{"history", "-bench", "["}, "-bench"},
		// -profiletime is a duration in every command; -min-share a
		// fraction or a percentage in every command.
		{[]string{"pgo", "-profiletime", "100x"}, "-profiletime"},
		{[]string{"check", "-profiletime", "0s", "HEAD"}, "-profiletime"},
		{[]string{"report", "-min-share", "2"}, "-min-share"},
		{[]string{"fix", "-min-share", "150%"}, "-min-share"},
		{[]string{"run", "-cpuprofile", "sometimes", "./cmd/x"}, "-cpuprofile"},
	}
	for _, tt := range tests {
		var out, errOut strings.Builder
		code := Run(context.Background(), tt.args, Streams{Out: &out, Err: &errOut})
		if code != ExitUsage {
			t.Errorf("perfloop %s: exit %d, want %d", strings.Join(tt.args, " "), code, ExitUsage)
		}
		lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
		if len(lines) != 1 || !strings.Contains(lines[0], tt.flag) {
			t.Errorf("perfloop %s: stderr %q, want one line naming %s", strings.Join(tt.args, " "), errOut.String(), tt.flag)
		}
		if out.Len() > 0 {
			t.Errorf("perfloop %s: wrote %q to stdout", strings.Join(tt.args, " "), out.String())
		}
	}
}
