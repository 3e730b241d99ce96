package loop

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMakeStateDir: perfloop's directory, made in a module, keeps itself
// out of git; one that exists is left as it is.
func TestMakeStateDir(t *testing.T) {
	root := t.TempDir()
	dir, err := MakeStateDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(root, ".perfloop") {
		t.Errorf("MakeStateDir(%s) = %s", root, dir)
	}
	if data, err := os.ReadFile(filepath.Join(dir, ".gitignore")); err != nil || string(data) != "*\n" {
		t.Errorf(".gitignore = %q, %v; want \"*\\n\"", data, err)
	}
	// Again: nothing changes.
	if _, err := MakeStateDir(root); err != nil {
		t.Fatal(err)
	}
	// A directory the user made (or whose .gitignore the user removed
	// to commit it) is theirs.
	other := t.TempDir()
	if err := os.Mkdir(filepath.Join(other, ".perfloop"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := MakeStateDir(other); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(other, ".perfloop", ".gitignore")); !os.IsNotExist(err) {
		t.Errorf("a .gitignore was added to an existing directory (%v)", err)
	}
}
