# SPDX-License-Identifier: GPL-2.0
# test-lib.sh - sourced by every tests/tNNNN-*.sh script. Gives TAP output,
# test_expect_success, prerequisites (ROOT, TRACEFS, MEMCG, TRACE_CMD,
# SQLITE3), a scratch directory, and cleanup on every exit path.
#
#   . "$(dirname "$0")/test-lib.sh"
#   test_expect_success 'what it checks' '
#           commands...
#   '
#   test_done
#
# Numbering: 0xxx core and schema, 1xxx record/import, 2xxx replay,
# 3xxx analyze, 4xxx plots.

set -u
TEST_NAME=$(basename "$0" .sh)
TEST_DIRECTORY=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$TEST_DIRECTORY/.." && pwd)
VMSCOPE="$SRC_DIR/vmscope"
if [ -n "${VMSCOPE_VALGRIND:-}" ]; then
	VMSCOPE="valgrind -q --error-exitcode=99 --leak-check=full $VMSCOPE"
fi
export VMSCOPE
TRASH="$SRC_DIR/tests/trash/$TEST_NAME"
rm -rf "$TRASH"
mkdir -p "$TRASH"
cd "$TRASH" || exit 1

test_count=0
test_failed=0
test_skipped=0
# Cleanups go to a file, not a variable: test bodies run in subshells.
_CLEANUP_FILE="$TRASH/.cleanups"
: > "$_CLEANUP_FILE"

# In the background use $VMSCOPE, not this function, so that $! is vmscope itself.
vmscope() {
	$VMSCOPE "$@"
}

# test_cleanup CMD: run CMD when the script exits (last registered runs first).
# Works from inside test bodies. Expand variables when registering:
#   test_cleanup "kill $pid"
test_cleanup() {
	printf '%s\n' "$1" >> "$_CLEANUP_FILE"
}

_run_cleanups() {
	[ -s "$_CLEANUP_FILE" ] || return 0
	# newest first
	sed -n '1!G;h;$p' "$_CLEANUP_FILE" > "$_CLEANUP_FILE.rev"
	: > "$_CLEANUP_FILE"
	while IFS= read -r c; do
		(eval "$c") >/dev/null 2>&1 || true
	done < "$_CLEANUP_FILE.rev"
	rm -f "$_CLEANUP_FILE.rev"
}
# remove_instance: remove the tracefs instance $INSTANCE once its tracer is
# gone (trace-cmd record -B leaves it behind); retried for 5 s.
remove_instance() {
	[ -d "$INSTANCE" ] || return 0
	_i=0
	until rmdir "$INSTANCE" 2>/dev/null; do
		[ $_i -lt 50 ] || { echo "cannot remove $INSTANCE"; return 1; }
		sleep 0.1
		_i=$((_i + 1))
	done
}

# remove_memcg: move any task left in the memcg $CG to its parent, then remove it.
remove_memcg() {
	[ -d "$CG" ] || return 0
	_i=0
	while [ $_i -lt 50 ]; do
		while read -r _p; do
			echo "$_p" >"$(dirname "$CG")/cgroup.procs"
		done <"$CG/cgroup.procs"
		rmdir "$CG" 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "cannot remove $CG"
	return 1
}

trap '_run_cleanups' EXIT
trap '_run_cleanups; exit 130' INT TERM

_prereq_ok() {
	case "$1" in
	ROOT) [ "$(id -u)" = 0 ] ;;
	TRACEFS)
		[ -d /sys/kernel/tracing/events ] ||
			{ [ "$(id -u)" = 0 ] && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
				[ -d /sys/kernel/tracing/events ]; } ;;
	MEMCG) [ -d /sys/fs/cgroup/memory ] && [ -w /sys/fs/cgroup/memory ] ||
		[ -f /sys/fs/cgroup/cgroup.controllers ] ;;
	TRACE_CMD) command -v trace-cmd >/dev/null 2>&1 ;;
	SQLITE3) command -v sqlite3 >/dev/null 2>&1 ;;
	GNUPLOT) command -v gnuplot >/dev/null 2>&1 ;;
	*) echo "# unknown prerequisite $1" >&2; return 1 ;;
	esac
}

