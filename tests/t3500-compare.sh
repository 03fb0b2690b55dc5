#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3500-compare.sh - `vmscope compare A.db B.db`: the before/after table of
# two runs. A and B are imported from small hand-written 6.18-format text
# traces (tracefs, record-tgid column) of different lengths (A 10 s, B 20 s)
# and given /proc/vmstat samples with sqlite3, with different counter sets
# (as two kernels have). Every expected value below is computed by hand in
# the comments from those inputs, not taken from the program's output.

. "$(dirname "$0")/test-lib.sh"

# 6.18 mm_vmscan_lru_shrink_inactive fields that do not matter here
SI='nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12'
HDR='# tracer: nop
#
#           TASK-PID     TGID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |        |   |||||     |         |'

# add_sample DB ID SECONDS NAME=VALUE...: one /proc/vmstat sample at SECONDS of the trace
# clock, then the derived tables made again, as after any change to a finished run.
add_sample() {
	db=$1 id=$2 s=$3
	shift 3
	q="INSERT INTO counter_sample (id, ts, ts_end, source, scope)
	   VALUES ($id, $s * 1000000000, $s * 1000000000 + 50000, 'vmstat', '');"
	for nv in "$@"; do
		q="$q INSERT INTO counter_value (sample, name, value) VALUES ($id, '${nv%%=*}', ${nv#*=});"
	done
	sql "$db" "$q" &&
	vmscope upgrade -q --rederive "$db"
}

# csv_db CSV DB: load the comparison CSV into table t of DB (fresh).
csv_db() {
	rm -f "$2"
	sqlite3 -batch "$2" ".import --csv $1 t"
}

# row DB METRIC: "A|B|change" of one row of a loaded CSV ('' for '-').
row() {
	sql "$1" "SELECT A || '|' || B || '|' || change FROM t WHERE metric = '$2'"
}

# check DB METRIC WANT
check() {
	assert_eq "$(row "$1" "$2")" "$3" "$2"
}

test_expect_success SQLITE3 'set up A: 10 s trace of a 6.17 kernel, 3 vmstat samples' '
	cat > a.txt <<-EOF
	$HDR
	         kswapd0-90      (     90) [002] ..... 100.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-90      (     90) [002] ..... 101.000000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=100 nr_reclaimed=80 $SI flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	         kswapd0-90      (     90) [002] ..... 102.000000: mm_vmscan_kswapd_sleep: nid=0
	         kswapd0-90      (     90) [002] ..... 104.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-90      (     90) [002] ..... 105.000000: mm_vmscan_kswapd_sleep: nid=0
	          stress-1000    (   1000) [005] ..... 106.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          stress-1000    (   1000) [005] ..... 106.002000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=50 nr_reclaimed=25 $SI flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC
	          stress-1000    (   1000) [005] ..... 106.004000: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
	          stress-1001    (   1001) [006] ..... 107.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          stress-1001    (   1001) [006] ..... 107.010000: mm_vmscan_direct_reclaim_end: nr_reclaimed=64
	          stress-1001    (   1001) [006] ..... 110.000000: sched_process_exit: comm=stress pid=1001 prio=120
	EOF
	cp a.txt nocnt.txt
	vmscope import -q --kernel 6.17.0 -o a.db a.txt
	vmscope import -q --kernel 6.17.0 -o nocnt.db nocnt.txt
	assert_eq "$(sql a.db "SELECT status, events FROM run")" "complete|11"
	# A has no pgscan_anon/file (5.8+) and no compact_stall; it has pginodesteal.
	# nr_slab_reclaimable/(nr_active_file+nr_inactive_file): 100/500 = 0.2, 300/1000 = 0.3, 50/1000 = 0.05
	add_sample a.db 1 100 pgscan_kswapd=1000 pgsteal_kswapd=500 pgscan_direct=0 pgsteal_direct=0 \
		allocstall_normal=10 allocstall_movable=5 pginodesteal=0 \
		nr_slab_reclaimable=100 nr_active_file=200 nr_inactive_file=300
	add_sample a.db 2 105 pgscan_kswapd=2000 pgsteal_kswapd=1300 pgscan_direct=0 pgsteal_direct=0 \
		allocstall_normal=10 allocstall_movable=15 pginodesteal=10 \
		nr_slab_reclaimable=300 nr_active_file=500 nr_inactive_file=500
	add_sample a.db 3 110 pgscan_kswapd=3000 pgsteal_kswapd=2100 pgscan_direct=0 pgsteal_direct=0 \
		allocstall_normal=10 allocstall_movable=25 pginodesteal=30 \
		nr_slab_reclaimable=50 nr_active_file=400 nr_inactive_file=600
