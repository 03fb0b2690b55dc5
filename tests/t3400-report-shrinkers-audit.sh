#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3400-report-shrinkers-audit.sh - the 'shrinkers' and 'audit' sections of
# `vmscope report`. Fixtures are hand-written 6.18 tracefs text traces
# (written below), imported with `vmscope import`, plus /proc/vmstat samples
# INSERTed with sqlite3. Every expected number is computed by hand in the
# comments from the trace lines, not taken from the program's output. The
# last tests record real memcg reclaim and audit it. Bodies are && chains:
# test_expect_success runs them as an `if` condition, where set -e is off.

. "$(dirname "$0")/test-lib.sh"

# 6.18 line prefix: comm-pid, tgid column, cpu, 5 flags, µs timestamp.
# ev COMM-PID TGID TS EVENT PAYLOAD
ev() {
	printf '%16s (%7s) [001] ..... %s: %s: %s\n' "$1" "$2" "$3" "$4" "$5"
}
inactive() { # COMM-PID TGID TS SCANNED RECLAIMED
	ev "$1" "$2" "$3" mm_vmscan_lru_shrink_inactive "nid=0 nr_scanned=$4 nr_reclaimed=$5 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
}
slab_start() { # COMM-PID TGID TS SHRINK SHR TO_SHRINK ITEMS DELTA TOTAL PRIO
	ev "$1" "$2" "$3" mm_shrink_slab_start "$4 $5: nid: 0 objects to shrink $6 gfp_flags GFP_KERNEL cache items $7 delta $8 total_scan $9 priority ${10}"
}
slab_end() { # COMM-PID TGID TS SHRINK SHR UNUSED NEW TOTAL RETVAL
	ev "$1" "$2" "$3" mm_shrink_slab_end "$4 $5: nid: 0 unused scan count $6 new scan count $7 total_scan $8 last shrinker return val $9"
}

S=super_cache_scan+0x0/0x1a0
SA=00000000aaaa0001
SB=00000000bbbb0002
X="xfs_buftarg_shrink_scan+0x0/0x30 [xfs]"
XA=000000003a7e2f1c
W=scan_shadow_nodes+0x0/0x40
WA=00000000cccc0003

