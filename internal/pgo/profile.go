package pgo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/perfloop/perfloop/internal/profiles"
)

// Read reads a CPU profile from path; an empty or corrupt file is an
// error naming it.
func Read(path string) (*profile.Profile, error) {
	p, err := profiles.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return p, nil
}

// Merge reads the CPU profiles at paths, prunes each (see Prune) and
// merges them into one. Profiles of different binaries merge because the
// pruned ones keep no addresses: a call site is its function and line, as
// the compiler matches it.
func Merge(paths []string) (*profile.Profile, error) {
	var ps []*profile.Profile
	for _, path := range paths {
		p, err := Read(path)
		if err != nil {
			return nil, err
		}
		if p, err = Prune(p); err != nil {
			return nil, fmt.Errorf("prune %s: %w", path, err)
		}
		if len(p.Sample) > 0 {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("no CPU samples in %d profile(s)", len(paths))
	}
	m, err := profile.Merge(ps)
	if err != nil {
		return nil, fmt.Errorf("merge profiles: %w", err)
	}
	return m, nil
}

// Prune keeps what the compiler's profile-guided optimization reads: the
// samples' weights (the profile's sample types) and the call stacks as
// functions and lines. It drops what it does not read: labels, addresses,
// mappings, comments, and samples of no weight. Locations with the same
// lines then merge, which is most of a CPU profile's size.
func Prune(p *profile.Profile) (*profile.Profile, error) {
	q := p.Copy()
	q.Comments = nil
	q.DropFrames, q.KeepFrames = "", ""
	q.Mapping = nil
	for _, l := range q.Location {
		l.Mapping, l.Address = nil, 0
		l.IsFolded = false
	}
	kept := q.Sample[:0]
	for _, s := range q.Sample {
		s.Label, s.NumLabel, s.NumUnit = nil, nil, nil
		w := int64(0)
		for _, v := range s.Value {
			w += v
		}
		if w != 0 && len(s.Location) > 0 {
			kept = append(kept, s)
		}
	}
	q.Sample = kept
	// Merge of one profile folds the samples and locations that became
	// identical.
	m, err := profile.Merge([]*profile.Profile{q})
	if err != nil {
		return nil, err
	}
	if err := m.CheckValid(); err != nil {
		return nil, err
	}
	return m, nil
}

// Write writes p, gzipped, to path through a temporary file in the same
// directory, so that an interrupted write never leaves half a profile
// where the go command would read it. It returns the size written.
func Write(p *profile.Profile, path string) (int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return 0, fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := p.Write(tmp); err != nil {
		tmp.Close()
		return 0, fmt.Errorf("write %s: %w", path, err)
	}
	st, err := tmp.Stat()
	if err == nil {
		err = tmp.Close()
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return 0, fmt.Errorf("write %s: %w", path, err)
	}
	return st.Size(), nil
}

// Samples returns the number of samples p holds (the sum of its
// "samples/count" values, or of its first sample type's).
func Samples(p *profile.Profile) int64 {
	idx := 0
	for i, st := range p.SampleType {
		if st.Type == "samples" && st.Unit == "count" {
			idx = i
			break
		}
	}
	var n int64
	for _, s := range p.Sample {
		if idx < len(s.Value) {
			n += s.Value[idx]
		}
	}
	return n
}

// Heat returns the share of p's samples whose call stack passes through
// line of file (a path relative to the module root, slash-separated; the
// profile's file names may be absolute or, with -trimpath, begin with the
// module path).
func Heat(p *profile.Profile, file string, line int) float64 {
	total := Samples(p)
	if total == 0 {
		return 0
	}
	idx := 0
	for i, st := range p.SampleType {
		if st.Type == "samples" && st.Unit == "count" {
			idx = i
			break
		}
	}
	suffix := "/" + file
	var hot int64
	for _, s := range p.Sample {
		if idx >= len(s.Value) {
			continue
		}
	stack:
		for _, l := range s.Location {
			for _, ln := range l.Line {
				if ln.Line == int64(line) && ln.Function != nil &&
					(ln.Function.Filename == file || strings.HasSuffix(ln.Function.Filename, suffix)) {
					hot += s.Value[idx]
					break stack
				}
			}
		}
	}
	return float64(hot) / float64(total)
}

// RenameMain renames the functions of the main package importPath from
// their names in a test binary ("example.com/m/cmd/app.run") to their
// names in the program ("main.run"): a profile collected by a test binary
// of a main package must name them as the program's build does, or the
// compiler finds none of them.
func RenameMain(p *profile.Profile, importPath string) {
	prefix := importPath + "."
	for _, f := range p.Function {
		if rest, ok := strings.CutPrefix(f.Name, prefix); ok {
			f.Name = "main." + rest
		}
		if rest, ok := strings.CutPrefix(f.SystemName, prefix); ok {
			f.SystemName = "main." + rest
		}
	}
}