'

test_expect_success SQLITE3 'set up B: 20 s trace of a 6.18 kernel, untrusted comm and event name, 4 samples' '
	cat > b.txt <<-EOF
	$HDR
	         kswapd0-90      (     90) [002] ..... 200.500000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-90      (     90) [002] ..... 201.000000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=300 nr_reclaimed=240 $SI flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	         kswapd0-90      (     90) [002] ..... 202.000000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=100 nr_reclaimed=60 $SI flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC
	         kswapd0-90      (     90) [002] ..... 204.500000: mm_vmscan_kswapd_sleep: nid=0
	          stress-2000    (   2000) [005] ..... 205.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          stress-2000    (   2000) [005] ..... 205.002000: mm_vmscan_direct_reclaim_end: nr_reclaimed=10
	   ev"il, co'"'"'mm-2001    (   2001) [004] ..... 206.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	   ev"il, co'"'"'mm-2001    (   2001) [004] ..... 206.006000: mm_vmscan_direct_reclaim_end: nr_reclaimed=20
	          stress-2002    (   2002) [006] ..... 207.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          stress-2002    (   2002) [006] ..... 207.005000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=200 nr_reclaimed=200 $SI flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	          stress-2002    (   2002) [006] ..... 207.010000: mm_vmscan_direct_reclaim_end: nr_reclaimed=30
	          memhog-3000    (   3000) [001] ..... 210.000000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          memhog-3000    (   3000) [001] ..... 210.005000: mm_vmscan_memcg_reclaim_end: nr_reclaimed=8
	          memhog-3001    (   3001) [003] ..... 211.000000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          memhog-3001    (   3001) [003] ..... 211.015000: mm_vmscan_memcg_reclaim_end: nr_reclaimed=16
	   ev"il, co'"'"'mm-2001    (   2001) [004] ..... 215.000000: q"u,o'"'"'te{x}: a=1
	          stress-2002    (   2002) [006] ..... 220.000000: sched_process_exit: comm=stress pid=2002 prio=120
	EOF
	vmscope import -q --kernel 6.18.0 -o b.db b.txt
	assert_eq "$(sql b.db "SELECT status, events FROM run")" "complete|17"
	assert_eq "$(sql b.db "SELECT comm FROM task WHERE pid = 2001")" "ev\"il, co'"'"'mm"
	assert_eq "$(sql b.db "SELECT event FROM event_generic WHERE ts = 215000000000")" "q\"u,o'"'"'te{x}"
	# B has pgscan_anon/file and compact_stall, no pginodesteal. Its samples start 0.5 s
	# before its first event (200.0): the run, and so the window, is 200..220 s = 20 s.
	# ratios: 100/200 = 0.5, 40/200 = 0.2, 60/200 = 0.3, 200/200 = 1.0
	add_sample b.db 1 200 pgscan_kswapd=5000 pgsteal_kswapd=1000 pgscan_direct=100 pgsteal_direct=0 \
		allocstall_normal=0 pgscan_anon=0 pgscan_file=0 compact_stall=0 \
		nr_slab_reclaimable=100 nr_active_file=100 nr_inactive_file=100
	add_sample b.db 2 205 pgscan_kswapd=7000 pgsteal_kswapd=2000 pgscan_direct=300 pgsteal_direct=100 \
		allocstall_normal=20 pgscan_anon=300 pgscan_file=2000 compact_stall=2 \
		nr_slab_reclaimable=40 nr_active_file=100 nr_inactive_file=100
	add_sample b.db 3 210 pgscan_kswapd=9000 pgsteal_kswapd=4000 pgscan_direct=600 pgsteal_direct=200 \
		allocstall_normal=40 pgscan_anon=600 pgscan_file=4000 compact_stall=5 \
		nr_slab_reclaimable=60 nr_active_file=100 nr_inactive_file=100
	add_sample b.db 4 220 pgscan_kswapd=11000 pgsteal_kswapd=5400 pgscan_direct=900 pgsteal_direct=400 \
		allocstall_normal=60 pgscan_anon=1000 pgscan_file=6000 compact_stall=10 \
		nr_slab_reclaimable=200 nr_active_file=100 nr_inactive_file=100
