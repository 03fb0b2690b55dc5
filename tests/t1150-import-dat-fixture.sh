#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1150-import-dat-fixture.sh - `vmscope import` of a small committed
# trace-cmd .dat (tests/fixtures/dat/small.dat, made by make-small.sh there:
# 428 vmscan events of two cat processes pinned to CPU 0 and CPU 1) against
# values read off `trace-cmd report -t` of the same file by hand and written
# here, so .dat decoding is checked without root or a live kernel. Where
# trace-cmd is installed, its decode is compared field by field as well.
. "$(dirname "$0")/test-lib.sh"

DAT="$SRC_DIR/tests/fixtures/dat/small.dat"

test_expect_success 'the run: a complete trace-cmd .dat of 2 CPUs, its clock, span and events' '
	vmscope import -q "$DAT" -o s.db &&
	assert_eq "$(sql s.db "SELECT status, source_kind, cpus, page_size, trace_clock, events FROM run")" \
		"complete|trace-cmd-dat|2|4096|mono|428" &&
	# first event 1738.563565706 (memcg_reclaim_begin, CPU 0), last 1738.600324344 (CPU 1)
	assert_eq "$(sql s.db "SELECT start_ts, end_ts FROM run")" "1738563565706|1738600324344" &&
	assert_eq "$(sql s.db "SELECT COUNT(*) FROM import_error")" 0 &&
	assert_eq "$(sql s.db "SELECT COUNT(*) FROM lost_events")" 0
'

test_expect_success 'events per type and CPU: each cat on its own CPU' '
	for t in mm_vmscan_lru_shrink_inactive mm_vmscan_lru_isolate mm_shrink_slab_start \
		 mm_shrink_slab_end mm_vmscan_memcg_reclaim_begin mm_vmscan_memcg_reclaim_end; do
		sql s.db "SELECT \"$t\", cpu, pid, COUNT(*) FROM \"$t\" GROUP BY cpu, pid" || exit 1
	done > got &&
	cat > want <<-\EOF &&
	mm_vmscan_lru_shrink_inactive|0|15102|29
	mm_vmscan_lru_shrink_inactive|1|15105|35
	mm_vmscan_lru_isolate|0|15102|29
	mm_vmscan_lru_isolate|1|15105|35
	mm_shrink_slab_start|0|15102|67
	mm_shrink_slab_start|1|15105|73
	mm_shrink_slab_end|0|15102|67
	mm_shrink_slab_end|1|15105|73
	mm_vmscan_memcg_reclaim_begin|0|15102|5
	mm_vmscan_memcg_reclaim_begin|1|15105|5
	mm_vmscan_memcg_reclaim_end|0|15102|5
	mm_vmscan_memcg_reclaim_end|1|15105|5
	EOF
	test_cmp want got &&
	assert_eq "$(sql s.db "SELECT pid, comm FROM task ORDER BY pid")" "15102|cat
15105|cat"
'

test_expect_success 'field values: sums per CPU, flags, vocabulary, shrinker names' '
	# nr_scanned, nr_reclaimed and priority summed per CPU; flags
	# RECLAIM_WB_FILE|RECLAIM_WB_ASYNC = 0x2|0x8 = 10 throughout
	assert_eq "$(sql s.db "SELECT cpu, SUM(nr_scanned), SUM(nr_reclaimed), SUM(priority),
		MIN(reclaim_flags), MAX(reclaim_flags) FROM mm_vmscan_lru_shrink_inactive GROUP BY cpu")" \
		"0|416|416|220|10|10
1|564|564|250|10|10" &&
	assert_eq "$(sql s.db "SELECT cpu, SUM(nr_reclaimed) FROM mm_vmscan_memcg_reclaim_end GROUP BY cpu")" \
		"0|416
1|564" &&
	# the first isolation: classzone=4 order=0 nr_requested=1 nr_scanned=1
	# nr_skipped=0 nr_taken=1 lru=inactive_file (2 in the lru vocabulary)
	assert_eq "$(sql s.db "SELECT ts, highest_zoneidx, \"order\", nr_requested, nr_scanned, nr_skipped,
		nr_taken, lru FROM mm_vmscan_lru_isolate ORDER BY ts LIMIT 1")" "1738563588458|4|0|1|1|0|1|2" &&
	assert_eq "$(sql s.db "SELECT value FROM vocab WHERE domain = \"lru\" AND name = \"inactive_file\"")" 2 &&
	# 77 super_cache_scan calls (656 cache items), 63 scan_shadow_nodes (243)
	assert_eq "$(sql s.db "SELECT shrink, COUNT(*), SUM(cache_items) FROM mm_shrink_slab_start
		GROUP BY shrink ORDER BY shrink")" "scan_shadow_nodes+0x0|63|243
super_cache_scan+0x0|77|656" &&
	assert_eq "$(sql s.db "SELECT DISTINCT gfp_flags FROM mm_vmscan_memcg_reclaim_begin")" \
		"GFP_NOFS|__GFP_HIGHMEM|__GFP_MOVABLE|__GFP_NOWARN|__GFP_NORETRY|__GFP_HARDWALL"
'

test_expect_success 'report: the events reach the summary and vmstat sections' '
	vmscope report s.db summary --format csv > sum.csv &&
	# 140 shrinker calls over the 36.758638 ms span: 3808.6/s
	grep -x "mm_shrink_slab_start,140,3808.6" sum.csv &&
	vmscope report s.db vmstat --format csv > vm.csv &&
	# 416 + 564 pages scanned by "other tasks" (the two cat, memcg reclaim)
	grep -x "Trace: other tasks pages scanned,980,sum of nr_scanned" vm.csv
'

test_expect_success TRACE_CMD 'trace-cmd report decodes every event to the same fields' '
	trace-cmd report -t "$DAT" 2>/dev/null | grep "mm_vmscan_lru_shrink_inactive:" |
		sed "s/.*\[\(00[01]\)\] *\([0-9]*\)\.\([0-9]*\):.*nr_scanned=\([0-9]*\) nr_reclaimed=\([0-9]*\).*priority=\([0-9]*\).*/\1|\2\3|\4|\5|\6/" |
		sed "s/^00*\([0-9]\)|/\1|/" > want &&
	sql s.db "SELECT cpu, ts, nr_scanned, nr_reclaimed, priority FROM mm_vmscan_lru_shrink_inactive
		ORDER BY ts" > got &&
	test "$(wc -l < want)" = 64 &&
	test_cmp want got
'

test_done
