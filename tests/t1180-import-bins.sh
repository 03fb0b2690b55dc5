#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1180-import-bins.sh - an import counts event_bucket from the rows the
# sink counted as it stored them (lib/sink-bins.c) instead of reading every
# event table again; `vmscope upgrade --rederive` reads the tables. Both
# must give the same buckets: for .dat files, for a text trace whose span
# makes the bins coarser on the way (1 ms, then 5 and 10 ms), with events
# sharing event_generic and a generated table, for rows out of time order
# (bins before the first row's), and for counters that start the run
# earlier than the events (the bins no longer line up: the tables are read).

. "$(dirname "$0")/test-lib.sh"

# The buckets of DB, sorted.
buckets() { # DB
	sql "$1" "SELECT tbl, event, bucket, n, min_seq, max_seq FROM event_bucket
		ORDER BY tbl, event, bucket"
}

# Import SOURCE into DB.db, derive DB.db again into DB-re.db, compare.
same_after_rederive() { # SOURCE DB [import options]
	src=$1 db=$2
	shift 2
	vmscope import -q "$src" -o "$db.db" "$@" &&
	cp "$db.db" "$db-re.db" &&
	vmscope upgrade -q --rederive "$db-re.db" &&
	buckets "$db.db" > "$db.b" &&
	buckets "$db-re.db" > "$db-re.b" &&
	test -s "$db.b" &&
	test_cmp "$db-re.b" "$db.b"
}

# ev TS EVENT PAYLOAD: one tracefs text line of pid 77 on cpu 1.
ev() {
	printf '          worker-77    [001] .....   %s: %s: %s\n' "$1" "$2" "$3"
}

test_expect_success SQLITE3 'the .dat fixtures: the same buckets as read from the tables' '
	same_after_rederive "$TEST_DIRECTORY/fixtures/dat/small.dat" small &&
	same_after_rederive "$SRC_DIR/samples/traces/memcg-fileread.dat" fileread
'

test_expect_success SQLITE3 'a text trace of 12 s: bins made coarser as it goes, shared tables' '
	awk "BEGIN {
		for (i = 0; i < 6000; i++) {
			ts = 100 + i * 0.002
			printf \"          worker-77    [001] .....   %.6f: my_event: a=%d b=%d\\n\", ts, i, i % 7
			if (i % 3 == 0)
				printf \"          worker-77    [001] .....   %.6f: prose: no fields at all\\n\", ts + 0.0004
			if (i % 5 == 0)
				printf \"          worker-77    [001] .....   %.6f: words: more text without fields\\n\", ts + 0.0007
		}
	}" > long.txt &&
	same_after_rederive long.txt long &&
	test "$(sql long.db "SELECT COUNT(DISTINCT event) FROM event_bucket WHERE tbl = \"event_generic\"")" = 2 &&
	test "$(sql long.db "SELECT bucket_ns FROM derive_info")" = 10000000
'

test_expect_success SQLITE3 'rows out of time order: bins before the first row' '
	{
		ev 50.000000 my_event "a=1 b=2"
		ev 50.004000 my_event "a=2 b=2"
		ev 49.990000 my_event "a=3 b=2"
		ev 49.995500 my_event "a=4 b=2"
		ev 50.020000 my_event "a=5 b=2"
	} > back.txt &&
	same_after_rederive back.txt back &&
	assert_eq "$(sql back.db "SELECT SUM(n) FROM event_bucket WHERE tbl = \"my_event\"")" 5
'

test_expect_success SQLITE3 'counters from before the first event: the tables are read' '
	{
		echo "time,nr_free_pages"
		echo "49.999999123,100"
		echo "50.100000000,90"
	} > early.csv &&
	ev 50.000000 my_event "a=1 b=2" > one.txt &&
	ev 50.004000 my_event "a=2 b=2" >> one.txt &&
	same_after_rederive one.txt early --counters early.csv --counters-offset 0 &&
	test "$(sql early.db "SELECT COUNT(*) FROM counter_sample")" -gt 0 &&
	assert_eq "$(sql early.db "SELECT SUM(n) FROM event_bucket WHERE tbl = \"my_event\"")" 2
'

test_done