'

test_expect_success SQLITE3 'text: exit 0, both names in the title, columns metric A B change' '
	vmscope compare --pair a.db b.db > out.txt
	assert_eq "$(head -n 1 out.txt)" "Before/after: A = a.db (kernel 6.17.0), B = b.db (kernel 6.18.0)" title
	sed -n 2p out.txt | grep -Eq "^metric +A +B +change \(%\)$"
'

test_expect_success SQLITE3 'text: every row lines up with the header (right-aligned numbers)' '
	test -s out.txt
	awk "NR == 2 { w = length(\$0) } NR > 2 && /^  note: / { exit }
	     NR > 2 && length(\$0) != w { print \"misaligned: \" \$0; bad = 1 } END { exit bad }" out.txt
'

test_expect_success SQLITE3 'text: rows as computed by hand' '
	# pgscan_kswapd: A (3000-1000)/10 s = 200/s, B (11000-5000)/20 s = 300/s: +50%
	grep -Eq "^Kswapd pages scanned per s +200\.000 +300\.000 +50\.00$" out.txt
	# pgscan_direct: A 0/10 = 0, B (900-100)/20 = 40/s: A = 0, change "-"
	grep -Eq "^Direct pages scanned per s +0\.000 +40\.000 +-$" out.txt
	# pgscan_anon is not in A: "-", change "-"
	grep -Eq "^Pages scanned anon \(all reclaimers\) per s +- +50\.000 +-$" out.txt
	# pswpin in neither
	grep -Eq "^Swap ins per s +- +- +-$" out.txt
'

test_expect_success SQLITE3 'csv: loads with sqlite3 .import, one row per metric' '
	vmscope compare a.db b.db --format csv > out.csv
	assert_eq "$(head -n 1 out.csv)" "metric,A,B,change" "CSV header"
	csv_db out.csv c.db
	# 1 window + 38 vmstat + 10 trace + 3 ratio + 17 episode rows
	# + 9 event types (5 in both, 2 memcg in B only, the quoted one, sched_process_exit)
	assert_eq "$(sql c.db "SELECT count(*) FROM t")" 78 rows
	assert_eq "$(sql c.db "SELECT count(DISTINCT metric) FROM t")" 78 "distinct metrics"
'

test_expect_success SQLITE3 'vmstat rows: per second over T, ratios and velocities as they are' '
	# Window and T: A 100..110 s = 10, B 200..220 s = 20: +100%
	check c.db "Window (s)" "10.000|20.000|100.00"
	check c.db "Elapsed (T, s)" "10.000|20.000|100.00"
	# pgsteal_kswapd: A (2100-500)/10 = 160/s, B (5400-1000)/20 = 220/s: 100*60/160 = +37.5%
	check c.db "Kswapd pages reclaimed per s" "160.000|220.000|37.50"
	# pgsteal_direct: A 0, B (400-0)/20 = 20/s
	check c.db "Direct pages reclaimed per s" "0.000|20.000|"
	# efficiency: A 100*1600/2000 = 80, B 100*4400/6000 = 73.333: 100*(73.333-80)/80 = -8.33%
	check c.db "Kswapd efficiency %" "80.000|73.333|-8.33"
	# direct: A scanned nothing: no efficiency ("-"); B 100*400/800 = 50
	check c.db "Direct efficiency %" "|50.000|"
	# velocity = pgscan/T: A 2000/10 = 200, B 6000/20 = 300: +50%
	check c.db "Kswapd velocity (pages/s)" "200.000|300.000|50.00"
	check c.db "Direct velocity (pages/s)" "0.000|40.000|"
	# % direct: A 0/(0+2000) = 0; B 100*800/6800 = 11.7647
	check c.db "Percentage direct scans" "0.000|11.765|"
	# allocstall_*: A (10-10)+(25-5) = 20 / 10 = 2/s; B 60/20 = 3/s: +50%
	check c.db "Allocation stalls per s" "2.000|3.000|50.00"
	# only in A: pginodesteal 30/10 = 3/s; only in B: compact_stall 10/20 = 0.5/s
	check c.db "Direct inode steals per s" "3.000||"
	check c.db "Compaction stalls per s" "|0.500|"
	# other reclaim, B only: (1000 + 6000 - 6000 - 800)/20 = 10/s
	check c.db "Pages scanned by other reclaim (memcg limit) per s" "|10.000|"
	check c.db "Pages scanned file (all reclaimers) per s" "|300.000|"
	check c.db "Refaults file per s" "||"
'

test_expect_success SQLITE3 'trace rows: mm_vmscan_lru_shrink_inactive per reclaimer, per second' '
	# kswapd: A 100 scanned/80 reclaimed (file) in 10 s; B 300/240 file + 100/60 anon in 20 s
	check c.db "Trace: kswapd pages scanned per s" "10.000|20.000|100.00"
	check c.db "Trace: kswapd pages reclaimed per s" "8.000|15.000|87.50"
	check c.db "Trace: kswapd efficiency %" "80.000|75.000|-6.25"
	check c.db "Trace: kswapd anon pages scanned per s" "0.000|5.000|"
	check c.db "Trace: kswapd file pages scanned per s" "10.000|15.000|50.00"
	# other tasks: A 50/25 anon (10 s); B 200/200 file (20 s) by stress-2002
	check c.db "Trace: other tasks pages scanned per s" "5.000|10.000|100.00"
	check c.db "Trace: other tasks pages reclaimed per s" "2.500|10.000|300.00"
	check c.db "Trace: other tasks efficiency %" "50.000|100.000|100.00"
	check c.db "Trace: other tasks anon pages scanned per s" "5.000|0.000|-100.00"
	check c.db "Trace: other tasks file pages scanned per s" "0.000|10.000|"
'

test_expect_success SQLITE3 'ratio rows: min, median, max of slab/file LRU over the samples' '
	# A: 0.05 0.2 0.3 -> median 0.2; B: 0.2 0.3 0.5 1.0 -> median (0.3+0.5)/2 = 0.4
	check c.db "Slab/file LRU ratio min" "0.050|0.200|300.00"
	check c.db "Slab/file LRU ratio median" "0.200|0.400|100.00"
	# 100*(1.0-0.3)/0.3 = 233.33
	check c.db "Slab/file LRU ratio max" "0.300|1.000|233.33"
'

test_expect_success SQLITE3 'episode rows: rates, nearest-rank percentiles, A = 0 and no episode in A' '
	# direct: A 4 ms and 10 ms, 32+64 pages, in 10 s; B 2, 6, 10 ms, 10+20+30 pages, in 20 s
	check c.db "Direct reclaim episodes per s" "0.200|0.150|-25.00"
	# total: A 14 ms/10 s = 1.4, B 18/20 = 0.9: 100*(0.9-1.4)/1.4 = -35.71
	check c.db "Direct reclaim total duration (ms) per s" "1.400|0.900|-35.71"
	# p50 = rank ceil(0.5n): A rank 1 of 2 = 4, B rank 2 of 3 = 6; p99: ranks 2 and 3
	check c.db "Direct reclaim p50 (ms)" "4.000|6.000|50.00"
	check c.db "Direct reclaim p99 (ms)" "10.000|10.000|0.00"
	check c.db "Direct reclaim max (ms)" "10.000|10.000|0.00"
	# pages: A 96/10 = 9.6, B 60/20 = 3: 100*(3-9.6)/9.6 = -68.75
	check c.db "Direct reclaim pages reclaimed per s" "9.600|3.000|-68.75"
	# memcg: none in A (a 0, change null), B 5 ms and 15 ms, 8+16 pages
	check c.db "Memcg reclaim episodes per s" "0.000|0.100|"
	check c.db "Memcg reclaim total duration (ms) per s" "0.000|1.000|"
	check c.db "Memcg reclaim p50 (ms)" "|5.000|"
	check c.db "Memcg reclaim p99 (ms)" "|15.000|"
	check c.db "Memcg reclaim pages reclaimed per s" "0.000|1.200|"
	# kswapd awake: A 2000 ms and 1000 ms; B one of 4000 ms (200.5 -> 204.5)
	check c.db "Kswapd awake episodes per s" "0.200|0.050|-75.00"
	check c.db "Kswapd awake total duration (ms) per s" "300.000|200.000|-33.33"
	check c.db "Kswapd awake p50 (ms)" "1000.000|4000.000|300.00"
	check c.db "Kswapd awake p99 (ms)" "2000.000|4000.000|100.00"
	check c.db "Kswapd awake max (ms)" "2000.000|4000.000|100.00"
'

test_expect_success SQLITE3 'event rows: per type per second, the union of both runs' '
	# A: 2 of each vmscan type in 10 s; B: 1 wake, 1 sleep, 3 shrink_inactive, 3+3 direct in 20 s
	check c.db "Events mm_vmscan_kswapd_wake per s" "0.200|0.050|-75.00"
	check c.db "Events mm_vmscan_lru_shrink_inactive per s" "0.200|0.150|-25.00"
	check c.db "Events mm_vmscan_direct_reclaim_end per s" "0.200|0.150|-25.00"
	check c.db "Events mm_vmscan_memcg_reclaim_begin per s" "0.000|0.100|"
	# 1 in 10 s, 1 in 20 s: -50%
	check c.db "Events sched_process_exit per s" "0.100|0.050|-50.00"
	assert_eq "$(sql c.db "SELECT A || \"|\" || B FROM t WHERE metric = '\''Events q\"u,o'\'\''te{x} per s'\''")" \
		"0.000|0.050" "quoted event name"
