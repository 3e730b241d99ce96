package cmdbench

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Measurement is what one run of a command cost, as the kernel reported it
// to wait4.
type Measurement struct {
	Wall, User, Sys time.Duration
	// MaxRSS is the peak resident set size in bytes of the child or of
	// the largest descendant it waited for.
	MaxRSS int64
	// MinorFaults, MajorFaults, VoluntaryCtxSwitches and
	// InvoluntaryCtxSwitches are the child's counts, its waited-for
	// descendants included.
	MinorFaults, MajorFaults                     int64
	VoluntaryCtxSwitches, InvoluntaryCtxSwitches int64
	// ExitCode is the exit status, or 128+n when signal n killed the
	// child (as a shell reports it).
	ExitCode int
	// Signal is the signal that killed the child, or 0.
	Signal syscall.Signal
	// TimedOut says the child was killed at the run's time limit.
	TimedOut bool
}

// process is a command made ready to start many times: the executable is
// looked up and the environment copied once, so a run does only fork, exec
// and wait4 while the clock runs.
type process struct {
	path string
	argv []string
	attr syscall.ProcAttr
}

// stdio is the set of files every child gets as fds 0, 1 and 2.
type stdio struct {
	null   *os.File // /dev/null, the default for all three
	input  *os.File // rewound before each run when set
	output *os.File // child's stdout and stderr when set
}

func openStdio(input string, output *os.File) (*stdio, error) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", os.DevNull, err)
	}
	s := &stdio{null: null, output: output}
	if input != "" {
		f, err := os.Open(input)
		if err != nil {
			null.Close()
			return nil, fmt.Errorf("open -input: %w", err)
		}
		s.input = f
	}
	return s, nil
}

func (s *stdio) files() []uintptr {
	in, out := s.null.Fd(), s.null.Fd()
	if s.input != nil {
		in = s.input.Fd()
	}
	if s.output != nil {
		out = s.output.Fd()
	}
	return []uintptr{in, out, out}
}

// rewind puts the input file back at its start so every run reads all of it.
func (s *stdio) rewind() error {
	if s.input == nil {
		return nil
	}
	if _, err := s.input.Seek(0, 0); err != nil {
		return fmt.Errorf("rewind -input: %w", err)
	}
	return nil
}

func (s *stdio) close() {
	s.null.Close()
	if s.input != nil {
		s.input.Close()
	}
}

// newProcess resolves argv[0] on $PATH and fixes the environment and
// standard files of every later start.
func newProcess(argv []string, io *stdio) (*process, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty command")
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, err
	}
	return &process{
		path: path,
		argv: argv,
		attr: syscall.ProcAttr{Env: os.Environ(), Files: io.files(), Sys: sysAttr()},
	}, nil
}
