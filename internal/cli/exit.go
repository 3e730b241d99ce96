package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime/debug"

	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/gotest"
)

// Exit codes. Only Main's caller exits; commands return errors that map here.
const (
	// ExitOK means the command did what was asked and found nothing wrong.
	ExitOK = 0
	// ExitFailed means the command ran but something it measured failed:
	// a benchmark panicked, timed out or did not build, or a regression
	// was found. Every other result was still written.
	ExitFailed = 1
	// ExitUsage means bad flags, arguments or input files: nothing ran.
	ExitUsage = 2
	// ExitInterrupted means the user pressed Ctrl-C; finished results
	// were written.
	ExitInterrupted = 130
)

// usageError is a mistake in the command line or its input files.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// failedError says that the command finished and wrote its results, but
// something it measured failed.
type failedError struct{ msg string }

func (e failedError) Error() string { return e.msg }

// ExitCode maps an error returned by a command to perfloop's exit code.
func ExitCode(err error) int {
	var u usageError
	var f failedError
	var pe programExit
	var l *gotest.ListError
	var sm *git.SubmoduleError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.As(err, &pe):
		return pe.code
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &u), errors.As(err, &l), errors.As(err, &sm):
		return ExitUsage
	case errors.As(err, &f):
		return ExitFailed
	default:
		return ExitFailed
	}
}

// Version returns perfloop's module version as the go command recorded it
// ("(devel)" when built from a work tree).
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
