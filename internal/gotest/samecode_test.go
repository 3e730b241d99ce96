package gotest

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
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

// Bytes that only describe where other sections are (the module data's
// line-table sizes, the dynamic section's addresses) and the line table
// itself can differ after a comment-only change: the code is the same.
// A byte of a function or of read-only data is not.
func TestSameCodeByFunction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	if runtime.GOOS != "linux" {
		t.Skip("patches an ELF executable")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/p\n\ngo 1.24\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nvar table = [4]int{1, 2, 3, 4}\n\nfunc main() {\n\tfmt.Println(table[len(os.Args)%4], \"done\")\n}\n"), 0o644)
	bin := filepath.Join(dir, "p.exe")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	orig, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// patched copies bin with one byte changed in each of sections, at
	// the address of symbol sym when it is not "".
	patched := func(name, sym string, sections ...string) string {
		t.Helper()
		data := bytes.Clone(orig)
		for _, sec := range sections {
			s := f.Section(sec)
			if s == nil {
				t.Fatalf("no section %s", sec)
			}
			off := s.Offset + s.Size/2
			if sym != "" {
				syms, _ := f.Symbols()
				i := slices.IndexFunc(syms, func(x elf.Symbol) bool { return x.Name == sym })
				if i < 0 {
					t.Fatalf("no symbol %s", sym)
				}
				off = s.Offset + (syms[i].Value - s.Addr)
			}
			data[off] ^= 0xff
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tables := []string{".gopclntab", ".go.module"}
	if f.Section(".dynamic") != nil {
		tables = append(tables, ".dynamic")
	}
	for _, tt := range []struct {
		name string
		path string
		want bool
	}{
		{"line and module tables", patched("tables", "", tables...), true},
		{"a function's code", patched("code", "main.main", ".text"), false},
		{"read-only data", patched("rodata", "", ".rodata"), false},
		{"initialized data", patched("data", "main.table", ".noptrdata"), false},
	} {
		same, err := SameCode(bin, tt.path)
		if err != nil || same != tt.want {
			t.Errorf("SameCode(bin, bin with %s changed) = %v, %v; want %v", tt.name, same, err, tt.want)
		}
	}
}
