#!/bin/sh
# t2135-replay-writer.sh - the decision rows are stored by a second thread
# while the build walks on (replay/decision-writer.c, issue 18): the rows
# must not depend on how the two threads happen to run. On the thrash
# sample (20,709 rows: the writer's queue of 4,096 goes round five times)
# and on a recording of 300,000 events stitched from it by
# bench/replay-scale.sh (21,000 rows and more), replayed three times: the
# ids are 1 to the number of rows with none missing, every row is the same
# each time (a digest of every column), and every replay_result row points
# at a stored decision. And on one CPU (`taskset -c 0`: no second thread,
# each row stored as it is built) the rows are the same. The policies after
# the baseline are evaluated on a second thread too (evaluate-parallel.c):
# every answer row, in its order, and every count are the same as on one
# CPU, with every answer kept and with the differences only. No root.
. "$(dirname "$0")/test-lib.sh"

S="$SRC_DIR/samples/traces"

# rows DB: "COUNT MIN MAX" of decision.id
rows() {
	sql "$1" "SELECT COUNT(*), MIN(id), MAX(id) FROM decision" | tr '|' ' '
}

# digest DB: replay DB with every built-in policy and print the digest of its decision table
digest() {
	vmscope replay "$1" > /dev/null 2>&1 &&
	sql "$1" "SELECT * FROM decision ORDER BY id" | sha256sum | cut -c1-16
}

# same_thrice DB: three replays of DB store the same rows, numbered 1..n
same_thrice() {
	d1=$(digest "$1") && d2=$(digest "$1") && d3=$(digest "$1") &&
	assert_eq "$d2 $d3" "$d1 $d1" "the rows of three replays" &&
	set -- "$1" $(rows "$1") &&
	test "$2" -gt 4096 &&
	assert_eq "$3 $4" "1 $2" "ids 1 to $2" &&
	assert_eq "$(sql "$1" "SELECT COUNT(*) FROM replay_result
		WHERE decision NOT IN (SELECT id FROM decision)")" 0 "results without a decision"
}

test_expect_success SQLITE3 'thrash: three replays store the same rows, ids 1 to n' '
	xz -dc "$S/thrash.db.xz" > thrash.db &&
	same_thrice thrash.db
'

test_expect_success SQLITE3 'a 300,000-event recording: the same rows three times, ids 1 to n' '
	sh "$SRC_DIR/bench/replay-scale.sh" thrash.db 300000 big.db "$SRC_DIR/vmscope" &&
	same_thrice big.db
'

test_expect_success SQLITE3 'on one CPU (no writer thread): the same rows' '
	command -v taskset > /dev/null || { echo "taskset is not installed (util-linux)"; exit 1; }
	threaded=$(digest thrash.db) &&
	taskset -c 0 "$SRC_DIR/vmscope" replay thrash.db > /dev/null 2>&1 &&
	assert_eq "$(sql thrash.db "SELECT * FROM decision ORDER BY id" | sha256sum | cut -c1-16)" \
		"$threaded" "the rows on one CPU"
'

# answers DB: the digest of the answer rows in their order and of the counts
answers() {
	for t in replay_result replay_trivial replay_count replay_trivial_count \
		replay_class_count replay_vs_baseline replay_summary; do
		sql "$1" "SELECT * FROM $t ORDER BY rowid"
	done | sha256sum | cut -c1-16
}

test_expect_success SQLITE3 'the policies on two threads: the same answers in the same order as on one CPU' '
	command -v taskset > /dev/null || { echo "taskset is not installed (util-linux)"; exit 1; }
	for mode in all differences; do
		vmscope replay big.db --results $mode > two.txt 2> /dev/null &&
		two=$(answers big.db) &&
		test "$(sql big.db "SELECT COUNT(*) FROM replay_result")" -gt 10000 &&
		taskset -c 0 "$SRC_DIR/vmscope" replay big.db --results $mode > one.txt 2> /dev/null &&
		assert_eq "$(answers big.db)" "$two" "the answers with --results $mode" &&
		test_cmp one.txt two.txt || return 1
	done
'

test_done