# Shrinker calls are kernel-consistent (6.18 do_shrink_slab(), batch 128,
# seeks 2): delta = (items >> prio) * 4 / 2, total = (deferred >> prio) + delta,
# scanning in 128-object batches while total >= 128 (or >= items),
# new deferred = deferred + delta - scanned.
#   #  time     task    shrinker   prio  deferred  items    delta total  scanned left freed new
#   o  100.0001 kswapd0 X (end only: begun before the trace)                      freed 5
#   1  100.1000 kswapd0 S/A        12    4096      1048576  512   513    512     1    400   4096
#   2  100.2000 kswapd0 S/B        12    0         524288   256   256    256     0    256   0
#   3  100.3000 kswapd0 W          12    10        300      0     0      0       0    0     10
#   4  101.1000 kswapd0 S/A        11    4096      1048576  1024  1026   1024    2    700   4096
#   5  101.2000 kswapd0 X          11    0         262144   256   256    256     0    64    0
#   6  101.5000 stress  S/B        10    0         524288   1024  1024   1024    0    1000  0
#   7  102.5000 stress  S/A        10    4096      1048576  2048  2052   (no end event: cut by the end of the trace)
# LRU (mm_vmscan_lru_shrink_inactive, scanned/reclaimed):
#   kswapd0-90   100.15 32/30, 101.15 64/60                      kswapd  96/90
#   stress-500   101.45 32/20, 101.46 32/12 inside direct begin/end    direct  64/32
#   cat-600      102.01 128/100, 102.02 100/90 inside memcg begin/end  memcg  228/190
#   kswapd0-90   102.205 32/32 inside memcg_softlimit begin/end  memcg (not kswapd) 32/32
#   => memcg 260/222, all 420/344
#   madvise-8800 102.3 mm_vmscan_reclaim_pages 512/500           MADV_PAGEOUT/DAMON
write_trace() { # FILE [extra lines file]
	{
		echo "# tracer: nop"
		echo "#"
		echo "# entries-in-buffer/entries-written: 40/40   #P:8"
		echo "#"
		slab_end kswapd0-90 90 100.000100 "$X" $XA 0 0 0 5
		ev kswapd0-90 90 100.100000 mm_vmscan_kswapd_wake "nid=0 order=0"
		slab_start kswapd0-90 90 100.100010 $S $SA 4096 1048576 512 513 12
		slab_end kswapd0-90 90 100.100050 $S $SA 4096 4096 1 400
		inactive kswapd0-90 90 100.150000 32 30
		slab_start kswapd0-90 90 100.200000 $S $SB 0 524288 256 256 12
		slab_end kswapd0-90 90 100.200040 $S $SB 0 0 0 256
		slab_start kswapd0-90 90 100.300000 $W $WA 10 300 0 0 12
		slab_end kswapd0-90 90 100.300010 $W $WA 10 10 0 0
		slab_start kswapd0-90 90 101.100000 $S $SA 4096 1048576 1024 1026 11
		slab_end kswapd0-90 90 101.100080 $S $SA 4096 4096 2 700
		inactive kswapd0-90 90 101.150000 64 60
		slab_start kswapd0-90 90 101.200000 "$X" $XA 0 262144 256 256 11
		slab_end kswapd0-90 90 101.200030 "$X" $XA 0 0 0 64
		ev stress-500 500 101.400000 mm_vmscan_direct_reclaim_begin "order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
		inactive stress-500 500 101.450000 32 20
		inactive stress-500 500 101.460000 32 12
		slab_start stress-500 500 101.500000 $S $SB 0 524288 1024 1024 10
		slab_end stress-500 500 101.500090 $S $SB 0 0 0 1000
		ev stress-500 500 101.600000 mm_vmscan_direct_reclaim_end "nr_reclaimed=32"
		ev cat-600 600 102.000000 mm_vmscan_memcg_reclaim_begin "order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
		inactive cat-600 600 102.010000 128 100
		inactive cat-600 600 102.020000 100 90
		ev cat-600 600 102.030000 mm_vmscan_memcg_reclaim_end "nr_reclaimed=190"
		ev kswapd0-90 90 102.200000 mm_vmscan_memcg_softlimit_reclaim_begin "order=0 gfp_flags=GFP_KERNEL"
		inactive kswapd0-90 90 102.205000 32 32
		ev kswapd0-90 90 102.210000 mm_vmscan_memcg_softlimit_reclaim_end "nr_reclaimed=32"
		ev madvise-8800 8800 102.300000 mm_vmscan_reclaim_pages "nid=0 nr_scanned=512 nr_reclaimed=500 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=7 nr_activate_file=5 nr_ref_keep=0 nr_unmap_fail=0"
		if [ $# -gt 1 ]; then cat "$2"; fi
		slab_start stress-500 500 102.500000 $S $SA 4096 1048576 2048 2052 10
		ev kswapd0-90 90 102.600000 mm_vmscan_kswapd_sleep "nid=0"
	} > "$1"
}

# sample DB ID TS_NS NAME=VALUE...: one /proc/vmstat sample, then the derived
# tables made again, as after any change to a finished run
sample() {
	db=$1 id=$2 ts=$3
	shift 3
	q="INSERT INTO counter_sample (id, ts, ts_end, source, scope) VALUES ($id, $ts, $ts + 50000, 'vmstat', '');"
	for kv in "$@"; do
		q="$q INSERT INTO counter_value VALUES ($id, '${kv%%=*}', ${kv#*=});"
	done
	sql "$db" "$q" &&
	vmscope upgrade -q --rederive "$db"
}

# report_csv DB SECTION NAME [options]: the section as CSV, each table in NAME.N.csv
report_csv() {
	db=$1 section=$2 name=$3
	shift 3
	vmscope report "$db" "$section" --format csv "$@" > "$name.csv" || return 1
	rm -f "$name".[0-9].csv
	awk -v p="$name" 'BEGIN { n = 1 } /^$/ { n++; next } { print > (p "." n ".csv") }' "$name.csv"
}
# csvq FILE QUERY: QUERY on the CSV file loaded as table t (a failed or noisy load fails)
csvq() {
	sqlite3 -batch :memory: ".import --csv $1 t" "$2" 2>csvq.err
	if [ -s csvq.err ]; then cat csvq.err; return 1; fi
}
# audit_row NAME QUANTITY RECLAIMER: trace|counter|difference|relative|tolerance|lost|status
audit_row() {
	csvq "$1" "SELECT trace, counter, difference, \"relative difference\", tolerance,
		\"lost events\", status FROM t WHERE quantity = '$2' AND reclaimer = '$3'"
}

# Counters: s1 at 99.9 s, s2 at 101.3 s, s3 at 103.0 s (the trace is 100.0001..102.6 s).
#   s1->s2 (99.9..101.3): kswapd 96/90 but pgscan_kswapd +100 (4 pages the trace
#     does not have: within tolerance); pgscan_file +100, pgsteal_file +90;
#     slabs_scanned +2048 (calls 1-5: 512+256+0+1024+256)
#   s2->s3 (101.3..103.0): direct 64/32, memcg 260/222: pgscan_file +324,
#     pgsteal_file +254; slabs_scanned +1024 (call 6; call 7 has no end)
add_counters_ok() {
	sample "$1" 1 99900000000 pgscan_kswapd=1000 pgsteal_kswapd=900 pgscan_direct=2000 \
		pgsteal_direct=1500 pgscan_khugepaged=0 pgsteal_khugepaged=0 pgscan_proactive=0 \
		pgsteal_proactive=0 pgscan_anon=500 pgscan_file=10000 pgsteal_anon=400 \
		pgsteal_file=8000 slabs_scanned=50000 &&
	sample "$1" 2 101300000000 pgscan_kswapd=1100 pgsteal_kswapd=990 pgscan_direct=2000 \
		pgsteal_direct=1500 pgscan_khugepaged=0 pgsteal_khugepaged=0 pgscan_proactive=0 \
		pgsteal_proactive=0 pgscan_anon=500 pgscan_file=10100 pgsteal_anon=400 \
		pgsteal_file=8090 slabs_scanned=52048 &&
	sample "$1" 3 103000000000 pgscan_kswapd=1100 pgsteal_kswapd=990 pgscan_direct=2064 \
		pgsteal_direct=1532 pgscan_khugepaged=0 pgsteal_khugepaged=0 pgscan_proactive=0 \
		pgsteal_proactive=0 pgscan_anon=500 pgscan_file=10424 pgsteal_anon=400 \
		pgsteal_file=8344 slabs_scanned=53072
}

test_expect_success SQLITE3 'fixtures: 6.18 text traces import, counters added' '
	write_trace a.txt &&
	vmscope import -q a.txt -o ok.db &&
	cp ok.db nocounters.db &&
	add_counters_ok ok.db &&
	assert_eq "$(sql ok.db "SELECT COUNT(*) FROM import_error")" 0 "import errors" &&
	assert_eq "$(sql ok.db "SELECT COUNT(*) FROM mm_shrink_slab_start")" 7 "slab starts" &&
	assert_eq "$(sql ok.db "SELECT COUNT(*) FROM mm_shrink_slab_end")" 7 "slab ends" &&
	assert_eq "$(sql ok.db "SELECT group_concat(name, '\''|'\'') FROM (SELECT name FROM
		shrinker_name ORDER BY 1)")" "scan_shadow_nodes|super_cache_scan|xfs_buftarg_shrink_scan [xfs]" \
		"shrinker names" &&
	assert_eq "$(sql ok.db "SELECT COUNT(*) FROM shrink_bucket b JOIN shrinker_name n
		ON n.shrink IS b.shrink WHERE n.name = b.name")" \
		"$(sql ok.db "SELECT COUNT(*) FROM shrink_bucket")" "shrink_bucket names" &&
	assert_eq "$(sql ok.db "SELECT COUNT(*) FROM mm_vmscan_lru_shrink_inactive")" 7 "inactive events" &&
	assert_eq "$(sql ok.db "SELECT COUNT(*) FROM counter_sample")" 3 "samples" &&
	# trace b: a, plus 8/8 pages by a task whose memcg reclaim began before the
	# trace (only its end is there), 10/10 pages by a task outside any
	# begin/end pair, and a LOST line
	inactive bar-900 900 102.350000 8 8 > extra.txt &&
	ev bar-900 900 102.360000 mm_vmscan_memcg_reclaim_end "nr_reclaimed=8" >> extra.txt &&
	inactive foo-700 700 102.400000 10 10 >> extra.txt &&
	echo "CPU:1 [LOST 5 EVENTS]" >> extra.txt &&
	write_trace b.txt extra.txt &&
	vmscope import -q b.txt -o bad.db &&
	assert_eq "$(sql bad.db "SELECT COUNT(*) FROM import_error")" 0 "import errors" &&
	assert_eq "$(sql bad.db "SELECT cpu, ts IS NULL, count FROM lost_events")" "1|1|5" "text loss"
'

test_expect_success SQLITE3 'shrinkers: per-instance sums, efficiency, deferred, priorities' '
	report_csv ok.db shrinkers sh &&
	# columns: priorities 12, 11, 10 were seen
	assert_eq "$(head -n 1 sh.1.csv)" "shrinker,instance,calls,to scan,scanned,freed,efficiency,deferred taken,deferred left,mean cache items,calls p12,calls p11,calls p10" header &&
	# S/B: calls 2,6: to scan 256+1024=1280, scanned 256+1024=1280, freed 256+1000=1256,
	#   efficiency 100*1256/1280 = 98.125 -> 98.1; deferred 0/0; items 524288; p12 1, p10 1
	# S/A: calls 1,4,7: to scan 513+1026+2052=3591; scanned (1,4 only) 512+1024=1536;
	#   freed 400+700=1100; efficiency 100*1100/1536 = 71.61 -> 71.6;
	#   deferred taken 3*4096=12288, left 4096+4096=8192; p12 1, p11 1, p10 1
	# X: call 5 (the end-only call is left out): 256, 256, 64 -> 25.0; items 262144; p11 1
	# W: call 3: nothing scanned -> no efficiency; deferred 10/10; items 300; p12 1
	csvq sh.1.csv "SELECT * FROM t" > got &&
	cat > want <<-EOF &&
	super_cache_scan|$SB|2|1280|1280|1256|98.1|0|0|524288.0|1|0|1
	super_cache_scan|$SA|3|3591|1536|1100|71.6|12288|8192|1048576.0|1|1|1
	xfs_buftarg_shrink_scan [xfs]||1|256|256|64|25.0|0|0|262144.0|0|1|0
	scan_shadow_nodes||1|0|0|0||10|10|300.0|1|0|0
	EOF
	test_cmp want got
'

test_expect_success SQLITE3 'shrinkers: notes on the cut call, the end without start, instances' '
	vmscope report ok.db shrinkers > sh.txt &&
	grep -q "note: 1 calls have no end event" sh.txt &&
	grep -q "note: 1 end events without a start" sh.txt &&
	grep -q "instance: the shrinker.s address (shr), shown when one function has several" sh.txt &&
	grep -q "calls pN: calls at reclaim priority N" sh.txt
'

test_expect_success SQLITE3 'shrinkers: per-second timeline of the top shrinkers' '
	# run start = first counter sample, 99.9 s: calls 1-3 in second 0, 4-6 in
	# second 1, 7 in second 2. Ranks by freed: S/B 1256, S/A 1100, X 64, W 0.
	assert_eq "$(head -n 1 sh.2.csv)" "second,rank,shrinker,instance,calls,to scan,scanned,freed" header &&
	csvq sh.2.csv "SELECT * FROM t" > got &&
	cat > want <<-EOF &&
	0|1|super_cache_scan|$SB|1|256|256|256
	0|2|super_cache_scan|$SA|1|513|512|400
	0|4|scan_shadow_nodes||1|0|0|0
	1|1|super_cache_scan|$SB|1|1024|1024|1000
	1|2|super_cache_scan|$SA|1|1026|1024|700
	1|3|xfs_buftarg_shrink_scan [xfs]||1|256|256|64
	2|2|super_cache_scan|$SA|1|2052||
	EOF
	test_cmp want got
'

test_expect_success SQLITE3 'shrinkers: --from/--to keep the calls starting in the window' '
	# 1.25..2.0 s = 101.15..101.9 s: calls 5 (X) and 6 (S/B); S has one instance
	# left, so no instance is shown
	report_csv ok.db shrinkers w --from 1.25 --to 2.0 &&
	csvq w.1.csv "SELECT shrinker, instance, calls, scanned, freed FROM t" > got &&
	printf "%s\n" "super_cache_scan||1|1024|1000" "xfs_buftarg_shrink_scan [xfs]||1|256|64" > want &&
	test_cmp want got
'

test_expect_success SQLITE3 'shrinkers: a run without shrink_slab events says so' '
	cat > none.txt <<-EOF &&
	# tracer: nop
	#
	# entries-in-buffer/entries-written: 2/2   #P:8
	#
	$(ev kswapd0-90 90 5.000000 mm_vmscan_kswapd_wake "nid=0 order=0")
	$(ev kswapd0-90 90 5.100000 mm_vmscan_kswapd_sleep "nid=0")
	EOF
	vmscope import -q none.txt -o none.db &&
	assert_eq "$(sql none.db "SELECT COUNT(*) FROM mm_vmscan_kswapd_wake")" 1 "kswapd_wake" &&
	vmscope report none.db shrinkers > none.out &&
	grep -q "^(no rows)" none.out &&
	grep -q "note: no shrink_slab events in this run: vmscan:mm_shrink_slab_start/_end were not enabled" none.out &&
	grep -q "note: no shrink_slab calls in the window" none.out &&
	# a window without calls, in a run that has some: 7 starts + 7 ends
	vmscope report ok.db shrinkers --from 3.0 > late.out &&
	grep -q "note: no shrink_slab call starts in this window (the run has 14 shrink_slab events elsewhere)" late.out
'

test_expect_success SQLITE3 'audit: trace and counters agree (ok), with the hand-computed numbers' '
	report_csv ok.db audit au &&
	assert_eq "$(head -n 1 au.1.csv)" "quantity,reclaimer,trace,counter,counter formula,difference,relative difference,tolerance,lost events,status" header &&
	# span = samples 1 and 3 (99.9..103.0 s), the whole run
	# kswapd: trace 96 vs pgscan_kswapd 1100-1000 = 100: -4, -4.00 %, tolerance max(32, 1) = 32
	assert_eq "$(audit_row au.1.csv "pages scanned" kswapd)" "96|100|-4|-4.00|32|0|ok" &&
	assert_eq "$(audit_row au.1.csv "pages reclaimed" kswapd)" "90|90|0|0.00|32|0|ok" &&
	# direct: 64 vs 2064-2000; 32 vs 1532-1500
	assert_eq "$(audit_row au.1.csv "pages scanned" direct)" "64|64|0|0.00|32|0|ok" &&
	assert_eq "$(audit_row au.1.csv "pages reclaimed" direct)" "32|32|0|0.00|32|0|ok" &&
	assert_eq "$(audit_row au.1.csv "pages scanned" khugepaged)" "0|0|0||32|0|ok" &&
	# memcg: anon+file (0+424) - kswapd 100 - direct 64 - khugepaged 0 - proactive 0
	# = 260 (the 4 kswapd pages the trace lacks cancel out); trace 228+32 = 260
	assert_eq "$(audit_row au.1.csv "pages scanned" memcg)" "260|260|0|0.00|32|0|ok" &&
	# reclaimed: 344 - 90 - 32 = 222; trace 190+32 = 222
	assert_eq "$(audit_row au.1.csv "pages reclaimed" memcg)" "222|222|0|0.00|32|0|ok" &&
	# all: trace 96+64+260 = 420 vs 0+424: -4, 100*-4/424 = -0.94 %, tolerance max(32, ceil(4.24)) = 32
	assert_eq "$(audit_row au.1.csv "pages scanned" "all reclaimers")" "420|424|-4|-0.94|32|0|ok" &&
	assert_eq "$(audit_row au.1.csv "pages reclaimed" "all reclaimers")" "344|344|0|0.00|32|0|ok" &&
	assert_eq "$(audit_row au.1.csv "pages scanned" unattributed)" "0|||||0|n/a" &&
	# slab: 512+256+0+1024+256+1024 = 3072 vs 53072-50000; freed 400+256+0+700+64+1000 = 2420
	assert_eq "$(audit_row au.1.csv "slab objects scanned" shrinkers)" "3072|3072|0|0.00|128|0|ok" &&
	assert_eq "$(audit_row au.1.csv "slab objects freed" shrinkers)" "2420|||||0|n/a" &&
	assert_eq "$(audit_row au.1.csv "pages scanned" MADV_PAGEOUT/DAMON)" "512|||||0|n/a" &&
	assert_eq "$(audit_row au.1.csv "pages reclaimed" MADV_PAGEOUT/DAMON)" "500|||||0|n/a" &&
	assert_eq "$(csvq au.1.csv "SELECT COUNT(*) FROM t WHERE status = '\''MISMATCH'\''")" 0 mismatches &&
	vmscope report ok.db audit > au.txt &&
	grep -q "note: span audited: counters are the deltas between the vmstat samples at 0.000000 s (the last at or before the window start) and 3.100000 s (the first at or after the window end), for the window 0.000000..3.100000 s" au.txt &&
	grep -q "note: all 11 comparisons within tolerance" au.txt &&
	grep -q "note: lost events: none reported in the span" au.txt &&
	grep -q "status: ok when |trace - counter| <= tolerance = max(32 pages (128 objects for slab), 1% of the larger" au.txt
'

test_expect_success SQLITE3 'audit: a window is widened to the samples bracketing it' '
	# 1.45..2.0 s = 101.35..101.9 s: samples 2 (101.3 s) and 3 (103.0 s) bracket it,
	# so trace and counters cover 101.3..103.0 s: no kswapd (events at 100.15,
	# 101.15), direct 64/32, memcg 260/222 (all after 101.3); slab call 6 = 1024
	report_csv ok.db audit sub --from 1.45 --to 2.0 &&
	assert_eq "$(audit_row sub.1.csv "pages scanned" kswapd)" "0|0|0||32|0|ok" &&
	assert_eq "$(audit_row sub.1.csv "pages scanned" direct)" "64|64|0|0.00|32|0|ok" &&
	# memcg counter: (10424-10100) - 0 - 64 = 260
	assert_eq "$(audit_row sub.1.csv "pages scanned" memcg)" "260|260|0|0.00|32|0|ok" &&
	assert_eq "$(audit_row sub.1.csv "pages reclaimed" memcg)" "222|222|0|0.00|32|0|ok" &&
	assert_eq "$(audit_row sub.1.csv "slab objects scanned" shrinkers)" "1024|1024|0|0.00|128|0|ok" &&
	vmscope report ok.db audit --from 1.45 --to 2.0 > sub.txt &&
	grep -q "samples at 1.400000 s (the last at or before the window start) and 3.100000 s (the first at or after the window end), for the window 1.450000..2.000000 s" sub.txt
'

test_expect_success SQLITE3 'audit: counters starting after the first events: the span says so' '
	# only samples 2 (101.3 s) and 3 (103.0 s): the run starts at the first
	# event (100.0001 s), no sample is at or before it, so the span is
	# 101.3..103.0 s = 1.2999..2.9999 s and the kswapd pages before it are left out
	cp nocounters.db late.db &&
	sample late.db 2 101300000000 pgscan_kswapd=1100 pgsteal_kswapd=990 pgscan_direct=2000 \
		pgsteal_direct=1500 pgscan_anon=500 pgscan_file=10100 pgsteal_anon=400 \
		pgsteal_file=8090 slabs_scanned=52048 &&
	sample late.db 3 103000000000 pgscan_kswapd=1100 pgsteal_kswapd=990 pgscan_direct=2064 \
		pgsteal_direct=1532 pgscan_anon=500 pgscan_file=10424 pgsteal_anon=400 \
		pgsteal_file=8344 slabs_scanned=53072 &&
	report_csv late.db audit late &&
	assert_eq "$(audit_row late.1.csv "pages scanned" kswapd)" "0|0|0||32|0|ok" &&
	assert_eq "$(audit_row late.1.csv "pages scanned" "all reclaimers")" "324|324|0|0.00|32|0|ok" &&
	vmscope report late.db audit > late.txt &&
	grep -q "samples at 1.299900 s (the run.s first sample, none is at or before the window start) and 2.999900 s (the first at or after the window end), for the window 0.000000..2.999900 s" late.txt &&
	grep -q "note: no vmstat sample at or before the window start: the span starts at the first sample, and events of the window before it (1.299900 s) are left out" late.txt
'

test_expect_success SQLITE3 'audit: disagreement is flagged MISMATCH, lost events shown' '
	# bad.db: trace b; counters say kswapd scanned 196 (trace 96) and all
	# reclaimers 438 scanned (trace 420 + 8 memcg + 10 unattributed), 362
	# reclaimed (344 + 8 + 10)
	sample bad.db 1 99900000000 pgscan_kswapd=1000 pgsteal_kswapd=900 pgscan_direct=2000 \
		pgsteal_direct=1500 pgscan_anon=500 pgscan_file=10000 pgsteal_anon=400 \
		pgsteal_file=8000 slabs_scanned=50000 &&
	sample bad.db 2 103000000000 pgscan_kswapd=1196 pgsteal_kswapd=990 pgscan_direct=2064 \
		pgsteal_direct=1532 pgscan_anon=500 pgscan_file=10438 pgsteal_anon=400 \
		pgsteal_file=8362 slabs_scanned=53072 &&
	# lost: 5 from the LOST line (no time: counted in every span), 3 at 102.1 s
	# inside the span, 1000 at 200 s outside it: 5+3 = 8
	sql bad.db "INSERT INTO lost_events VALUES (1, 102100000000, 3, '\''ring-buffer'\'');
		    INSERT INTO lost_events VALUES (0, 200000000000, 1000, '\''ring-buffer'\'')" &&
	report_csv bad.db audit bad &&
	# kswapd: 96 - 196 = -100, 100*-100/196 = -51.02 %, tolerance max(32, ceil(1.96)) = 32
	assert_eq "$(audit_row bad.1.csv "pages scanned" kswapd)" "96|196|-100|-51.02|32|8|MISMATCH" &&
	assert_eq "$(audit_row bad.1.csv "pages reclaimed" kswapd)" "90|90|0|0.00|32|8|ok" &&
	# memcg: trace 260 + 8 (bar-900, before its memcg_reclaim_end) = 268; counter
	# 438 - 196 - 64 = 178 (no khugepaged/proactive counters here): +90, 50.56 %
	assert_eq "$(audit_row bad.1.csv "pages scanned" memcg)" "268|178|90|50.56|32|8|MISMATCH" &&
	assert_eq "$(csvq bad.1.csv "SELECT \"counter formula\" FROM t WHERE quantity = '\''pages scanned'\'' AND reclaimer = '\''memcg'\''")" \
		"pgscan_anon+pgscan_file-pgscan_kswapd-pgscan_direct" &&
	# memcg reclaimed: 362 - 90 - 32 = 240 vs 222 + 8 = 230: -10, -4.17 %, within 32
	assert_eq "$(audit_row bad.1.csv "pages reclaimed" memcg)" "230|240|-10|-4.17|32|8|ok" &&
	assert_eq "$(audit_row bad.1.csv "pages scanned" unattributed)" "10|||||8|n/a" &&
	# all: 420 + 8 + 10 = 438 vs 438
	assert_eq "$(audit_row bad.1.csv "pages scanned" "all reclaimers")" "438|438|0|0.00|32|8|ok" &&
	# no khugepaged counter in these samples: n/a, not 0
	assert_eq "$(audit_row bad.1.csv "pages scanned" khugepaged)" "0|||||8|n/a" &&
	# compared: kswapd, direct, memcg, all (2 each) and slab = 9; khugepaged n/a
	vmscope report bad.db audit > bad.txt &&
	grep -q "note: 2 of 9 comparisons MISMATCH: pages scanned (kswapd), pages scanned (memcg); lost events can explain" bad.txt &&
	grep -q "note: lost events: 8 in the span (losses without a time stamp are counted in every span)" bad.txt &&
	grep -q "note: 10 pages scanned by 1 events could not be given to a reclaimer" bad.txt &&
	grep -q "note: 2 rows have no counter on this kernel (n/a)" bad.txt
