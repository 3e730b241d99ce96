package cli

import (
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
