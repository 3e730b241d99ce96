package render

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/perfloop/perfloop/internal/document"
)

// WriteFiles writes report.json, report.md and report.html into dir. Each
// file is written beside its destination and renamed over it, so a symlink
// in its place is replaced, not written through, and a reader never sees
// half a file. It returns the names of the files that existed before.
func WriteFiles(dir string, doc *document.Report, opts Options) (replaced []string, err error) {
	files := []struct {
		name   string
		render func(io.Writer) error
	}{
		{"report.json", func(w io.Writer) error { return WriteJSON(w, doc) }},
		{"report.md", func(w io.Writer) error { return Markdown(w, doc, opts) }},
		{"report.html", func(w io.Writer) error { return HTML(w, doc, opts) }},
	}
	for _, f := range files {
		dest := filepath.Join(dir, f.name)
		if _, err := os.Lstat(dest); err == nil {
			replaced = append(replaced, f.name)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return replaced, fmt.Errorf("write %s: %w", dest, err)
		}
		if err := writeAtomic(dest, f.render); err != nil {
			return replaced, err
		}
	}
	return replaced, nil
}

func writeAtomic(dest string, render func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", dest, err)
	}
	defer os.Remove(tmp.Name())
	if err := render(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", dest, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", dest, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", dest, err)
	}
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return fmt.Errorf("write %s: %w", dest, err)
	}
	return nil
}
