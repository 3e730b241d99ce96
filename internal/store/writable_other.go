//go:build !unix

package store

import "os"

// canWrite reports whether the file or directory at path is writable, as
// far as its permission bits say.
func canWrite(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().Perm()&0o200 != 0
}
