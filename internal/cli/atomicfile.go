package cli

import (
	"fmt"
	"os"
	"path/filepath"
)

// atomicFile is a file written beside its destination and renamed over it
// when finished, so a reader never sees half of it and an earlier file is
// kept when nothing worth keeping was written.
type atomicFile struct {
	*os.File
	dest    string
	written int64
}

// newAtomicFile starts writing dest. The caller must call finish.
func newAtomicFile(dest string) (*atomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &atomicFile{File: f, dest: dest}, nil
}

func (f *atomicFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.written += int64(n)
	return n, err
}

// finish closes the file and, when keep is true, renames it over its
// destination (keeping the destination's permissions when it exists);
// otherwise it removes it.
func (f *atomicFile) finish(keep bool) error {
	err := f.File.Close()
	if !keep || err != nil {
		os.Remove(f.Name())
		return err
	}
	mode := os.FileMode(0o644)
	if fi, statErr := os.Stat(f.dest); statErr == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.Chmod(f.Name(), mode); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), f.dest); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("rename %s: %w", f.dest, err)
	}
	return nil
}
