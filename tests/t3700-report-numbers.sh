#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3700-report-numbers.sh - the numbers of `vmscope info` and of the report
# sections `summary` and `vmstat` on a hand-made run, each worked out in a
# comment: time span, events per type and their rates, lost events, the
# trace-only reclaim table, and the /proc/vmstat deltas with their
# real-valued rows (efficiency, velocity, percentage, T). No root.
. "$(dirname "$0")/test-lib.sh"

L="nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0"
L="$L nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12"
FILE="flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
ANON="flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC"

# A run from 1.0 to 3.0 s (2 s): 9 events, two LOST lines of CPU 1 (5 + 3).
# kswapd scans 32 file (30 reclaimed) and 16 anon (8); dd 64 file (60), 8 anon (4).
write_trace() {
	cat <<-TRACE
	         kswapd0-50      [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-50      [000] .....     1.001000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 $L $FILE
	         kswapd0-50      [000] .....     1.002000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=16 nr_reclaimed=8 $L $ANON
	         kswapd0-50      [000] .....     1.003000: mm_vmscan_kswapd_sleep: nid=0
	CPU:1 [LOST 5 EVENTS]
	              dd-200     [001] .....     1.500000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	              dd-200     [001] .....     1.501000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=64 nr_reclaimed=60 $L $FILE
	              dd-200     [001] .....     1.502000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=8 nr_reclaimed=4 $L $ANON
	              dd-200     [001] .....     1.503000: mm_vmscan_direct_reclaim_end: nr_reclaimed=64
	CPU:1 [LOST 3 EVENTS]
	         kswapd0-50      [000] .....     3.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	TRACE
}

# block FILE N: the Nth table (1-based) of a CSV report
block() {
	awk -v n="$2" 'BEGIN { RS = ""; ORS = "\n" } NR == n' "$1"
}

test_expect_success 'info: time span, events, events per type, lost events' '
	write_trace > num.txt &&
	vmscope import -q num.txt -o num.db &&
	vmscope info num.db > info.out &&
	grep -qx "time span:    1.000000 .. 3.000000 s (2.000000 s)" info.out &&
	grep -qx "events:       9" info.out &&
	sed -n "/^events per type:/,/^\$/p" info.out > got &&
	cat > want <<-\EOF &&
	events per type:
	             4  mm_vmscan_lru_shrink_inactive
	             2  mm_vmscan_kswapd_wake
	             1  mm_vmscan_direct_reclaim_begin
	             1  mm_vmscan_direct_reclaim_end
	             1  mm_vmscan_kswapd_sleep

	EOF
	test_cmp want got &&
	# the two LOST lines of CPU 1 add up: 5 + 3
	sed -n "/^lost events/,/^\$/p" info.out > got &&
	printf "lost events (cpu, count, source):\n  1  8  text\n\n" > want &&
	test_cmp want got
'

test_expect_success 'summary: the window, counts and rates over its 2 s, lost events' '
	vmscope report num.db summary --format csv > sum.csv &&
	block sum.csv 1 | grep -x "window_from_s,0.000000" &&
	block sum.csv 1 | grep -x "window_to_s,2.000000" &&
	# rate = count / 2 s
	block sum.csv 2 > got &&
	cat > want <<-\EOF &&
	event,count,rate
	mm_vmscan_lru_shrink_inactive,4,2.0
	mm_vmscan_kswapd_wake,2,1.0
	mm_vmscan_direct_reclaim_begin,1,0.5
	mm_vmscan_direct_reclaim_end,1,0.5
	mm_vmscan_kswapd_sleep,1,0.5
	EOF
	test_cmp want got &&
	block sum.csv 3 > got &&
	printf "cpu,events,source\n1,8,text\n" > want &&
	test_cmp want got
'

test_expect_success 'summary: a 1 s window (0.4 .. 1.4 s) counts only its events' '
	# 1.4 .. 2.4 s of the trace: dd begin, 2 scans, end; rates over 1 s
	vmscope report num.db summary --from 0.4 --to 1.4 --format csv > win.csv &&
	block win.csv 2 > got &&
	cat > want <<-\EOF &&
	event,count,rate
	mm_vmscan_lru_shrink_inactive,2,2.0
	mm_vmscan_direct_reclaim_begin,1,1.0
	mm_vmscan_direct_reclaim_end,1,1.0
	EOF
	test_cmp want got
'

test_expect_success 'vmstat without counters: the trace sums per reclaimer, efficiencies' '
	vmscope report num.db vmstat --format csv > vm.csv &&
	cut -d, -f1,2 vm.csv > got &&
	# kswapd 32+16 = 48 scanned, 30+8 = 38 reclaimed: 100*38/48 = 79.17 %;
	# dd 64+8 = 72, 60+4 = 64: 88.89 %
	cat > want <<-\EOF &&
	metric,value
	Trace: kswapd pages scanned,48
	Trace: kswapd pages reclaimed,38
	Trace: kswapd efficiency %,79.17
	Trace: kswapd anon pages scanned,16
	Trace: kswapd file pages scanned,32
	Trace: other tasks pages scanned,72
	Trace: other tasks pages reclaimed,64
	Trace: other tasks efficiency %,88.89
	Trace: other tasks anon pages scanned,8
	Trace: other tasks file pages scanned,64
	EOF
	test_cmp want got
'

test_expect_success SQLITE3 'vmstat with counters: deltas between the samples at 1 s and 3 s' '
	cp num.db c.db &&
	sql c.db "
		INSERT INTO counter_sample VALUES (1, 1000000000, 1000000100, '\''vmstat'\'', '\'''\'');
		INSERT INTO counter_sample VALUES (2, 3000000000, 3000000100, '\''vmstat'\'', '\'''\'');
		INSERT INTO counter_value SELECT 1, n, v FROM (SELECT '\''pgscan_kswapd'\'' AS n, 10000 AS v
			UNION SELECT '\''pgsteal_kswapd'\'', 9000 UNION SELECT '\''pgscan_direct'\'', 2000
			UNION SELECT '\''pgsteal_direct'\'', 1000 UNION SELECT '\''pgscan_anon'\'', 500
			UNION SELECT '\''pgscan_file'\'', 11500);
		INSERT INTO counter_value SELECT 2, n, v FROM (SELECT '\''pgscan_kswapd'\'' AS n, 11000 AS v
			UNION SELECT '\''pgsteal_kswapd'\'', 9750 UNION SELECT '\''pgscan_direct'\'', 2250
			UNION SELECT '\''pgsteal_direct'\'', 1050 UNION SELECT '\''pgscan_anon'\'', 700
			UNION SELECT '\''pgscan_file'\'', 12600);" &&
	vmscope report c.db vmstat --format csv > vm.csv &&
	cut -d, -f1,2 vm.csv | head -n 15 > got &&
	# deltas: kswapd scanned 1000, reclaimed 750; direct 250, 50; anon 200,
	# file 1100. T = 2 s. kswapd 75.00 %, 1000/2 = 500.00 pages/s; direct
	# 20.00 %, 125.00 pages/s; direct share 100*250/1250 = 20.00 %; other
	# reclaim 200 + 1100 - 1000 - 250 = 50; no pgsteal_anon/file: empty
	cat > want <<-\EOF &&
	metric,value
	Direct pages scanned,250
	Kswapd pages scanned,1000
	Kswapd pages reclaimed,750
	Direct pages reclaimed,50
	Kswapd efficiency %,75.00
	Kswapd velocity (pages/s),500.00
	Direct efficiency %,20.00
	Direct velocity (pages/s),125.00
	Percentage direct scans,20.00
	Pages scanned anon (all reclaimers),200
	Pages scanned file (all reclaimers),1100
	Pages reclaimed anon,
	Pages reclaimed file,
	Pages scanned by other reclaim (memcg limit),50
	EOF
	test_cmp want got &&
	grep -x "Elapsed (T),2.00,s between the two samples" vm.csv &&
	# the counter view (schema/005-counters.sql): one row per sample and name
	assert_eq "$(sql c.db "SELECT ts, ts_end, source, scope, name, value FROM counter
		WHERE name = '\''pgsteal_direct'\'' ORDER BY ts")" "1000000000|1000000100|vmstat||pgsteal_direct|1000
3000000000|3000000100|vmstat||pgsteal_direct|1050"
'

test_done
