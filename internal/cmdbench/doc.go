// Package cmdbench times whole commands the way hyperfine does, and adds
// what the kernel saw: each run's user and system time, peak resident set
// size, page faults and context switches from the child's own rusage
// (wait4), and, on request, the child's system calls counted by strace.
//
// It is opinionated about overhead and honesty:
//
//   - A run is one fork/exec and one wait4 with nothing in between: the
//     child's standard streams go to /dev/null (or a file) so no goroutine
//     copies its output while the clock runs, and the wall time spans just
//     spawn to reap, as hyperfine measures it.
//   - A command run through a shell pays for the shell. Like hyperfine,
//     cmdbench times the shell's empty command (sh -c "") and subtracts it
//     from every run's wall, user and system time, and says so; unlike
//     hyperfine it subtracts the median wall time, not the mean, so that a
//     burst of noise during those 50 runs does not skew every result.
//   - Several commands are interleaved (A B A B …) so that whatever the
//     machine does during a round hits every command. Their comparison is a
//     ratio of mean wall times with two uncertainties: the delta-method
//     standard deviation hyperfine prints, and a 95% bootstrap confidence
//     interval that resamples whole rounds (keeping the pairing) when the
//     runs were interleaved.
//   - A ratio needs both means measurably above zero. A command that,
//     once the shell's spawn time is subtracted, is within that time's
//     noise of zero gets no ratio: its comparison is the difference of the
//     means, and "no measurable difference" unless that difference is
//     clear of zero and of the noise (see MeasurablyAboveZero).
//   - Nothing finished is thrown away and nothing hangs: every child runs
//     in a process group of its own, which a time limit or cancellation
//     stops as a whole; a failure, a time limit, a failing cleanup command
//     or cancellation returns the report of the runs that finished with
//     the error.
//   - Outliers are flagged, never dropped: a run more than ten robust
//     standard deviations from the median (|x − median| / MAD > 14.826,
//     hyperfine's rule, with the MAD floored at 1% of the median so that a
//     few very steady runs do not make a 3% wobble an outlier) produces a
//     warning, and a slow first run suggests -warmup.
//
// The package also reads strace -c tables (StraceReader) and writes results
// as perfloop.exec/v1 JSON, Markdown, CSV and a human summary.
package cmdbench
