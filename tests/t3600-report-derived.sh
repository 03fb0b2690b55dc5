#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3600-report-derived.sh - the tables derived when a run is finished
# (schema/910-derived.sql, lib/derive.c) against the raw events: the
# pairings against the window-function views of schema/006-views.sql, the
# rollups against sums over the raw rows, report windows that cut inside a
# bucket against plain SQL, a database made before the derived tables
# existed (views, no rollups) reported the same as a new one once upgraded,
# and a run changed by hand after it was finished derived again.

. "$(dirname "$0")/test-lib.sh"

SAMPLE=$SRC_DIR/samples/traces/memcg-fileread.dat

# The views of 006-views.sql as TEMP views named ref_*, then QUERY.
with_ref() { # DB QUERY
	{
		sed -e 's/^CREATE VIEW \([a-z_]*\)/CREATE TEMP VIEW ref_\1/' "$SRC_DIR/schema/006-views.sql"
		echo "$2"
	} | sqlite3 -batch "$1"
}

# Rows of view ref_V missing from table V and the reverse, and both counts.
pairs_differ() { # DB VIEW
	with_ref "$1" "SELECT (SELECT COUNT(*) FROM (SELECT * FROM ref_$2 EXCEPT SELECT * FROM $2)),
		(SELECT COUNT(*) FROM (SELECT * FROM $2 EXCEPT SELECT * FROM ref_$2)),
		(SELECT COUNT(*) FROM ref_$2) - (SELECT COUNT(*) FROM $2);"
}

# DB with the derived tables dropped and the views back: as made before them.
make_old() { # NEW OLD
	cp "$1" "$2" &&
	sqlite3 -batch "$2" "DROP TABLE derive_info; DROP TABLE event_bucket;
		DROP TABLE inactive_bucket; DROP TABLE shrink_bucket; DROP TABLE episode;
		DROP TABLE reclaim_interval; DROP TABLE kswapd_interval;
		DROP VIEW shrink_slab_interval; DROP TABLE shrink_slab_call;" &&
	sqlite3 -batch "$2" < "$SRC_DIR/schema/006-views.sql"
}

test_expect_success SQLITE3 'import derives the tables once' '
	vmscope import -q "$SAMPLE" -o new.db &&
	assert_eq "$(sql new.db "SELECT bucket_ns > 0 AND 1000000000 % bucket_ns = 0,
		origin_ts = (SELECT start_ts FROM run) FROM derive_info")" "1|1" &&
	assert_eq "$(sql new.db "SELECT type FROM sqlite_schema WHERE name = '\''kswapd_interval'\''")" table &&
	test "$(sql new.db "SELECT COUNT(*) FROM shrink_slab_interval")" -gt 500 &&
	test "$(sql new.db "SELECT COUNT(*) FROM reclaim_interval")" -gt 100
'

test_expect_success SQLITE3 'pairings equal the views on a fresh import' '
	assert_eq "$(pairs_differ new.db reclaim_interval)" "0|0|0" &&
	assert_eq "$(pairs_differ new.db kswapd_interval)" "0|0|0" &&
	assert_eq "$(pairs_differ new.db shrink_slab_interval)" "0|0|0"
'