'

test_expect_success SQLITE3 'audit: without counters, trace totals alone and a note' '
	report_csv nocounters.db audit nc &&
	assert_eq "$(audit_row nc.1.csv "pages scanned" memcg)" "260|||||0|n/a" &&
	assert_eq "$(audit_row nc.1.csv "slab objects scanned" shrinkers)" "3072|||||0|n/a" &&
	assert_eq "$(csvq nc.1.csv "SELECT COUNT(*) FROM t WHERE status <> '\''n/a'\''")" 0 &&
	vmscope report nocounters.db audit > nc.txt &&
	grep -q "note: no /proc/vmstat samples in this run" nc.txt
'

test_expect_success SQLITE3 'JSON is valid and numbers are numbers; CSV loads in sqlite3' '
	for db in ok.db bad.db nocounters.db none.db; do
		vmscope report $db shrinkers audit --format json > r.json &&
		python3 -c "
import json
d = json.load(open(\"r.json\"))
t = {x[\"table\"]: x for x in d[\"tables\"]}
assert set(t) == {\"shrinkers\", \"timeline\", \"audit\"}, t.keys()
cols = [c[\"name\"] for c in t[\"audit\"][\"columns\"]]
assert len(t[\"audit\"][\"rows\"]) == 16
for r in t[\"audit\"][\"rows\"]:
    assert isinstance(r[cols.index(\"trace\")], int), r
    assert r[cols.index(\"status\")] in (\"ok\", \"MISMATCH\", \"n/a\"), r
" || exit 1
	done &&
	vmscope report ok.db shrinkers audit --format json > r.json &&
	python3 -c "
import json
d = json.load(open(\"r.json\"))
t = {x[\"table\"]: x for x in d[\"tables\"]}
cols = [c[\"name\"] for c in t[\"shrinkers\"][\"columns\"]]
row = t[\"shrinkers\"][\"rows\"][0]
assert row[cols.index(\"freed\")] == 1256, row
assert abs(row[cols.index(\"efficiency\")] - 98.125) < 0.05, row
assert t[\"shrinkers\"][\"columns\"][cols.index(\"efficiency\")][\"unit\"] == \"%\"
acols = [c[\"name\"] for c in t[\"audit\"][\"columns\"]]
assert t[\"audit\"][\"rows\"][0][acols.index(\"counter\")] == 100
" &&
	report_csv ok.db shrinkers c1 &&
	report_csv ok.db audit c2 &&
	assert_eq "$(csvq c1.1.csv "SELECT COUNT(*) FROM t")" 4 &&
	assert_eq "$(csvq c1.2.csv "SELECT COUNT(*) FROM t")" 7 &&
	assert_eq "$(csvq c2.1.csv "SELECT COUNT(*) FROM t")" 16
'

# --- a real recording ---------------------------------------------------

CG=/sys/fs/cgroup/memory/vmscope-t3400-$$

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'record memcg reclaim: a 64 MB memcg reads a 200 MB file twice' '
	mkdir -p "$CG" &&
	test_cleanup "rmdir $CG" &&
	echo $((64 * 1024 * 1024)) > "$CG/memory.limit_in_bytes" &&
	# written with O_DIRECT and dropped from the page cache, so that the reads
	# come from disk and are charged to the memcg
	dd if=/dev/urandom of=big bs=1M count=200 oflag=direct status=none &&
	dd if=big iflag=nocache count=0 status=none &&
	# the sleeps put samples taken while tracing is on before and after the reads
	vmscope record -q -o r.db -- sh -c "echo \$\$ > $CG/cgroup.procs; sleep 0.3; cat big >/dev/null; cat big >/dev/null; sleep 0.3" &&
	assert_eq "$(sql r.db "SELECT status FROM run")" complete &&
	test "$(sql r.db "SELECT COUNT(*) FROM counter_sample WHERE source = '\''vmstat'\''")" -ge 4 &&
	test "$(sql r.db "SELECT COUNT(*) FROM mm_vmscan_memcg_reclaim_begin")" -gt 0
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'audit of the recording: memcg trace totals match the vmstat deltas' '
	# Between two samples taken while tracing was on (the second and the
	# next-to-last), every reclaim the counters saw is in the trace. The first
	# and the last sample are taken before tracing starts and after it stops
	# (record/cmd-record.c), so reclaim elsewhere on the machine at those
	# moments is counted and not traced: the whole-run rows may differ by that.
	start=$(sql r.db "SELECT MIN((SELECT start_ts FROM run), (SELECT MIN(ts) FROM counter_sample))") &&
	t2=$(sql r.db "SELECT ts FROM counter_sample WHERE source = '\''vmstat'\'' ORDER BY ts LIMIT 1 OFFSET 1") &&
	tn=$(sql r.db "SELECT ts FROM counter_sample WHERE source = '\''vmstat'\'' ORDER BY ts DESC LIMIT 1 OFFSET 1") &&
	# 1 us inside each sample so that they are the ones bracketing the window
	from=$(echo "$t2 $start" | awk "{ printf \"%.9f\", (\$1 - \$2 + 1000) / 1e9 }") &&
	to=$(echo "$tn $start" | awk "{ printf \"%.9f\", (\$1 - \$2 - 1000) / 1e9 }") &&
	report_csv r.db audit in --from $from --to $to &&
	cat in.1.csv &&
	# our reads: about (400 - 64) MB / 4 KB = 86000 pages reclaimed by memcg reclaim
	test "$(csvq in.1.csv "SELECT trace FROM t WHERE quantity = '\''pages scanned'\'' AND reclaimer = '\''memcg'\''")" -gt 50000 &&
	for q in "pages scanned" "pages reclaimed"; do
		for who in memcg kswapd direct "all reclaimers"; do
			got=$(csvq in.1.csv "SELECT status FROM t WHERE quantity = '\''$q'\'' AND reclaimer = '\''$who'\''") &&
			assert_eq "$got" ok "$q ($who) between samples 2 and n-1" || exit 1
		done
	done &&
	assert_eq "$(csvq in.1.csv "SELECT status FROM t WHERE quantity = '\''slab objects scanned'\''")" ok slab &&
	assert_eq "$(csvq in.1.csv "SELECT DISTINCT \"lost events\" FROM t")" 0 "lost events" &&
	# The whole run: kswapd and direct agree (nothing global on a machine with
	# free memory, or little); memcg: the trace never holds more than the
	# counters counted (beyond the tolerance), and it is flagged if it falls
	# short by more than the tolerance.
	report_csv r.db audit all &&
	cat all.1.csv &&
	for who in kswapd direct; do
		assert_eq "$(csvq all.1.csv "SELECT status FROM t WHERE quantity = '\''pages scanned'\'' AND reclaimer = '\''$who'\''")" ok "$who, whole run" || exit 1
	done &&
	csvq all.1.csv "SELECT trace, counter, tolerance, status FROM t
		WHERE quantity = '\''pages scanned'\'' AND reclaimer = '\''memcg'\''" > m &&
	IFS="|" read -r tr co tol st < m &&
	test $((tr - co)) -le "$tol" &&
	if [ $((co - tr)) -le "$tol" ]; then want=ok; else want=MISMATCH; fi &&
	assert_eq "$st" "$want" "whole-run memcg status"
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'shrinkers of the recording: scanned adds up to the audit slab row' '
	report_csv r.db shrinkers rs &&
	report_csv r.db audit ra &&
	sum=$(csvq rs.1.csv "SELECT COALESCE(SUM(scanned), 0) FROM t") &&
	assert_eq "$(csvq ra.1.csv "SELECT trace FROM t WHERE quantity = '\''slab objects scanned'\''")" "$sum" &&
	vmscope report r.db shrinkers audit --format json | python3 -c "import json, sys; json.load(sys.stdin)"
'

test_done
