#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3100-report-episodes.sh - `vmscope report DB episodes` and `throttle` on
# small text traces written here in the 6.18 tracefs format (5.15 for the
# congestion waits). Every expected number is worked out by hand from the
# fixture lines, in the comment above its assertion, never taken from
# vmscope's own output. Definitions: docs/report-episodes.md and
# docs/report-throttle.md.

. "$(dirname "$0")/test-lib.sh"

# ev COMM PID CPU TS EVENT PAYLOAD: one tracefs text line.
ev() {
	printf '%16s-%-6s [%03d] ..... %s: %s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"
}
# lru COMM PID CPU TS NID SCANNED RECLAIMED PRIORITY FILE|ANON: one mm_vmscan_lru_shrink_inactive
lru() {
	ev "$1" "$2" "$3" "$4" mm_vmscan_lru_shrink_inactive "nid=$5 nr_scanned=$6 nr_reclaimed=$7 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=$8 flags=RECLAIM_WB_$9|RECLAIM_WB_ASYNC"
}
dbeg() { ev "$1" "$2" "$3" "$4" mm_vmscan_direct_reclaim_begin "order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"; }
dend() { ev "$1" "$2" "$3" "$4" mm_vmscan_direct_reclaim_end "nr_reclaimed=$5"; }
# thr COMM PID CPU TS TIMEOUT DELAYED REASON
thr() {
	ev "$1" "$2" "$3" "$4" mm_vmscan_throttled "nid=0 usec_timeout=$5 usect_delayed=$6 reason=VMSCAN_THROTTLE_$7"
}

# csv_table FILE N: the N-th table of a CSV report (tables are separated by a blank line).
csv_table() {
	awk -v n="$2" 'BEGIN { RS = "" } NR == n { print }' "$1"
}
# csvq FILE N QUERY: load table N of FILE into table t of an in-memory database, run QUERY.
csvq() {
	csv_table "$1" "$2" > "$1.$2"
	sqlite3 :memory: ".import --csv $1.$2 t" "$3"
}
# json_row FILE TABLE COL VALUE: the first row of TABLE whose column COL is VALUE, as JSON.
json_row() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["tables"] if t["table"] == sys.argv[2]][0]
print(json.dumps([r for r in t["rows"] if str(r[int(sys.argv[3])]) == sys.argv[4]][0]))' "$@"
}
# row FILE N WHERE: the row of table N matching WHERE, '|'-joined.
row() {
	csvq "$1" "$2" "SELECT * FROM t WHERE $3"
}

