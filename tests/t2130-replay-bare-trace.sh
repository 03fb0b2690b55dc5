#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t2130-replay-bare-trace.sh - replay of a trace imported without counters
# (issue 11's "a bare trace, as far as it goes"): the inputs are what the
# events bound (replay/trace-inference.c), marked inferred, with their
# ranges; an answer counts as decided by the trace alone only when it holds
# for every value those ranges allow; the deactivation questions are not
# asked. No root needed.
. "$(dirname "$0")/test-lib.sh"

# One memcg reclaimer, four episodes: at 1.0 s a pass at priority 10 that
# scans file only; at 2.0 s a pass at priority 10 that scans anon and file
# and ages the active file list; at 3.0 s a pass at priority 0 that scans
# both; at 4.0 s a file-only pass after the last anon batch. With
# ISOLATE=1 each batch is preceded by its mm_vmscan_lru_isolate record,
# which asked for 32 pages and scanned more (a large folio).
make_trace() {
	name=$1
	{
		for ep in "1 10 0" "2 10 1" "3 0 1" "4 10 0"; do
			set -- $ep
			echo "             cat-700   [000] .....     $1.000000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL"
			if [ "$3" = 1 ]; then
				[ "${ISOLATE:-0}" = 1 ] &&
				echo "             cat-700   [000] .....     $1.000050: mm_vmscan_lru_isolate: classzone=2 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_anon"
				echo "             cat-700   [000] .....     $1.000100: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=$2 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC"
			fi
			[ "${ISOLATE:-0}" = 1 ] &&
			echo "             cat-700   [000] .....     $1.000150: mm_vmscan_lru_isolate: classzone=2 order=0 nr_requested=32 nr_scanned=548 nr_skipped=0 nr_taken=548 lru=inactive_file"
			echo "             cat-700   [000] .....     $1.000200: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=548 nr_reclaimed=540 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=$2 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
			if [ "$1" = 2 ]; then
				[ "${ISOLATE:-0}" = 1 ] &&
				echo "             cat-700   [000] .....     $1.000250: mm_vmscan_lru_isolate: classzone=2 order=0 nr_requested=16 nr_scanned=16 nr_skipped=0 nr_taken=16 lru=active_file"
				echo "             cat-700   [000] .....     $1.000300: mm_vmscan_lru_shrink_active: nid=0 nr_taken=16 nr_active=4 nr_deactivated=12 nr_referenced=0 priority=$2 flags=RECLAIM_WB_FILE"
			fi
			echo "             cat-700   [000] .....     $1.000400: mm_vmscan_memcg_reclaim_end: nr_reclaimed=570"
		done
	} >"$name.txt"
	vmscope import -q "$name.txt" -o "$name.db"
}

