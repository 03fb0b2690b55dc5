#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t2370-whatif-accesses.sh - the recorded reads and faults are the demand's
# hits (replay/sim-access.c), on hand-built recordings whose outcome follows
# by hand. A memcg of 100 pages: its task inserts a hot file of 20 pages,
# reads each twice (mm_filemap_get_pages: the second read activates it) and
# again and again (every read a hit in the recording) while it streams a
# cold file of 300 pages through. With the limit at 16 pages the hot set no
# longer fits: its reads must miss. Without
# the reads (--assume access=insertions) the hot pages are never used again
# and nothing can refault. Also: the later batches of one read and a read
# that begins in the page the last one ended in are not uses, a fault
# before its page's insertion uses it once it is in, and a file whose
# faults bring in their page alone is taken as mapped for random access.
. "$(dirname "$0")/test-lib.sh"

MEMCG=/sys/fs/cgroup/memory/t

# make_db DB: the samples and the insertions; the caller adds the accesses
make_db() {
	printf "  cat-1 [000] .... 0.500000: mm_vmscan_kswapd_sleep: nid=0\n  cat-1 [000] .... 3.500000: mm_vmscan_kswapd_sleep: nid=0\n" > run.txt &&
	vmscope import -q run.txt -o "$1" &&
	sql "$1" "
		INSERT INTO mm_vmscan_memcg_reclaim_begin (seq, ts, cpu, pid) VALUES (1000, 1100000000, 0, 42);
		INSERT INTO counter_sample VALUES (1, 1000000000, 1000000100, 'memcg', '$MEMCG');
		INSERT INTO counter_sample VALUES (2, 2000000000, 2000000100, 'memcg', '$MEMCG');
		INSERT INTO counter_sample VALUES (3, 3000000000, 3000000100, 'memcg', '$MEMCG');
		INSERT INTO counter_sample VALUES (4, 1000000000, 1000000100, 'meminfo', '');
		INSERT INTO counter_value VALUES (4, 'SwapTotal', 0);
		INSERT INTO counter_value SELECT s, 'hierarchical_memory_limit', 409600 FROM (SELECT 1 AS s UNION SELECT 2 UNION SELECT 3);
		INSERT INTO counter_value SELECT s, n, 0 FROM (SELECT 1 AS s UNION SELECT 2 UNION SELECT 3) JOIN (
			SELECT 'total_inactive_anon' AS n UNION SELECT 'total_active_anon' UNION SELECT 'total_rss'
			UNION SELECT 'total_workingset_refault_anon' UNION SELECT 'total_workingset_refault_file');
		INSERT INTO counter_value VALUES (1, 'total_inactive_file', 0), (2, 'total_inactive_file', 204800),
			(3, 'total_inactive_file', 204800), (1, 'total_active_file', 0), (2, 'total_active_file', 204800),
			(3, 'total_active_file', 204800), (1, 'total_cache', 0), (2, 'total_cache', 409600),
			(3, 'total_cache', 409600);
		-- the hot file (inode 77): 20 pages in
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 19)
		INSERT INTO mm_filemap_add_to_page_cache (seq, ts, cpu, pid, pfn, i_ino, \"index\", s_dev, \"order\")
			SELECT 2000 + 2 * i, 1001000000 + i * 1000000, 0, 42, 0, 77, i, 8388609, 0 FROM k;
		-- the cold file (inode 78): 300 pages streamed, one every 6 ms
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 299)
		INSERT INTO mm_filemap_add_to_page_cache (seq, ts, cpu, pid, pfn, i_ino, \"index\", s_dev, \"order\")
			SELECT 3000 + 2 * i, 1100000000 + i * 6000000, 0, 42, 0, 78, i, 8388609, 0 FROM k;"
}