# The episodes fixture. Run start = first event = 100.000000 s; the times in
# the comments below are seconds after it.
#  direct 300 'early' cpu2: its begin is before the trace (cut at the start)
#  direct 201 'stressA' cpu1 and direct 202 'stressB' cpu3 overlap in time;
#    a LOST line for CPU 1 comes in the middle
#  memcg 500 'cat' cpu2: one episode scanning nodes 1 and 0, one scanning nothing
#  kswapd0 (pid 90, node 0) cpu0: one awake period with 2 re-wakes, one cut at the end
#  direct 400 'worker' cpu2: 10 episodes of 7,3,10,1,5,9,2,8,4,6 ms
#  direct 600 'late' cpu3: begins and never ends (cut at the end)
write_episodes_trace() {
	lru early 300 2 100.000000 0 32 8 10 FILE
	dend early 300 2 100.000500 8
	dbeg stressA 201 1 100.001000
	lru stressA 201 1 100.001100 0 32 16 12 FILE
	lru stressA 201 1 100.001200 0 32 8 11 ANON
	ev stressA 201 1 100.001300 mm_vmscan_lru_shrink_active "nid=0 nr_taken=32 nr_active=4 nr_deactivated=28 nr_referenced=0 priority=9 flags=RECLAIM_WB_ANON"
	ev stressA 201 1 100.001400 mm_vmscan_write_folio "page=00000000c1d2e3f4 pfn=0x1000 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC"
	ev stressA 201 1 100.001500 mm_shrink_slab_start "super_cache_scan+0x0/0x1a0 000000009c4e2a71: nid: 0 objects to shrink 0 gfp_flags GFP_HIGHUSER_MOVABLE cache items 5000 delta 100 total_scan 100 priority 11"
	ev stressA 201 1 100.001600 mm_shrink_slab_end "super_cache_scan+0x0/0x1a0 000000009c4e2a71: nid: 0 unused scan count 0 new scan count 0 total_scan 28 last shrinker return val 40"
	echo "CPU:1 [LOST 5 EVENTS]"
	dbeg stressB 202 3 100.002000
	lru stressB 202 3 100.002500 0 64 64 12 FILE
	thr stressA 201 1 100.002700 1000 1000 NOPROGRESS
	dend stressB 202 3 100.003000 64
	dend stressA 201 1 100.004000 30
	ev cat 500 2 100.005000 mm_vmscan_memcg_reclaim_begin "order=0 gfp_flags=GFP_NOFS"
	lru cat 500 2 100.005100 1 10 5 12 FILE
	lru cat 500 2 100.005200 1 30 30 12 FILE
	lru cat 500 2 100.005300 0 20 0 12 FILE
	ev cat 500 2 100.006000 mm_vmscan_memcg_reclaim_end "nr_reclaimed=35"
	ev cat 500 2 100.007000 mm_vmscan_memcg_reclaim_begin "order=0 gfp_flags=GFP_NOFS"
	ev cat 500 2 100.007250 mm_vmscan_memcg_reclaim_end "nr_reclaimed=0"
	ev kswapd0 90 0 100.010000 mm_vmscan_kswapd_wake "nid=0 order=0"
	lru kswapd0 90 0 100.010100 0 32 32 12 FILE
	ev kswapd0 90 0 100.012000 mm_vmscan_kswapd_wake "nid=0 order=2"
	lru kswapd0 90 0 100.012100 0 32 0 11 ANON
	ev kswapd0 90 0 100.013000 mm_vmscan_kswapd_wake "nid=0 order=0"
	thr kswapd0 90 0 100.014000 100000 800 WRITEBACK
	ev kswapd0 90 0 100.015000 mm_vmscan_kswapd_sleep "nid=0"
	# worker: begin at b, end at b + d ms, next begin 1 ms after the end
	b=20
	for d in 7 3 10 1 5 9 2 8 4 6; do
		e=$((b + d))
		dbeg worker 400 2 "$(printf '100.%03d000' $b)"
		lru worker 400 2 "$(printf '100.%03d100' $b)" 0 32 16 12 FILE
		dend worker 400 2 "$(printf '100.%03d000' $e)" 16
		b=$((e + 1))
	done
	ev kswapd0 90 0 100.090000 mm_vmscan_kswapd_wake "nid=0 order=0"
	lru kswapd0 90 0 100.090100 0 16 16 12 FILE
	dbeg late 600 3 100.095000
	lru late 600 3 100.095100 0 32 32 12 FILE
	ev late 600 3 100.100000 mm_vmscan_wakeup_kswapd "nid=0 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
}

test_expect_success SQLITE3 'episodes fixture imports completely' '
	write_episodes_trace > ep.txt &&
	vmscope import -q ep.txt -o ep.db &&
	assert_eq "$(sql ep.db "SELECT status, start_ts FROM run")" "complete|100000000000" &&
	assert_eq "$(sql ep.db "SELECT COUNT(*) FROM import_error")" 0 &&
	# the LOST line: CPU 1, 5 events, no timestamp (text)
	assert_eq "$(sql ep.db "SELECT cpu, ts IS NULL, count, source FROM lost_events")" "1|1|5|text"
'

test_expect_success SQLITE3 'episodes: CSV has three tables; every episode is one row' '
	vmscope report ep.db episodes --format csv > ep.csv &&
	assert_eq "$(awk "BEGIN { RS = \"\" } END { print NR }" ep.csv)" 3 "tables" &&
	# 1 early + 2 overlapping + 2 memcg + 2 kswapd + 10 worker + 1 late = 18
	assert_eq "$(csvq ep.csv 1 "SELECT COUNT(*) FROM t")" 18 "episodes" &&
	assert_eq "$(csvq ep.csv 1 "SELECT kind, COUNT(*) FROM t GROUP BY kind ORDER BY kind")" \
		"direct|14
kswapd|2
memcg|2"
'

test_expect_success SQLITE3 'episodes: rows come in start order, cut-at-start first' '
	# early (begin unknown, ends at 0.0005) < stressA 0.001 < stressB 0.002 < cat ...
	assert_eq "$(csvq ep.csv 1 "SELECT pid FROM t LIMIT 5" | tr "\n" " ")" "300 201 202 500 500 "
'

