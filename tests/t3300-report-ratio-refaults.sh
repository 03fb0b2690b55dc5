#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3300-report-ratio-refaults.sh - the 'ratio' and 'refaults' sections of
# `vmscope report` (docs/report-ratio.md, docs/report-refaults.md) on a tiny
# 6.18 text trace with hand-made counter samples. Every expected number is
# computed by hand in the comments below, never copied from the output.
#
# The trace (times in s from the run start, 100.000000 on the trace clock):
#   0.20-0.40  memcg reclaim, pid 500: lru_shrink_inactive 20 file (0.30), 8 anon (0.35)
#   0.25       one mm_shrink_slab_start (cache items 4719)
#   1.50-1.70  kswapd0 awake: lru_shrink_inactive 50 file (1.60)
#   2.10-2.60  direct reclaim, pid 600: 7 file (2.20), 4 anon (2.50)
#   2.90-      memcg reclaim, pid 500, cut by the end of the trace: 3 anon (3.20)
# /proc/vmstat samples at 0, 1, 2, 2.5, 4, 5, 6, 7 s; /proc/meminfo at 0, 2, 3 s.
#
# Bodies chain their commands with &&: test_expect_success runs them in an
# `if`, where the shell ignores set -e.

. "$(dirname "$0")/test-lib.sh"

# trace line: TIME COMM-PID PAYLOAD (6.18 tracefs with the tgid column)
tl() {
	printf '%16s (%7s) [001] ..... %s: %s\n' "$2" "${2##*-}" "$1" "$3"
}
lsi() { # lru_shrink_inactive payload: RECLAIMED FLAG
	echo "mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=$1 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_$2|RECLAIM_WB_ASYNC"
}

# add_sample DB SOURCE TS_NS NAME=VALUE...: one counter sample (scope ''), then the
# derived tables made again, as after any change to a finished run.
add_sample() {
	db=$1 src=$2 ts=$3
	shift 3
	scope=""
	case $src in memcg:*) scope=${src#memcg:} src=memcg ;; esac
	q="INSERT INTO counter_sample (ts, ts_end, source, scope) VALUES ($ts, $ts + 2000, '$src', '$scope');"
	for kv in "$@"; do
		q="$q INSERT INTO counter_value VALUES ((SELECT MAX(id) FROM counter_sample), '${kv%%=*}', ${kv#*=});"
	done
	sql "$db" "$q" &&
	vmscope upgrade -q --rederive "$db"
}

# csv_block FILE N: the Nth table (1-based) of a CSV report (tables are separated by blank lines).
csv_block() {
	awk -v want="$2" 'BEGIN { n = 1 } NF == 0 { n++; next } n == want { print }' "$1"
}

S=100000000000	# ns of the run start

test_expect_success SQLITE3 'fixture: tiny 6.18 trace imports' '
	{
	echo "# tracer: nop"
	echo "#"
	echo "# entries-in-buffer/entries-written: 14/14   #P:2"
	echo "#"
	tl 100.200000 stress-500 "mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
	tl 100.250000 stress-500 "mm_shrink_slab_start: super_cache_scan+0x0/0x1a0 000000009c4e2a71: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 4719 delta 36 total_scan 36 priority 12"
	tl 100.300000 stress-500 "$(lsi 20 FILE)"
	tl 100.350000 stress-500 "$(lsi 8 ANON)"
	tl 100.400000 stress-500 "mm_vmscan_memcg_reclaim_end: nr_reclaimed=28"
	tl 101.500000 kswapd0-90 "mm_vmscan_kswapd_wake: nid=0 order=0"
	tl 101.600000 kswapd0-90 "$(lsi 50 FILE)"
	tl 101.700000 kswapd0-90 "mm_vmscan_kswapd_sleep: nid=0"
	tl 102.100000 dd-600 "mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
	tl 102.200000 dd-600 "$(lsi 7 FILE)"
	tl 102.500000 dd-600 "$(lsi 4 ANON)"
	tl 102.600000 dd-600 "mm_vmscan_direct_reclaim_end: nr_reclaimed=11"
	tl 102.900000 stress-500 "mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
	tl 103.200000 stress-500 "$(lsi 3 ANON)"
	} > tiny.txt &&
	vmscope import -q -o trace.db tiny.txt &&
	assert_eq "$(sql trace.db "SELECT status, events, start_ts FROM run")" "complete|14|100200000000" &&
	assert_eq "$(sql trace.db "SELECT count(*) FROM import_error")" 0 &&
	assert_eq "$(sql trace.db "SELECT kind, begin_ts, end_ts FROM reclaim_interval ORDER BY 2")" \
