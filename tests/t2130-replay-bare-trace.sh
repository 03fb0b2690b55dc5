#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t2130-replay-bare-trace.sh - replay of a trace imported without counters
# (issue 11's "a bare trace, as far as it goes"): the inputs are what the
# events bound (replay/trace-inference.c), marked inferred, with their
# ranges; an answer counts as decided by the trace alone only when it holds
# for every value those ranges allow; the deactivation questions are not
# asked. No root needed.
. "$(dirname "$0")/test-lib.sh"

# One memcg reclaimer, three episodes: at 1.0 s a pass at priority 10 that
# scans file only; at 2.0 s a pass at priority 10 that scans anon and file
# and ages the active file list; at 3.0 s a pass at priority 0 that scans
# both; at 4.0 s a file-only pass after the last anon batch.
make_trace() {
	{
		for ep in "1 10 0" "2 10 1" "3 0 1" "4 10 0"; do
			set -- $ep
			cat <<TRACE
             cat-700   [000] .....     $1.000000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
TRACE
			if [ "$3" = 1 ]; then
				cat <<TRACE
             cat-700   [000] .....     $1.000100: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=$2 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC
TRACE
			fi
			cat <<TRACE
             cat-700   [000] .....     $1.000200: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=48 nr_reclaimed=40 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=$2 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
TRACE
			[ "$1" = 2 ] && cat <<TRACE
             cat-700   [000] .....     $1.000300: mm_vmscan_lru_shrink_active: nid=0 nr_taken=16 nr_active=4 nr_deactivated=12 nr_referenced=0 priority=$2 flags=RECLAIM_WB_FILE
TRACE
			cat <<TRACE
             cat-700   [000] .....     $1.000400: mm_vmscan_memcg_reclaim_end: nr_reclaimed=70
TRACE
		done
	} >bare.txt
	vmscope import -q bare.txt -o bare.db
}

test_expect_success SQLITE3 'a bare trace: the passes get the bounds the events give, inferred' '
	make_trace
	vmscope replay bare.db --results all >out.txt
	assert_eq "$(sql bare.db "SELECT COUNT(*) FROM counter_sample")" 0 "counter samples"
	assert_eq "$(sql bare.db "SELECT DISTINCT lru_scope FROM decision WHERE kind = \"pass\"")" trace
	assert_eq "$(sql bare.db "SELECT DISTINCT json_extract(provenance, \"$.lru\") || \",\" ||
		json_extract(provenance, \"$.swap_free\") FROM decision")" inferred,inferred
	# lists: what the pass scanned << priority, unbounded above (1 << 36)
	assert_eq "$(sql bare.db "SELECT ts / 1000000000, inactive_anon, inactive_file, active_file,
		json_extract(input_range, \"$.inactive_file\") FROM decision ORDER BY ts")" \
"1|0|49152|0|[49152,68719476736]
2|32768|49152|16384|[49152,68719476736]
3|32|48|0|[48,68719476736]
4|0|49152|0|[49152,68719476736]"
	# swap: at least a page inside the span of anon reclaim (2 s to 3 s), open outside it
	assert_eq "$(sql bare.db "SELECT ts / 1000000000, swap_free, json_extract(input_range, \"$.swap_free\")
		FROM decision ORDER BY ts")" \
"1|1|[0,68719476736]
2|1|[1,68719476736]
3|1|[1,68719476736]
4|1|[0,68719476736]"
'

test_expect_success SQLITE3 'only an answer that holds over the whole box is decided by the trace alone' '
	# the baseline at 3 s: priority 0 with swap and swappiness: SCAN_EQUAL,
	# whatever the refaults, sizes or watermarks: anon+file at every corner
	assert_eq "$(sql bare.db "SELECT d.ts / 1000000000, r.kernel, r.policy_answer, r.firmness
		FROM replay_result r JOIN decision d ON d.id = r.decision
		WHERE r.policy = \"v6.18\" AND r.question = \"scan_balance\" ORDER BY d.ts")" \
"1|file|file|unknown
2|anon+file|file|unknown
3|anon+file|anon+file|exact
4|file|file|unknown"
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