test_expect_success SQLITE3 'episodes: overlapping direct reclaim on two CPUs is kept apart by pid' '
	# stressA 201, cpu1: 0.001000 .. 0.004000 = 3.000 ms
	#  inactive: 32 file (16 freed) + 32 anon (8 freed) = 64 scanned, 24 reclaimed;
	#  efficiency 100*24/64 = 37.5; priorities 12, 11 (inactive), 9 (active),
	#  11 (slab) -> min 9; slab start total_scan 100, end total_scan 28 left unscanned:
	#  100 - 28 = 72 scanned, end retval 40 freed; one write_folio;
	#  throttled 1000 us = 1.000 ms; end event nr_reclaimed=30; LOST line on its CPU 1
	assert_eq "$(row ep.csv 1 "pid = 201")" \
		"direct|201|stressA|0|1|0.001000|0.004000|3.000|64|24|37.5|32|32|9|100|72|40|1|1.000|30|||cpu1" &&
	# stressB 202, cpu3: 0.002000 .. 0.003000 = 1.000 ms, inside stressA episode in time,
	#  but only its own 64/64 file pages: efficiency 100.0; no loss on CPU 3
	assert_eq "$(row ep.csv 1 "pid = 202")" \
		"direct|202|stressB|0|3|0.002000|0.003000|1.000|64|64|100.0|0|64|12|0|0|0|0|0.000|64|||"
'

test_expect_success SQLITE3 'episodes: cut at the start and at the end' '
	# early 300: no begin -> start and duration NULL, end 0.000500; the inactive
	#  event before its end counts: 32 scanned, 8 reclaimed, 25.0 %, priority 10
	assert_eq "$(row ep.csv 1 "pid = 300")" \
		"direct|300|early|0|2||0.000500||32|8|25.0|0|32|10|0|0|0|0|0.000|8||start|" &&
	# late 600: begins at 0.095000, no end: end, duration, end nr_reclaimed NULL
	assert_eq "$(row ep.csv 1 "pid = 600")" \
		"direct|600|late|0|3|0.095000|||32|32|100.0|0|32|12|0|0|0|0|0.000|||end|" &&
	# kswapd awake from 0.090000 to the end of the trace: 16/16 pages, 1 wake = 0 re-wakes
	assert_eq "$(row ep.csv 1 "kind = '\''kswapd'\'' AND cut = '\''end'\''")" \
		"kswapd|90|kswapd0|0|0|0.090000|||16|16|100.0|0|16|12|0|0|0|0|0.000||0|end|"
'

test_expect_success SQLITE3 'episodes: kswapd awake period with re-wakes' '
	# wake 0.010000 .. sleep 0.015000 = 5.000 ms; wakes at 0.010, 0.012, 0.013 -> 2 re-wakes;
	#  32 file (32 freed) + 32 anon (0 freed) = 64/32 -> 50.0 %; min priority 11;
	#  WRITEBACK throttle 800 us = 0.800 ms; no end nr_reclaimed for kswapd
	assert_eq "$(row ep.csv 1 "kind = '\''kswapd'\'' AND cut = '\'''\''")" \
		"kswapd|90|kswapd0|0|0|0.010000|0.015000|5.000|64|32|50.0|32|32|11|0|0|0|0|0.800||2||"
'

test_expect_success SQLITE3 'episodes: memcg nid is where it scanned most; none -> NULL' '
	# 0.005000 .. 0.006000: node 1 scanned 10+30 = 40, node 0 scanned 20 -> nid 1;
	#  60 scanned, 35 reclaimed: 100*35/60 = 58.33 -> 58.3
	assert_eq "$(row ep.csv 1 "pid = 500 AND start = '\''0.005000'\''")" \
		"memcg|500|cat|1|2|0.005000|0.006000|1.000|60|35|58.3|0|60|12|0|0|0|0|0.000|35|||" &&
	# 0.007000 .. 0.007250: nothing scanned: nid, efficiency, min priority NULL
	assert_eq "$(row ep.csv 1 "pid = 500 AND start = '\''0.007000'\''")" \
		"memcg|500|cat||2|0.007000|0.007250|0.250|0|0||0|0||0|0|0|0|0.000|0|||"
'