'

test_expect_success SQLITE3 'notes: per second rows, A = 0, counters a kernel lacks, no memcg episode' '
	grep -q "^  note: change (%) = 100\*(B-A)/A; rows ending in .per s. are totals" out.txt
	grep "^  note: change is .-. (null) where A is 0" out.txt > zero.note
	for m in "Direct pages scanned per s" "Percentage direct scans" "Memcg reclaim episodes per s" \
		"Events mm_vmscan_memcg_reclaim_end per s"; do
		grep -qF "$m" zero.note || { echo "not in the A = 0 note: $m"; exit 1; }
	done
	grep -F "  note: A: not in this kernel'"'"'s /proc/vmstat" out.txt | grep -q "pgscan_anon, pgscan_file"
	grep -F "  note: B: not in this kernel'"'"'s /proc/vmstat" out.txt | grep -q "pginodesteal"
	grep -q "^  note: A: no complete memcg reclaim episode in the window" out.txt
'

test_expect_success SQLITE3 'json: valid, same values, null for "-", names in the run object' '
	vmscope compare a.db b.db --format json > out.json
	python3 - out.json <<-EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	run = d["run"]
	assert run["a_database"] == "a.db" and run["b_database"] == "b.db", run
	assert run["a_kernel_release"] == "6.17.0" and run["b_kernel_release"] == "6.18.0", run
	t = d["tables"][0]
	assert [c["name"] for c in t["columns"]] == ["metric", "A", "B", "change"], t["columns"]
	rows = {r[0]: r[1:] for r in t["rows"]}
	assert len(rows) == 78, len(rows)
	assert rows["Kswapd pages scanned per s"] == [200.0, 300.0, 50.0], rows["Kswapd pages scanned per s"]
	assert rows["Direct pages scanned per s"] == [0.0, 40.0, None]
	assert rows["Direct inode steals per s"] == [3.0, None, None]
	assert rows["Memcg reclaim p50 (ms)"] == [None, 5.0, None]
	assert any(n.startswith("change is ") for n in t["notes"]), t["notes"]
	EOF
