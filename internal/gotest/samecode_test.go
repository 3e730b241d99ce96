package gotest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Three builds of one program: a comment that moves every line below it
// leaves the code the same; another constant does not.
func TestSameCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three programs")
	}
	dir := t.TempDir()
	build := func(name, src string) string {
		t.Helper()
		d := filepath.Join(dir, name)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "go.mod"), []byte("module example.com/p\n\ngo 1.24\n"), 0o644)
		os.WriteFile(filepath.Join(d, "main.go"), []byte(src), 0o644)
		bin := filepath.Join(dir, name+".exe")
		cmd := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
		cmd.Dir = d
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		return bin
	}
	const prog = "package main\n\nimport \"os\"\n\n%sfunc main() {\n\tif len(os.Args) > 5 {\n\t\tpanic(\"too many\")\n\t}\n\tos.Exit(len(os.Args) * %d)\n}\n"
	a := build("a", fmt.Sprintf(prog, "", 3))
	b := build("b", fmt.Sprintf(prog, "// main exits.\n//\n// It does little.\n", 3))
	c := build("c", fmt.Sprintf(prog, "", 4))
	if same, err := SameCode(a, b); err != nil || !same {
		t.Errorf("SameCode(a, a with a comment) = %v, %v; want true", same, err)
	}
	if same, err := SameCode(a, c); err != nil || same {
		t.Errorf("SameCode(a, a with another constant) = %v, %v; want false", same, err)
	}
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte("not a binary"), 0o644)
	if _, err := SameCode(a, junk); err == nil {
		t.Error("SameCode of a text file: no error")
	}
}