test_expect_success SQLITE3 'rollups equal sums over the raw rows' '
	assert_eq "$(sql new.db "SELECT SUM(n) FROM event_bucket WHERE tbl <> '\''shrink_slab_call'\''")" \
		"$(sql new.db "SELECT events FROM run")" "events" &&
	assert_eq "$(sql new.db "SELECT SUM(n) FROM event_bucket WHERE tbl = '\''mm_shrink_slab_start'\''")" \
		"$(sql new.db "SELECT COUNT(*) FROM mm_shrink_slab_start")" "slab starts" &&
	assert_eq "$(sql new.db "SELECT SUM(events), SUM(nr_scanned), SUM(nr_reclaimed),
		SUM(scanned_anon), SUM(scanned_file) FROM inactive_bucket")" \
		"$(sql new.db "SELECT COUNT(*), SUM(nr_scanned), SUM(nr_reclaimed),
		SUM(CASE WHEN reclaim_flags & 1 THEN nr_scanned END),
		SUM(CASE WHEN reclaim_flags & 2 THEN nr_scanned END) FROM mm_vmscan_lru_shrink_inactive")" "inactive" &&
	assert_eq "$(sql new.db "SELECT SUM(calls), SUM(to_scan), SUM(scanned), SUM(freed), SUM(open)
		FROM shrink_bucket WHERE orphan = 0")" \
		"$(sql new.db "SELECT COUNT(*), SUM(total_scan), SUM(total_scan - left_unscanned),
		SUM(freed), SUM(end_ts IS NULL) FROM shrink_slab_interval WHERE start_ts IS NOT NULL")" "slab" &&
	assert_eq "$(sql new.db "SELECT COUNT(*) FROM (SELECT tbl, bucket FROM event_bucket b
		WHERE b.n <> (SELECT COUNT(*) FROM mm_vmscan_lru_shrink_inactive s
		WHERE s.seq BETWEEN b.min_seq AND b.max_seq
		AND (s.ts - (SELECT origin_ts FROM derive_info)) / (SELECT bucket_ns FROM derive_info) = b.bucket)
		AND b.tbl = '\''mm_vmscan_lru_shrink_inactive'\'')")" 0 "bucket seq ranges"
'

