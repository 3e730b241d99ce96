package gotest

import (
	"bytes"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"errors"
	"fmt"
	"os"
	"strings"
)

// SameCode reports whether two test binaries hold the same machine code
// and data: the same bytes in every section the program loads, except
// the build ID, which names the inputs, and the line table, which moves
// when a comment adds a line. Two such binaries run the same instructions
// on the same data at the same addresses: any difference measured between
// them is noise.
func SameCode(a, b string) (bool, error) {
	da, err := os.ReadFile(a)
	if err != nil {
		return false, err
	}
	db, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	if bytes.Equal(da, db) {
		return true, nil
	}
	sa, err := loadedSections(da)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", a, err)
	}
	sb, err := loadedSections(db)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", b, err)
	}
	if len(sa) != len(sb) {
		return false, nil
	}
	for name, x := range sa {
		y, ok := sb[name]
		if !ok || !bytes.Equal(withoutBuildID(x), withoutBuildID(y)) {
			return false, nil
		}
	}
	return true, nil
}

// ignored names the sections SameCode does not compare: build IDs and
// line tables.
func ignored(name string) bool {
	name = strings.TrimLeft(name, "._")
	return strings.Contains(name, "buildid") || strings.Contains(name, "build-id") ||
		strings.Contains(name, "gopclntab") || strings.HasPrefix(name, "debug") || strings.HasPrefix(name, "zdebug")
}

// loadedSections returns the contents of the sections an ELF, Mach-O or
// PE executable loads, by name.
func loadedSections(data []byte) (map[string][]byte, error) {
	out := map[string][]byte{}
	r := bytes.NewReader(data)
	if f, err := elf.NewFile(r); err == nil {
		for _, s := range f.Sections {
			if s.Flags&elf.SHF_ALLOC == 0 || s.Type == elf.SHT_NOBITS || ignored(s.Name) {
				continue
			}
			d, err := s.Data()
			if err != nil {
				return nil, err
			}
			out[s.Name] = d
		}
		return out, nil
	}
	if f, err := macho.NewFile(r); err == nil {
		for _, s := range f.Sections {
			if s.Seg == "__DWARF" || ignored(s.Name) || s.Flags&0xff == 0x1 /* S_ZEROFILL */ {
				continue
			}
			d, err := s.Data()
			if err != nil {
				return nil, err
			}
			out[s.Seg+","+s.Name] = d
		}
		return out, nil
	}
	if f, err := pe.NewFile(r); err == nil {
		for _, s := range f.Sections {
			if ignored(s.Name) || s.Characteristics&pe.IMAGE_SCN_MEM_DISCARDABLE != 0 {
				continue
			}
			d, err := s.Data()
			if err != nil {
				return nil, err
			}
			out[s.Name] = d
		}
		return out, nil
	}
	return nil, errors.New("not an ELF, Mach-O or PE executable")
}

var (
	buildIDStart = []byte("\xff Go build ID: \"")
	buildIDEnd   = []byte("\"\n \xff")
)

// withoutBuildID blanks the Go build ID the linker writes at the start of
// the text on systems whose executables have no note for it.
func withoutBuildID(d []byte) []byte {
	i := bytes.Index(d[:min(len(d), 4096)], buildIDStart)
	if i < 0 {
		return d
	}
	j := bytes.Index(d[i:], buildIDEnd)
	if j < 0 {
		return d
	}
	c := bytes.Clone(d)
	clear(c[i+len(buildIDStart) : i+j])
	return c
}
