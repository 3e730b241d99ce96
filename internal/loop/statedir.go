package loop

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// StateDir is perfloop's own directory in a module, at the module's root:
// the history store (perfloop record), the last perfloop pgo result, a
// library's default.pgo.
const StateDir = ".perfloop"

// MakeStateDir returns root's StateDir, making it if it does not exist.
// A StateDir perfloop makes holds a .gitignore of "*", itself included,
// so that it never shows in git status as untracked files the user has
// to decide about; one that exists is left as it is (the user may have
// removed the .gitignore to commit it).
func MakeStateDir(root string) (string, error) {
	dir := filepath.Join(root, StateDir)
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	// Made under a temporary name with its .gitignore, then renamed: a
	// StateDir is never seen without it.
	tmp, err := os.MkdirTemp(root, StateDir+".tmp-")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, ".gitignore"), []byte("*\n"), 0o644); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("make %s: %w", dir, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("make %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		// Made meanwhile by another perfloop: theirs.
		if _, serr := os.Stat(dir); serr == nil {
			return dir, nil
		}
		return "", fmt.Errorf("make %s: %w", dir, err)
	}
	return dir, nil
}
