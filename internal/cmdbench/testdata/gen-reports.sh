#!/bin/sh
# Regenerates the perfloop exec -json reports that export_test.go renders
# (real runs on Linux; the numbers change every time, so regenerate the
# golden files after with: go test ./internal/cmdbench -run Export -update).
# Run from this directory with perfloop on $PATH.
set -e
perfloop exec -json -warmup 1 -runs 10 -strace -name 'sleep {d}s' -parameter-list d=0.01,0.02 'sleep {d}' > sleep-params.json
perfloop exec -json -no-shell -warmup 1 -runs 10 -ignore-failure true false > true-false.json