"memcg|100200000000|100400000000
direct|102100000000|102600000000
memcg|102900000000|"
'

# Counters of a 5.9+ kernel. Per sample (t in s):
#   t    slab_r slab_u act inact | refault a/f  activate a/f  restore a/f  pgsteal_file
#   0    100    50     300 700   | 10  100      0  50         0  10         1000
#   1    300    60     200 400   | 20  400      5  150        1  40         1600
#   2    200    100    500 500   | 20  500      5  170        1  45         2600
#   2.5  250    50     0   0     | 70  900      25 270        11 85         3100
#   4    240    60     100 500   | 100 1200     40 330        14 100        3100
#   5    90     -      100 200   | 100 1250     40 340        14 100        3300
#   6    30     30     100 200   | 100 1250     40 340        14 100        3400
#   7    60     0      150 150   | 100 1260     40 340        14 100        3400
# (t=5 has no nr_slab_unreclaimable.) meminfo (kB): SReclaimable Slab Cached
#   0: 400 600 4000   2: 800 1200 2000   3: 300 300 3000
test_expect_success SQLITE3 'fixture: counter samples of a 5.9+ kernel' '
	cp trace.db new.db &&
	v() { # v T_NS SR SU ACT INACT RA RF AA AF RSA RSF PGSTEAL [no_su]
		if [ "$3" = - ]; then su=""; else su="nr_slab_unreclaimable=$3"; fi
		add_sample new.db vmstat $1 nr_slab_reclaimable=$2 $su nr_active_file=$4 \
			nr_inactive_file=$5 workingset_refault_anon=$6 workingset_refault_file=$7 \
			workingset_activate_anon=$8 workingset_activate_file=$9 \
			workingset_restore_anon=${10} workingset_restore_file=${11} pgsteal_file=${12}
	} &&
	v $((S))              100 50  300 700 10  100  0  50  0  10  1000 &&
	v $((S + 1000000000)) 300 60  200 400 20  400  5  150 1  40  1600 &&
	v $((S + 2000000000)) 200 100 500 500 20  500  5  170 1  45  2600 &&
	v $((S + 2500000000)) 250 50  0   0   70  900  25 270 11 85  3100 &&
	v $((S + 4000000000)) 240 60  100 500 100 1200 40 330 14 100 3100 &&
	v $((S + 5000000000)) 90  -   100 200 100 1250 40 340 14 100 3300 &&
	v $((S + 6000000000)) 30  30  100 200 100 1250 40 340 14 100 3400 &&
	v $((S + 7000000000)) 60  0   150 150 100 1260 40 340 14 100 3400 &&
	add_sample new.db meminfo $((S)) SReclaimable=400 Slab=600 Cached=4000 &&
	add_sample new.db meminfo $((S + 2000000000)) SReclaimable=800 Slab=1200 Cached=2000 &&
	add_sample new.db meminfo $((S + 3000000000)) SReclaimable=300 Slab=300 Cached=3000 &&
	assert_eq "$(sql new.db "SELECT count(*) FROM counter_sample")" 11 &&
	assert_eq "$(sql new.db "SELECT count(*) FROM counter WHERE source = '\''vmstat'\''")" 87
