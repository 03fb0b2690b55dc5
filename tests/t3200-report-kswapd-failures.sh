#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3200-report-kswapd-failures.sh - `vmscope report DB kswapd-failures`: the
# three detectors (zero-reclaim kswapd runs, node_unreclaimable, direct
# reclaim without kswapd) on a hand-made 6.18 text trace, then on the same
# run with hand-inserted /proc/zoneinfo and /proc/vmstat samples. Expected
# values are worked out below from the fixture, not taken from the program.
# Rules: docs/report-kswapd-failures.md.

. "$(dirname "$0")/test-lib.sh"

# --- the trace -------------------------------------------------------------
# Times are microseconds after 100.000000 s, the first event: "T=x" below is
# seconds from the start of the run, which is what the report prints.
#
# node 0 (kswapd0, pid 90):
#   T=0        wakeup_kswapd by stress-5000
#   T=0.01     wake; T=0.05 shrink_inactive reclaimed 32: a good run
#   T=0.1+0.1k wake, k = 0..15; +0.05 s shrink_inactive nr_scanned=32
#              nr_reclaimed=0 priority 12-k (k < 12), else 1: 16 zero runs
#   T=1.7      kswapd_sleep (end of run 16: hopeless from here)
#   T=1.0      direct reclaim by cc1-5002 with no LRU event, kswapd0 awake
#   T=2.0      direct reclaim stress-5000, shrink_inactive nid=0 reclaimed 0,
#              ends T=2.001
#   T=2.5      direct reclaim stress-5001 order 2, nid=0, reclaimed 0,
#              ends T=2.502
#   T=4.0      direct reclaim stress-5000, shrink_inactive nid=0 at T=4.0005
#              reclaimed 20 (resets kswapd_failures), ends T=4.001
#   T=4.1      wakeup_kswapd by stress-5000; T=4.1001 wake; T=4.15 shrink
#              reclaimed 32; T=4.2 sleep
#   T=4.3      direct reclaim by cc1-5003, no LRU event, ends T=4.302: no
#              kswapd awake on any node (node 0 slept at 4.2, node 1 at 3.6)
# node 1 (kswapd1, pid 91):
#   T=0.5      THP direct reclaim by thp-app-6000 (GFP_TRANSHUGE, order 9),
#              nid=1, kswapd1 asleep: left out (THP never wakes kswapd)
#   T=3.0+0.1j wake, j = 0..4; +0.05 s shrink_inactive nr_scanned=16
#              nr_reclaimed=0 priority 12-j: 5 zero runs
#   T=3.06     direct reclaim by stress-5004 on nid=1 while kswapd1 is awake
#   T=3.5      wake; T=3.55 shrink_inactive reclaimed 8; T=3.6 sleep
#   T=4.5+0.1j wake, j = 0..2; +0.05 s shrink_inactive reclaimed 0: a streak
#              of 3 (< 4, not listed); the trace ends at T=4.75 in run 3

BASE_US=100000000

# ev COMM PID CPU T_US EVENT PAYLOAD: one 6.18 tracefs line with a tgid column
ev() {
	t=$((BASE_US + $4))
	printf '%16s-%-7d (%7d) [%03d] ..... %d.%06d: %s: %s\n' "$1" "$2" "$2" "$3" \
		$((t / 1000000)) $((t % 1000000)) "$5" "$6"
}
# shrink COMM PID CPU T_US NID SCANNED RECLAIMED PRIORITY
shrink() {
	ev "$1" "$2" "$3" "$4" mm_vmscan_lru_shrink_inactive \
		"nid=$5 nr_scanned=$6 nr_reclaimed=$7 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=$8 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
}
k0() { ev kswapd0 90 2 "$@"; }
k1() { ev kswapd1 91 3 "$@"; }