test_expect_success SQLITE3 'per-task: counts, nearest-rank percentiles, sums' '
	# worker durations 7,3,10,1,5,9,2,8,4,6 ms, sorted 1..10, n = 10: total 55;
	#  p50 rank ceil(5.0) = 5 -> 5; p90 rank ceil(9.0) = 9 -> 9; p99 rank ceil(9.9) = 10 -> 10;
	#  pages 10 x 32 = 320 scanned, 10 x 16 = 160 reclaimed
	assert_eq "$(row ep.csv 2 "pid = 400")" \
		"direct|400|worker|10|10|0|55.000|5.000|9.000|10.000|10.000|320|160" &&
	# memcg cat: durations 1.000, 0.250 -> sorted 0.25, 1.0: p50 rank ceil(1.0) = 1 -> 0.250,
	#  p90 rank ceil(1.8) = 2 -> 1.000
	assert_eq "$(row ep.csv 2 "pid = 500")" \
		"memcg|500|cat|2|2|0|1.250|0.250|1.000|1.000|1.000|60|35" &&
	# kswapd: one complete (5 ms) and one cut; pages 64 + 16 = 80 scanned, 32 + 16 = 48 reclaimed
	assert_eq "$(row ep.csv 2 "pid = 90")" \
		"kswapd|90|kswapd0|2|1|1|5.000|5.000|5.000|5.000|5.000|80|48" &&
	# early: only a cut episode: no duration, so total 0 and no percentiles
	assert_eq "$(row ep.csv 2 "pid = 300")" "direct|300|early|1|0|1|0.000|||||32|8" &&
	# order: kind, then total duration, largest first (ties by pid)
	assert_eq "$(csvq ep.csv 2 "SELECT pid FROM t" | tr "\n" " ")" "400 201 202 300 600 90 500 "
'

test_expect_success SQLITE3 'per-node: direct episodes take the node of their LRU events' '
	# direct on node 0: 300, 201, 202, 10 x 400, 600 = 14 episodes, 12 complete, 2 cut;
	#  durations 3 (201), 1 (202), 1..10 (worker): sorted 1,1,2,3,3,4,5,6,7,8,9,10 (n = 12),
	#  total 59; p50 rank 6 -> 4; p90 rank ceil(10.8) = 11 -> 9; p99 rank ceil(11.88) = 12 -> 10;
	#  scanned 32 + 64 + 64 + 320 + 32 = 512, reclaimed 8 + 24 + 64 + 160 + 32 = 288
	assert_eq "$(row ep.csv 3 "kind = '\''direct'\''")" \
		"direct|0|14|12|2|59.000|4.000|9.000|10.000|10.000|512|288" &&
	# memcg: the empty episode has no node (NULL, listed first), the other is node 1
	assert_eq "$(csvq ep.csv 3 "SELECT nid, episodes, total, scanned FROM t WHERE kind = '\''memcg'\''")" \
		"|1|0.250|0
1|1|1.000|60" &&
	assert_eq "$(row ep.csv 3 "kind = '\''kswapd'\''")" "kswapd|0|2|1|1|5.000|5.000|5.000|5.000|5.000|80|48"
'

test_expect_success SQLITE3 'episodes: a timed loss flags every episode it falls inside' '
	cp ep.db eplost.db &&
	# a ring-buffer gap noticed at 0.002600 s (100002600000 ns), on CPU 3:
	#  inside stressA (0.001 .. 0.004) and stressB (0.002 .. 0.003), not elsewhere
	sql eplost.db "INSERT INTO lost_events VALUES (3, 100002600000, 7, '\''ring-buffer'\'')" &&
	vmscope upgrade -q --rederive eplost.db &&
	vmscope report eplost.db episodes --format csv > eplost.csv &&
	assert_eq "$(csvq eplost.csv 1 "SELECT pid, lost FROM t WHERE lost <> '\'''\''")" \
		"201|inside cpu1
202|inside" &&
	# a loss with neither CPU nor time may be anywhere: every episode is flagged
	sql eplost.db "INSERT INTO lost_events VALUES (NULL, NULL, 3, '\''text'\'')" &&
	vmscope upgrade -q --rederive eplost.db &&
	vmscope report eplost.db episodes --format csv > eplost2.csv &&
	assert_eq "$(csvq eplost2.csv 1 "SELECT COUNT(*) FROM t WHERE lost LIKE '\''%anywhere'\''")" 18
'