'

test_expect_success SQLITE3 'ratio: one row per vmstat sample, ratios by hand' '
	vmscope report new.db ratio --format csv > ratio.csv &&
	csv_block ratio.csv 1 > got &&
	# file_lru = act + inact; ratio_reclaimable = slab_r/file_lru; ratio_all = (slab_r+slab_u)/file_lru
	#   0: 100/1000 = .1, 150/1000 = .15    1: 300/600 = .5, 360/600 = .6
	#   2: 200/1000 = .2, 300/1000 = .3     2.5: file_lru 0, no ratio
	#   4: 240/600 = .4, 300/600 = .5       5: 90/300 = .3, no slab_u: no ratio_all
	#   6: 30/300 = .1, 60/300 = .2         7: 60/300 = .2, 60/300 = .2
	cat > want <<-EOF &&
	time,nr_slab_reclaimable,nr_slab_unreclaimable,file_lru,ratio_reclaimable,ratio_all
	0.000,100,50,1000,0.1000,0.1500
	1.000,300,60,600,0.5000,0.6000
	2.000,200,100,1000,0.2000,0.3000
	2.500,250,50,0,,
	4.000,240,60,600,0.4000,0.5000
	5.000,90,,300,0.3000,
	6.000,30,30,300,0.1000,0.2000
	7.000,60,0,300,0.2000,0.2000
	EOF
	test_cmp want got
'

test_expect_success SQLITE3 'ratio: min, median, max and when, vmstat and meminfo forms' '
	csv_block ratio.csv 2 > got &&
	# ratio_reclaimable: .1 .5 .2 .4 .3 .1 .2 -> sorted .1 .1 .2 .2 .3 .4 .5: 7 values,
	#   median .2; min .1 first at 0 s; max .5 at 1 s
	# ratio_all: .15 .6 .3 .5 .2 .2 -> sorted .15 .2 .2 .3 .5 .6: median (.2+.3)/2 = .25;
	#   min .15 at 0 s; max .6 at 1 s
	# SReclaimable/Cached: 400/4000 = .1, 800/2000 = .4, 300/3000 = .1 -> median .1,
	#   min .1 first at 0 s, max .4 at 2 s
	# Slab/Cached: 600/4000 = .15, 1200/2000 = .6, 300/3000 = .1 -> median .15,
	#   min .1 at 3 s, max .6 at 2 s
	cat > want <<-EOF &&
	ratio,formula,samples,min,min_at,median,max,max_at
	ratio_reclaimable,nr_slab_reclaimable/(nr_active_file+nr_inactive_file),7,0.1000,0.000,0.2000,0.5000,1.000
	ratio_all,(nr_slab_reclaimable+nr_slab_unreclaimable)/(nr_active_file+nr_inactive_file),6,0.1500,0.000,0.2500,0.6000,1.000
	meminfo_reclaimable,SReclaimable/Cached,3,0.1000,0.000,0.1000,0.4000,2.000
	meminfo_all,Slab/Cached,3,0.1000,3.000,0.1500,0.6000,2.000
	EOF
	test_cmp want got
'

test_expect_success SQLITE3 'ratio: notes name the counters, the zero file LRU and the missing one' '
	vmscope report new.db ratio > ratio.txt &&
	grep -F "counters: nr_slab_reclaimable, nr_slab_unreclaimable, nr_active_file, nr_inactive_file from /proc/vmstat (pages)" ratio.txt &&
	grep -F "file_lru = nr_active_file + nr_inactive_file" ratio.txt &&
	grep -F "'\''nr_slab_unreclaimable'\'' is missing from 1 sample(s)" ratio.txt &&
	grep -F "file_lru is 0 in 1 sample(s)" ratio.txt &&
	grep -F "ratio_all: 2 sample(s) without a value" ratio.txt
'

