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
	"slices"
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
	// ExitHook is the import path of the exit hook package (see
	// ExitHookDir): the wrapper sets its Hook. "" leaves it out.
	ExitHook string
}

// Wrapper returns the generated file: a func main that starts the
// profilers, calls UserMain and stops them. Run without PERFLOOP_RUN_DIR
// in its environment, the program runs as if unwrapped.
func Wrapper(opts WrapperOptions) []byte {
	src := strings.Replace(wrapperSource, "perfloopCatchSignals = false", "perfloopCatchSignals = "+strconv.FormatBool(opts.Signals), 1)
	if opts.ExitHook != "" {
		src = strings.Replace(src, "\nimport (\n", fmt.Sprintf("\nimport (\n\t%s %q\n", exitHookName, opts.ExitHook), 1)
		src = strings.Replace(src, "\tperfloopStart()\n", "\t"+exitHookName+".Hook = perfloopOnExit\n\tperfloopStart()\n", 1)
	}
	return []byte(src)
}

// Overlay is a go build -overlay for a main package: the renamed copy of
// the file that declares main, the wrapper, the exit hook package and the
// copies of the module's files whose calls to os.Exit go to the hook.
type Overlay struct {
	// Path is the overlay's JSON file, for -overlay.
	Path string
	// Exits are the module's files whose os.Exit calls were rewritten.
	Exits []string
}

// WriteOverlay writes into dir the overlay for pkg: the copy of the file
// of pkg that declares func main, renamed; the wrapper; the exit hook
// package, at ExitHookDir in the module's root; the copies of the files
// among moduleFiles (absolute paths of the Go files of the main module's
// packages that pkg builds) that call os.Exit, rewritten (RewriteExits);
// and the overlay's JSON file.
func WriteOverlay(dir string, pkg *Package, moduleFiles []string, opts WrapperOptions) (*Overlay, error) {
	wrapper := filepath.Join(pkg.Dir, WrapperFile)
	if _, err := os.Stat(wrapper); err == nil {
		return nil, fmt.Errorf("%s already exists: perfloop run generates a file of that name", wrapper)
	}
	hookDir := filepath.Join(pkg.ModuleDir, ExitHookDir)
	if _, err := os.Stat(hookDir); err == nil {
		return nil, fmt.Errorf("%s already exists: perfloop run generates a package of that name", hookDir)
	}
	hookPath := pkg.ModulePath + "/" + ExitHookDir
	ov := &Overlay{Path: filepath.Join(dir, "overlay.json")}
	replace := map[string]string{}
	inPkg := map[string]bool{}
	for _, path := range pkg.GoFiles {
		inPkg[path] = true
	}
	files := append(slices.Clone(pkg.GoFiles), moduleFiles...)
	found := false
	for i, path := range files {
		if _, done := replace[path]; done || (i >= len(pkg.GoFiles) && inPkg[path]) {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		out, changed := src, false
		if inPkg[path] && bytes.Contains(src, []byte("main")) {
			renamed, ok, err := RenameMain(path, src)
			if err != nil {
				return nil, err
			}
			if ok {
				if found {
					return nil, fmt.Errorf("more than one file of %s declares func main", pkg.Dir)
				}
				found = true
				out, changed = renamed, true
			}
		}
		rewritten, ok, err := RewriteExits(path, out, hookPath)
		if err != nil {
			return nil, err
		}
		if ok {
			out, changed = rewritten, true
			ov.Exits = append(ov.Exits, path)
		}
		if !changed {
			continue
		}
		copyPath := filepath.Join(dir, fmt.Sprintf("%03d-%s", len(replace), filepath.Base(path)))
		if err := os.WriteFile(copyPath, out, 0o644); err != nil {
			return nil, fmt.Errorf("write overlay: %w", err)
		}
		replace[path] = copyPath
	}
	if !found {
		return nil, fmt.Errorf("no file of %s declares func main", pkg.Dir)
	}
	opts.ExitHook = hookPath
	wrapperCopy := filepath.Join(dir, WrapperFile)
	if err := os.WriteFile(wrapperCopy, Wrapper(opts), 0o644); err != nil {
		return nil, fmt.Errorf("write overlay: %w", err)
	}
	replace[wrapper] = wrapperCopy
	hookCopy := filepath.Join(dir, "perfloop_exit_hook.go")
	if err := os.WriteFile(hookCopy, []byte(exitHookSource), 0o644); err != nil {
		return nil, fmt.Errorf("write overlay: %w", err)
	}
	replace[filepath.Join(hookDir, "hook.go")] = hookCopy
	data, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(ov.Path, data, 0o644); err != nil {
		return nil, fmt.Errorf("write overlay: %w", err)
	}
	return ov, nil
}

//go:embed wrapper.go.txt
var wrapperSource string
