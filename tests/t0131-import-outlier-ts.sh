#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0131-import-outlier-ts.sh - one timestamp far from the rest is a bad
# record, not a denial of service (issue 16). The derived per-bucket counts
# once had an array per event sized by the run's span, so a line 26 days
# after the rest cost 540 MB and one 3 years after 22 GB. Now a line whose
# timestamp jumps more than a day from the events around it is an
# import_error row (the good events are kept, the run is incomplete), a
# jump that the next event confirms is a real pause and is kept, and the
# buckets take memory per populated bucket only (lib/derive.c).

. "$(dirname "$0")/test-lib.sh"

FIX="$SRC_DIR/tests/fixtures/text/k6.18-trace.txt"	# 16 events at 51234.1 s

# at SECS: an event line at SECS.128942 s.
at() {
	echo "             cat-6656  [001] .....  $1.128942: mm_vmscan_memcg_reclaim_end: nr_reclaimed=975"
}

# bounded TRACE DB: import under /usr/bin/time into DB, limited to 1 GB of
# address space (not under AddressSanitizer, which maps terabytes of
# shadow); its peak RSS (KB) in rss, its exit status in rc.
bounded() {
	rm -f "$2" &&
	rc=0 &&
	(nm "$VMSCOPE" 2>/dev/null | grep -q __asan_init || ulimit -v 1000000
	 exec /usr/bin/time -f "%M" -o rss.out "$VMSCOPE" import -q "$1" -o "$2") 2>err || rc=$?
	rss=$(tail -1 rss.out)
}

test_expect_success SQLITE3 'a line 26 days after the rest: an import_error row, the rest kept, bounded' '
	{ cat "$FIX" && at $((26 * 86400)); } >late.txt &&
	bounded late.txt late.db &&
	assert_eq "$rc" 1 "exit status" &&
	# was 540 MB: a few MB now (ASan builds use more)
	test "$rss" -lt 200000 &&
	assert_eq "$(sql late.db "SELECT status, events FROM run")" "incomplete|16" &&
	assert_eq "$(sql late.db "SELECT line FROM import_error")" 29 &&
	sql late.db "SELECT reason FROM import_error" | grep -q "timestamp jumps 2195165 s" &&
	grep -q "late.txt:29: its timestamp jumps" err &&
	# the run ends at the last event of the fixture, 51234.700000
	assert_eq "$(sql late.db "SELECT end_ts FROM run")" 51234700000000
'

test_expect_success SQLITE3 'an outlier in the middle of the trace, and one 3 years ahead' '
	{ grep "^#" "$FIX" && grep -v "^#" "$FIX" | head -3 && at $((3 * 365 * 86400)) &&
	  grep -v "^#" "$FIX" | tail -n +4; } >mid.txt &&
	bounded mid.txt mid.db &&
	assert_eq "$rc" 1 "exit status" &&
	test "$rss" -lt 200000 &&
	assert_eq "$(sql mid.db "SELECT status, events FROM run")" "incomplete|16" &&
	assert_eq "$(sql mid.db "SELECT line FROM import_error")" 16
'

test_expect_success SQLITE3 'a pause the next event confirms is kept, its buckets bounded by the events' '
	{ cat "$FIX" && at $((26 * 86400)) && at $((26 * 86400 + 1)); } >pause.txt &&
	bounded pause.txt pause.db &&
	assert_eq "$rc" 0 "exit status" &&
	test "$rss" -lt 200000 &&
	assert_eq "$(sql pause.db "SELECT status, events FROM run")" "complete|18" &&
	assert_eq "$(sql pause.db "SELECT COUNT(*) FROM import_error")" 0 &&
	# 2.2 million one-second buckets in the span; rows only for the 3 populated
	assert_eq "$(sql pause.db "SELECT COUNT(DISTINCT bucket) FROM event_bucket")" 3 &&
	assert_eq "$(sql pause.db "SELECT bucket, n FROM event_bucket WHERE tbl = '"'mm_vmscan_memcg_reclaim_end'"'" | tr "\n" " ")" \
		"2195166|1 2195167|1 "
'

test_done
