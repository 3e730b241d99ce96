//go:build unix

package store

import "golang.org/x/sys/unix"

// canWrite reports whether the process may write the file or directory at
// path (for root, always).
func canWrite(path string) bool {
	return unix.Access(path, unix.W_OK) == nil
}
