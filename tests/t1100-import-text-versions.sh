#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1100-import-text-versions.sh - text traces from each kernel generation and
# from trace-cmd report land in the right columns. Fixtures in
# tests/fixtures/text/ are written in each kernel's print formats:
#   k4.14-trace.txt    tracefs, pid %-5d, 4 latency flags, nr_activate=,
#                      writepage decimal pfn, shrink_slab pgs_scanned/lru_pgs
#   k5.4-trace.txt     tracefs + record-tgid "(%5d)", nr_activate_anon/_file,
#                      zid no longer printed, LOST line, unstable=
#   k5.15-report.txt   trace-cmd report, hex pfn in writepage, DROPPED line
#   k6.6-report-l.txt  trace-cmd report -l -t: no brackets, ns timestamps
#   k6.18-trace.txt    tracefs + record-tgid "(%7d)", 5 flags, write_folio,
#                      throttled (usect_delayed), shrink_slab priority
#   k6.18-counter.txt  trace_clock=counter: bare integer timestamps
# Expected values below come from those formats (and the schema's vocab),
# not from the importer's output.

. "$(dirname "$0")/test-lib.sh"

FIX="$SRC_DIR/tests/fixtures/text"

# import_ok FIXTURE DB: import must exit 0 and `vmscope info` must run on the result.
# (set -e does not apply inside a function called from an && list: return explicitly)
import_ok() {
	rc=0
	vmscope import "$FIX/$1" -o "$2" 2>import.err || rc=$?
	cat import.err
	assert_eq "$rc" 0 "exit code of 'vmscope import $1'" || return 1
	rc=0
	vmscope info "$2" >info.out || rc=$?
	assert_eq "$rc" 0 "exit code of 'vmscope info $2'" || return 1
	grep -q "^status: *complete" info.out
}

# q DB QUERY WANT [WHAT]
q() {
	assert_eq "$(sql "$1" "$2")" "$3" "${4:-$2}"
}

# --- 4.14 ---------------------------------------------------------------

test_expect_success SQLITE3 '4.14 trace: imports, info runs' '
	import_ok k4.14-trace.txt k414.db &&
	grep -q "^events: *12$" info.out &&
	q k414.db "SELECT source_kind, ts_resolution_ns, events FROM run" "tracefs-text|1000|12" &&
	q k414.db "SELECT count(*) FROM import_error" 0
'

test_expect_success SQLITE3 '4.14: µs timestamps become ns, kswapd_wake still prints zid' '
	q k414.db "SELECT ts, cpu, pid, nid, zid, \"order\" FROM mm_vmscan_kswapd_wake" \
		"4123456789000|1|52|0|2|0"
'

test_expect_success SQLITE3 '4.14: one nr_activate, not nr_activate0/1; flags decoded to 2|8' '
	q k414.db "SELECT nr_activate, nr_activate0 IS NULL, nr_activate1 IS NULL, reclaim_flags, priority
		   FROM mm_vmscan_lru_shrink_inactive" "2|1|1|10|12"
'

test_expect_success SQLITE3 '4.14: lru_isolate isolate_mode, classzone= into highest_zoneidx, lru name to 2' '
	q k414.db "SELECT isolate_mode, highest_zoneidx, lru, nr_taken FROM mm_vmscan_lru_isolate" \
		"0|3|2|32"
'

test_expect_success SQLITE3 '4.14: writepage decimal pfn, into the write_folio table' '
	q k414.db "SELECT event, pfn, reclaim_flags, json_extract(extra, '\''$.page'\'')
		   FROM mm_vmscan_write_folio" "mm_vmscan_writepage|1715004|10|ffffea00068acf00"
'

test_expect_success SQLITE3 '4.14: shrink_slab_start with pgs_scanned/lru_pgs, no priority' '
	q k414.db "SELECT shrink, shr, nid, nr_objects_to_shrink, gfp_flags, pgs_scanned, lru_pgs,
		   cache_items, delta, total_scan, priority IS NULL FROM mm_shrink_slab_start" \
		"super_cache_scan+0x0/0x1b0|ffff88013a6e0c30|0|1024|GFP_NOFS|__GFP_NOWARN|32|102400|8192|5|1029|1"
