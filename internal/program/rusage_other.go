//go:build !unix

package program

import "os"

// usage reads what the system says about a finished process.
func usage(ps *os.ProcessState) Usage {
	return Usage{User: ps.UserTime(), Sys: ps.SystemTime()}
}

// exitStatus returns the process's exit code.
func exitStatus(ps *os.ProcessState) (int, string) { return ps.ExitCode(), "" }

// signalName is a signal's name.
func signalName(sig os.Signal) string { return sig.String() }
