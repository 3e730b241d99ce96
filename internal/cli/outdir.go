package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// outputDir is a command's output directory (report -out, profile -out,
// trace -o, run -out, fix -out) written as a whole: every file goes into
// a temporary directory beside it, which takes its place only when the
// command has something to keep. A run that measured nothing, failed or
// was interrupted leaves an earlier directory whole, and a finished one
// holds exactly that run's files — no profiles of an earlier run beside
// a new report.
//
// Replacing a directory removes what was in it, so an existing directory
// must hold only names the command itself writes (an earlier output of
// the same command); anything else is an input error before anything
// runs. A symbolic link to a directory stays a link: the directory it
// points to is replaced.
type outputDir struct {
	flag  string // "-out" or "-o", for messages
	given string // the directory as the user named it, cleaned: paths are shown under it
	dest  string // the directory replaced: given, or the directory a link names
	tmp   string // where the files are written
}

// newOutputDir checks the directory given to flag and creates the
// temporary directory beside it. ours says whether a name at the top of
// an existing directory is one the command writes.
func newOutputDir(flag, given string, ours func(name string, isDir bool) bool) (*outputDir, error) {
	d := &outputDir{flag: flag, given: filepath.Clean(given)}
	d.dest = d.given
	if fi, err := os.Lstat(d.dest); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if d.dest, err = filepath.EvalSymlinks(d.dest); err != nil {
			return nil, usageErrorf("%s %s: %v", flag, given, err)
		}
	}
	abs, err := filepath.Abs(d.dest)
	if err != nil {
		return nil, usageErrorf("%s %s: %v", flag, given, err)
	}
	if wd, err := os.Getwd(); err == nil && (wd == abs || strings.HasPrefix(wd, abs+string(filepath.Separator))) {
		return nil, usageErrorf("%s %s is the current directory or holds it: give a directory of its own, such as %s", flag, given, filepath.Join(given, "perfloop-out"))
	}
	switch fi, err := os.Stat(d.dest); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, usageErrorf("%s %s: %v", flag, given, err)
	case !fi.IsDir():
		return nil, usageErrorf("%s %s is a file: give a directory", flag, given)
	default:
		entries, err := os.ReadDir(d.dest)
		if err != nil {
			return nil, usageErrorf("%s %s: %v", flag, given, err)
		}
		for _, e := range entries {
			if !ours(e.Name(), e.IsDir()) {
				return nil, usageErrorf("%s %s holds %s, which perfloop did not write there: give a new or empty directory, or one with an earlier output of this command", flag, given, e.Name())
			}
		}
	}
	parent := filepath.Dir(d.dest)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, usageErrorf("%s %s: %v", flag, given, err)
	}
	if d.tmp, err = os.MkdirTemp(parent, "."+filepath.Base(d.dest)+".tmp-"); err != nil {
		return nil, usageErrorf("%s %s: %v", flag, given, err)
	}
	// Cleaned as the paths joined under it are, for shown.
	d.tmp = filepath.Clean(d.tmp)
	return d, nil
}

// path is elem joined under the directory the files are written to.
func (d *outputDir) path(elem ...string) string {
	return filepath.Join(append([]string{d.tmp}, elem...)...)
}

// shown rewrites the paths in s that point into the temporary directory
// to where they will be once the directory is committed: documents and
// messages name the output as the user will find it.
func (d *outputDir) shown(s string) string {
	return strings.ReplaceAll(s, d.tmp, d.given)
}

// written reports whether anything was written.
func (d *outputDir) written() bool {
	entries, err := os.ReadDir(d.tmp)
	return err == nil && len(entries) > 0
}

// shownErr is err with its message's paths rewritten as shown does; it
// unwraps to err, so errors.Is and As see through it.
func (d *outputDir) shownErr(err error) error {
	if err == nil {
		return nil
	}
	return shownError{err, d}
}

// shownError is an error whose message names the final directory.
type shownError struct {
	err error
	d   *outputDir
}

func (e shownError) Error() string { return e.d.shown(e.err.Error()) }
func (e shownError) Unwrap() error { return e.err }

// discard removes the temporary directory: the earlier output, if any,
// stays as it was.
func (d *outputDir) discard() { os.RemoveAll(d.tmp) }

// commit puts the written files in place of the directory: the earlier
// one is moved aside, the temporary directory renamed to its name, and
// the earlier one removed. It returns the names the earlier directory had
// that the new one has too.
func (d *outputDir) commit() (replaced []string, err error) {
	mode := os.FileMode(0o755)
	var old string
	if fi, err := os.Stat(d.dest); err == nil {
		mode = fi.Mode().Perm()
		old = d.tmp + ".old"
		entries, _ := os.ReadDir(d.dest)
		for _, e := range entries {
			if _, err := os.Lstat(d.path(e.Name())); err == nil {
				replaced = append(replaced, e.Name())
			}
		}
	}
	if err := os.Chmod(d.tmp, mode); err != nil {
		d.discard()
		return nil, fmt.Errorf("write %s: %w", d.given, err)
	}
	if old != "" {
		if err := os.Rename(d.dest, old); err != nil {
			d.discard()
			return nil, fmt.Errorf("replace %s: %w", d.given, err)
		}
	}
	if err := os.Rename(d.tmp, d.dest); err != nil {
		if old != "" {
			os.Rename(old, d.dest)
		}
		d.discard()
		return nil, fmt.Errorf("replace %s: %w", d.given, err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	slices.Sort(replaced)
	return replaced, nil
}

// keepPartial keeps what an interrupted run wrote without touching an
// earlier output: in place of the directory when it does not exist or is
// empty, else beside it as NAME.interrupted (or under the temporary name
// when that is taken). It returns where the files are, as a path to show.
func (d *outputDir) keepPartial() (string, error) {
	if entries, err := os.ReadDir(d.dest); err != nil || len(entries) == 0 {
		if _, err := d.commit(); err != nil {
			return "", err
		}
		return d.given, nil
	}
	if err := os.Chmod(d.tmp, 0o755); err != nil {
		return "", fmt.Errorf("keep %s: %w", d.tmp, err)
	}
	aside := d.dest + ".interrupted"
	if err := os.Rename(d.tmp, aside); err != nil {
		return d.tmp, nil // a directory of that name is there already
	}
	return d.given + ".interrupted", nil
}
