#!/bin/sh
# Regenerates the strace -c -f fixtures that strace_test.go reads: real
# output of strace 6.1 on Linux, kept as captured. Run from this directory.
set -e
strace -c -f -o strace-c-f.sh-ls.txt -- sh -c 'ls / >/dev/null; cat /nonexistent 2>/dev/null; true'
strace -c -f -o strace-c-f.go-version.txt -- go version >/dev/null
