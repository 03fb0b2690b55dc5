#!/bin/sh
# t2110-replay-decisions-same.sh - the decision records of the bundled
# recordings, row for row, are those the per-pass SQL build gave before the
# one-pass build (issue 18): a digest of every column of every row of the
# decision table, made with the binary of commit 3e806db. Also with the
# event times cut to whole milliseconds, so that a task has many events at
# the same time in different tables (their order is the one of SQL's ORDER BY
# pid, ts over the tables' UNION ALL). When a change to the decisions is
# meant, make the digests again with:
#   vmscope replay DB -p v6.18; sqlite3 -batch DB 'SELECT * FROM decision ORDER BY id' | sha256sum
# No root.
. "$(dirname "$0")/test-lib.sh"

S="$SRC_DIR/samples/traces"
EVENT_TABLES="mm_vmscan_lru_shrink_inactive mm_vmscan_lru_shrink_active mm_shrink_slab_start
	mm_shrink_slab_end mm_vmscan_write_folio mm_vmscan_kswapd_wake mm_vmscan_kswapd_sleep
	mm_vmscan_direct_reclaim_begin mm_vmscan_memcg_reclaim_begin mm_vmscan_direct_reclaim_end
	mm_vmscan_memcg_reclaim_end"

# the columns of 3e806db: all but those added since (ref_keep_*: the
# mapped_once question's nr_ref_keep, checked against the events in t2140)
OLD_COLUMNS="SELECT group_concat('\"' || name || '\"', ', ') FROM pragma_table_info('decision')
	WHERE name NOT IN ('ref_keep_anon', 'ref_keep_file')"
# digest DB: replay DB and print "ROWS DIGEST" of its decision table
digest() {
	vmscope replay "$1" -p v6.18 > /dev/null 2>&1 &&
	echo "$(sql "$1" "SELECT COUNT(*) FROM decision")" \
		"$(sql "$1" "SELECT $(sql "$1" "$OLD_COLUMNS") FROM decision ORDER BY id" |
		   sha256sum | cut -c1-16)"
}
# to_ms DB: event times cut to whole milliseconds
to_ms() {
	for t in $EVENT_TABLES; do
		echo "UPDATE $t SET ts = ts / 1000000 * 1000000;"
	done | sqlite3 -batch "$1"
}

# sample ROWS DIGEST ROWS_MS DIGEST_MS
check() {
	xz -dc "$S/$1.db.xz" > "$1.db" &&
	assert_eq "$(digest "$1.db")" "$2 $3" "$1" &&
	xz -dc "$S/$1.db.xz" > "$1-ms.db" &&
	to_ms "$1-ms.db" &&
	assert_eq "$(digest "$1-ms.db")" "$4 $5" "$1 in ms"
}

test_expect_success SQLITE3 'thrash (memcg reclaim, memory.stat inputs): decisions as before' '
	check thrash 20709 081ee9c0e76b4b5e 35658 e8cbf837de040f40
'

test_expect_success SQLITE3 'kswapd-fail (kswapd runs, zone inputs): decisions as before' '
	check kswapd-fail 517 aff507506e4387f1 569 316f115681d5e604
'

test_expect_success SQLITE3 'smallfiles (slab passes): decisions as before' '
	check smallfiles 4594 d1ce742e6e881c4c 9135 37efc9b43c2c0c9e
'

test_expect_success SQLITE3 'sparse-mmap: decisions as before' '
	check sparse-mmap 28380 43b896aa10877d6f 51775 db4719d833d68b1b
'

test_done