test_expect_success SQLITE3 'a bare trace: the passes get the bounds the events give, inferred' '
	make_trace bare
	vmscope replay bare.db --results all >out.txt
	assert_eq "$(sql bare.db "SELECT COUNT(*) FROM counter_sample")" 0 "counter samples"
	assert_eq "$(sql bare.db "SELECT DISTINCT lru_scope FROM decision WHERE kind = \"pass\"")" trace
	assert_eq "$(sql bare.db "SELECT DISTINCT json_extract(provenance, \"$.lru\") || \",\" ||
		json_extract(provenance, \"$.swap_free\") FROM decision")" inferred,inferred
	# no isolate records: what a batch scanned << priority, down to what any
	# batch asked for (1 page, or what it scanned less 511: a large folio)
	# << priority; unbounded above (1 << 36)
	assert_eq "$(sql bare.db "SELECT ts / 1000000000, inactive_anon, inactive_file, active_file,
		json_extract(input_range, \"$.inactive_file\"), json_extract(input_range, \"$.inactive_anon\")
		FROM decision ORDER BY ts")" \
"1|0|561152|0|[37888,68719476736]|[0,68719476736]
2|32768|561152|16384|[37888,68719476736]|[1024,68719476736]
3|32|548|0|[37,68719476736]|[1,68719476736]
4|0|561152|0|[37888,68719476736]|[0,68719476736]"
	# swap: at least a page inside the span of anon reclaim (2 s to 3 s), open outside it
	assert_eq "$(sql bare.db "SELECT ts / 1000000000, swap_free, json_extract(input_range, \"$.swap_free\")
		FROM decision ORDER BY ts")" \
"1|1|[0,68719476736]
2|1|[1,68719476736]
3|1|[1,68719476736]
4|1|[0,68719476736]"
'

test_expect_success SQLITE3 'with isolate records: what each batch asked for, not what a large folio made it scan' '
	ISOLATE=1 make_trace iso
	vmscope replay iso.db --results all >/dev/null
	# get_scan_count() targets at most size >> priority; each batch takes its
	# nr_requested off the target: 32 << 10 for the file list, whatever was scanned
	assert_eq "$(sql iso.db "SELECT ts / 1000000000, inactive_anon, inactive_file, active_file,
		json_extract(input_range, \"$.inactive_file\") FROM decision ORDER BY ts")" \
"1|0|32768|0|[32768,68719476736]
2|32768|32768|16384|[32768,68719476736]
3|32|32|0|[32,68719476736]
4|0|32768|0|[32768,68719476736]"
'

test_expect_success SQLITE3 'only an answer that holds over the whole box is decided by the trace alone' '
	# the baseline at 3 s: priority 0 with swap and swappiness: SCAN_EQUAL,
	# whatever the refaults, sizes or watermarks: anon+file at every corner;
	# at 1 s and 4 s the inferred inputs moved to their other ends together
	# change the answer (no one of them alone does): inferred; at 2 s only
	# a combination with the unknown refaults does
	assert_eq "$(sql bare.db "SELECT d.ts / 1000000000, r.kernel, r.policy_answer, r.firmness
		FROM replay_result r JOIN decision d ON d.id = r.decision
		WHERE r.policy = \"v6.18\" AND r.question = \"scan_balance\" ORDER BY d.ts")" \
"1|file|file|inferred
2|anon+file|file|unknown
3|anon+file|anon+file|exact
4|file|file|inferred"
	# at 2 s the point value (no refaults, active 16384 < inactive 49152) is
	# cache_trim_mode: file only; with refaults it would be FRACT: not decided
	grep -A9 "^Decided by the trace alone" out.txt >trace.txt
	cat trace.txt
	grep -E "^scan_balance +4 +4 +75\.0 +1 +100\.0$" trace.txt
	grep -q "the answer is the same for every value those bounds allow" trace.txt
'

test_expect_success SQLITE3 'the deactivation questions are not asked on a bare trace' '
	assert_eq "$(sql bare.db "SELECT COUNT(*) FROM replay_result WHERE question LIKE \"deactivate%\"")" 0
'

test_expect_success SQLITE3 'a recording with counters is judged on them, not on the bounds' '
	cp bare.db counted.db
	sql counted.db "
		INSERT INTO counter_sample VALUES (1, 500000000, 500000100, \"vmstat\", \"\");
		INSERT INTO counter_value VALUES (1, \"nr_inactive_anon\", 50000), (1, \"nr_active_anon\", 1000),
			(1, \"nr_inactive_file\", 100000), (1, \"nr_active_file\", 1000)"
	vmscope replay counted.db --results all >counted.txt
	assert_eq "$(sql counted.db "SELECT COUNT(*) FROM decision WHERE lru_scope = \"trace\"")" 0
	assert_eq "$(sql counted.db "SELECT DISTINCT inactive_file FROM decision WHERE kind = \"pass\"")" 100000
	! grep -q "^Decided by the trace alone" counted.txt
'

test_expect_success SQLITE3 'with only the differing answers kept, the trace-alone table says it cannot count' '
	vmscope replay bare.db --results differences >diff.txt
	grep -A3 "^Decided by the trace alone" diff.txt | grep -q "not counted: replay_result holds only the differing answers"
'

test_done