'

test_expect_success SQLITE3 'a run without counters: its vmstat and ratio rows are "-", the trace rows stay' '
	vmscope compare nocnt.db b.db --format csv > nocnt.csv
	csv_db nocnt.csv n.db
	check n.db "Kswapd pages scanned per s" "|300.000|"
	check n.db "Slab/file LRU ratio median" "|0.400|"
	check n.db "Trace: kswapd pages scanned per s" "10.000|20.000|100.00"
	# no samples: the window is the events only, 100..110 s
	check n.db "Window (s)" "10.000|20.000|100.00"
	vmscope compare --pair nocnt.db b.db | grep -q "^  note: A has no /proc/vmstat samples"
'

test_expect_success SQLITE3 'an event the source lists no format for was not traced: "-", not 0' '
	# as a .dat file or a recording does: event_format lists the traced events
	cp a.db fmt.db
	sql fmt.db "INSERT INTO event_format (system, name, format) VALUES
		('\''vmscan'\'', '\''mm_vmscan_kswapd_wake'\'', '\''name: mm_vmscan_kswapd_wake'\'')"
	vmscope compare --pair fmt.db b.db > fmt.txt
	vmscope compare fmt.db b.db --format csv > fmt.csv
	csv_db fmt.csv f.db
	# memcg reclaim: no rows and no format in A: not traced (it was 0.000 for the text import)
	check f.db "Memcg reclaim episodes per s" "|0.100|"
	check f.db "Events mm_vmscan_memcg_reclaim_begin per s" "|0.100|"
	# direct reclaim has rows in A: traced although its format is not listed
	check f.db "Direct reclaim episodes per s" "0.200|0.150|-25.00"
	grep -q "^  note: A did not trace mm_vmscan_memcg_reclaim_begin" fmt.txt