make_trace() {
	echo '# tracer: nop'
	echo '#'
	ev stress 5000 5 0 mm_vmscan_wakeup_kswapd "nid=0 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
	k0 10000 mm_vmscan_kswapd_wake "nid=0 order=0"
	shrink kswapd0 90 2 50000 0 32 32 12
	k=0
	while [ $k -lt 16 ]; do
		w=$((100000 + 100000 * k))
		prio=$((12 - k)); [ $prio -ge 1 ] || prio=1
		k0 $w mm_vmscan_kswapd_wake "nid=0 order=0"
		if [ $k = 4 ]; then
			ev thp-app 6000 6 500000 mm_vmscan_direct_reclaim_begin \
				"order=9 gfp_flags=GFP_TRANSHUGE|__GFP_THISNODE"
			shrink thp-app 6000 6 500500 1 512 0 12
			ev thp-app 6000 6 501000 mm_vmscan_direct_reclaim_end "nr_reclaimed=0"
		fi
		if [ $k = 9 ]; then
			ev cc1 5002 4 1000000 mm_vmscan_direct_reclaim_begin "order=0 gfp_flags=GFP_KERNEL"
			ev cc1 5002 4 1000500 mm_vmscan_direct_reclaim_end "nr_reclaimed=0"
		fi
		shrink kswapd0 90 2 $((w + 50000)) 0 32 0 $prio
		k=$((k + 1))
	done
	k0 1700000 mm_vmscan_kswapd_sleep "nid=0"
	ev stress 5000 5 2000000 mm_vmscan_direct_reclaim_begin "order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
	shrink stress 5000 5 2000500 0 32 0 12
	ev stress 5000 5 2001000 mm_vmscan_direct_reclaim_end "nr_reclaimed=0"
	ev stress 5001 6 2500000 mm_vmscan_direct_reclaim_begin "order=2 gfp_flags=GFP_KERNEL|__GFP_COMP"
	shrink stress 5001 6 2500500 0 32 0 12
	ev stress 5001 6 2502000 mm_vmscan_direct_reclaim_end "nr_reclaimed=0"
	j=0
	while [ $j -lt 5 ]; do
		w=$((3000000 + 100000 * j))
		k1 $w mm_vmscan_kswapd_wake "nid=1 order=0"
		shrink kswapd1 91 3 $((w + 50000)) 1 16 0 $((12 - j))
		if [ $j = 0 ]; then
			ev stress 5004 4 3060000 mm_vmscan_direct_reclaim_begin "order=0 gfp_flags=GFP_KERNEL"
			shrink stress 5004 4 3060500 1 32 0 12
			ev stress 5004 4 3061000 mm_vmscan_direct_reclaim_end "nr_reclaimed=0"
		fi
		j=$((j + 1))
	done
	k1 3500000 mm_vmscan_kswapd_wake "nid=1 order=0"
	shrink kswapd1 91 3 3550000 1 16 8 8
	k1 3600000 mm_vmscan_kswapd_sleep "nid=1"
	ev stress 5000 5 4000000 mm_vmscan_direct_reclaim_begin "order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
	shrink stress 5000 5 4000500 0 32 20 12
	ev stress 5000 5 4001000 mm_vmscan_direct_reclaim_end "nr_reclaimed=20"
	ev stress 5000 5 4100000 mm_vmscan_wakeup_kswapd "nid=0 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
	k0 4100100 mm_vmscan_kswapd_wake "nid=0 order=0"
	shrink kswapd0 90 2 4150000 0 32 32 12
	k0 4200000 mm_vmscan_kswapd_sleep "nid=0"
	ev cc1 5003 4 4300000 mm_vmscan_direct_reclaim_begin "order=0 gfp_flags=GFP_KERNEL"
	ev cc1 5003 4 4302000 mm_vmscan_direct_reclaim_end "nr_reclaimed=0"
	j=0
	while [ $j -lt 3 ]; do
		w=$((4500000 + 100000 * j))
		k1 $w mm_vmscan_kswapd_wake "nid=1 order=0"
		shrink kswapd1 91 3 $((w + 50000)) 1 16 0 12
		j=$((j + 1))
	done
}

