#!/bin/sh
# gen.sh regenerates the captured profiles in this directory from the
# benchmarks of ./planted, the way perfloop profile takes them: one process
# per benchmark and profile kind, the heap profile at -test.memprofilerate=1.
# The binary is built with -trimpath so the profiles name files as
# example.com/planted/index.go and fmt/print.go, not by this machine's paths.
#
#	cd internal/profiles/testdata && ./gen.sh
set -eu
cd "$(dirname "$0")"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
(cd planted && go test -c -trimpath -o "$dir/planted.test" .)
for b in Count Frame Labels Sum; do
	(cd planted && "$dir/planted.test" -test.run='^$' -test.bench="^Benchmark$b\$" \
		-test.benchtime=300ms -test.cpuprofile="$dir/$b.cpu.pprof" >/dev/null)
	(cd planted && "$dir/planted.test" -test.run='^$' -test.bench="^Benchmark$b\$" \
		-test.benchtime=100ms -test.memprofile="$dir/$b.mem.pprof" -test.memprofilerate=1 >/dev/null)
	cp "$dir/$b.cpu.pprof" "Benchmark$b.cpu.pprof"
	cp "$dir/$b.mem.pprof" "Benchmark$b.mem.pprof"
done