'

test_expect_success SQLITE3 '4.14: shrink_slab_end phrases into unused_scan/new_scan/retval' '
	q k414.db "SELECT shrink, shr, unused_scan, new_scan, total_scan, retval FROM mm_shrink_slab_end" \
		"super_cache_scan+0x0/0x1b0|ffff88013a6e0c30|1024|901|128|0"
'

test_expect_success SQLITE3 '4.14: direct_reclaim_begin may_writepage and classzone_idx; <...> comm' '
	q k414.db "SELECT \"order\", gfp_flags, may_writepage, classzone_idx, pid
		   FROM mm_vmscan_direct_reclaim_begin" "2|GFP_KERNEL|__GFP_COMP|1|2|4711" &&
	q k414.db "SELECT comm, events FROM task WHERE pid = 4711" "<...>|2"
'

test_expect_success SQLITE3 '4.14: inactive_list_is_low flags masked to the LRU bit' '
	q k414.db "SELECT nid, reclaim_idx, inactive, active, ratio, reclaim_flags
		   FROM mm_vmscan_inactive_list_is_low" "0|3|110000|350000|3|2"
'

test_expect_success SQLITE3 '4.14: writeback_start bdi name and sb_dev 8:0 as MKDEV(8,0)' '
	q k414.db "SELECT event, name, sb_dev, nr_pages, reason, for_kupdate, for_background
		   FROM writeback_work" "writeback_start|8:0|8388608|4096|vmscan|0|0"
'

test_expect_success SQLITE3 '4.14: global_dirty_state with unstable=' '
	q k414.db "SELECT nr_dirty, nr_writeback, nr_unstable, background_thresh, dirty_thresh,
		   dirty_limit, nr_dirtied, nr_written FROM global_dirty_state" \
		"1345|7|3|195840|391680|391680|2310421|2309076"
'

test_expect_success SQLITE3 '4.14: an unknown event gets a table made from its fields, typed by its values' '
	q k414.db "SELECT nid, \"order\", classzone_idx, extra IS NULL FROM mm_compaction_kcompactd_wake" \
		"0|9|Normal|1" &&
	q k414.db "SELECT group_concat(name || \":\" || type, \" \") FROM pragma_table_info(\"mm_compaction_kcompactd_wake\")
		WHERE cid >= 4" "nid:INTEGER order:INTEGER classzone_idx:TEXT extra:TEXT" &&
	q k414.db "SELECT tbl, system, fields, source FROM generated_table" \
		"mm_compaction_kcompactd_wake||3|text fields" &&
	q k414.db "SELECT COUNT(*) FROM event_generic" 0
'

test_expect_success SQLITE3 '4.14: entries-written minus entries-in-buffer is a loss' '
	q k414.db "SELECT cpu IS NULL, count, source FROM lost_events" "1|6|text"
'

# --- 5.4 ----------------------------------------------------------------

test_expect_success SQLITE3 '5.4 trace with tgid column: imports, info runs' '
	import_ok k5.4-trace.txt k54.db &&
	grep -q "^events: *10$" info.out &&
	q k54.db "SELECT count(*) FROM import_error" 0
'

test_expect_success SQLITE3 '5.4: nr_activate_anon/_file into nr_activate0/1, ANON|ASYNC = 9' '
	q k54.db "SELECT nr_activate IS NULL, nr_activate0, nr_activate1, nr_ref_keep, nr_unmap_fail,
		   priority, reclaim_flags FROM mm_vmscan_lru_shrink_inactive" "1|3|5|6|1|9|9"
'

test_expect_success SQLITE3 '5.4: kswapd_wake has no zid in text (NULL)' '
	q k54.db "SELECT nid, zid IS NULL, \"order\" FROM mm_vmscan_kswapd_wake" "0|1|3"
