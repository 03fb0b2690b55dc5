#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3210-report-trim-retry.sh - the 'cache_trim retry' detector of `vmscope
# report DB kswapd-failures` (kswapd runs that restarted their priority loop
# after a sweep to priority 1 that reclaimed nothing: the 6.9+ retry with
# cache_trim_mode off), on the hand-made trace
# tests/fixtures/text/k6.18-trim-retry.txt (its header says what each run
# does, and so what is expected below) and on the bundled kswapd-fail
# recording, whose runs retried without swap. Rules:
# docs/report-kswapd-failures.md, section 3.4.

. "$(dirname "$0")/test-lib.sh"

FIXTURE="$TEST_DIRECTORY/fixtures/text/k6.18-trim-retry.txt"
KSWAPD_FAIL="$SRC_DIR/samples/traces/kswapd-fail.db.xz"
TRIM_RETRY="$SRC_DIR/samples/traces/trim-retry.db.xz"

# report_csv DB: the section as CSV, loaded into table t of rows.db
report_csv() {
	vmscope report "$1" kswapd-failures --format csv > out.csv &&
	rm -f rows.db &&
	sqlite3 rows.db ".import --csv out.csv t"
}
retry_rows() {
	sql rows.db "SELECT status, start, \"end\" FROM t WHERE detector = 'cache_trim retry'
		ORDER BY rowid"
}
evidence() {
	sql rows.db "SELECT evidence FROM t WHERE detector = 'cache_trim retry' ORDER BY rowid
		LIMIT 1 OFFSET $1"
}

test_expect_success SQLITE3 'the fixture imports completely, with its 6 kswapd runs' '
	vmscope import -q -o fx.db "$FIXTURE" &&
	assert_eq "$(sql fx.db "SELECT COUNT(*) FROM import_error")" 0 "import errors" &&
	assert_eq "$(sql fx.db "SELECT COUNT(*) FROM kswapd_run")" 6 "kswapd runs"
'

test_expect_success SQLITE3 'two retry rows: runs 1-2 (the retry reclaimed) and run 4 (it did not)' '
	report_csv fx.db &&
	# run 1 starts with its wake at T=0 (the run start), its first shrinker
	# call 100 us later; run 3 wakes at T=0.2, run 4 at T=0.3, run 5 at T=0.4
	cat > expect <<-EOF &&
	retry|0.000100|0.200000
	retry|0.300100|0.400000
	EOF
	retry_rows > actual &&
	test_cmp expect actual
'

test_expect_success SQLITE3 'evidence: sweeps, pages and the outcome of the reclaiming retries' '
	e=$(evidence 0) &&
	echo "$e" &&
	echo "$e" | grep -q "^2 kswapd runs (pid 90, runs 1-2) went to priority 1 reclaiming 0 pages" &&
	# 2 runs x 12 priorities x 1000 file pages, one shrinker call each
	echo "$e" | grep -q "first sweeps 24000 file and 0 anon pages scanned, 24 shrinker calls, file only (cache_trim_mode)" &&
	# 2 runs x priorities 12..9 x 500 anon pages, 32 reclaimed at 9 in each
	echo "$e" | grep -q "second sweeps from priority 12: 0 file and 4000 anon pages scanned, 64 reclaimed, lowest priority 9" &&
	echo "$e" | grep -q "the retry reclaimed: no kswapd failure counted"
'

test_expect_success SQLITE3 'evidence: a retry that scanned no anon and reclaimed nothing' '
	e=$(evidence 1) &&
	echo "$e" &&
	echo "$e" | grep -q "^1 kswapd run (pid 90, run 4)" &&
	echo "$e" | grep -q "second sweep from priority 12: 0 file and 0 anon pages scanned, 0 reclaimed, lowest priority 1" &&
	echo "$e" | grep -q "reclaimed nothing either: each run counted a kswapd failure (no anon scanned"
'

test_expect_success SQLITE3 'a restart before priority 1 (boost) and a sweep that reclaimed are not retries' '
	# runs 3, 5 and 6 are in no row, and the note counts 3 of 6
	sql rows.db "SELECT evidence FROM t WHERE detector = '"'"'cache_trim retry'"'"'" > ev.txt &&
	! grep -q "run 3\|run 5\|run 6\|runs [0-9]*-[3-6])" ev.txt &&
	vmscope report fx.db kswapd-failures > out.txt &&
	grep -q "cache_trim retry: 3 of 6 kswapd runs restarted their priority loop.*; 2 of them reclaimed in the retry" out.txt
'

test_expect_success SQLITE3 'without shrinker events a note says what cannot be seen' '
	grep -v mm_shrink_slab_start "$FIXTURE" > noslab.txt &&
	vmscope import -q -o noslab.db noslab.txt &&
	vmscope report noslab.db kswapd-failures > out.txt &&
	grep -q "cache_trim retry: no mm_shrink_slab_start events" out.txt &&
	# run 4 retried with slab calls only: now it shows as one sweep
	grep -q "cache_trim retry: 2 of 6 kswapd runs" out.txt
'

test_expect_success SQLITE3 'the kswapd-fail recording: 16 runs retried without swap and failed' '
	xz -dc "$KSWAPD_FAIL" > kf.db &&
	report_csv kf.db &&
	assert_eq "$(retry_rows | wc -l)" 1 "retry rows" &&
	e=$(evidence 0) &&
	echo "$e" &&
	echo "$e" | grep -q "^16 kswapd runs (pid [0-9]*, runs 10-25)" &&
	echo "$e" | grep -q "0 anon pages scanned, 0 reclaimed" &&
	echo "$e" | grep -q "reclaimed nothing either" &&
	# the same 16 runs make the zero-reclaim episode
	assert_eq "$(sql rows.db "SELECT COUNT(*) FROM t WHERE detector = '"'"'zero-reclaim runs'"'"' AND status = '"'"'episode'"'"'")" 1 "episodes"
'

test_expect_success SQLITE3 'the trim-retry recording (a quiet machine): run 4 retried, and the retry reclaimed' '
	xz -dc "$TRIM_RETRY" > tr.db &&
	report_csv tr.db &&
	assert_eq "$(retry_rows | wc -l)" 1 "retry rows" &&
	e=$(evidence 0) &&
	echo "$e" &&
	echo "$e" | grep -q "^1 kswapd run (pid [0-9]*, run 4) went to priority 1 reclaiming 0 pages" &&
	echo "$e" | grep -q "first sweep 15720960 file and 0 anon pages scanned" &&
	echo "$e" | grep -q "8889856 file and 819042 anon pages scanned, 393706 reclaimed" &&
	echo "$e" | grep -q "the retry reclaimed: no kswapd failure counted" &&
	# replay: 6.8 would have counted the failure the retry avoided
	vmscope replay tr.db -p v6.8-cache-trim --format csv > replay.csv &&
	assert_eq "$(sql tr.db "SELECT COUNT(*) FROM replay_result WHERE policy = '"'"'v6.8-cache-trim'"'"' AND question = '"'"'kswapd_retry'"'"' AND policy_answer = '"'"'failure counted'"'"' AND agrees = 0")" 1 "6.8 counts the failure"
'

test_done