test_expect_success SQLITE3 'episodes: JSON parses; cut ends are null' '
	vmscope report ep.db episodes --format json > ep.json &&
	python3 -c "import json,sys; json.load(sys.stdin)" < ep.json &&
	# early: start (column 5) and duration (7) null, end 0.0005, cut (21) "start"
	assert_eq "$(json_row ep.json episodes 1 300)" \
		"[\"direct\", 300, \"early\", 0, 2, null, 0.0005, null, 32, 8, 25.0, 0, 32, 10, 0, 0, 0, 0, 0.0, 8, null, \"start\", \"\"]" &&
	assert_eq "$(python3 -c "import json,sys; print(json.load(sys.stdin)[\"tables\"][0][\"columns\"][5])" < ep.json)" \
		"{'\''name'\'': '\''start'\'', '\''unit'\'': '\''s'\''}"
'

test_expect_success SQLITE3 'episodes: --from/--to keeps the episodes overlapping the window' '
	# window 0.020 .. 0.030 s: worker episodes 0.020-0.027 and 0.028-0.031 only
	vmscope report ep.db episodes --from 0.020 --to 0.030 --format csv > win.csv &&
	assert_eq "$(csvq win.csv 1 "SELECT pid, start, duration FROM t")" \
		"400|0.020000|7.000
400|0.028000|3.000"
'

test_expect_success SQLITE3 'episodes: text output names the cut and lost columns' '
	vmscope report ep.db episodes --table episodes > ep.out &&
	head -2 ep.out | grep -q " cut  *lost$" &&
	grep -q "note: cut: 1 episodes began before the trace" ep.out
'

# Throttling: kswapd0 WRITEBACK sleeps of 100 (full timeout), 20 and 60 ms;
# NOPROGRESS sleeps of 4, 4, 0 ms (stressA) and 4, 0 ms (stressB), timeout 4 ms;
# one ISOLATED sleep of 8 ms (timeout 20 ms); one CONGESTED sleep of 4 ms (stressB).
write_throttle_trace() {
	thr kswapd0 90 0 200.000000 100000 100000 WRITEBACK
	thr stressA 201 1 200.010000 4000 4000 NOPROGRESS
	thr stressB 202 3 200.020000 4000 4000 NOPROGRESS
	thr stressA 201 1 200.030000 4000 4000 NOPROGRESS
	thr kswapd0 90 0 200.040000 100000 20000 WRITEBACK
	thr iso 203 2 200.050000 20000 8000 ISOLATED
	thr stressA 201 1 200.060000 4000 0 NOPROGRESS
	thr stressB 202 3 200.070000 4000 0 NOPROGRESS
	thr stressB 202 3 200.080000 4000 4000 CONGESTED
	thr kswapd0 90 0 200.200000 100000 60000 WRITEBACK
}

test_expect_success SQLITE3 'throttle: by reason, with nearest-rank percentiles' '
	write_throttle_trace > thr.txt &&
	vmscope import -q thr.txt -o thr.db &&
	vmscope report thr.db throttle --format csv > thr.csv &&
	# WRITEBACK: 20, 60, 100 ms: total 180; p50 rank ceil(1.5) = 2 -> 60; p90 rank ceil(2.7) = 3
	#  -> 100; timeout 100; one sleep ran its full timeout
	assert_eq "$(row thr.csv 1 "reason = '\''VMSCAN_THROTTLE_WRITEBACK'\''")" \
		"mm_vmscan_throttled|VMSCAN_THROTTLE_WRITEBACK|3|180.000|60.000|100.000|100.000|100.000|100.000|1" &&
	# NOPROGRESS: 0, 0, 4, 4, 4 ms: total 12; p50 rank ceil(2.5) = 3 -> 4; 3 full timeouts
	assert_eq "$(row thr.csv 1 "reason = '\''VMSCAN_THROTTLE_NOPROGRESS'\''")" \
		"mm_vmscan_throttled|VMSCAN_THROTTLE_NOPROGRESS|5|12.000|4.000|4.000|4.000|4.000|4.000|3" &&
	assert_eq "$(row thr.csv 1 "reason = '\''VMSCAN_THROTTLE_ISOLATED'\''")" \
		"mm_vmscan_throttled|VMSCAN_THROTTLE_ISOLATED|1|8.000|8.000|8.000|8.000|8.000|20.000|0" &&
	assert_eq "$(row thr.csv 1 "reason = '\''VMSCAN_THROTTLE_CONGESTED'\''")" \
		"mm_vmscan_throttled|VMSCAN_THROTTLE_CONGESTED|1|4.000|4.000|4.000|4.000|4.000|4.000|1" &&
	# rows in the order of the reason bits: WRITEBACK 1, ISOLATED 2, NOPROGRESS 4, CONGESTED 8
	assert_eq "$(csvq thr.csv 1 "SELECT events FROM t" | tr "\n" " ")" "3 1 5 1 "
'

test_expect_success SQLITE3 'throttle: by task' '
	# kswapd0: 180 ms as above; stressA 4 + 4 + 0 = 8 ms, sorted 0, 4, 4: p50 rank 2 -> 4;
	# stressB 4 + 0 (NOPROGRESS) + 4 (CONGESTED) = 8 ms, two reasons; iso 8 ms
	assert_eq "$(csvq thr.csv 2 "SELECT pid, comm, events, \"total delay\", p50, \"full timeouts\", reasons FROM t")" \
		"90|kswapd0|3|180.000|60.000|1|VMSCAN_THROTTLE_WRITEBACK
