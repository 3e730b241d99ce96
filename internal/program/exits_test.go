package program

import (
	"bytes"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestRewriteExits checks that the module's references to os.Exit and the
// standard logger's Fatal functions go to the exit hook, under whatever
// name os and log are imported, and nothing else does: not a local
// variable named os, not another package's Exit, not a Logger's Fatal.
// Every line keeps its number and the result parses.
func TestRewriteExits(t *testing.T) {
	const hook = "example.com/m/perfloop_exit_hook"
	for _, tc := range []struct {
		name, src string
		changed   bool
		want      []string // substrings of the result
		not       []string // substrings it must not hold
	}{
		{
			name:    "call",
			src:     "package main\n\nimport \"os\"\n\nfunc main() {\n\tos.Exit(run())\n}\n",
			changed: true,
			want:    []string{"package main; import perfloopexithook \"" + hook + "\"\n", "\tperfloopexithook.Exit(run())\n", "\nvar _ = os.Exit\n"},
		},
		{
			name:    "renamed import, value use",
			src:     "package app\n\nimport sys \"os\"\n\nvar exit = sys.Exit\n\nfunc quit() { sys.Exit(2) }\n",
			changed: true,
			want:    []string{"var exit = perfloopexithook.Exit\n", "func quit() { perfloopexithook.Exit(2) }\n", "\nvar _ = sys.Exit\n"},
		},
		{
			name:    "log.Fatal",
			src:     "package app\n\nimport \"log\"\n\nfunc f(err error) {\n\tlog.Fatalf(\"x: %v\", err)\n\tlog.Println(err)\n}\n",
			changed: true,
			want:    []string{"\tperfloopexithook.Fatalf(\"x: %v\", err)\n", "\tlog.Println(err)\n", "\nvar _ = log.Fatal\n"},
		},
		{
			name: "shadowed",
			src:  "package app\n\ntype T struct{}\n\nfunc (T) Exit(int) {}\n\nfunc f() {\n\tvar os T\n\tos.Exit(1)\n}\n",
		},
		{
			name: "a Logger's Fatal, another package's Exit",
			src:  "package app\n\nimport (\n\t\"log\"\n\t\"os\"\n\n\t\"example.com/m/x\"\n)\n\nfunc f() {\n\tlog.New(os.Stderr, \"\", 0).Fatal(1)\n\tx.Exit(1)\n}\n",
		},
		{
			name: "dot import",
			src:  "package app\n\nimport . \"os\"\n\nfunc f() { Exit(1) }\n",
		},
		{
			name:    "package clause with a comment, no final newline",
			src:     "// Package app.\npackage app // the app\n\nimport \"os\"\n\nfunc f() { os.Exit(1) }",
			changed: true,
			want:    []string{"package app; import perfloopexithook \"" + hook + "\" // the app\n", "func f() { perfloopexithook.Exit(1) }\n"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := RewriteExits("x.go", []byte(tc.src), hook)
			if err != nil {
				t.Fatal(err)
			}
			if changed != tc.changed {
				t.Fatalf("changed = %v, want %v:\n%s", changed, tc.changed, out)
			}
			if !changed {
				if string(out) != tc.src {
					t.Errorf("unchanged source was changed:\n%s", out)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("result lacks %q:\n%s", w, out)
				}
			}
			if _, err := parser.ParseFile(token.NewFileSet(), "out.go", out, 0); err != nil {
				t.Errorf("the result does not parse: %v\n%s", err, out)
			}
			// Every original line keeps its number: only lines are
			// appended.
			srcLines := strings.Count(tc.src, "\n")
			if i := nthIndex(out, '\n', srcLines); i < 0 || bytes.Contains(out[:i], []byte("var _ =")) {
				t.Errorf("lines moved:\n%s", out)
			}
		})
	}
}

// nthIndex is the offset of the n-th c in b, or -1.
func nthIndex(b []byte, c byte, n int) int {
	for i, x := range b {
		if x == c {
			if n--; n == 0 {
				return i
			}
		}
	}
	return -1
}
