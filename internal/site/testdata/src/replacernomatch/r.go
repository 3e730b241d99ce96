package replacernomatch

import "strings"

var unescape = strings.NewReplacer("\\*", "*", "\\?", "?", "\\[", "[")

var escape = strings.NewReplacer("*", "\\*", "?", "\\?")

func unescapeMeta(pattern string) string {
	return unescape.Replace(pattern) // want `unescapeMeta runs unescape.Replace\(pattern\) on every call: a Replacer with old strings longer than a byte builds a new string whatever it finds, so pattern is copied even when nothing in it is replaced \(every old string starts with '\\\\'\)`
}

// Single-byte old strings: the byte algorithm returns the input itself
// when nothing is replaced.
func escapeMeta(path string) string {
	return escape.Replace(path)
}