# --- the counters ----------------------------------------------------------
# sample ID T_US SOURCE SCOPE NAME=VALUE...: one counter_sample and its values
# (ts on the trace clock in ns; ts_end 50 µs later).
sample() {
	s_id=$1 s_ts=$(( (BASE_US + $2) * 1000 )) s_src=$3 s_scope=$4
	shift 4
	echo "INSERT INTO counter_sample (id, ts, ts_end, source, scope) VALUES ($s_id, $s_ts, $((s_ts + 50000)), '$s_src', '$s_scope');"
	for nv in "$@"; do
		echo "INSERT INTO counter_value (sample, name, value) VALUES ($s_id, '${nv%%=*}', ${nv#*=});"
	done
}

# zoneinfo every 0.5 s, T = 0, 0.5, ..., 4.5 (i = 0..9):
#   node0/DMA32  free 3000, min 500, low 625, high 750: above high
#   node0/Normal free 1200, min 1500, low 1875, high 2250: below min
#   node0/Movable managed 0 (an empty zone: no node_unreclaimable line, and
#                 left out of the evidence)
#   node1/Normal free 1800, min 1500, low 1875, high 2250: below low
#   node0 node_unreclaimable: 1 at T = 2.0, 2.5, 3.0, 3.5 (i = 4..7), else 0
#     -> episode start 2.0, end 4.0 (first later 0), duration 2.0, 4 samples
#   node1 node_unreclaimable: 1 at T = 4.5 (i = 9, the last sample) only
#     -> episode start 4.5, open (end and duration empty), 1 sample
# vmstat at T = 0, 1, 2, 3, 4, 4.5:
#   allocstall_normal   0   0  10  25  30  30
#   allocstall_movable  0   0   5   5   5   5   (sum 0 0 15 30 35 35)
#   pgscan_direct       0   0 1000 2500 3000 3000
#   pgscan_kswapd     100 600 600 600 600 900
#   pageoutrun          1  17  17  17  17  18
#   steps [1,2] [2,3] [3,4]: allocstall +15 +15 +5, pgscan_direct +1000 +1500
#   +500, pgscan_kswapd +0: one signal, start 1.0, end 4.0, duration 3.0,
#   allocstall +35, pgscan_direct +3000, pgscan_kswapd +0, pageoutrun +0.
#   [0,1] has no allocstall rise, [4,4.5] none either (and kswapd scanned).
make_counters() {
	echo "BEGIN;"
	id=1
	i=0
	while [ $i -lt 10 ]; do
		t=$((500000 * i))
		u0=0; [ $i -ge 4 ] && [ $i -le 7 ] && u0=1
		u1=0; [ $i = 9 ] && u1=1
		sample $id $t zoneinfo node0 nr_inactive_file=1000
		sample $((id + 1)) $t zoneinfo node0/DMA32 free=3000 min=500 low=625 high=750 \
			managed=100000 node_unreclaimable=$u0
		sample $((id + 2)) $t zoneinfo node0/Normal free=1200 min=1500 low=1875 high=2250 \
			managed=500000 node_unreclaimable=$u0
		sample $((id + 3)) $t zoneinfo node0/Movable free=0 min=0 low=0 high=0 managed=0
		sample $((id + 4)) $t zoneinfo node1/Normal free=1800 min=1500 low=1875 high=2250 \
			managed=500000 node_unreclaimable=$u1
		id=$((id + 5))
		i=$((i + 1))
	done
	set -- "0 0 0 0 100 1" "1000000 0 0 0 600 17" "2000000 10 5 1000 600 17" \
		"3000000 25 5 2500 600 17" "4000000 30 5 3000 600 17" "4500000 30 5 3000 900 18"
	for row in "$@"; do
		set -- $row
		sample $id $1 vmstat "" allocstall_normal=$2 allocstall_movable=$3 \
			pgscan_direct=$4 pgscan_kswapd=$5 pageoutrun=$6
		id=$((id + 1))
	done
	echo "COMMIT;"
}

# report_csv DB [ARGS...]: the section as CSV in out.csv, loaded into table t of rows.db
report_csv() {
	db=$1
	shift
	vmscope report "$db" kswapd-failures --format csv "$@" > out.csv &&
	rm -f rows.db &&
	sqlite3 rows.db ".import --csv out.csv t"
}