'

test_expect_success SQLITE3 '5.4: wakeup_kswapd gfp_flags=none, comm with a space' '
	q k54.db "SELECT gfp_flags, \"order\", pid FROM mm_vmscan_wakeup_kswapd" "none|0|4242" &&
	q k54.db "SELECT comm FROM task WHERE pid = 4242" "Web Content"
'

test_expect_success SQLITE3 '5.4: lru_isolate lru=active_anon is 1, decimal pfn' '
	q k54.db "SELECT isolate_mode, highest_zoneidx, lru, nr_skipped FROM mm_vmscan_lru_isolate" \
		"0|2|1|8" &&
	q k54.db "SELECT event, pfn, reclaim_flags FROM mm_vmscan_write_folio" \
		"mm_vmscan_writepage|1715004|9"
'

test_expect_success SQLITE3 '5.4: CPU:2 [LOST 17 EVENTS] is recorded' '
	q k54.db "SELECT cpu, count, source FROM lost_events" "2|17|text"
'

test_expect_success SQLITE3 '5.4: congestion_wait, unstable=, queue_io enqueue=, (unknown) bdi' '
	q k54.db "SELECT event, usec_timeout, usec_delayed FROM writeback_congest_wait" \
		"writeback_congestion_wait|100000|100212" &&
	q k54.db "SELECT nr_unstable, nr_dirty FROM global_dirty_state" "9|501" &&
	q k54.db "SELECT name, older, age, moved, reason FROM writeback_queue_io" \
		"253:1|4294892296|30000|3|periodic" &&
	q k54.db "SELECT event, name, ino, \"index\" FROM writeback_dirty_folio" \
		"writeback_dirty_page|(unknown)|0|0"
'

test_expect_success SQLITE3 '5.4: sched_process_exit typed from its line; its pid field renamed beside the task pid' '
	q k54.db "SELECT comm, field_pid, prio, pid FROM sched_process_exit" "stress|4321|120|4321" &&
	q k54.db "SELECT alias, col FROM field_alias WHERE tbl = \"sched_process_exit\"" "pid|field_pid"
'

# --- 5.15, trace-cmd report ---------------------------------------------

test_expect_success SQLITE3 '5.15 trace-cmd report: imports, info runs, cpus= read' '
	import_ok k5.15-report.txt k515.db &&
	grep -q "^events: *7$" info.out &&
	q k515.db "SELECT source_kind, cpus, ts_resolution_ns FROM run" "trace-cmd-report|4|1000" &&
	q k515.db "SELECT count(*) FROM import_error" 0
'

test_expect_success SQLITE3 '5.15: hex pfn=0x1a2b3c stored as the same integer as decimal 1715004' '
	q k515.db "SELECT event, pfn, reclaim_flags FROM mm_vmscan_write_folio" \
		"mm_vmscan_writepage|1715004|10"
'

test_expect_success SQLITE3 '5.15: µs timestamps of report output' '
	q k515.db "SELECT ts FROM mm_vmscan_lru_isolate" 2000000123000
'

test_expect_success SQLITE3 '5.15: writeback_start from a kworker whose comm has - and :' '
	q k515.db "SELECT name, sb_dev, nr_pages, for_kupdate, range_cyclic, for_background, reason, pid
		   FROM writeback_work" "8:0|8388608|4096|1|1|1|vmscan|231" &&
	q k515.db "SELECT comm, events FROM task WHERE pid = 231" "kworker/u8:2-flush-8:0|2"
'

test_expect_success SQLITE3 '5.15: writeback_pages_written bare number, dirty_page bdi' '
	q k515.db "SELECT pages FROM writeback_pages_written" 1024 &&
	q k515.db "SELECT name, ino, \"index\" FROM writeback_dirty_folio" "8:0|1835|7"
'

