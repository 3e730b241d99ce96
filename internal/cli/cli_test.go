package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the real perfloop main in-process, so the
// end-to-end scripts also count toward coverage.
func TestMain(m *testing.M) {
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"perfloop": func() int { return Main(os.Args[1:]) },
	}))
}

// TestScripts runs the end-to-end scripts in testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"checkrows": checkRows,
		},
		Setup: func(env *testscript.Env) error {
			// The scripts build real test binaries: share the
			// caller's module and build caches so they run fast and
			// work offline.
			for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "HOME"} {
				if v, ok := os.LookupEnv(k); ok {
					env.Setenv(k, v)
				}
			}
			if os.Getenv("GOCACHE") == "" {
				if dir, err := os.UserCacheDir(); err == nil {
					env.Setenv("GOCACHE", dir+"/go-build")
				}
			}
			return nil
		},
	})
}

// checkRows is the script command "checkrows FILE": it prints the rows of
// a perfloop.check/v1 document, one per line, as "regression BENCHMARK
// UNIT" and "layout BENCHMARK UNIT", for stdout to match.
func checkRows(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: checkrows FILE")
	}
	var c struct {
		Regressions, Layout []struct{ Benchmark, Unit string }
	}
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &c); err != nil {
		ts.Fatalf("checkrows: %v", err)
	}
	for _, r := range c.Regressions {
		fmt.Fprintf(ts.Stdout(), "regression %s %s\n", r.Benchmark, r.Unit)
	}
	for _, r := range c.Layout {
		fmt.Fprintf(ts.Stdout(), "layout %s %s\n", r.Benchmark, r.Unit)
	}
}