# A window whose ends fall inside buckets, at 63.3% and 77.2% of the run (the
# reclaim of this trace is in its last 40%).
test_expect_success SQLITE3 'a window cutting inside buckets: summary, vmstat and shrinkers exact' '
	span=$(sql new.db "SELECT (end_ts - start_ts) / 1e9 FROM run") &&
	from=$(awk -v s="$span" "BEGIN { printf \"%.7f\", s * 0.6333333 }") &&
	to=$(awk -v s="$span" "BEGIN { printf \"%.7f\", s * 0.7717171 }") &&
	w="(SELECT start_ts + CAST($from * 1e9 AS INTEGER) FROM run) AND (SELECT start_ts + CAST($to * 1e9 AS INTEGER) FROM run)" &&
	assert_eq "$(sql new.db "SELECT (SELECT start_ts + CAST($from * 1e9 AS INTEGER) FROM run) % (SELECT bucket_ns FROM derive_info) <> 0")" 1 &&
	vmscope report new.db summary --table events --format csv --from $from --to $to > ev.csv &&
	sqlite3 -batch :memory: ".import --csv ev.csv t" "SELECT event, count FROM t ORDER BY event" > ev.got &&
	sql new.db "SELECT event, n FROM (
		SELECT '\''mm_vmscan_lru_shrink_inactive'\'' AS event, COUNT(*) AS n FROM mm_vmscan_lru_shrink_inactive WHERE ts BETWEEN $w
		UNION ALL SELECT '\''mm_shrink_slab_start'\'', COUNT(*) FROM mm_shrink_slab_start WHERE ts BETWEEN $w
		UNION ALL SELECT '\''mm_vmscan_memcg_reclaim_end'\'', COUNT(*) FROM mm_vmscan_memcg_reclaim_end WHERE ts BETWEEN $w
		UNION ALL SELECT event, COUNT(*) FROM event_generic WHERE ts BETWEEN $w GROUP BY event)
		WHERE n > 0 ORDER BY event" > ev.want &&
	join -t "|" ev.want ev.got > ev.joined &&
	assert_eq "$(wc -l < ev.joined)" "$(wc -l < ev.want)" "events found" &&
	awk -F"|" "\$2 != \$3 { print; bad = 1 } END { exit bad }" ev.joined &&
	vmscope report new.db vmstat --format csv --from $from --to $to > vm.csv &&
	assert_eq "$(sqlite3 -batch :memory: ".import --csv vm.csv t" "SELECT value FROM t WHERE metric = '\''Trace: other tasks pages scanned'\''")" \
		"$(sql new.db "SELECT COALESCE(SUM(nr_scanned), 0) FROM mm_vmscan_lru_shrink_inactive WHERE ts BETWEEN $w")" "scanned" &&
	vmscope report new.db shrinkers --table shrinkers --format csv --from $from --to $to > sh.csv &&
	assert_eq "$(sqlite3 -batch :memory: ".import --csv sh.csv t" "SELECT SUM(calls), SUM(CAST(\"scanned (objects)\" AS INTEGER)),
		SUM(CAST(\"freed (objects)\" AS INTEGER)) FROM t")" \
		"$(with_ref new.db "SELECT COUNT(*), SUM(total_scan - left_unscanned), SUM(freed)
		FROM ref_shrink_slab_interval WHERE start_ts BETWEEN $w;")" "slab calls"
'

test_expect_success SQLITE3 'a version 1 database made before the derived tables: refused, then upgraded, reports the same' '
	make_old new.db old.db &&
	sql old.db "PRAGMA user_version = 1" &&
	assert_eq "$(sql old.db "SELECT type FROM sqlite_schema WHERE name = '\''reclaim_interval'\''")" view &&
	test_must_fail vmscope report old.db > old.txt 2> old.err &&
	grep -q "run '\''vmscope upgrade old.db'\''" old.err &&
	test ! -s old.txt &&
	vmscope upgrade -q old.db &&
	assert_eq "$(sql old.db "SELECT type FROM sqlite_schema WHERE name = '\''reclaim_interval'\''")" table &&
	vmscope report new.db > new.txt 2> new.err &&
	vmscope report old.db > old.txt 2> old.err &&
	test_cmp new.txt old.txt &&
	no_match "warning" new.err &&
	no_match "warning" old.err &&
	vmscope report new.db --from 0.5 --to 1.25 > new-w.txt &&
	vmscope report old.db --from 0.5 --to 1.25 > old-w.txt &&
	test_cmp new-w.txt old-w.txt
'

test_expect_success SQLITE3 'rows added after the finish: upgrade --rederive derives again' '
	cp new.db added.db &&
	sql added.db "INSERT INTO mm_vmscan_lru_shrink_inactive (seq, ts, cpu, pid, nr_scanned, nr_reclaimed)
		SELECT (SELECT MAX(seq) FROM mm_vmscan_lru_shrink_inactive) + 1000000, end_ts, 0, 1, 7, 5 FROM run" &&
	vmscope upgrade -q --rederive added.db &&
	vmscope report added.db vmstat --format csv > added.csv 2> added.err &&
	no_match "warning" added.err &&
	assert_eq "$(sqlite3 -batch :memory: ".import --csv added.csv t" "SELECT value FROM t WHERE metric = '\''Trace: other tasks pages scanned'\''")" \
		"$(sql added.db "SELECT SUM(nr_scanned) FROM mm_vmscan_lru_shrink_inactive")"
'

test_expect_success SQLITE3 'a counter sample added before the run: refused until derived again' '
	cp new.db early.db &&
	sql early.db "INSERT INTO counter_sample (ts, ts_end, source, scope)
		SELECT start_ts - 2000000000, start_ts - 1999000000, '\''vmstat'\'', '\'''\'' FROM run" &&
	test_must_fail vmscope report early.db summary > early.out 2> early.err &&
	grep -q "changed after it was finished.*vmscope upgrade --rederive early.db" early.err &&
	vmscope upgrade -q --rederive early.db &&
	assert_eq "$(sql early.db "SELECT origin_ts = (SELECT MIN(ts) FROM counter_sample) FROM derive_info")" 1 &&
	vmscope report early.db summary > early.out
'

# ev COMM-PID TS EVENT PAYLOAD (6.18 tracefs text line)
ev() {
	printf '%16s (%7s) [001] ..... %s: %s: %s\n' "$1" "${1##*-}" "$2" "$3" "$4"
}
slab_start() { # COMM-PID TS SHR PRIO
	ev "$1" "$2" mm_shrink_slab_start "super_cache_scan+0x0/0x1a0 $3: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 1000 delta 10 total_scan 10 priority $4"
}
slab_end() { # COMM-PID TS SHR FREED
	ev "$1" "$2" mm_shrink_slab_end "super_cache_scan+0x0/0x1a0 $3: nid: 0 unused scan count 0 new scan count 0 total_scan 0 last shrinker return val $4"
}

# Lines not in time order (a text trace keeps its own order as seq): the
# pairing must follow (ts, seq) per task, as the view does. Task a in time
# order: end(1) start(1) start(2) end(2) end(1): start 1 is cut, 2 pairs;
# task b: start(1) end(3) start(1): no pair (other shrinker): 4 calls, 1 paired.
test_expect_success SQLITE3 'slab events out of time order in seq: paired as the view pairs them' '
	{
		echo "# tracer: nop"
		slab_start a-10 100.000100 00000000aaaa0001 12
		slab_end a-10 100.000300 00000000aaaa0001 5
		slab_start a-10 100.000200 00000000aaaa0002 11
		slab_end a-10 100.000250 00000000aaaa0002 3
		slab_start b-20 100.000150 00000000aaaa0001 10
		slab_end b-20 100.000160 00000000aaaa0003 1
		slab_end a-10 100.000050 00000000aaaa0001 2
		slab_start b-20 100.000400 00000000aaaa0001 9
	} > unordered.txt &&
	vmscope import -q unordered.txt -o unordered.db &&
	assert_eq "$(sql unordered.db "SELECT slab_resorted FROM derive_info")" 1 &&
	assert_eq "$(pairs_differ unordered.db shrink_slab_interval)" "0|0|0" &&
	assert_eq "$(sql unordered.db "SELECT COUNT(*), SUM(end_ts IS NOT NULL) FROM shrink_slab_interval WHERE start_ts IS NOT NULL")" "4|1"
'

test_expect_success SQLITE3 'bundled sample databases are of this schema version and report without a warning' '
	want=$(vmscope --version | sed "s/.*(schema \([0-9]*\))/\1/") &&
	for s in thrash smallfiles sparse-mmap kswapd-fail; do
		xz -dc "$SRC_DIR/samples/traces/$s.db.xz" > $s.db &&
		assert_eq "$(sql $s.db "PRAGMA user_version")" "$want" "$s version" &&
		vmscope report $s.db > $s.txt 2> $s.err &&
		no_match "warning" $s.err &&
		grep -q "^Audit" $s.txt || return 1
	done
'

test_expect_success SQLITE3 'kswapd_interval: a re-wake counts twice, in the view and in the table' '
	# node 0: woken at 1.0 s, again at 1.1 s (order 3) before sleeping at
	# 1.2 s: one interval of 200 ms with 2 wakes; then 2.0 .. 2.5 s, 1 wake
	cat > kw.txt <<-\EOF &&
	         kswapd0-50      [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-50      [000] .....     1.100000: mm_vmscan_kswapd_wake: nid=0 order=3
	         kswapd0-50      [000] .....     1.200000: mm_vmscan_kswapd_sleep: nid=0
	         kswapd0-50      [000] .....     2.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-50      [000] .....     2.500000: mm_vmscan_kswapd_sleep: nid=0
	EOF
	vmscope import -q kw.txt -o kw.db &&
	assert_eq "$(with_ref kw.db "SELECT nid, wake_ts, sleep_ts, duration_ns, wakes, max_order
		FROM ref_kswapd_interval ORDER BY wake_ts;")" "0|1000000000|1200000000|200000000|2|3
0|2000000000|2500000000|500000000|1|0" &&
	assert_eq "$(pairs_differ kw.db kswapd_interval)" "0|0|0"
'

test_done