# the hot reads: each page twice as it comes (a task of its own, pid 43: no
# read follows on from another), then page j % 20 3 ms after cold page j
add_hot_reads() {
	sql "$1" "
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 19)
		INSERT INTO mm_filemap_get_pages (seq, ts, cpu, pid, i_ino, s_dev, \"index\", last_index)
			SELECT 2001 + 2 * i, 1001000000 + i * 1000000 + 500000, 0, 42, 77, 8388609, i, i FROM k;
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 19)
		INSERT INTO mm_filemap_get_pages (seq, ts, cpu, pid, i_ino, s_dev, \"index\", last_index)
			SELECT 2500 + i, 1090000000 + i * 100000, 0, 42, 77, 8388609, i, i FROM k;
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 299)
		INSERT INTO mm_filemap_get_pages (seq, ts, cpu, pid, i_ino, s_dev, \"index\", last_index)
			SELECT 3001 + 2 * i, 1100000000 + i * 6000000 + 3000000, 0, 42, 77, 8388609,
				i % 20, i % 20 FROM k;"
}

# outcome DB SCENARIO METRIC: the baseline and whatif of a metric
outcome() {
	sql "$1" "SELECT CAST(baseline AS INTEGER) || ' ' || CAST(whatif AS INTEGER) FROM outcome
		WHERE scenario = '$2' AND metric = '$3'"
}

assumption() {
	sql "$1" "SELECT value FROM whatif_assumption WHERE scenario = '$2' AND item = '$3'"
}

test_expect_success SQLITE3 'a hand-built recording: a hot file read again and again, a cold one streamed' '
	make_db hot.db && add_hot_reads hot.db &&
	assert_eq "$(sql hot.db "SELECT COUNT(*) FROM mm_filemap_get_pages")" 340
'

test_expect_success SQLITE3 'the hot set kept as recorded; the limit under it: its reads miss' '
	vmscope whatif hot.db -a memcg.swappiness=60 --set memcg.limit=64K > out.txt &&
	set -- $(outcome hot.db memcg.limit=16 refault_file) &&
	echo "refault_file baseline $1, whatif $2" &&
	test "$1" -le 2 && test "$2" -ge 200 &&
	assumption hot.db memcg.limit=16 "demand: reads and faults" > value &&
	grep -q "^340 reads (340 pages, 0 later batches; 0 empty ranges), 0 faults, 0 fault-arounds" value
'

test_expect_success SQLITE3 'without the reads nothing is used again: no refault at 16 pages' '
	vmscope whatif hot.db -a memcg.swappiness=60 -a access=insertions --set memcg.limit=64K > out.txt &&
	assert_eq "$(outcome hot.db memcg.limit=16 refault_file)" "0 0" &&
	assumption hot.db memcg.limit=16 "demand: reads and faults" | grep -q "^left out (--assume access=insertions)"
'

test_expect_success SQLITE3 'a recording without reads and faults says so' '
	make_db cold.db &&
	vmscope whatif cold.db -a memcg.swappiness=60 > out.txt &&
	assumption cold.db "no change" "demand: reads and faults" | grep -q "^not recorded"
'