test_expect_success SQLITE3 '5.15: no unstable= any more, direct_reclaim_begin without 4.14 fields' '
	q k515.db "SELECT nr_unstable IS NULL, nr_dirty, background_thresh FROM global_dirty_state" \
		"1|22|399871" &&
	q k515.db "SELECT gfp_flags, may_writepage IS NULL, classzone_idx IS NULL
		   FROM mm_vmscan_direct_reclaim_begin" "GFP_HIGHUSER_MOVABLE|1|1"
'

test_expect_success SQLITE3 '5.15: CPU:1 [12 EVENTS DROPPED] is recorded' '
	q k515.db "SELECT cpu, count, source FROM lost_events" "1|12|text"
'

# --- 6.6, trace-cmd report -l -t ---------------------------------------

test_expect_success SQLITE3 '6.6 report -l -t: imports, ns resolution' '
	import_ok k6.6-report-l.txt k66.db &&
	q k66.db "SELECT source_kind, cpus, ts_resolution_ns, events FROM run" "trace-cmd-report|2|1|4"
'

test_expect_success SQLITE3 '6.6 -l: cpu without brackets, exact ns, lru=active_file is 3' '
	q k66.db "SELECT ts, cpu, pid, isolate_mode, highest_zoneidx, lru FROM mm_vmscan_lru_isolate" \
		"3000123456789|1|96|0|3|3" &&
	q k66.db "SELECT event, ts, pfn, reclaim_flags FROM mm_vmscan_write_folio" \
		"mm_vmscan_write_folio|3000123456790|1715004|9"
'

test_expect_success SQLITE3 '6.6 -l: throttled ISOLATED is bit 2; 8-char comm' '
	q k66.db "SELECT usec_timeout, usec_delayed, reason FROM mm_vmscan_throttled" "20000|20000|2" &&
	q k66.db "SELECT comm FROM task WHERE pid = 7001" "stress-n"
'

test_expect_success SQLITE3 '6.6 -l: brackets in a marker payload are not the CPU column' '
	q k66.db "SELECT event, cpu, pid, payload FROM event_generic" \
		"tracing_mark_write|0|2000|job-7 [3] begin"
'

# --- 6.18 ---------------------------------------------------------------

test_expect_success SQLITE3 '6.18 trace with 7-wide tgid column: imports, info runs' '
	import_ok k6.18-trace.txt k618.db &&
	grep -q "^events: *16$" info.out &&
	q k618.db "SELECT count(*) FROM import_error" 0 &&
	q k618.db "SELECT count(*) FROM lost_events" 0
'

test_expect_success SQLITE3 '6.18: shrink_slab_start with priority, no pgs_scanned' '
	q k618.db "SELECT shrink, shr, nid, nr_objects_to_shrink, gfp_flags, cache_items, delta,
		   total_scan, priority, pgs_scanned IS NULL, lru_pgs IS NULL FROM mm_shrink_slab_start
		   WHERE shr = '\''000000009c4e2a71'\''" \
		"super_cache_scan+0x0/0x1a0|000000009c4e2a71|0|0|GFP_KERNEL|4719|36|36|12|1|1"
'

test_expect_success SQLITE3 '6.18: a module shrinker keeps its [module] in shrink' '
	q k618.db "SELECT shrink, nr_objects_to_shrink, total_scan FROM mm_shrink_slab_start
		   WHERE shr = '\''000000003a7e2f1c'\''" "xfs_buftarg_shrink_scan+0x0/0x30 [xfs]|12|14"
'

test_expect_success SQLITE3 '6.18: shrink_slab_end' '
	q k618.db "SELECT shr, unused_scan, new_scan, total_scan, retval FROM mm_shrink_slab_end" \
		"000000009c4e2a71|0|0|0|36"
'

test_expect_success SQLITE3 '6.18: throttled usect_delayed= into usec_delayed, reason names to bits' '
	q k618.db "SELECT usec_timeout, usec_delayed, reason FROM mm_vmscan_throttled ORDER BY ts" \
		"100000|4000|1