test_expect_success SQLITE3 'ratio: a window holds only its samples' '
	vmscope report new.db ratio --format csv --from 1.5 --to 4.5 > w.csv &&
	# vmstat samples in [1.5, 4.5]: 2, 2.5, 4 -> ratio_reclaimable .2, -, .4: median .3;
	# meminfo in [1.5, 4.5]: 2 and 3 -> .4 and .1: median .25, min at 3 s, max at 2 s
	assert_eq "$(csv_block w.csv 1 | cut -d, -f1 | tr "\n" " ")" "time 2.000 2.500 4.000 " &&
	assert_eq "$(csv_block w.csv 2 | sed -n 2p)" \
		"ratio_reclaimable,nr_slab_reclaimable/(nr_active_file+nr_inactive_file),2,0.2000,2.000,0.3000,0.4000,4.000" &&
	assert_eq "$(csv_block w.csv 2 | sed -n 4p)" "meminfo_reclaimable,SReclaimable/Cached,2,0.1000,3.000,0.2500,0.4000,2.000"
'

test_expect_success SQLITE3 'refaults: rates per interval by hand' '
	vmscope report new.db refaults --format csv > ref.csv &&
	csv_block ref.csv 1 > got &&
	# rate = delta / dt; refaults_per_reclaimed = d refault_file / d pgsteal_file
	# [0,1]   dt 1:   10 300 5 100 1 30, pgsteal 600; 300/600 = .5
	# [1,2]   dt 1:   0 100 0 20 0 5, pgsteal 1000; 100/1000 = .1
	# [2,2.5] dt .5:  50/.5 = 100, 400/.5 = 800, 20/.5 = 40, 100/.5 = 200, 10/.5 = 20,
	#                 40/.5 = 80, 500/.5 = 1000; 400/500 = .8
	# [2.5,4] dt 1.5: 30/1.5 = 20, 300/1.5 = 200, 15/1.5 = 10, 60/1.5 = 40, 3/1.5 = 2,
	#                 15/1.5 = 10, pgsteal 0: no ratio
	# [4,5]:  refault_file 50, activate_file 10, pgsteal 200; 50/200 = .25
	# [5,6]:  only pgsteal 100; 0/100 = 0       [6,7]: refault_file 10, pgsteal 0: no ratio
	cat > want <<-EOF &&
	start,end,dt,refault_anon,refault_file,activate_anon,activate_file,restore_anon,restore_file,pgsteal_file,refaults_per_reclaimed
	0.000,1.000,1.000,10.0,300.0,5.0,100.0,1.0,30.0,600.0,0.5000
	1.000,2.000,1.000,0.0,100.0,0.0,20.0,0.0,5.0,1000.0,0.1000
	2.000,2.500,0.500,100.0,800.0,40.0,200.0,20.0,80.0,1000.0,0.8000
	2.500,4.000,1.500,20.0,200.0,10.0,40.0,2.0,10.0,0.0,
	4.000,5.000,1.000,0.0,50.0,0.0,10.0,0.0,0.0,200.0,0.2500
	5.000,6.000,1.000,0.0,0.0,0.0,0.0,0.0,0.0,100.0,0.0000
	6.000,7.000,1.000,0.0,10.0,0.0,0.0,0.0,0.0,0.0,
	EOF
	test_cmp want got
'

