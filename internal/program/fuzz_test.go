package program

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRenameMain checks that whatever source parses, RenameMain changes
// only the name of func main: the same lines, the same length plus the
// longer name, and the result still parses.
func FuzzRenameMain(f *testing.F) {
	files, _ := filepath.Glob("testdata/rename/*.go")
	for _, path := range files {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, ok, err := RenameMain("fuzz.go", src)
		if err != nil {
			return
		}
		if !ok {
			if !bytes.Equal(out, src) {
				t.Fatal("a file without func main was changed")
			}
			return
		}
		if len(out)-len(src) != len(UserMain)-len("main") {
			t.Fatalf("length changed by %d", len(out)-len(src))
		}
		if bytes.Count(out, []byte("\n")) != bytes.Count(src, []byte("\n")) {
			t.Fatal("line count changed")
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "out.go", out, parser.SkipObjectResolution); err != nil {
			t.Fatalf("the renamed file does not parse: %v", err)
		}
	})
}

// FuzzRewriteExits checks that whatever source parses, RewriteExits
// leaves every line where it was (it only appends lines) and the result
// still parses.
func FuzzRewriteExits(f *testing.F) {
	files, _ := filepath.Glob("testdata/rename/*.go")
	for _, path := range files {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("package main\n\nimport \"os\"\n\nfunc main() { os.Exit(1) }\n"))
	f.Add([]byte("package app // x\n\nimport (\n\tl \"log\"\n)\n\nvar fatal = l.Fatalf\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		out, ok, err := RewriteExits("fuzz.go", src, "example.com/m/perfloop_exit_hook")
		if err != nil {
			return
		}
		if !ok {
			if !bytes.Equal(out, src) {
				t.Fatal("a file without exits was changed")
			}
			return
		}
		if bytes.Count(out, []byte("\n")) < bytes.Count(src, []byte("\n")) {
			t.Fatal("lines were removed")
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "out.go", out, parser.SkipObjectResolution); err != nil {
			t.Fatalf("the rewritten file does not parse: %v\n%s", err, out)
		}
	})
}
