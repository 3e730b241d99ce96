package program

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// UserMain is what the user's func main is renamed to in the overlay.
const UserMain = "perfloopUserMain"

// WrapperFile is the name of the generated file in the main package's
// directory (in the overlay only).
const WrapperFile = "perfloop_main.go"

// RenameMain returns src with the identifier of its func main (a function
// declaration without a receiver) replaced by UserMain, and whether it
// declares one. Only those four bytes change: every other byte, and so
// every line number, stays as it was.
func RenameMain(filename string, src []byte) ([]byte, bool, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false, fmt.Errorf("parse %s: %w", filename, err)
	}
	if f.Name.Name != "main" {
		return src, false, nil
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Name.Name != "main" {
			continue
		}
		off := fset.Position(fd.Name.Pos()).Offset
		out := make([]byte, 0, len(src)+len(UserMain))
		out = append(out, src[:off]...)
		out = append(out, UserMain...)
		out = append(out, src[off+len("main"):]...)
		return out, true, nil
	}
	return src, false, nil
}

// Source is what the main package's own code does that matters to
// profiling it, found by reading its files.
type Source struct {
	// OwnCPUProfile is where the package starts a CPU profile of its own
	// (runtime/pprof.StartCPUProfile, or github.com/pkg/profile.Start),
	// "file:line", or "".
	OwnCPUProfile string
	// Signals reports that the package imports os/signal: it handles
	// signals itself, so the wrapper leaves them to it.
	Signals bool
}

// Inspect reads the main package's files (paths) for what Source
// describes.
func Inspect(paths []string) (Source, error) {
	var s Source
	fset := token.NewFileSet()
	for _, path := range paths {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return s, fmt.Errorf("parse %s: %w", path, err)
		}
		names := map[string]string{} // local name → import path
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if p == "os/signal" {
				s.Signals = true
			}
			name := p[strings.LastIndexByte(p, '/')+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			names[name] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || s.OwnCPUProfile != "" {
				return s.OwnCPUProfile == ""
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			p := names[x.Name]
			if (p == "runtime/pprof" && sel.Sel.Name == "StartCPUProfile") ||
				(p == "github.com/pkg/profile" && sel.Sel.Name == "Start") {
				pos := fset.Position(call.Pos())
				s.OwnCPUProfile = fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line)
			}
			return true
		})
	}
	return s, nil
}

// WrapperOptions say how the generated main behaves.
type WrapperOptions struct {
	// Signals makes the wrapper catch SIGINT and SIGTERM, write the
	// profiles and die of the signal again. Leave it off for a program
	// that handles signals itself.
	Signals bool
}

// Wrapper returns the generated file: a func main that starts the
// profilers, calls UserMain and stops them. Run without PERFLOOP_RUN_DIR
// in its environment, the program runs as if unwrapped.
func Wrapper(opts WrapperOptions) []byte {
	return []byte(strings.Replace(wrapperSource, "perfloopCatchSignals = false", "perfloopCatchSignals = "+strconv.FormatBool(opts.Signals), 1))
}

// Overlay is a go build -overlay for a main package: the renamed copy of
// the file that declares main and the wrapper.
type Overlay struct {
	// Path is the overlay's JSON file, for -overlay.
	Path string
}

// WriteOverlay writes into dir the renamed copy of the file among files
// (absolute paths in the package directory pkgDir) that declares func
// main, the wrapper, and the overlay's JSON file.
func WriteOverlay(dir, pkgDir string, files []string, opts WrapperOptions) (*Overlay, error) {
	wrapper := filepath.Join(pkgDir, WrapperFile)
	if _, err := os.Stat(wrapper); err == nil {
		return nil, fmt.Errorf("%s already exists: perfloop run generates a file of that name", wrapper)
	}
	replace := map[string]string{}
	found := false
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if !bytes.Contains(src, []byte("main")) {
			continue
		}
		out, ok, err := RenameMain(path, src)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if found {
			return nil, fmt.Errorf("more than one file of %s declares func main", pkgDir)
		}
		found = true
		copyPath := filepath.Join(dir, "main-"+filepath.Base(path))
		if err := os.WriteFile(copyPath, out, 0o644); err != nil {
			return nil, fmt.Errorf("write overlay: %w", err)
		}
		replace[path] = copyPath
	}
	if !found {
		return nil, fmt.Errorf("no file of %s declares func main", pkgDir)
	}
	wrapperCopy := filepath.Join(dir, WrapperFile)
	if err := os.WriteFile(wrapperCopy, Wrapper(opts), 0o644); err != nil {
		return nil, fmt.Errorf("write overlay: %w", err)
	}
	replace[wrapper] = wrapperCopy
	data, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return nil, err
	}
	o := &Overlay{Path: filepath.Join(dir, "overlay.json")}
	if err := os.WriteFile(o.Path, data, 0o644); err != nil {
		return nil, fmt.Errorf("write overlay: %w", err)
	}
	return o, nil
}

//go:embed wrapper.go.txt
var wrapperSource string