4000|4000|4" &&
	q k618.db "SELECT cpu, pid FROM mm_vmscan_throttled LIMIT 1" "5|100001"
'

test_expect_success SQLITE3 '6.18: write_folio hex pfn, lru_isolate without isolate_mode' '
	q k618.db "SELECT event, pfn, reclaim_flags FROM mm_vmscan_write_folio" \
		"mm_vmscan_write_folio|1715004|9" &&
	q k618.db "SELECT isolate_mode IS NULL, highest_zoneidx, lru, nr_scanned, nr_skipped
		   FROM mm_vmscan_lru_isolate" "1|2|4|47|15"
'

test_expect_success SQLITE3 '6.18: lru_shrink_active flags, reclaim_pages activate split' '
	q k618.db "SELECT nr_taken, nr_active, nr_deactivated, nr_referenced, reclaim_flags
		   FROM mm_vmscan_lru_shrink_active" "32|4|28|2|2" &&
	q k618.db "SELECT nr_scanned, nr_reclaimed, nr_activate0, nr_activate1
		   FROM mm_vmscan_reclaim_pages" "512|500|7|5"
'

test_expect_success SQLITE3 '6.18: extfrag hex pfn, printed-only fields in extra' '
	q k618.db "SELECT pfn, fallback_order, alloc_migratetype, json_extract(extra, '\''$.fragmenting'\''),
		   json_extract(extra, '\''$.pageblock_order'\'') FROM mm_page_alloc_extfrag" "3145216|3|1|1|9"
'

test_expect_success SQLITE3 '6.18: writeback from kworker/u8:2-flush-8:0, pages written' '
	q k618.db "SELECT event, name, sb_dev, nr_pages, for_background, reason FROM writeback_work" \
		"writeback_written|8:0|8388608|2048|1|background" &&
	q k618.db "SELECT pages FROM writeback_pages_written" 2048 &&
	q k618.db "SELECT comm FROM task WHERE pid = 231" "kworker/u8:2-flush-8:0"
'

test_expect_success SQLITE3 '6.18: balance_dirty_pages wb_setpoint, dirty_folio bdi 8:16' '
	q k618.db "SELECT bdi, \"limit\", wb_setpoint, wb_dirty, pause FROM balance_dirty_pages" \
		"8:16|391680|171360|180000|12" &&
	q k618.db "SELECT event, name, ino, \"index\" FROM writeback_dirty_folio" \
		"writeback_dirty_folio|8:16|4096|12"
'

test_expect_success SQLITE3 '6.18: unknown-tgid <...> line and unknown event' '
	q k618.db "SELECT comm FROM task WHERE pid = 6061" "<...>" &&
	q k618.db "SELECT classzone_idx FROM mm_compaction_wakeup_kcompactd" Normal
'

test_expect_success SQLITE3 '6.18 counter clock: bare integers stored as they are' '
	import_ok k6.18-counter.txt kcnt.db &&
	grep -q "no fraction" import.err &&
	q kcnt.db "SELECT ts_resolution_ns, start_ts, end_ts FROM run" "|1234567|1234571" &&
	q kcnt.db "SELECT ts FROM mm_vmscan_kswapd_sleep" 1234571
'

test_expect_success SQLITE3 'trace-cmd report of a buffer instance: its LOST and empty-CPU lines carry the instance name too' '
	{
		echo "cpus=2"
		echo "inst-1: CPU 0 is empty"
		echo "inst-1: CPU:1 [LOST 5 EVENTS]"
		echo "inst-1:              cat-6656  [001]   798.000001: mm_vmscan_memcg_reclaim_end: nr_reclaimed=3"
	} > inst.txt &&
	vmscope import -q inst.txt -o inst.db &&
	q inst.db "SELECT status FROM run" complete &&
	q inst.db "SELECT cpu, count, source FROM lost_events" "1|5|text" &&
	q inst.db "SELECT COUNT(*) FROM import_error" 0
'

test_done
