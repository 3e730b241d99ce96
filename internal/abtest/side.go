package abtest

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/progress"
)

// Spec says how to build one side.
type Spec struct {
	// Role is "BASE" or "HEAD": how messages name the side.
	Role string
	// Label names the side in tables: "HEAD 1ae5dc26f40b", "work tree".
	Label string
	// Dir is the module directory to build in.
	Dir string
	// Tags and BuildFlags are the go command's; every side is built with
	// -trimpath too, so identical code gives identical binaries.
	Tags       string
	BuildFlags []string
}

// Side is one built side.
type Side struct {
	Spec
	Suite *gotest.Suite
}

// Build prepares both sides at once (go list, test binaries, benchmark
// lists): much of a build is waiting on the linker and the go command, not
// on the CPU. The caller closes the returned sides' suites; on error none
// are left open. A side whose packages do not build keeps them in
// Suite.Failed.
func Build(ctx context.Context, specs [2]Spec, patterns []string, bench string, bar *progress.Bar) ([2]*Side, error) {
	var sides [2]*Side
	var errs [2]error
	var wg sync.WaitGroup
	for i, sp := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sides[i], errs[i] = BuildSide(ctx, sp, patterns, bench, bar)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs[0], errs[1]); err != nil {
		for _, s := range sides {
			if s != nil {
				s.Suite.Close()
			}
		}
		if ctx.Err() != nil {
			return [2]*Side{}, ctx.Err()
		}
		return [2]*Side{}, err
	}
	return sides, nil
}

// BuildSide prepares one side, as Build does each: a caller that compares
// several candidates against one base builds the base once. The caller
// closes the side's suite.
func BuildSide(ctx context.Context, sp Spec, patterns []string, bench string, bar *progress.Bar) (*Side, error) {
	tc := &gotest.Toolchain{Dir: sp.Dir, Tags: sp.Tags, BuildFlags: append([]string{"-trimpath"}, sp.BuildFlags...)}
	suite, err := tc.Prepare(ctx, patterns, bench, func(msg string) { bar.Status(sp.Role + ": " + msg) })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sp.Role, err)
	}
	return &Side{Spec: sp, Suite: suite}, nil
}

// Close removes both sides' binaries.
func Close(sides [2]*Side) {
	for _, s := range sides {
		if s != nil && s.Suite != nil {
			s.Suite.Close()
		}
	}
}
