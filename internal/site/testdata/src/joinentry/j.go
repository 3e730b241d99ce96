package joinentry

import (
	"io/fs"
	"path"
	"strings"
)

func glob(fsys fs.FS, dir, pattern string) ([]string, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var m []string
	for _, info := range entries {
		name := info.Name()
		if strings.HasPrefix(name, pattern) {
			m = append(m, path.Join(dir, name)) // want `path.Join\(dir, name\) joins a directory and the name of one of its entries \(line 16\), once per entry`
		}
	}
	return m, nil
}

// Two arbitrary strings: Join's cleaning may be needed.
func both(a, b string) string {
	return path.Join(a, b)
}