# row WHERE: "detector|status|start|end|duration" of the matching row(s) of rows.db
row() {
	sql rows.db "SELECT detector, status, start, \"end\", duration FROM t WHERE $1
		ORDER BY rowid"
}

# evidence WHERE: the evidence text of the matching row(s) of rows.db
evidence() {
	sql rows.db "SELECT evidence FROM t WHERE $1 ORDER BY rowid"
}

# Bodies are && chains: test_expect_success runs them as the condition of an
# `if`, where the shell ignores set -e.

# --- tests -----------------------------------------------------------------

test_expect_success SQLITE3 'the hand-made 6.18 trace imports completely' '
	make_trace > k.txt &&
	vmscope import -q -o trace.db k.txt &&
	assert_eq "$(sql trace.db "SELECT status FROM run")" complete "run status" &&
	assert_eq "$(sql trace.db "SELECT COUNT(*) FROM import_error")" 0 "import errors" &&
	# 1 + 16 + 1 wakes on node 0, 6 + 3 on node 1
	assert_eq "$(sql trace.db "SELECT nid, COUNT(*) FROM mm_vmscan_kswapd_wake GROUP BY nid")" \
		"$(printf "0|18\n1|9")" "wakes per node" &&
	# shrink_inactive: kswapd0 18 (one per run) + kswapd1 9 + one each for the
	# direct calls of 5000 (T=2.0, T=4.0), 5001, 5004 and thp-app = 32
	assert_eq "$(sql trace.db "SELECT COUNT(*), SUM(nr_reclaimed) FROM mm_vmscan_lru_shrink_inactive")" \
		"32|92" "shrink_inactive events, pages reclaimed (32 + 20 + 8 + 32)" &&
	assert_eq "$(sql trace.db "SELECT (end_ts - start_ts) / 1000 FROM run")" 4750000 "span, us"
'

test_expect_success SQLITE3 'trace only: zero-reclaim episode on node 0 (16 runs, silent, ended by direct reclaim)' '
	report_csv trace.db &&
	# start = wake of run 1 at T=0.1; reset = shrink_inactive of pid 5000 at
	# T=4.0005 with 20 pages, before wakeup_kswapd at T=4.1: end 4.000500,
	# duration 4.0005 - 0.1 = 3.9005
	assert_eq "$(row "node = 0 AND detector = '\''zero-reclaim runs'\''")" \
		"zero-reclaim runs|episode|0.100000|4.000500|3.900500" &&
	# 16 runs x 32 pages scanned = 512; priorities 12..1 then 1; run 16 ends
	# at the sleep, T=1.7; silence from 1.7 to wakeup_kswapd at 4.1 = 2.4 s
	assert_eq "$(evidence "node = 0 AND detector = '\''zero-reclaim runs'\''")" \
		"16 kswapd runs (pid 90) reclaimed 0 pages, 512 pages scanned, lowest priority 1; hopeless from 1.700000 s (end of run 16); then silent for 2.400 s: no kswapd_wake or wakeup_kswapd for node 0 until wakeup_kswapd (pid 5000) at 4.100000 s; ended at 4.000500 s: pid 5000 reclaimed 20 pages on the node"
'

test_expect_success SQLITE3 'trace only: 5-run streak on node 1 is partial; the 3-run streak is not listed' '
	# runs at T=3.0..3.4 reclaim 0 (16 pages scanned each: 80), priorities
	# 12..8; run 6 (wake T=3.5) reclaims 8: end 3.5, duration 0.5; that wake
	# is 0 s after the last zero run ended, so not silent
	assert_eq "$(row "node = 1 AND detector = '\''zero-reclaim runs'\''")" \
		"zero-reclaim runs|partial|3.000000|3.500000|0.500000" &&
	assert_eq "$(evidence "node = 1 AND detector = '\''zero-reclaim runs'\''")" \
		"5 kswapd runs (pid 91) reclaimed 0 pages, 80 pages scanned, lowest priority 8; fewer than 16: not hopeless; then a kswapd run reclaimed 8 pages; not silent: kswapd_wake (pid 91) 0.000 s after the last run"
'