test_expect_success SQLITE3 'refaults: totals, mean and peak rates' '
	csv_block ref.csv 2 > got &&
	# totals = last - first: anon 100-10 = 90, file 1260-100 = 1160, activate 40 and 340-50 = 290,
	# restore 14 and 100-10 = 90, pgsteal 3400-1000 = 2400; mean = total / 7 s:
	# 12.857, 165.714, 5.714, 41.429, 2.0, 12.857, 342.857. Peaks from the table above:
	# all at the [2,2.5] interval except pgsteal: 1000/s first reached at [1,2]
	cat > want <<-EOF &&
	metric,counter,total,mean,peak,peak_at
	refault_anon,workingset_refault_anon,90,12.9,100.0,2.000
	refault_file,workingset_refault_file,1160,165.7,800.0,2.000
	activate_anon,workingset_activate_anon,40,5.7,40.0,2.000
	activate_file,workingset_activate_file,290,41.4,200.0,2.000
	restore_anon,workingset_restore_anon,14,2.0,20.0,2.000
	restore_file,workingset_restore_file,90,12.9,80.0,2.000
	pgsteal_file,pgsteal_file,2400,342.9,1000.0,1.000
	EOF
	test_cmp want got
'

test_expect_success SQLITE3 'refaults: ratios over the window' '
	csv_block ref.csv 3 > got &&
	# 1160/2400 = .48333; 290/1160 = .25; 90/1160 = .077586; 40/90 = .44444; 14/90 = .15556
	cat > want <<-EOF &&
	metric,formula,value
	refaults per reclaimed file page,Δworkingset_refault_file/Δpgsteal_file,0.4833
	file refaults activated,Δworkingset_activate_file/Δworkingset_refault_file,0.2500
	file refaults restored (thrashing),Δworkingset_restore_file/Δworkingset_refault_file,0.0776
	anon refaults activated,Δworkingset_activate_anon/Δworkingset_refault_anon,0.4444
	anon refaults restored (thrashing),Δworkingset_restore_anon/Δworkingset_refault_anon,0.1556
	EOF
	test_cmp want got
'

test_expect_success SQLITE3 'refaults: busiest intervals and the reclaim in the second before' '
	csv_block ref.csv 4 > got &&
	# refault rate (anon + file): [0,1] 310, [1,2] 100, [2,2.5] 450/.5 = 900, [2.5,4] 330/1.5 = 220,
	# [4,5] 50, [5,6] 0 (not ranked), [6,7] 10 (6th: left out)
	# 1. [2,2.5]: look-back [1,2): kswapd 1.5-1.7; pages 50 file at 1.6
	# 2. [0,1]:   look-back [-1,0): nothing
	# 3. [2.5,4]: look-back [1.5,2.5): kswapd (ends 1.7), direct 2.1-2.6; pages 50 + 7 (2.2);
	#             the 4 anon at 2.5 are outside the half-open span
	# 4. [1,2]:   look-back [0,1): memcg 0.2-0.4; pages 20 file + 8 anon
	# 5. [4,5]:   look-back [3,4): memcg from 2.9, open at the end of the trace; 3 anon at 3.2
	cat > want <<-EOF &&
	rank,start,end,refault_rate,episodes,kinds,reclaimed,reclaimed_anon,reclaimed_file
	1,2.000,2.500,900.0,1,kswapd 1,50,0,50
	2,0.000,1.000,310.0,0,,0,0,0
	3,2.500,4.000,220.0,2,"direct 1, kswapd 1",57,0,57
	4,1.000,2.000,100.0,1,memcg 1,28,8,20
	5,4.000,5.000,50.0,1,memcg 1,3,3,0
	EOF
	test_cmp want got &&
	vmscope report new.db refaults > ref.txt &&
	# look-backs of [0,1] and [1,2] start before the first event (0.2 s)
	grep -F "2 look-back(s) start before the first event of the trace" ref.txt &&
	grep -F "refault_file = workingset_refault_file" ref.txt
'

test_expect_success SQLITE3 'refaults: a window starts at the sample at or before --from' '
	vmscope report new.db refaults vmstat --format csv --from 1.5 --to 4.5 > w.csv &&
	# samples 1 (last at or before 1.5), 2, 2.5, 4: intervals [1,2] [2,2.5] [2.5,4];
	# refault_file 100 + 400 + 300 = 800 = 1200 - 400, as the vmstat section has it
	assert_eq "$(csv_block w.csv 1 | cut -d, -f1 | tr "\n" " ")" "start 1.000 2.000 2.500 " &&
	assert_eq "$(csv_block w.csv 2 | grep ^refault_file,)" "refault_file,workingset_refault_file,800,266.7,800.0,2.000" &&
	grep -x "Refaults file,800,workingset_refault_file" w.csv