test_expect_success SQLITE3 'a later batch of a read uses its own pages; a read beginning where the last ended skips that page' '
	make_db batch.db &&
	sql batch.db "
		INSERT INTO mm_filemap_get_pages (seq, ts, cpu, pid, i_ino, s_dev, \"index\", last_index) VALUES
			(9001, 2950000000, 0, 42, 77, 8388609, 0, 40),
			(9002, 2950001000, 0, 42, 77, 8388609, 31, 40),
			(9003, 2950002000, 0, 42, 77, 8388609, 40, 45),
			(9004, 2950003000, 0, 42, 77, 8388609, 46, 45);" &&
	vmscope whatif batch.db -a memcg.swappiness=60 > out.txt &&
	assumption batch.db "no change" "demand: reads and faults" > value &&
	# [0,30] and its next batch [31,40], then [41,45]; the empty range skipped
	grep -q "^2 reads (46 pages, 1 later batches; 1 empty ranges)" value
'

test_expect_success SQLITE3 'each batch of a read uses the pages it brought in' '
	make_db long.db &&
	# a 62-page read of a file not cached: 31 pages in, the event, 31 more, the event again
	sql long.db "
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 61)
		INSERT INTO mm_filemap_add_to_page_cache (seq, ts, cpu, pid, pfn, i_ino, \"index\", s_dev, \"order\")
			SELECT 9000 + i + (i >= 31), 2950000000 + i * 1000 + (i >= 31) * 500, 0, 42, 0, 79, i,
				8388609, 0 FROM k;
		INSERT INTO mm_filemap_get_pages (seq, ts, cpu, pid, i_ino, s_dev, \"index\", last_index) VALUES
			(9031, 2950031000, 0, 42, 79, 8388609, 0, 61),
			(9063, 2950063000, 0, 42, 79, 8388609, 31, 61);" &&
	vmscope whatif long.db -a memcg.swappiness=60 > out.txt &&
	assumption long.db "no change" "demand: reads and faults" > value &&
	grep -q "^1 reads (62 pages, 1 later batches; 0 empty ranges)" value &&
	grep -q "used again: baseline 62 (0 misses here)" value &&
	grep -q "not resident in the recording 0," value
'

test_expect_success SQLITE3 'a fault before its page comes in uses it once in; alone, 64 times: a random mapping' '
	make_db fault.db &&
	sql fault.db "
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 299)
		INSERT INTO mm_filemap_fault (seq, ts, cpu, pid, i_ino, s_dev, \"index\")
			SELECT 2999 + 2 * i, 1100000000 + i * 6000000 - 100000, 0, 42, 78, 8388609, i FROM k;" &&
	vmscope whatif fault.db -a memcg.swappiness=60 > out.txt &&
	assumption fault.db "no change" "demand: reads and faults" | grep -q "faults on misses 300;" &&
	assumption fault.db "no change" "model: random mappings" | grep -q "^1 file(s) taken as mapped with MADV_RANDOM: 300 of their faults" &&
	vmscope whatif hot.db -a memcg.swappiness=60 > out.txt &&
	assumption hot.db "no change" "model: random mappings" | grep -q "^none"
'

# A file mapped and read in three rounds (inode 80, 300 pages, a fault-around
# on each page of the first round): rounds two and three miss all but pages
# 100 to 149, which the recording kept resident and mapped, so they were
# hits no event shows. Taken as read in sequence (800 insertions, 2 wraps),
# those 2 x 50 pages are filled as used; --assume access=recorded leaves
# that out; the hot file, read with read(2), is not taken so.
test_expect_success SQLITE3 'a file read in rounds through a mapping: its hits between insertions filled' '
	make_db rounds.db &&
	sql rounds.db "
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 899)
		INSERT INTO mm_filemap_add_to_page_cache (seq, ts, cpu, pid, pfn, i_ino, \"index\", s_dev, \"order\")
			SELECT 20000 + 2 * i, 1200000000 + (i / 300) * 500000000 + (i % 300) * 1000000, 0, 42,
				0, 80, i % 300, 8388609, 0 FROM k
			WHERE i < 300 OR i % 300 < 100 OR i % 300 >= 150;
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 299)
		INSERT INTO mm_filemap_map_pages (seq, ts, cpu, pid, i_ino, s_dev, \"index\", last_index)
			SELECT 20001 + 2 * i, 1200000000 + i * 1000000 + 500000, 0, 42, 80, 8388609, i, i FROM k;" &&
	vmscope whatif rounds.db -a memcg.swappiness=60 > out.txt &&
	assumption rounds.db "no change" "demand: access" > value &&
	cat value &&
	grep -q "and 1 file(s) read in sequence, in rounds, through a mapping (2 wraps back to the start in 800 insertions)" value &&
	grep -q "pages so used: baseline 100 (" value &&
	vmscope whatif rounds.db -a memcg.swappiness=60 -a access=recorded > out.txt &&
	assumption rounds.db "no change" "demand: access" > value &&
	grep -q "no file taken as read in sequence (--assume access=recorded)" value &&
	! grep -q "pages so used" value &&
	vmscope whatif hot.db -a memcg.swappiness=60 > out.txt &&
	assumption hot.db "no change" "demand: access" | grep -q "no file read in sequence"
'

test_done