'

test_expect_success SQLITE3 '--from/--to: the same window of each run' '
	vmscope compare a.db b.db --from 5 --to 10 --format csv > win.csv
	csv_db win.csv w.db
	check w.db "Window (s)" "5.000|5.000|0.00"
	# vmstat from the sample at 5 s to the one at 10 s: A (3000-2000)/5 = 200, B (9000-7000)/5 = 400
	check w.db "Kswapd pages scanned per s" "200.000|400.000|100.00"
	# episodes overlapping the window: A direct 106 s, 107 s = 2/5; B 205, 206, 207 s = 3/5
	check w.db "Direct reclaim episodes per s" "0.400|0.600|50.00"
	# A: the kswapd period 104..105 s reaches the window start; B: 200.5..204.5 s does not
	check w.db "Kswapd awake episodes per s" "0.200|0.000|-100.00"
	# ratio samples at 105, 110 s (0.3, 0.05) and 205, 210 s (0.2, 0.3):
	# medians 0.175 and 0.25: 100*0.075/0.175 = 42.86
	check w.db "Slab/file LRU ratio median" "0.175|0.250|42.86"
'

test_expect_success SQLITE3 'untrusted comm, event name and kernel release cannot break CSV, JSON or text' '
	# .dat files and live recordings store comm and event names as raw bytes:
	# give B a newline, quotes, a comma, CR and ESC in them, and in its release
	cp b.db evil.db
	sql evil.db "UPDATE task SET comm = '\''ev\"il'\'' || char(10) || '\'',co'\'\''mm\"'\'' WHERE pid = 2001;
		UPDATE run SET kernel_release = '\''6.18'\'' || char(10) || '\''\"evil,'\'' || char(27) || '\''[2J'\'';
		INSERT INTO event_generic (seq, ts, cpu, pid, event, payload) VALUES (9999, 216000000000, 4, 2001,
			'\''nl'\'' || char(10) || '\''ev\"x,y'\'\''z'\'' || char(13) || char(27) || '\''[31m'\'', '\''x'\'')"
	vmscope compare a.db evil.db --format csv > evil.csv
	csv_db evil.csv e.db
	assert_eq "$(sql e.db "SELECT count(*) FROM t")" 79 "rows (one more event type)"
	# control characters are "?" in CSV as in text (docs/report.md); quotes and commas round-trip
	assert_eq "$(sql e.db "SELECT B FROM t WHERE metric = '\''Events nl?ev\"x,y'\'\''z??[31m per s'\''")" \
		"0.050" "the event name round-trips through CSV"
	vmscope compare a.db evil.db --format json > evil.json
	python3 - evil.json <<-EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["run"]["b_kernel_release"] == "6.18\n\"evil,\x1b[2J", d["run"]
	names = [r[0] for r in d["tables"][0]["rows"]]
	assert "Events nl\nev\"x,y'"'"'z\r\x1b[31m per s" in names, names[-4:]
	assert len(names) == 79
	EOF
	vmscope compare --pair a.db evil.db > evil.txt
	if grep -q "$(printf "\033")" evil.txt; then echo "ESC reached the text output"; exit 1; fi
	assert_eq "$(head -n 1 evil.txt)" "Before/after: A = a.db (kernel 6.17.0), B = evil.db (kernel 6.18?\"evil,?[2J)" title
	grep -q "^Events nl?ev\"x,y'"'"'z??\[31m per s " evil.txt
'

test_expect_success SQLITE3 'usage errors exit 2 with the usage text on stderr' '
	for args in "" "a.db" "a.db b.db c.db" "a.db b.db --format xml" "a.db b.db --format" \
		"a.db b.db --from abc" "a.db b.db --to -1" "a.db b.db --from 2 --to 1" "a.db b.db --bogus"; do
		rc=0
		vmscope compare $args > usage.out 2> usage.err || rc=$?
		assert_eq "$rc" 2 "exit code of compare $args"
		test ! -s usage.out
		grep -q "^vmscope compare: error: " usage.err
		grep -qx "usage: vmscope compare A.db B.db \[options\]" usage.err
	done
'

test_expect_success SQLITE3 '--help: usage on stdout, exit 0; docs/compare.md SYNOPSIS has its first line' '
	vmscope compare --help > help.out
	assert_eq "$(head -n 1 help.out)" "usage: vmscope compare A.db B.db [options]"
	sed -n "/^## SYNOPSIS$/,/^## DESCRIPTION$/p" "$SRC_DIR/docs/compare.md" > synopsis
	grep -Fqx "$(head -n 1 help.out)" synopsis
'

test_expect_success SQLITE3 'an unreadable database: exit 1, the error names it' '
	rc=0
	vmscope compare a.db missing.db > err.out 2> err.txt || rc=$?
	assert_eq "$rc" 1 "exit code, B missing"
	test ! -s err.out
	grep -q "^vmscope compare: error: B: cannot open .missing.db." err.txt
	printf "not a database\n" > junk.db
	rc=0
	vmscope compare junk.db b.db > err.out 2> err.txt || rc=$?
	assert_eq "$rc" 1 "exit code, A junk"
	grep -q "^vmscope compare: error: A: .junk.db. is not a database" err.txt
	sqlite3 other.db "CREATE TABLE x (y)"
	rc=0
	vmscope compare a.db other.db > err.out 2> err.txt || rc=$?
	assert_eq "$rc" 1 "exit code, B not a vmscope database"
	grep -q "other.db" err.txt
'

test_done

