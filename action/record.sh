#!/usr/bin/env bash
# perfloop record on GitHub Actions: records the commit the job checked
# out (or one shard of its benchmarks) into a store the fleet shares, and
# appends what it recorded to the job summary.
#
# Inputs come as the environment record/action.yml sets from the step's
# with:
#
#   INPUT_STORE     the store's DSN (postgres://…), required
#   INPUT_SHARD     i/n, this runner's part of the benchmarks (default all)
#   INPUT_PACKAGES  packages to benchmark (default ./...)
#   INPUT_ARGS      more flags for perfloop record ("-count 10")
#
# and GitHub's own: GITHUB_STEP_SUMMARY, RUNNER_TEMP.
#
# The exit status is perfloop record's: 0 recorded (or nothing for this
# shard to run), 1 a benchmark failed (the others are recorded), 2 bad
# input or store.
set -uo pipefail

tmp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
if [ -z "${INPUT_STORE:-}" ]; then
	echo "::error title=perfloop record::no store: set the action's store input to a postgres:// URL (from a secret) that every runner reaches"
	exit 2
fi

# record puts commits in git order and measures each against the commit
# recorded before it: it needs the history, which actions/checkout does
# not fetch by default.
if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
	echo "fetching the history (perfloop record orders commits by it)"
	if ! git fetch --no-tags --unshallow origin; then
		echo "::error title=perfloop record::cannot fetch the history: check out with fetch-depth: 0"
		exit 2
	fi
fi

# INPUT_ARGS and INPUT_PACKAGES are word-split as a shell would.
eval "args=(${INPUT_ARGS:-})"
eval "pkgs=(${INPUT_PACKAGES:-./...})"
shard=()
if [ -n "${INPUT_SHARD:-}" ]; then
	shard=(-shard "$INPUT_SHARD")
fi
out="$tmp/perfloop-record.txt"
perfloop record -store "$INPUT_STORE" ${shard[@]+"${shard[@]}"} ${args[@]+"${args[@]}"} "${pkgs[@]}" >"$out" 2>&1
status=$?
cat "$out"

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	{
		echo "### perfloop record${INPUT_SHARD:+ (shard $INPUT_SHARD)}"
		echo
		echo '```'
		grep -E '^(recorded run|perfloop: (record|shard))' "$out" || true
		echo '```'
	} >>"$GITHUB_STEP_SUMMARY"
fi
case "$status" in
0) ;;
1) echo "::error title=perfloop record::a benchmark failed or a package did not build; the others were recorded: see the log" ;;
*) echo "::error title=perfloop record::nothing recorded: see the log" ;;
esac
exit "$status"