'

test_expect_success SQLITE3 'refaults and ratio: a window with fewer than 2 samples' '
	vmscope report new.db ratio refaults --from 2.6 --to 3.9 > few.txt &&
	# refaults: only 2.5 (at or before 2.6); ratio: no vmstat sample in [2.6, 3.9],
	# meminfo at 3 s: .1 and .1
	grep -F "1 /proc/vmstat sample(s) in the window (2.600 s to 3.900 s): a rate needs two" few.txt &&
	grep -F "no /proc/vmstat sample between 2.600 s and 3.900 s" few.txt &&
	grep -F "no sampling interval in the window: nothing to total" few.txt &&
	grep -F "no interval in the window has refaults" few.txt &&
	grep -E "^meminfo_all +Slab/Cached +1 +0.1000 +3.000 +0.1000 +0.1000 +3.000$" few.txt
'

test_expect_success SQLITE3 'refaults: the totals of the recorded memcg, in a table of their own that names its scope' '
	cp new.db cg.db &&
	# memory.stat (cgroup v1) at 0, 1, 2 s: refault_anon 5 7 7, refault_file 50 250 300
	add_sample cg.db memcg:/sys/fs/cgroup/memory/w $((S)) workingset_refault_anon=5 workingset_refault_file=50 &&
	add_sample cg.db memcg:/sys/fs/cgroup/memory/w $((S + 1000000000)) workingset_refault_anon=7 workingset_refault_file=250 &&
	add_sample cg.db memcg:/sys/fs/cgroup/memory/w $((S + 2000000000)) workingset_refault_anon=7 workingset_refault_file=300 &&
	vmscope report cg.db refaults --table memcg --format csv > cg.csv &&
	cat > want <<-EOF &&
	metric,counter,total,mean,peak,peak_at
	refault_anon,workingset_refault_anon,2,1.0,2.0,0.000
	refault_file,workingset_refault_file,250,125.0,200.0,0.000
	activate_anon,,,,,
	activate_file,,,,,
	restore_anon,,,,,
	restore_file,,,,,
	pgsteal_file,,,,,
	EOF
	test_cmp want cg.csv &&
	vmscope report cg.db refaults > cg.txt &&
	grep -F "scope: the memcg /sys/fs/cgroup/memory/w only" cg.txt &&
	grep -F "5 counter(s) not in this memcg" cg.txt &&
	grep -F "scope: the whole machine (/proc/vmstat)" cg.txt &&
	# the ratio has no memcg form (no slab in a v1 memory.stat), and says its scope
	vmscope report cg.db ratio --table summary > cgr.txt &&
	grep -F "scope: the whole machine (/proc/vmstat, /proc/meminfo)" cgr.txt &&
	# the machine-wide totals are those of the table before: the memcg changes none of them
	vmscope report cg.db refaults --table totals --format csv > m1.csv &&
	vmscope report new.db refaults --table totals --format csv > m2.csv &&
	test_cmp m2.csv m1.csv &&
	# without memory.stat samples there is no such table, and report says so
	test_must_fail vmscope report new.db refaults --table memcg 2>err &&
	grep -F "no table '"'"'memcg'"'"' in this report (tables: intervals, totals, ratios, busiest)" err
'

