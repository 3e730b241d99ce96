package cmdbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/perfloop/perfloop/internal/document"
)

// Request is one invocation of perfloop exec as the user gave it: the
// command lines and the flags that shape them. Plan checks it.
type Request struct {
	Commands []string // the command lines, in order
	// Names are display names, one per command in order (-name).
	Names []string
	// Parameters are "NAME=v1,v2,…" lists (-parameter-list).
	Parameters []string
	// Reference is a command run first that the others are compared
	// with (-reference), or "".
	Reference        string
	NoShell          bool
	Prepare, Cleanup string
	// Options say how to time the commands; Plan completes them.
	Options Options
}

// RequestError is a mistake in a Request: nothing was run. Its message
// names the flag or argument at fault.
type RequestError struct{ Err error }

func (e *RequestError) Error() string { return e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

func requestErrorf(format string, args ...any) error {
	return &RequestError{fmt.Errorf(format, args...)}
}

// Plan checks r and returns the commands to time, the reference first
// when there is one, and the options to time them with. Every error is a
// *RequestError.
func (r Request) Plan() ([]Command, Options, error) {
	opts := r.Options
	switch {
	case len(r.Commands) == 0 && r.Reference == "":
		return nil, opts, requestErrorf("no command given: perfloop exec [flags] CMD...")
	case len(r.Commands) == 0:
		return nil, opts, requestErrorf("-reference needs at least one command to compare with it")
	case opts.Warmup < 0:
		return nil, opts, requestErrorf("-warmup must be 0 or more, got %d", opts.Warmup)
	case opts.Runs < 0:
		return nil, opts, requestErrorf("-runs must be 0 (automatic) or more, got %d", opts.Runs)
	case opts.Timeout < 0:
		return nil, opts, requestErrorf("-timeout must be positive (or 0 for none), got %v", opts.Timeout)
	case len(r.Names) > len(r.Commands):
		return nil, opts, requestErrorf("%d -name flags for %d commands: give at most one per command", len(r.Names), len(r.Commands))
	}
	spec := Spec{Lines: r.Commands, Names: r.Names, NoShell: r.NoShell, Prepare: r.Prepare, Cleanup: r.Cleanup}
	for _, p := range r.Parameters {
		l, err := ParseParameterList(p)
		if err != nil {
			return nil, opts, requestErrorf("-parameter-list: %w", err)
		}
		spec.Lists = append(spec.Lists, l)
	}
	cmds, err := spec.Commands()
	if err != nil {
		if _, ok := err.(*parameterError); ok {
			return nil, opts, requestErrorf("-parameter-list: %w", err)
		}
		return nil, opts, &RequestError{err}
	}
	if r.Reference != "" {
		ref := spec
		ref.Lines, ref.Names, ref.Lists = []string{r.Reference}, nil, nil
		rc, err := ref.Commands()
		if err != nil {
			return nil, opts, requestErrorf("-reference: %w", err)
		}
		cmds = append(rc, cmds...)
		opts.Reference = 0
	}
	if opts.Input != "" {
		if _, err := os.Stat(opts.Input); err != nil {
			return nil, opts, requestErrorf("-input: %w", err)
		}
	}
	if opts.Strace {
		if _, err := LookStrace(); err != nil {
			return nil, opts, &RequestError{err}
		}
	}
	if opts.Perf {
		if _, err := LookPerf(); err != nil {
			return nil, opts, &RequestError{err}
		}
	}
	return cmds, opts, nil
}

// Execute plans r and runs it (see Plan and Run). A command that cannot be
// found is a *RequestError too.
func Execute(ctx context.Context, r Request) (*document.Exec, error) {
	cmds, opts, err := r.Plan()
	if err != nil {
		return nil, err
	}
	rep, err := Run(ctx, cmds, opts)
	if errors.Is(err, exec.ErrNotFound) {
		return rep, &RequestError{err}
	}
	return rep, err
}

// Export writes the report as Markdown to markdown and as CSV to csv;
// an empty path writes nothing.
func Export(rep *document.Exec, markdown, csv string) error {
	for _, e := range []struct {
		path  string
		write func(io.Writer, *document.Exec) error
	}{{markdown, WriteMarkdown}, {csv, WriteCSV}} {
		if e.path == "" {
			continue
		}
		f, err := os.Create(e.path)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		if err := e.write(f, rep); err != nil {
			f.Close()
			return fmt.Errorf("export %s: %w", e.path, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("export %s: %w", e.path, err)
		}
	}
	return nil
}
