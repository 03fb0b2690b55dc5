#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t2330-whatif-consistency.sh - self-consistency of `vmscope whatif`: on
# each bundled sample recording (samples/traces/*.db.xz, counter demand: they
# have no filemap events) and on a hand-built one, the baseline reproduces
# the recorded refault_file, reclaimed_file and reclaimed_anon within 10%,
# or whatif says why not (stored as assumptions "self-consistency: METRIC"):
# the verdict matches the numbers, and the reasons are the ones the
# recordings show (machine-wide counters of node reclaim, page cache freed
# with its inodes, counter demand); node reclaim whose slab grows is
# reproduced because memory outside the LRU follows the recording. No root.
. "$(dirname "$0")/test-lib.sh"

TRACES="$SRC_DIR/samples/traces"
METRICS="refault_file reclaimed_file reclaimed_anon"

# verdict DB METRIC: the stored self-consistency row of the 'no change' scenario
verdict() {
	sql "$1" "SELECT value FROM whatif_assumption WHERE scenario = 'no change'
		AND item = 'self-consistency: $2'"
}
# error DB METRIC: baseline against recorded, % (empty when nothing was recorded)
error() {
	sql "$1" "SELECT printf('%.1f', 100.0 * (baseline - recorded) / recorded) FROM outcome
		WHERE scenario = 'no change' AND metric = '$2' AND recorded > 0"
}
# consistent DB: every metric either within 10% (and said so) or off with a reason
consistent() {
	for m in $METRICS; do
		v=$(verdict "$1" $m) && e=$(error "$1" $m) || return 1
		echo "$1 $m: error ${e:-none}%: $v"
		case "$v" in
		"within 10%"*)
			[ -z "$e" ] || awk -v e="$e" 'BEGIN { exit !(e >= -10 && e <= 10) }' || return 1 ;;
		"off: baseline "*": "?*)
			awk -v e="$e" 'BEGIN { exit !(e < -10 || e > 10) }' || return 1
			echo "$v" | grep -q -- "baseline $(printf '%+.1f' "$e")% of recorded" || return 1 ;;
		*) return 1 ;;
		esac
	done
}

for s in thrash smallfiles sparse-mmap kswapd-fail boosted-kswapd; do
	test_expect_success SQLITE3 "$s: within 10%, or off with the reason" "
		xz -dc '$TRACES/$s.db.xz' > $s.db &&
		vmscope whatif $s.db -a demand=counters -a memcg.swappiness=60 > $s.txt &&
		grep -q 'self-consistency: refault_file' $s.txt &&
		consistent $s.db
	"
done

test_expect_success SQLITE3 'the reasons: node counters, inodes, counter demand' '
	verdict kswapd-fail.db reclaimed_file | grep -q "^off: .*node reclaim of a machine shared" &&
	verdict kswapd-fail.db refault_file | grep -q "^within 10%" &&
	verdict smallfiles.db reclaimed_file | grep -q "^off: .*the inode shrinker was busy.*its kernel memory was not recorded" &&
	verdict thrash.db refault_file | grep -q "^off: .*counter demand" &&
	verdict sparse-mmap.db refault_file | grep -q "^within 10%.*by construction with counter demand" &&
	verdict sparse-mmap.db reclaimed_file | grep -q "^within 10%"
'

# the node memory follows the recording: boosted-kswapd slab grows by 230,000 pages
test_expect_success SQLITE3 'node reclaim whose slab grows: the file reclaim within 10%' '
	verdict boosted-kswapd.db reclaimed_file | grep -q "^within 10%" &&
	verdict boosted-kswapd.db refault_file | grep -q "^within 10%" &&
	grep -q "model: node memory  *the LRU lists and free memory share" boosted-kswapd.txt
'

# loop.db: a 150-page file read 5 times through a 100-page memcg, insertions recorded
test_expect_success SQLITE3 'a recording with filemap events the model reproduces: within 10%' '
	printf "  cat-1 [000] .... 0.500000: mm_vmscan_kswapd_sleep: nid=0\n  cat-1 [000] .... 3.500000: mm_vmscan_kswapd_sleep: nid=0\n" > run.txt &&
	vmscope import -q run.txt -o loop.db &&
	sql loop.db "
		INSERT INTO sysctl VALUES ('\''memcg.swappiness'\'', '\''60'\'');
		INSERT INTO mm_vmscan_memcg_reclaim_begin (seq, ts, cpu, pid) VALUES (1000, 1100000000, 0, 42);
		INSERT INTO mm_vmscan_lru_shrink_inactive (seq, ts, cpu, pid, nid, nr_scanned, nr_reclaimed,
			priority, reclaim_flags) VALUES (1001, 1100000001, 0, 42, 0, 650, 650, 12, 2);
		INSERT INTO counter_sample VALUES (1, 1000000000, 1000000100, '\''memcg'\'', '\''/t'\'');
		INSERT INTO counter_sample VALUES (2, 2000000000, 2000000100, '\''memcg'\'', '\''/t'\'');
		INSERT INTO counter_sample VALUES (3, 3000000000, 3000000100, '\''memcg'\'', '\''/t'\'');
		INSERT INTO counter_sample VALUES (4, 1000000000, 1000000100, '\''meminfo'\'', '\'''\'');
		INSERT INTO counter_value VALUES (4, '\''SwapTotal'\'', 0);
		INSERT INTO counter_value SELECT s, '\''hierarchical_memory_limit'\'', 409600 FROM (SELECT 1 AS s UNION SELECT 2 UNION SELECT 3);
		INSERT INTO counter_value SELECT s, n, 0 FROM (SELECT 1 AS s UNION SELECT 2 UNION SELECT 3) JOIN (
			SELECT '\''total_inactive_anon'\'' AS n UNION SELECT '\''total_active_anon'\'' UNION SELECT '\''total_active_file'\''
			UNION SELECT '\''total_rss'\'' UNION SELECT '\''total_workingset_refault_anon'\'');
		INSERT INTO counter_value VALUES (1, '\''total_inactive_file'\'', 0), (2, '\''total_inactive_file'\'', 409600),
			(3, '\''total_inactive_file'\'', 409600), (1, '\''total_cache'\'', 0), (2, '\''total_cache'\'', 409600),
			(3, '\''total_cache'\'', 409600), (1, '\''total_workingset_refault_file'\'', 0),
			(2, '\''total_workingset_refault_file'\'', 300), (3, '\''total_workingset_refault_file'\'', 600);
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 749)
		INSERT INTO event_generic (seq, ts, cpu, pid, system, event, fields)
			SELECT 2000 + i, 1000000000 + 1 + i * 2000000, 0, 42, '\''filemap'\'', '\''mm_filemap_add_to_page_cache'\'',
				json_object('\''pfn'\'', 0, '\''i_ino'\'', 77, '\''index'\'', i % 150, '\''s_dev'\'', 8388609, '\''order'\'', 0)
			FROM k;" &&
	vmscope whatif loop.db > loop.txt &&
	consistent loop.db &&
	verdict loop.db refault_file | grep -q "^within 10%: baseline +0.0%" &&
	verdict loop.db reclaimed_anon | grep -q "^within 10%: 0 recorded, 0 simulated"
'

test_done
