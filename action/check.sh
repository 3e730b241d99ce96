#!/usr/bin/env bash
# perfloop check on GitHub Actions: runs the gate on a pull request's
# merge against its base, appends the verdict to the job summary, and
# keeps one comment on the pull request up to date with it.
#
# Inputs come as the environment action.yml sets from the step's with:
#
#   INPUT_BASE      revision to compare against (default: the pull
#                   request's base commit, or a push's previous commit)
#   INPUT_PACKAGES  packages to benchmark (default ./...)
#   INPUT_ARGS      more flags for perfloop check ("-budget '...' -calibrate")
#   INPUT_COMMENT   "true" to comment on the pull request (default)
#   INPUT_SHARD     "i/n": check only the i-th of n shares of the
#                   benchmarks and write the partial result to
#                   INPUT_RESULT (default $RUNNER_TEMP/perfloop-shard-i-of-n.json),
#                   no comment; output result is its path
#   INPUT_MERGE     a directory of the shards' results (any depth, *.json):
#                   join them into one verdict, summary, comment and exit
#                   status (INPUT_ARGS belong to the shards and are not used)
#   GITHUB_TOKEN    token for the comment (pull-requests: write)
#
# and GitHub's own: GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_API_URL,
# GITHUB_REPOSITORY, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP.
#
# The exit status is perfloop check's: 0 pass or inconclusive, 1
# regression, broken budget or failed side, 2 bad input; a shard's is 0
# once its result is written (the merge decides). A comment that cannot be
# posted (a fork's read-only token) is a warning, not a failure.
set -uo pipefail

marker='<!-- perfloop check -->'
tmp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
shard="${INPUT_SHARD:-}"
merge="${INPUT_MERGE:-}"
if [ -n "$shard" ] && [ -n "$merge" ]; then
	echo "::error title=perfloop check::set shard on the shards' jobs and merge on the job after them, not both on one"
	exit 2
fi

base="${INPUT_BASE:-}"
event="${GITHUB_EVENT_PATH:-}"
pr=""
if [ -n "$event" ] && [ -f "$event" ]; then
	pr=$(jq -r '.pull_request.number // empty' "$event")
	if [ -z "$base" ]; then
		base=$(jq -r '.pull_request.base.sha // .before // empty' "$event")
	fi
fi
if [ -z "$merge" ]; then
	if [ -z "$base" ] || [ "$base" = 0000000000000000000000000000000000000000 ]; then
		echo "::error title=perfloop check::no base revision: set the action's base input, or run it on pull_request or push"
		exit 2
	fi
	# actions/checkout fetches one commit by default: fetch the base too.
	if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
		echo "fetching $base"
		if ! git fetch --no-tags --depth=1 origin "$base"; then
			echo "::error title=perfloop check::cannot fetch base revision $base: check out with fetch-depth: 0"
			exit 2
		fi
	fi
fi

md="$tmp/perfloop-check.md"
rm -f "$md"
# INPUT_ARGS and INPUT_PACKAGES are word-split as a shell would: quote a
# budget inside them ('BenchmarkX allocs/op == 0').
eval "args=(${INPUT_ARGS:-})"
eval "pkgs=(${INPUT_PACKAGES:-./...})"

if [ -n "$shard" ]; then
	# One share of the benchmarks: its partial result, for the merge.
	result="${INPUT_RESULT:-$tmp/perfloop-shard-${shard/\//-of-}.json}"
	perfloop check -shard "$shard" "${args[@]}" "$base" HEAD "${pkgs[@]}" >"$result"
	status=$?
	if [ -n "${GITHUB_OUTPUT:-}" ]; then
		echo "result=$result" >>"$GITHUB_OUTPUT"
		echo "verdict=$(jq -r '.verdict // "error"' "$result" 2>/dev/null || echo error)" >>"$GITHUB_OUTPUT"
	fi
	exit "$status"
fi

if [ -n "$merge" ]; then
	mapfile -t results < <(find "$merge" -type f -name '*.json' | sort)
	if [ "${#results[@]}" -eq 0 ]; then
		echo "::error title=perfloop check::no shard results (*.json) under $merge: download the shards' artifacts there"
		exit 2
	fi
	perfloop check -merge -markdown "$md" "${results[@]}"
else
	perfloop check -markdown "$md" "${args[@]}" "$base" HEAD "${pkgs[@]}"
fi
status=$?

verdict=""
if [ -f "$md" ]; then
	verdict=$(sed -n "s/^###.*perfloop check: \([a-z]*\).*/\1/p" "$md" | head -n 1)
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
	echo "verdict=${verdict:-error}" >>"$GITHUB_OUTPUT"
fi
case "$verdict" in
fail) echo "::error title=perfloop check::a benchmark regressed, a budget broke or a side failed: see the job summary" ;;
inconclusive) echo "::notice title=perfloop check::some benchmarks were too noisy to rule out a regression: see the job summary" ;;
interrupted) echo "::warning title=perfloop check::the check was interrupted: the job summary holds what it decided before it stopped" ;;
esac

# The pull request comment: one per pull request, found by its marker and
# edited in place on every push.
if [ -n "$pr" ] && [ -f "$md" ] && [ "${INPUT_COMMENT:-true}" = true ]; then
	api="${GITHUB_API_URL:-https://api.github.com}/repos/$GITHUB_REPOSITORY"
	gh_api() { # METHOD URL [BODY-FILE]
		local args=(-sS --fail-with-body -X "$1" -H "Authorization: Bearer ${GITHUB_TOKEN:-}"
			-H "Accept: application/vnd.github+json" -H "X-GitHub-Api-Version: 2022-11-28")
		if [ $# -gt 2 ]; then
			args+=(-H "Content-Type: application/json" --data-binary "@$3")
		fi
		curl "${args[@]}" "$2"
	}
	id=""
	for page in 1 2 3 4 5 6 7 8 9 10; do
		if ! comments=$(gh_api GET "$api/issues/$pr/comments?per_page=100&page=$page"); then
			echo "::warning title=perfloop check::cannot list the pull request's comments: $comments"
			comments="[]"
			break
		fi
		id=$(jq -r --arg m "$marker" '[(. // [])[] | select(.body // "" | startswith($m))][0].id // empty' <<<"$comments")
		if [ -n "$id" ] || [ "$(jq '(. // []) | length' <<<"$comments")" -lt 100 ]; then
			break
		fi
	done
	jq -Rs '{body: .}' <"$md" >"$tmp/perfloop-comment.json"
	method=POST url="$api/issues/$pr/comments"
	if [ -n "$id" ]; then
		method=PATCH url="$api/issues/comments/$id"
	fi
	if ! out=$(gh_api "$method" "$url" "$tmp/perfloop-comment.json"); then
		echo "::warning title=perfloop check::cannot comment on pull request #$pr (a fork's token is read-only; the verdict is in the job summary): $out"
	fi
fi
exit "$status"
