package loop

import (
	"context"
	"time"

	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/results"
)

// Config selects benchmarks and says how to run them, as the go command's
// flags do.
type Config struct {
	// Dir is the directory the go command runs in: the module, or a
	// directory in it ("" for the current one).
	Dir string
	// Patterns are package patterns; none means ./... .
	Patterns []string
	// Bench is the -bench regular expression.
	Bench string
	// Count is how many times each benchmark runs, round-robin.
	Count int
	// Benchtime is -benchtime: a duration or Nx; "" is the testing
	// package's default.
	Benchtime string
	// CPU is the -cpu list, "" for the default.
	CPU string
	// Tags are build tags.
	Tags string
	// Timeout bounds one run of one benchmark.
	Timeout time.Duration
	// Version is perfloop's version, recorded in the results' metadata.
	Version string
	// Shard, if set, keeps only one part of the benchmarks (see Shard).
	Shard *Shard
}

// PackagePatterns returns the package patterns, ./... when Config names none.
func (c Config) PackagePatterns() []string {
	if len(c.Patterns) == 0 {
		return []string{"./..."}
	}
	return c.Patterns
}

// Suite is the benchmarks selected by a Config, with each package's test
// binary built once, and the environment they run in.
type Suite struct {
	*gotest.Suite
	Config Config
	Env    results.Env
	// Matched is how many benchmarks the patterns selected before
	// Config.Shard kept its part: a shard may be empty when others are
	// not.
	Matched int
	tc      *gotest.Toolchain
	// untimedByPkg caches each package's untimed lines.
	untimedByPkg map[string]map[string]bool
	// setupByPkg caches each package's lines left out of the per-op
	// heap profiles (perOpLines).
	setupByPkg map[string]map[string]bool
}

// Prepare lists the packages, builds their test binaries and lists the
// benchmarks. A package that does not build is recorded in Failed; patterns
// that match nothing are a *gotest.ListError. The caller must Close the
// suite.
func Prepare(ctx context.Context, cfg Config, bar *progress.Bar) (*Suite, error) {
	tc := &gotest.Toolchain{Dir: cfg.Dir, Tags: cfg.Tags}
	gs, err := tc.Prepare(ctx, cfg.PackagePatterns(), cfg.Bench, bar.Status)
	if err != nil {
		return nil, err
	}
	matched := len(gs.Targets)
	if cfg.Shard != nil {
		gs.Targets = cfg.Shard.pick(gs.Targets)
	}
	s := &Suite{Suite: gs, Config: cfg, tc: tc, Matched: matched}
	s.Env = readEnv(ctx, tc, gs, cfg.Version)
	for _, pe := range gs.Failed {
		bar.Printf("%s: %v", pe.Package, pe.Err)
	}
	return s, nil
}

func readEnv(ctx context.Context, tc *gotest.Toolchain, suite *gotest.Suite, version string) results.Env {
	env := results.Env{Date: time.Now().UTC().Format(time.RFC3339), Perfloop: version}
	env.GoVersion, _ = tc.GoVersion(ctx)
	if len(suite.Targets) > 0 {
		// Every binary is built with the same settings.
		var err error
		if env.Build, err = tc.CodeSettings(ctx, suite.Targets[0].Binary.Path); err != nil {
			// Never taken for a plain build.
			env.Build = "unknown"
		}
	}
	for _, p := range suite.Packages {
		if p.ModuleDir != "" {
			env.Module = p.ModulePath
			vcs := git.ReadVCS(ctx, p.ModuleDir)
			env.Commit, env.Dirty = vcs.Commit, vcs.Dirty
			break
		}
	}
	return env
}

// noteEnv fills the run-time parts of env (goos, goarch, cpu) from the
// first results that carry them.
func noteEnv(env *results.Env, o *gotest.Outcome) {
	if env.GOOS == "" && len(o.Results) > 0 {
		r := o.Results[0]
		env.GOOS, env.GOARCH, env.CPU = r.GetConfig("goos"), r.GetConfig("goarch"), r.GetConfig("cpu")
	}
}

// MainsImporting returns the import paths of the main packages of the
// module rooted at root that import a measured package (or are one): the
// binaries whose profile-guided optimization covers the measured code.
func (s *Suite) MainsImporting(ctx context.Context, root string) []string {
	return importing(mainPackages(ctx, root, s.Config.Tags), s.Packages)
}
