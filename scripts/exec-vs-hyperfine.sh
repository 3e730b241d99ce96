#!/bin/sh
# exec-vs-hyperfine.sh prints perfloop exec's overhead and accuracy figures
# beside hyperfine's, measured in alternation so both see the same machine:
#
#   overhead  true, no shell, 3 warm-up runs, 60 runs: mean wall time of
#             perfloop exec -no-shell vs hyperfine -N (target: ratio ≤ 1.25,
#             aim ≤ 1.0)
#   accuracy  sleep 0.05 through sh, shell spawn time subtracted, 2 warm-up
#             runs, 20 runs: mean wall time (target: 50–56 ms)
#
# Usage: scripts/exec-vs-hyperfine.sh [TRIALS]   (default 7)
# Needs hyperfine (apt-get install hyperfine) and go; set PERFLOOP to use a
# perfloop binary instead of building one. Only sh and awk are used to read
# the results (both tools' CSV exports).
set -eu

trials=${1:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v hyperfine >/dev/null || { echo "exec-vs-hyperfine: hyperfine not found (apt-get install hyperfine)" >&2; exit 2; }
if [ -z "${PERFLOOP:-}" ]; then
	PERFLOOP=$tmp/perfloop
	(cd "$(dirname "$0")/.." && go build -o "$PERFLOOP" ./cmd/perfloop)
fi

# mean_ms FILE COLUMN: a time in milliseconds from a one-row CSV export
# (perfloop: mean is column 4, median 6; hyperfine: mean 2, median 4).
mean_ms() { awk -F, -v c="$2" 'NR == 2 { printf "%.3f", $c * 1000 }' "$1"; }

echo "# perfloop exec vs $(hyperfine --version) — $(go env GOVERSION 2>/dev/null || echo go), $(uname -sr), $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# $trials trials, each running both tools back to back (perfloop first in odd trials, hyperfine first in even);"
echo "# figures are mean wall times in ms."
echo
echo "## overhead: true, no shell, warm-up 3, 60 runs"
echo "  perfloop exec -no-shell -warmup 3 -runs 60 true   vs   hyperfine -N --warmup 3 --runs 60 true"
printf '%-6s %10s %10s %7s   %s\n' trial perfloop hyperfine ratio "(medians: perfloop hyperfine)"
: >"$tmp/ratios"
i=1
while [ "$i" -le "$trials" ]; do
	pl() { "$PERFLOOP" exec -no-shell -warmup 3 -runs 60 -export-csv "$tmp/p.csv" true >/dev/null 2>&1; }
	hf() { hyperfine -N --warmup 3 --runs 60 --export-csv "$tmp/h.csv" true >/dev/null 2>&1; }
	if [ $((i % 2)) -eq 1 ]; then pl; hf; else hf; pl; fi
	p=$(mean_ms "$tmp/p.csv" 4)
	h=$(mean_ms "$tmp/h.csv" 2)
	r=$(awk -v p="$p" -v h="$h" 'BEGIN { printf "%.2f", p / h }')
	echo "$r" >>"$tmp/ratios"
	printf '%-6s %10s %10s %7s   (%s %s)\n' "$i" "$p" "$h" "$r" "$(mean_ms "$tmp/p.csv" 6)" "$(mean_ms "$tmp/h.csv" 4)"
	i=$((i + 1))
done
sort -n "$tmp/ratios" | awk '{ r[NR] = $1 } END {
	m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
	printf "median ratio %.2f (min %.2f, max %.2f); target ≤ 1.25, aim ≤ 1.0\n", m, r[1], r[NR] }'

echo
echo "## accuracy: sleep 0.05 through sh, warm-up 2, 20 runs"
echo "  perfloop exec -warmup 2 -runs 20 'sleep 0.05'   vs   hyperfine --warmup 2 --runs 20 'sleep 0.05'"
printf '%-6s %10s %10s\n' trial perfloop hyperfine
: >"$tmp/means"
i=1
while [ "$i" -le "$trials" ]; do
	pl() { "$PERFLOOP" exec -warmup 2 -runs 20 -export-csv "$tmp/p.csv" 'sleep 0.05' >/dev/null 2>&1; }
	hf() { hyperfine --warmup 2 --runs 20 --export-csv "$tmp/h.csv" 'sleep 0.05' >/dev/null 2>&1; }
	if [ $((i % 2)) -eq 1 ]; then pl; hf; else hf; pl; fi
	p=$(mean_ms "$tmp/p.csv" 4)
	h=$(mean_ms "$tmp/h.csv" 2)
	echo "$p" >>"$tmp/means"
	printf '%-6s %10s %10s\n' "$i" "$p" "$h"
	i=$((i + 1))
done
sort -n "$tmp/means" | awk '{ m[NR] = $1; if ($1 >= 50 && $1 <= 56) ok++ } END {
	printf "perfloop means %.2f–%.2f ms; %d of %d trials within 50–56 ms\n", m[1], m[NR], ok, NR }'
