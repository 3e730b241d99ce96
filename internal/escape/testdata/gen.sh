#!/bin/sh
# gen.sh captures the compiler's escape-analysis output for the planted
# module into the files the parser tests read:
#
#	planted.go1.26.build.txt     go build -gcflags=-m=2 .            (go1.26.8)
#	planted.go1.26.listtest.txt  go list -e -export -test -gcflags=-m=2 .
#	                             (what escape.Run runs; has test variants)
#	planted.go1.24.build.txt     go build -gcflags=-m=2 .            (go1.24.13:
#	                             "flow: {heap} = &hdr:", no "in F", "non-constant size")
#
# The go1.24 toolchain comes through GOTOOLCHAIN (the go command downloads
# it once). The go command replays cached compiler output, so the files do
# not depend on the cache state.
#
#	cd internal/escape/testdata && ./gen.sh
set -eu
cd "$(dirname "$0")/planted"
export GOFLAGS=-buildvcs=false GOWORK=off
GOTOOLCHAIN=go1.26.8 go build -gcflags=-m=2 . >../planted.go1.26.build.txt 2>&1
GOTOOLCHAIN=go1.26.8 go list -e -export -test -gcflags=-m=2 . 2>../planted.go1.26.listtest.txt >/dev/null
GOTOOLCHAIN=go1.24.13 go build -gcflags=-m=2 . >../planted.go1.24.build.txt 2>&1