# Counters of a 5.4 kernel: old names, no pgsteal_file, no slab counters,
# and workingset_refault going down (a reset) between 1 and 2 s.
#   t  workingset_refault  workingset_activate  workingset_restore
#   0  100                 10                   1
#   1  300                 30                   2
#   2  50                  40                   3
#   3  250                 60                   4
test_expect_success SQLITE3 'fixture: counter samples of a 5.4 kernel' '
	cp trace.db old.db &&
	add_sample old.db vmstat $((S)) workingset_refault=100 workingset_activate=10 workingset_restore=1 &&
	add_sample old.db vmstat $((S + 1000000000)) workingset_refault=300 workingset_activate=30 workingset_restore=2 &&
	add_sample old.db vmstat $((S + 2000000000)) workingset_refault=50 workingset_activate=40 workingset_restore=3 &&
	add_sample old.db vmstat $((S + 3000000000)) workingset_refault=250 workingset_activate=60 workingset_restore=4
'

test_expect_success SQLITE3 'refaults, kernel <= 5.8: old names are the file counters, anon unavailable' '
	vmscope report old.db refaults --format csv > old.csv &&
	# refault 200, (reset), 200; activate 20, 10, 20; restore 1, 1, 1
	cat > want <<-EOF &&
	start,end,dt,refault_anon,refault_file,activate_anon,activate_file,restore_anon,restore_file,pgsteal_file,refaults_per_reclaimed
	0.000,1.000,1.000,,200.0,,20.0,,1.0,,
	1.000,2.000,1.000,,,,10.0,,1.0,,
	2.000,3.000,1.000,,200.0,,20.0,,1.0,,
	EOF
	csv_block old.csv 1 > got &&
	test_cmp want got &&
	# refault: 400 over the 2 s of valid intervals = 200/s, peak 200 first at 0 s;
	# activate 50 / 3 s = 16.7; restore 3 / 3 s = 1.0
	cat > want <<-EOF &&
	metric,counter,total,mean,peak,peak_at
	refault_anon,,,,,
	refault_file,workingset_refault,400,200.0,200.0,0.000
	activate_anon,,,,,
	activate_file,workingset_activate,50,16.7,20.0,0.000
	restore_anon,,,,,
	restore_file,workingset_restore,3,1.0,1.0,0.000
	pgsteal_file,,,,,
	EOF
	csv_block old.csv 2 > got &&
	test_cmp want got &&
	# over intervals where both are valid ([0,1] and [2,3]): 40/400 = .1, 2/400 = .005
	assert_eq "$(csv_block old.csv 3 | sed -n "3p;4p")" \
"file refaults activated,Δworkingset_activate/Δworkingset_refault,0.1000
file refaults restored (thrashing),Δworkingset_restore/Δworkingset_refault,0.0050" &&
	assert_eq "$(csv_block old.csv 3 | sed -n 2p)" "refaults per reclaimed file page,Δworkingset_refault/Δpgsteal_file," &&
	# busiest: [0,1] and [2,3] both 200/s, the earlier first; [1,2] (reset) not ranked
	cat > want <<-EOF &&
	rank,start,end,refault_rate,episodes,kinds,reclaimed,reclaimed_anon,reclaimed_file
	1,0.000,1.000,200.0,0,,0,0,0
	2,2.000,3.000,200.0,1,kswapd 1,50,0,50
	EOF
	csv_block old.csv 4 > got &&
	test_cmp want got
'

test_expect_success SQLITE3 'refaults, kernel <= 5.8: the notes say so' '
	vmscope report old.db refaults > old.txt &&
	grep -F "refault_anon = (not in this kernel'\''s /proc/vmstat); refault_file = workingset_refault;" old.txt &&
	grep -F "kernel up to 5.8: workingset_refault/_activate/_restore count page-cache (file) pages only" old.txt &&
	grep -F "workingset_refault went down in 1 interval(s) (a counter reset)" old.txt &&
	grep -F "pgsteal_file (5.8+) is not in this kernel'\''s /proc/vmstat" old.txt
'