test_expect_success SQLITE3 'trace only: direct reclaim while kswapd slept, merged within 1 s' '
	# node 0: calls [2.0, 2.001] and [2.5, 2.502] are 0.499 s apart: one
	# signal 2.0..2.502 (0.502 s), stalls 1 + 2 = 3 ms, orders 0 and 2; the
	# call at T=4.0 is 1.498 s later: a second signal, 4.0..4.001
	assert_eq "$(row "node = 0 AND detector = '\''direct without kswapd'\''")" \
		"$(printf "direct without kswapd|signal|2.000000|2.502000|0.502000\ndirect without kswapd|signal|4.000000|4.001000|0.001000")" &&
	assert_eq "$(evidence "node = 0 AND start = '\''2.000000'\''")" \
		"2 direct reclaim calls by 2 tasks while kswapd of node 0 was not awake (trace): 0 pages reclaimed, 3.000 ms stalled, orders 0-2" &&
	assert_eq "$(evidence "node = 0 AND start = '\''4.000000'\''")" \
		"1 direct reclaim call by 1 task while kswapd of node 0 was not awake (trace): 20 pages reclaimed, 1.000 ms stalled, order 0" &&
	# no LRU event names a node for cc1-5003 (T=4.3..4.302, 2 ms); no kswapd awake
	assert_eq "$(row "node = '\'''\''")" \
		"direct without kswapd|signal|4.300000|4.302000|0.002000" &&
	assert_eq "$(evidence "node = '\'''\''")" \
		"1 direct reclaim call by 1 task that scanned no LRU page (node unknown) while no kswapd was awake (trace): 0 pages reclaimed, 2.000 ms stalled, order 0" &&
	# the call at T=1.0 (kswapd0 awake), the one on node 1 at T=3.06 (kswapd1
	# awake) and the THP call at T=0.5 are not signals: 5 rows in all, none
	# from node_unreclaimable (no zoneinfo)
	assert_eq "$(sql rows.db "SELECT COUNT(*) FROM t")" 5 "rows" &&
	assert_eq "$(sql rows.db "SELECT COUNT(*) FROM t WHERE detector = '\''node_unreclaimable'\''")" 0 \
		"node_unreclaimable rows without zoneinfo"
'

test_expect_success SQLITE3 'trace only: rows are ordered by node, then start' '
	assert_eq "$(sql rows.db "SELECT node || '\'':'\'' || start FROM t ORDER BY rowid")" \
		"$(printf "0:0.100000\n0:2.000000\n0:4.000000\n1:3.000000\n:4.300000")"
'

test_expect_success SQLITE3 'trace only: the notes say which detectors could not run, and why' '
	vmscope report trace.db kswapd-failures > out.txt &&
	cat out.txt &&
	grep -q "^kswapd failure episodes per node$" out.txt &&
	grep -q "note: node_unreclaimable: not run: this run has no /proc/zoneinfo samples" out.txt &&
	grep -q "note: direct without kswapd (vmstat): not run: this run has no /proc/vmstat samples" out.txt &&
	grep -q "note: direct without kswapd (trace): 1 direct reclaim call in the window with GFP_TRANSHUGE and no __GFP_KSWAPD_RECLAIM left out" out.txt &&
	grep -q "note: zero-reclaim runs: kswapd runs in the whole trace: node 0 pid 90: 18 runs, node 1 pid 91: 9 runs" out.txt &&
	grep -q "note: kernel release unknown" out.txt &&
	grep -q "note: node empty: machine-wide" out.txt &&
	! grep -q "zero-reclaim runs: not run" out.txt
'

test_expect_success SQLITE3 'trace only: JSON is valid and carries the rows and notes' '
	vmscope report trace.db kswapd-failures --format json > out.json &&
	python3 -c "
