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
// and data: every function's code at the same address, and the same
// bytes in every other section the program loads at the same addresses.
// Left aside are what names the inputs (the build ID), what a comment
// changes (the line table, where the runtime also keeps the inlining
// trees), and the tables that only say where those are (the module
// data's table sizes, the dynamic linker's addresses): a comment that
// grows the line table by a few bytes moves the sections after it, not
// the code. Two such binaries run the same instructions on the same data
// at the same addresses: any difference measured between them is noise.
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
	ia, err := loadImage(da)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", a, err)
	}
	ib, err := loadImage(db)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", b, err)
	}
	return ia.same(ib), nil
}

// image is what of an executable decides what it runs.
type image struct {
	// funcs are the functions' code by symbol name, when the executable
	// has a symbol table; the sections that hold them are then not in
	// sections.
	funcs map[string]block
	// sections are the other loaded sections by name; a section whose
	// address only other tables refer to has addr 0.
	sections map[string]block
}

// block is bytes at an address.
type block struct {
	addr uint64
	data []byte
}

func (a image) same(b image) bool {
	eq := func(x, y map[string]block) bool {
		if len(x) != len(y) {
			return false
		}
		for name, bx := range x {
			by, ok := y[name]
			if !ok || bx.addr != by.addr || !bytes.Equal(withoutBuildID(bx.data), withoutBuildID(by.data)) {
				return false
			}
		}
		return true
	}
	return eq(a.funcs, b.funcs) && eq(a.sections, b.sections)
}

// ignored names the sections SameCode does not compare: build IDs, line
// tables, and the tables of addresses and sizes of other sections (the
// module data, the dynamic linker's), which move when the line table
// grows.
func ignored(name string) bool {
	name = strings.TrimLeft(name, "._")
	return strings.Contains(name, "buildid") || strings.Contains(name, "build-id") ||
		strings.Contains(name, "gopclntab") || strings.HasPrefix(name, "debug") || strings.HasPrefix(name, "zdebug") ||
		name == "go.module" || name == "dynamic" || name == "dynsym" || name == "dynstr" || name == "hash" || name == "interp" ||
		strings.HasPrefix(name, "rela") || strings.HasPrefix(name, "got") || strings.HasPrefix(name, "gnu.")
}

// placed reports whether code refers to a section's contents by address
// (text, read-only and writable data), so that it must not move.
func placed(name string) bool {
	switch strings.TrimLeft(name, "._") {
	case "text", "plt", "rodata", "noptrdata", "data", "bss", "noptrbss", "tbss":
		return true
	}
	return false
}

// loadImage reads the functions and loaded sections of an ELF, Mach-O or
// PE executable.
func loadImage(data []byte) (image, error) {
	img := image{sections: map[string]block{}}
	r := bytes.NewReader(data)
	if f, err := elf.NewFile(r); err == nil {
		syms, _ := f.Symbols()
		code := map[int]bool{} // sections whose functions are compared one by one
		if len(syms) > 0 {
			img.funcs = map[string]block{}
			for _, sym := range syms {
				i := int(sym.Section)
				if elf.ST_TYPE(sym.Info) != elf.STT_FUNC || i <= 0 || i >= len(f.Sections) || f.Sections[i].Flags&elf.SHF_EXECINSTR == 0 {
					continue
				}
				s := f.Sections[i]
				if sym.Value < s.Addr || sym.Value+sym.Size > s.Addr+s.Size || s.Type == elf.SHT_NOBITS {
					continue
				}
				d := make([]byte, sym.Size)
				if _, err := s.ReadAt(d, int64(sym.Value-s.Addr)); err != nil {
					return image{}, err
				}
				img.funcs[sym.Name] = block{sym.Value, d}
				code[i] = true
			}
		}
		for i, s := range f.Sections {
			if s.Flags&elf.SHF_ALLOC == 0 || ignored(s.Name) || code[i] {
				continue
			}
			b := block{}
			if placed(s.Name) {
				b.addr = s.Addr
			}
			if s.Type == elf.SHT_NOBITS {
				b.data = []byte(fmt.Sprint(s.Size))
			} else if b.data, err = s.Data(); err != nil {
				return image{}, err
			}
			img.sections[s.Name] = b
		}
		return img, nil
	}
	if f, err := macho.NewFile(r); err == nil {
		for _, s := range f.Sections {
			if s.Seg == "__DWARF" || ignored(s.Name) || s.Flags&0xff == 0x1 /* S_ZEROFILL */ {
				continue
			}
			d, err := s.Data()
			if err != nil {
				return image{}, err
			}
			img.sections[s.Seg+","+s.Name] = block{data: d}
		}
		return img, nil
	}
	if f, err := pe.NewFile(r); err == nil {
		for _, s := range f.Sections {
			if ignored(s.Name) || s.Characteristics&pe.IMAGE_SCN_MEM_DISCARDABLE != 0 {
				continue
			}
			d, err := s.Data()
			if err != nil {
				return image{}, err
			}
			img.sections[s.Name] = block{data: d}
		}
		return img, nil
	}
	return image{}, errors.New("not an ELF, Mach-O or PE executable")
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