test_expect_success SQLITE3 'ratio: samples without the slab counters give empty ratios and say why' '
	vmscope report old.db ratio --format csv > oldr.csv &&
	assert_eq "$(csv_block oldr.csv 1 | sed -n 2p)" "0.000,,,,," &&
	assert_eq "$(csv_block oldr.csv 2 | sed -n 2p)" \
		"ratio_reclaimable,nr_slab_reclaimable/(nr_active_file+nr_inactive_file),0,,,,," &&
	vmscope report old.db ratio > oldr.txt &&
	grep -F "'\''nr_slab_reclaimable'\'' is missing from 4 sample(s)" oldr.txt &&
	grep -F "no /proc/meminfo sample in the window" oldr.txt
'

test_expect_success SQLITE3 'no counters (an imported trace): both sections say what they need' '
	vmscope report trace.db ratio refaults > none.txt &&
	grep -F "unavailable: this run has no /proc/vmstat samples" none.txt &&
	grep -F "the ratio needs counter samples (nr_slab_reclaimable, nr_slab_unreclaimable, nr_active_file, nr_inactive_file" none.txt &&
	grep -F "\`vmscope record\` samples them; for an imported trace, give the counter logs kept beside it with import --counters or counters add" none.txt &&
	grep -F "this window has 1 mm_shrink_slab_start event(s) with cache_items" none.txt &&
	grep -F "no kernel 4.14-6.18 has a workingset or refault tracepoint" none.txt &&
	assert_eq "$(grep -c "^Slab/page-cache ratio: unavailable$\|^Workingset refaults: unavailable$" none.txt)" 2
'

test_expect_success SQLITE3 'JSON output is valid, with columns, units and notes' '
	for db in new old trace; do
		vmscope report $db.db ratio refaults --format json > $db.json &&
		python3 -c "import json, sys; json.load(open(sys.argv[1]))" $db.json || exit 1
	done &&
	python3 - new.json <<-EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	t = {(x["section"], x["table"]): x for x in d["tables"]}
	assert sorted(t) == [("ratio", "series"), ("ratio", "summary"), ("refaults", "busiest"),
	                     ("refaults", "intervals"), ("refaults", "ratios"), ("refaults", "totals")], sorted(t)
	s = t[("ratio", "series")]
	assert [c["name"] for c in s["columns"]][4:] == ["ratio_reclaimable", "ratio_all"]
	assert s["rows"][3] == [2.5, 250, 50, 0, None, None], s["rows"][3]
	b = t[("refaults", "busiest")]
	assert b["rows"][2][5] == "direct 1, kswapd 1"
	assert t[("refaults", "intervals")]["columns"][4] == {"name": "refault_file", "unit": "/s"}
	assert any("look-back" in n for n in b["notes"])
	EOF
'

test_expect_success SQLITE3 'CSV tables load with sqlite3 .import' '
	for n in 1 2; do
		csv_block ratio.csv $n > r$n.csv || exit 1
	done &&
	for n in 1 2 3 4; do
		csv_block ref.csv $n > f$n.csv || exit 1
	done &&
	assert_eq "$(sqlite3 :memory: ".import --csv r1.csv t" "SELECT count(*), max(ratio_reclaimable) FROM t")" "8|0.5000" &&
	assert_eq "$(sqlite3 :memory: ".import --csv r2.csv t" "SELECT median FROM t WHERE ratio = '\''ratio_all'\''")" "0.2500" &&
	assert_eq "$(sqlite3 :memory: ".import --csv f1.csv t" "SELECT sum(refault_file * dt) FROM t")" "1160.0" &&
	assert_eq "$(sqlite3 :memory: ".import --csv f4.csv t" "SELECT kinds FROM t WHERE rank = '\''3'\''")" "direct 1, kswapd 1" &&
	# a section with a single table loads as it is printed
	vmscope report trace.db refaults --format csv > one.csv &&
	assert_eq "$(sqlite3 :memory: ".import --csv one.csv t" "SELECT status FROM t")" \
		"unavailable: this run has no /proc/vmstat samples"
'

test_done
