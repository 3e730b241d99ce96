package program

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfloop/perfloop/internal/gotest"
)

// Package is the main package perfloop run builds, as go list reports it.
type Package struct {
	ImportPath string
	Dir        string
	// ModulePath and ModuleDir are its module's; files in profiles are
	// reported relative to ModuleDir.
	ModulePath, ModuleDir string
	// GoFiles are the package's Go files, absolute paths.
	GoFiles []string
}

// NotMainError says that what perfloop run was given is not a Go main
// package.
type NotMainError struct {
	Arg    string
	Reason string
}

// Error says what the argument is and what to use instead.
func (e *NotMainError) Error() string {
	return fmt.Sprintf("%s: %s; perfloop run needs a Go main package (perfloop exec times any command)", e.Arg, e.Reason)
}

// BuildError is a main package that does not compile.
type BuildError struct {
	Package string
	// Output is the go command's words: the compiler's first errors.
	Output string
}

// Error returns the go command's first error lines.
func (e *BuildError) Error() string {
	lines := strings.Split(strings.TrimSpace(e.Output), "\n")
	var kept []string
	for _, l := range lines {
		if strings.HasPrefix(l, "#") {
			continue
		}
		kept = append(kept, strings.TrimSpace(l))
		if len(kept) == 3 {
			break
		}
	}
	return fmt.Sprintf("build %s: %s", e.Package, strings.Join(kept, "; "))
}

// List asks go list (run in dir, "" for the current directory) about arg
// and returns it if it is a main package; anything else is a
// *NotMainError.
func List(ctx context.Context, dir, tags, arg string) (*Package, error) {
	args := []string{"list", "-e", "-json"}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	args = append(args, "--", arg)
	cmd, done, err := gotest.GoCommand(ctx, dir, nil, args...)
	if err != nil {
		return nil, err
	}
	defer done()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return nil, &NotMainError{Arg: arg, Reason: firstLine(stderr.String(), err)}
	}
	var p struct {
		ImportPath, Name, Dir string
		GoFiles               []string
		Module                *struct{ Path, Dir string }
		Error                 *struct{ Err string }
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("go list %s: %w", arg, err)
	}
	if dec.More() {
		return nil, &NotMainError{Arg: arg, Reason: "matches more than one package"}
	}
	switch {
	case p.Error != nil:
		return nil, &NotMainError{Arg: arg, Reason: firstLine(p.Error.Err, nil)}
	case p.Name != "main":
		if p.Name == "" {
			return nil, &NotMainError{Arg: arg, Reason: "not a Go package"}
		}
		return nil, &NotMainError{Arg: arg, Reason: fmt.Sprintf("package %s is not a main package", p.Name)}
	case p.ImportPath == "command-line-arguments":
		return nil, &NotMainError{Arg: arg, Reason: "give the main package's directory (./cmd/app), not its files"}
	case p.Module == nil || p.Module.Dir == "":
		return nil, &NotMainError{Arg: arg, Reason: "not in a module"}
	}
	pkg := &Package{ImportPath: p.ImportPath, Dir: p.Dir, ModulePath: p.Module.Path, ModuleDir: p.Module.Dir}
	for _, f := range p.GoFiles {
		pkg.GoFiles = append(pkg.GoFiles, filepath.Join(p.Dir, f))
	}
	return pkg, nil
}

func firstLine(s string, err error) string {
	s = strings.TrimSpace(s)
	if s == "" && err != nil {
		return err.Error()
	}
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

// moduleFiles lists the Go files of the main module's packages that pkg
// builds (itself and its dependencies in its module), absolute paths.
func moduleFiles(ctx context.Context, dir, tags string, pkg *Package) ([]string, error) {
	args := []string{"list", "-e", "-deps", "-json=Dir,GoFiles,Module,Standard"}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	args = append(args, "--", pkg.ImportPath)
	cmd, done, err := gotest.GoCommand(ctx, dir, nil, args...)
	if err != nil {
		return nil, err
	}
	defer done()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %s", pkg.ImportPath, firstLine(stderr.String(), err))
	}
	var files []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			Dir      string
			GoFiles  []string
			Standard bool
			Module   *struct{ Path string }
		}
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("go list -deps %s: %w", pkg.ImportPath, err)
		}
		if p.Standard || p.Module == nil || p.Module.Path != pkg.ModulePath {
			continue
		}
		for _, f := range p.GoFiles {
			files = append(files, filepath.Join(p.Dir, f))
		}
	}
	return files, nil
}

// BuildOptions say how Build builds the wrapped program.
type BuildOptions struct {
	// Dir is where the go command runs ("" for the current directory).
	Dir string
	// Tags is the -tags value.
	Tags string
	// Work is a directory for the overlay and the binary; the caller
	// removes it.
	Work string
	// Wrapper says how the generated main behaves.
	Wrapper WrapperOptions
}

// Build builds pkg with the wrapper through go build -overlay and returns
// the binary's path. A package that does not compile is a *BuildError.
func Build(ctx context.Context, pkg *Package, opts BuildOptions) (string, error) {
	files, err := moduleFiles(ctx, opts.Dir, opts.Tags, pkg)
	if err != nil {
		return "", err
	}
	ov, err := WriteOverlay(opts.Work, pkg, files, opts.Wrapper)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(opts.Work, "bin", filepath.Base(pkg.Dir))
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", fmt.Errorf("create the binary's directory: %w", err)
	}
	args := []string{"build", "-overlay", ov.Path, "-o", bin}
	if opts.Tags != "" {
		args = append(args, "-tags", opts.Tags)
	}
	args = append(args, "--", pkg.ImportPath)
	cmd, done, err := gotest.GoCommand(ctx, opts.Dir, nil, args...)
	if err != nil {
		return "", err
	}
	defer done()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		var ee interface{ ExitCode() int }
		if errors.As(err, &ee) {
			return "", &BuildError{Package: pkg.ImportPath, Output: out.String()}
		}
		return "", fmt.Errorf("go build %s: %w", pkg.ImportPath, err)
	}
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("go build %s: %w", pkg.ImportPath, err)
	}
	return bin, nil
}
