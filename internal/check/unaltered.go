package check

import (
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/gotest"
)

// SkipUnaltered removes from both sides the benchmarks of the packages
// whose test binaries hold the same code on both sides (gotest.SameCode)
// and returns those packages. Such benchmarks run the same instructions on
// the same data at the same addresses: measuring them can only find noise.
// It skips nothing when the change touched files other than Go source and
// documentation (a file under testdata changes what the same code
// measures) or is unknown.
func SkipUnaltered(sides [2]*abtest.Side, ch *Change) ([]string, error) {
	if ch == nil || slices.ContainsFunc(ch.Files, func(f string) bool { return !strings.HasSuffix(f, ".go") && !harmless(f) }) {
		return nil, nil
	}
	bins := func(s *abtest.Side) map[string]string {
		m := map[string]string{}
		for _, t := range s.Suite.Targets {
			m[t.Binary.Package.ImportPath] = t.Binary.Path
		}
		return m
	}
	a, b := bins(sides[0]), bins(sides[1])
	var same []string
	for pkg, pb := range b {
		pa, ok := a[pkg]
		if !ok {
			continue
		}
		eq, err := gotest.SameCode(pa, pb)
		if err != nil {
			return nil, err
		}
		if eq {
			same = append(same, pkg)
		}
	}
	slices.Sort(same)
	for _, s := range sides {
		s.Suite.Targets = slices.DeleteFunc(s.Suite.Targets, func(t gotest.Target) bool {
			return slices.Contains(same, t.Binary.Package.ImportPath)
		})
	}
	return same, nil
}