import json, sys
d = json.load(open(\"out.json\"))
t = [x for x in d[\"tables\"] if x[\"section\"] == \"kswapd-failures\"]
assert len(t) == 1, t
t = t[0]
assert [c[\"name\"] for c in t[\"columns\"]] == [\"node\", \"detector\", \"status\", \"start\", \"end\", \"duration\", \"evidence\"], t[\"columns\"]
assert t[\"columns\"][3][\"unit\"] == \"s\"
assert len(t[\"rows\"]) == 5, t[\"rows\"]
r = t[\"rows\"][0]
assert r[:6] == [0, \"zero-reclaim runs\", \"episode\", 0.1, 4.0005, 3.9005], r
assert t[\"rows\"][4][0] is None and t[\"rows\"][4][1] == \"direct without kswapd\"
assert any(n.startswith(\"node_unreclaimable: not run\") for n in t[\"notes\"]), t[\"notes\"]
"
'

test_expect_success SQLITE3 'with counters: hand-inserted zoneinfo and vmstat samples' '
	cp trace.db full.db &&
	make_counters > counters.sql &&
	sqlite3 -batch -bail full.db < counters.sql &&
	assert_eq "$(sql full.db "SELECT source, COUNT(*) FROM counter_sample GROUP BY source ORDER BY source")" \
		"$(printf "vmstat|6\nzoneinfo|50")" "samples"
'

test_expect_success SQLITE3 'with counters: node_unreclaimable 0 -> 1 -> 0 on node 0, open on node 1' '
	report_csv full.db &&
	assert_eq "$(row "node = 0 AND detector = '\''node_unreclaimable'\''")" \
		"node_unreclaimable|episode|2.000000|4.000000|2.000000" &&
	assert_eq "$(evidence "node = 0 AND detector = '\''node_unreclaimable'\''")" \
		"node_unreclaimable = 1 in 4 zoneinfo samples; at 2.000000 s: DMA32: free 3000 above high (min 500, low 625, high 750), Normal: free 1200 below min (min 1500, low 1875, high 2250)" &&
	assert_eq "$(row "node = 1 AND detector = '\''node_unreclaimable'\''")" \
		"node_unreclaimable|episode|4.500000||" &&
	assert_eq "$(evidence "node = 1 AND detector = '\''node_unreclaimable'\''")" \
		"node_unreclaimable = 1 in 1 zoneinfo sample; at 4.500000 s: Normal: free 1800 below low (min 1500, low 1875, high 2250); still 1 at the last sample (4.500000 s): open"
'

test_expect_success SQLITE3 'with counters: vmstat steps with direct scanning and flat pgscan_kswapd' '
	assert_eq "$(sql rows.db "SELECT detector, status, start, \"end\", duration, evidence FROM t
		WHERE node = '\'''\'' AND evidence LIKE '\''%vmstat%'\''")" \
		"direct without kswapd|signal|1.000000|4.000000|3.000000|3 vmstat steps (machine-wide /proc/vmstat): allocstall +35, pgscan_direct +3000, pgscan_kswapd +0, pageoutrun +0" &&
	# 5 trace rows + 2 node_unreclaimable + 1 vmstat
	assert_eq "$(sql rows.db "SELECT COUNT(*) FROM t")" 8 "rows" &&
	# node 0 at T=2.0: node_unreclaimable sorts before the weaker direct signal
	assert_eq "$(sql rows.db "SELECT node || '\'':'\'' || start || '\'':'\'' || detector FROM t ORDER BY rowid")" \
		"$(printf "0:0.100000:zero-reclaim runs\n0:2.000000:node_unreclaimable\n0:2.000000:direct without kswapd\n0:4.000000:direct without kswapd\n1:3.000000:zero-reclaim runs\n1:4.500000:node_unreclaimable\n:1.000000:direct without kswapd\n:4.300000:direct without kswapd")"
'

test_expect_success SQLITE3 'CSV of the section loads with sqlite3 .import into :memory:' '
	vmscope report full.db kswapd-failures --format csv > f.csv &&
	assert_eq "$(sqlite3 :memory: ".import --csv f.csv t" \
		"SELECT COUNT(*), SUM(\"end\" = '\'''\''), SUM(node = '\'''\'') FROM t")" "8|1|2" \
		"rows, open rows, machine-wide rows"
'

test_expect_success SQLITE3 'with counters: no "not run" notes; JSON of the whole report still valid' '
	vmscope report full.db kswapd-failures > out.txt &&
	! grep -q "not run" out.txt &&
	vmscope report full.db --format json > all.json &&
	python3 -c "
import json
d = json.load(open(\"all.json\"))
t = [x for x in d[\"tables\"] if x[\"section\"] == \"kswapd-failures\"][0]
assert len(t[\"rows\"]) == 8, len(t[\"rows\"])
open1 = [r for r in t[\"rows\"] if r[1] == \"node_unreclaimable\" and r[0] == 1][0]
assert open1[4] is None and open1[5] is None, open1
"
'

test_expect_success SQLITE3 'the window: episodes that overlap it, not clipped' '
	report_csv full.db --from 4.2 &&
	# overlapping [4.2, 4.75]: node 1 node_unreclaimable (4.5, open) and the
	# machine-wide direct signal at 4.3; everything else ended before 4.2
	assert_eq "$(sql rows.db "SELECT node || '\'':'\'' || detector || '\'':'\'' || start FROM t ORDER BY rowid")" \
		"$(printf "1:node_unreclaimable:4.500000\n:direct without kswapd:4.300000")" &&
	report_csv full.db --from 1 --to 1.5 &&
	# [1, 1.5] overlaps the node 0 streak (0.1..4.0005) and the vmstat signal
	# (1.0..4.0), whose start and end are kept
	assert_eq "$(sql rows.db "SELECT node || '\'':'\'' || start || '\'':'\'' || \"end\" FROM t ORDER BY rowid")" \
		"$(printf "0:0.100000:4.000500\n:1.000000:4.000000")"
'

test_expect_success SQLITE3 'a run without kswapd wakes, LRU or direct events says so' '
	printf "  cat-1 [000] .... 1.000000: mm_vmscan_kswapd_sleep: nid=0\n" > tiny.txt &&
	vmscope import -q -o tiny.db tiny.txt &&
	vmscope report tiny.db kswapd-failures > out.txt &&
	cat out.txt &&
	grep -q "(no rows)" out.txt &&
	grep -q "note: zero-reclaim runs: not run: no mm_vmscan_kswapd_wake events" out.txt &&
	grep -q "note: node_unreclaimable: not run" out.txt &&
	grep -q "note: direct without kswapd (vmstat): not run" out.txt &&
	grep -q "note: direct without kswapd (trace): no mm_vmscan_direct_reclaim_begin events" out.txt &&
	grep -q "note: no failure episode or signal in the window" out.txt &&
	vmscope report tiny.db kswapd-failures --format json | python3 -c "import json, sys; json.load(sys.stdin)"
'

test_expect_success SQLITE3 'kswapd wakes without any lru_shrink_inactive: the detector says it cannot run' '
	{
		printf "  kswapd0-90 [000] .... 1.000000: mm_vmscan_kswapd_wake: nid=0 order=0\n" &&
		printf "  kswapd0-90 [000] .... 1.100000: mm_vmscan_kswapd_sleep: nid=0\n"
	} > noshrink.txt &&
	vmscope import -q -o noshrink.db noshrink.txt &&
	vmscope report noshrink.db kswapd-failures > out.txt &&
	grep -q "note: zero-reclaim runs: not run: no mm_vmscan_lru_shrink_inactive events" out.txt
'

test_expect_success SQLITE3 'kernel notes: MGLRU 6.6 and 6.18 caveats from --kernel' '
	vmscope import -q --kernel 6.6.30 -o k66.db k.txt &&
	vmscope report k66.db kswapd-failures > out.txt &&
	grep -q "note: kernel 6.6.30: with MGLRU (if enabled), kswapd_failures is reset on every kswapd pass" out.txt &&
	grep -q "note: kernel 6.6.30: MGLRU, if enabled, emits no lru_shrink_inactive before 6.8" out.txt &&
	! grep -q "kernel release unknown" out.txt &&
	vmscope import -q --kernel 6.18.44-fc-v782 -o k618.db k.txt &&
	vmscope report k618.db kswapd-failures > out.txt &&
	grep -q "note: kernel 6.18.44-fc-v782: freeing pages above a zone.s high watermark" out.txt &&
	! grep -q "MGLRU" out.txt
'

test_done