# test_expect_success [PREREQS] 'title' 'body'
test_expect_success() {
	local prereq="" title body p
	if [ $# = 3 ]; then prereq=$1; shift; fi
	title=$1
	body=$2
	test_count=$((test_count + 1))
	# VMSCOPE_TEST_ONLY=PATTERN runs only the tests whose title matches the
	# shell pattern (make mutate uses it for the non-live tests of live scripts)
	if [ -n "${VMSCOPE_TEST_ONLY:-}" ]; then
		# shellcheck disable=SC2254
		case "$title" in
		$VMSCOPE_TEST_ONLY) ;;
		*) test_skipped=$((test_skipped + 1))
		   echo "ok $test_count # skip $title (not in VMSCOPE_TEST_ONLY)"
		   return 0 ;;
		esac
	fi
	for p in $(echo "$prereq" | tr ',' ' '); do
		if ! _prereq_ok "$p"; then
			test_skipped=$((test_skipped + 1))
			echo "ok $test_count # skip $title (missing $p)"
			return 0
		fi
	done
	# Not inside `if`: the shell ignores set -e in a condition, and then a
	# body of newline-separated commands would only check its last one.
	# (nor in an && / || list)
	(set -ex; eval "$body") >"$TRASH/.out" 2>&1
	_rc=$?
	if [ $_rc = 0 ]; then
		echo "ok $test_count - $title"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $title"
		sed 's/^/#   /' "$TRASH/.out" | tail -40
	fi
}

# Helpers for bodies.
test_cmp() { diff -u "$1" "$2"; }
# sql DB QUERY: print the query's result.
sql() { sqlite3 -batch "$1" "$2"; }
# test_must_fail CMD...: CMD must exit 1 (not crash, not succeed).
test_must_fail() {
	local rc=0
	"$@" || rc=$?
	if [ $rc = 0 ]; then echo "expected failure, got success: $*"; return 1; fi
	if [ $rc -gt 2 ]; then echo "expected exit 1, got $rc: $*"; return 1; fi
	return 0
}
# no_match PATTERN FILE: fail when FILE has a line matching PATTERN. Use it
# instead of "! grep": set -e does not stop on a negated command.
no_match() {
	if grep -q -- "$1" "$2"; then
		echo "unexpected '$1' in $2:"
		grep -- "$1" "$2" | head -5
		return 1
	fi
}
# replay_balanced DB Q: "BASELINE BEST_TRIVIAL PREDICTOR", the balanced agreement (%) on the
# decisive decisions of Q (the mean over the kernel's answers of the share answered
# right: replay_class_count), "- - -" without decisive decisions
replay_balanced() {
	r=$(sql "$1" "WITH b AS (SELECT predictor, rank, AVG(100.0 * agreed / decisions) AS v
		FROM replay_class_count WHERE question = '$2' AND decisions > 0 GROUP BY predictor, rank)
		SELECT printf('%.1f', (SELECT v FROM b WHERE rank < 0)) || ' ' ||
		(SELECT printf('%.1f', v) || ' ' || replace(predictor, ' ', '_') FROM b WHERE rank >= 0
		ORDER BY v DESC, rank LIMIT 1)" 2>/dev/null)
	echo "${r:--  - -}"
}
# quiet_window DB: "START END", the span of DB's run less 1 ms at each edge,
# each edge moved to the middle of the widest gap between DB's events in the
# 1 ms inside it. Two tracing instances stamp the same event a few
# microseconds apart (each when it writes it to its own buffer), so an
# event that close to an edge can fall inside the window in one recording
# and outside it in the other (a CI run: 740 against 739 events, the one
# 159 ns inside the edge); in the middle of a gap both count the same.
quiet_window() {
	_qw_union=$(sql "$1" "SELECT DISTINCT tbl FROM event_table" |
		awk '{ printf "%sSELECT ts FROM \"%s\" WHERE ts BETWEEN @A AND @B", (NR > 1 ? " UNION ALL " : ""), $0 }')
	_qw_run=$(sql "$1" "SELECT start_ts + 1000000, end_ts - 1000000 FROM run") || return 1
	_qw_lo=${_qw_run%%|*} _qw_hi=${_qw_run##*|}
	for _qw_edge in "$_qw_lo $((_qw_lo + 1000000))" "$((_qw_hi - 1000000)) $_qw_hi"; do
		set -- "$1" ${_qw_edge}
		_qw_q=$(echo "$_qw_union" | sed "s/@A/$2/g; s/@B/$3/g")
		sql "$1" "WITH t(ts) AS (${_qw_q:+$_qw_q UNION ALL }SELECT $2 UNION ALL SELECT $3),
			g AS (SELECT ts, ts - LAG(ts) OVER (ORDER BY ts) AS gap FROM t)
			SELECT ts - gap / 2 FROM g WHERE gap IS NOT NULL ORDER BY gap DESC, ts LIMIT 1" || return 1
	done | tr '\n' ' ' | sed 's/ $//'
}
# assert_eq GOT WANT [WHAT]
assert_eq() {
	if [ "$1" != "$2" ]; then echo "${3:-value}: got '$1', want '$2'"; return 1; fi
}

test_done() {
	_run_cleanups
	echo "1..$test_count"
	echo "# $TEST_NAME: $((test_count - test_failed - test_skipped)) passed, $test_failed failed, $test_skipped skipped"
	[ $test_failed = 0 ]
}