201|stressA|3|8.000|4.000|2|VMSCAN_THROTTLE_NOPROGRESS
202|stressB|3|8.000|4.000|2|VMSCAN_THROTTLE_NOPROGRESS|VMSCAN_THROTTLE_CONGESTED
203|iso|1|8.000|8.000|0|VMSCAN_THROTTLE_ISOLATED"
'

test_expect_success SQLITE3 'throttle: window and JSON' '
	# 0.035 .. 0.1 s: WRITEBACK 20 ms (at 0.040), ISOLATED, NOPROGRESS 0 + 0, CONGESTED
	vmscope report thr.db throttle --from 0.035 --to 0.1 --format csv > thrw.csv &&
	assert_eq "$(csvq thrw.csv 1 "SELECT events, \"total delay\" FROM t" | tr "\n" " ")" \
		"1|20.000 1|8.000 2|0.000 1|4.000 " &&
	vmscope report thr.db throttle --format json > thr.json &&
	python3 -c "import json,sys; json.load(sys.stdin)" < thr.json
'

test_expect_success SQLITE3 'throttle: episodes count the sleeps inside them' '
	# the episodes fixture: stressA slept 1 ms inside its direct reclaim, kswapd0 0.8 ms
	assert_eq "$(csvq ep.csv 1 "SELECT pid, throttled FROM t WHERE throttled <> '\''0.000'\''")" \
		"201|1.000
90|0.800"
'

test_expect_success SQLITE3 'throttle: 5.15 congestion waits are rows of their own event' '
	printf "%s\n" \
		"     Web Content-4242  [002] ....   300.000000: writeback_congestion_wait: usec_timeout=100000 usec_delayed=100000" \
		"     Web Content-4242  [002] ....   300.100000: writeback_congestion_wait: usec_timeout=100000 usec_delayed=40000" \
		"         kswapd0-91    [000] ....   300.200000: writeback_wait_iff_congested: usec_timeout=100000 usec_delayed=0" \
		> cw.txt &&
	vmscope import -q cw.txt -o cw.db &&
	vmscope report cw.db throttle --format csv > cw.csv &&
	# congestion_wait: 40 and 100 ms: total 140; p50 rank 1 -> 40; p90 rank ceil(1.8) = 2 -> 100;
	#  one full timeout; no reason (NULL)
	assert_eq "$(csvq cw.csv 1 "SELECT * FROM t")" \
		"writeback_congestion_wait||2|140.000|40.000|100.000|100.000|100.000|100.000|1
writeback_wait_iff_congested||1|0.000|0.000|0.000|0.000|0.000|100.000|0" &&
	assert_eq "$(csvq cw.csv 2 "SELECT pid, comm, events FROM t")" \
		"4242|Web Content|2
91|kswapd0|1"
'

test_expect_success SQLITE3 'throttle: a run without throttling says so' '
	ev kswapd0 90 0 1.000000 mm_vmscan_kswapd_wake "nid=0 order=0" > quiet.txt &&
	ev kswapd0 90 0 1.000100 mm_vmscan_kswapd_sleep "nid=0" >> quiet.txt &&
	vmscope import -q quiet.txt -o quiet.db &&
	vmscope report quiet.db throttle > quiet.out &&
	grep -q "^(no rows)" quiet.out &&
	grep -q "note: no reclaim throttling in the window" quiet.out &&
	grep -q "a text trace does not say which events were enabled" quiet.out &&
	vmscope report quiet.db throttle --format json | python3 -c "import json,sys; json.load(sys.stdin)"
'

test_expect_success SQLITE3 'both sections on a run with no reclaim at all' '
	ev cat 7 1 1.000000 mm_vmscan_wakeup_kswapd "nid=0 order=0 gfp_flags=GFP_KERNEL" > none.txt &&
	vmscope import -q none.txt -o none.db &&
	vmscope report none.db episodes throttle > none.out &&
	grep -q "the run has no reclaim episodes" none.out &&
	vmscope report none.db episodes throttle --format json | python3 -c "import json,sys; json.load(sys.stdin)"
'

test_done
