#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t2300-whatif.sh - `vmscope whatif` on a hand-built recording whose outcome
# follows by hand: a memcg of 100 pages (no swap) whose task reads a file of
# 150 pages in 5 rounds (page-cache insertions recorded). Every access
# misses as recorded; with the memcg limit raised past the loop, the rounds
# after the first hit. Also the refusals: a knob the recording lacks, a knob
# not modelled yet, one that does not act on memcg reclaim, no filemap
# events; the stored tables; the formats.
. "$(dirname "$0")/test-lib.sh"

MEMCG=/sys/fs/cgroup/memory/t

# test_expect_code N CMD...: CMD must exit with status N
test_expect_code() {
	local want=$1 rc=0
	shift
	"$@" || rc=$?
	if [ "$rc" != "$want" ]; then echo "expected exit $want, got $rc: $*"; return 1; fi
}

# loop.db: 150-page loop x5 through a 100-page memcg, every access a miss
make_loop_db() {
	printf "  cat-1 [000] .... 0.500000: mm_vmscan_kswapd_sleep: nid=0\n  cat-1 [000] .... 3.500000: mm_vmscan_kswapd_sleep: nid=0\n" > run.txt &&
	vmscope import -q run.txt -o loop.db &&
	sql loop.db "
		INSERT INTO mm_vmscan_memcg_reclaim_begin (seq, ts, cpu, pid) VALUES (1000, 1100000000, 0, 42);
		INSERT INTO counter_sample VALUES (1, 1000000000, 1000000100, 'memcg', '$MEMCG');
		INSERT INTO counter_sample VALUES (2, 2000000000, 2000000100, 'memcg', '$MEMCG');
		INSERT INTO counter_sample VALUES (3, 3000000000, 3000000100, 'memcg', '$MEMCG');
		INSERT INTO counter_sample VALUES (4, 1000000000, 1000000100, 'meminfo', '');
		INSERT INTO counter_value VALUES (4, 'SwapTotal', 0);
		INSERT INTO counter_value SELECT s, 'hierarchical_memory_limit', 409600 FROM (SELECT 1 AS s UNION SELECT 2 UNION SELECT 3);
		INSERT INTO counter_value SELECT s, n, 0 FROM (SELECT 1 AS s UNION SELECT 2 UNION SELECT 3) JOIN (
			SELECT 'total_inactive_anon' AS n UNION SELECT 'total_active_anon' UNION SELECT 'total_active_file'
			UNION SELECT 'total_rss' UNION SELECT 'total_workingset_refault_anon');
		INSERT INTO counter_value VALUES (1, 'total_inactive_file', 0), (2, 'total_inactive_file', 409600),
			(3, 'total_inactive_file', 409600), (1, 'total_cache', 0), (2, 'total_cache', 409600),
			(3, 'total_cache', 409600), (1, 'total_workingset_refault_file', 0),
			(2, 'total_workingset_refault_file', 300), (3, 'total_workingset_refault_file', 600);
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 749)
		INSERT INTO event_generic (seq, ts, cpu, pid, system, event, fields)
			SELECT 2000 + i, 1000000000 + 1 + i * 2000000, 0, 42, 'filemap', 'mm_filemap_add_to_page_cache',
				json_object('pfn', 0, 'i_ino', 77, 'index', i % 150, 's_dev', 8388609, 'order', 0)
			FROM k;"
}

test_expect_success SQLITE3 'a hand-built recording: 750 insertions of a 150-page loop' '
	make_loop_db &&
	assert_eq "$(sql loop.db "SELECT COUNT(*) FROM event_generic WHERE event = '\''mm_filemap_add_to_page_cache'\''")" 750
'

test_expect_success '--help shows the usage on stdout' '
	vmscope whatif --help > help &&
	head -n 1 help | grep -q "^usage: vmscope whatif DB"
'

test_expect_success SQLITE3 'a knob the recording lacks is refused, named, with the way out' '
	test_expect_code 1 vmscope whatif loop.db 2> err &&
	grep -q "does not say memcg.swappiness" err &&
	grep -q -- "--assume memcg.swappiness=VALUE" err
'

test_expect_success SQLITE3 'knobs without effect on memcg reclaim, or without what they act on, are refused' '
	test_expect_code 1 vmscope whatif loop.db -a memcg.swappiness=60 --set vm.vfs_cache_pressure=200 2> err &&
	grep -q "vm.vfs_cache_pressure acts on slab, which this recording.s simulation cannot model: the memcg.s kernel memory was not sampled" err &&
	test_expect_code 1 vmscope whatif loop.db -a memcg.swappiness=60 --set vm.watermark_boost_factor=0 2> err &&
	grep -q "vm.watermark_boost_factor does not act on the reclaim" err &&
	test_expect_code 1 vmscope whatif loop.db -a memcg.swappiness=60 --set vm.min_free_kbytes=1000 2> err &&
	grep -q "does not act on the reclaim" err &&
	test_expect_code 1 vmscope whatif loop.db -a memcg.swappiness=60 --set memcg.swappiness=300 2> err &&
	grep -q "0..200" err &&
	test_expect_code 2 vmscope whatif loop.db --set memcg.swappiness 2> err
'

test_expect_success SQLITE3 'baseline: every access of the loop misses, as recorded' '
	vmscope whatif loop.db -a memcg.swappiness=60 --format csv > out.csv &&
	assert_eq "$(sql loop.db "SELECT recorded, baseline, whatif FROM outcome
		WHERE scenario = '\''no change'\'' AND metric = '\''refault_file'\''")" "600.0|600.0|600.0" &&
	# 750 pages charged, at most 100 resident at the end
	assert_eq "$(sql loop.db "SELECT baseline >= 650 AND baseline <= 750 FROM outcome
		WHERE scenario = '\''no change'\'' AND metric = '\''reclaimed_file'\''")" 1 &&
	grep -q "^refault_file,600,600,600" out.csv
'

test_expect_success SQLITE3 'the limit raised past the loop: only the first round misses' '
	vmscope whatif loop.db -a memcg.swappiness=60 --set memcg.limit=800K > out.txt &&
	assert_eq "$(sql loop.db "SELECT baseline, whatif, change_pct FROM outcome
		WHERE scenario = '\''memcg.limit=200'\'' AND metric = '\''refault_file'\''")" "600.0|0.0|-100.0" &&
	assert_eq "$(sql loop.db "SELECT whatif FROM outcome
		WHERE scenario = '\''memcg.limit=200'\'' AND metric = '\''reclaimed_file'\''")" "0.0" &&
	grep -q "^refault_file .* -100.0" out.txt
'

test_expect_success SQLITE3 'assumptions and the time series are stored' '
	assert_eq "$(sql loop.db "SELECT source, firmness FROM whatif_assumption
		WHERE scenario = '\''memcg.limit=200'\'' AND item = '\''memcg.swappiness'\''")" "--assume|assumed" &&
	assert_eq "$(sql loop.db "SELECT source FROM whatif_assumption
		WHERE scenario = '\''memcg.limit=200'\'' AND item = '\''demand'\''")" events &&
	assert_eq "$(sql loop.db "SELECT COUNT(*), MAX(recorded_refault_file), MAX(whatif_refault_file),
		MAX(whatif_file) FROM whatif_series WHERE scenario = '\''memcg.limit=200'\''")" "2|600|0|150"
'

test_expect_success SQLITE3 'a rerun replaces its own scenario only' '
	vmscope whatif loop.db -a memcg.swappiness=60 --set memcg.limit=800K > /dev/null &&
	assert_eq "$(sql loop.db "SELECT COUNT(*) FROM outcome WHERE scenario = '\''memcg.limit=200'\''")" 8 &&
	assert_eq "$(sql loop.db "SELECT COUNT(*) FROM outcome WHERE scenario = '\''no change'\''")" 8
'

test_expect_success SQLITE3 'a built-in replay policy decides the passes of the simulation too' '
	vmscope whatif loop.db -a memcg.swappiness=60 --policy v4.12-actual-reclaim --format json > out.json &&
	grep -q "\"refault_file\"" out.json &&
	assert_eq "$(sql loop.db "SELECT whatif FROM outcome WHERE scenario = '\''policy=v4.12-actual-reclaim'\''
		AND metric = '\''refault_file'\''")" "600.0" &&
	test_expect_code 1 vmscope whatif loop.db -a memcg.swappiness=60 --policy no-such-policy 2> err &&
	grep -q "no policy" err &&
	vmscope whatif loop.db -a memcg.swappiness=60 --policy v6.18 2> err > /dev/null &&
	no_match "warning" err &&
	value=$(sql loop.db "SELECT value FROM whatif_assumption
		WHERE scenario = '\''policy=v6.18'\'' AND item = '\''policy'\''") &&
	echo "$value" &&
	echo "$value" | grep -q "shrink_slab [1-9]"
'

test_expect_success SQLITE3 'mapped_once: 2.6.33 activates a page referenced once; the baseline answers what it does not model, and that is said' '
	vmscope whatif loop.db -a memcg.swappiness=60 --policy v2.6.33-mapped-activate > out.txt 2> err &&
	grep -q "policy .v2.6.33-mapped-activate. answered undecidable [0-9]* times" err &&
	value=$(sql loop.db "SELECT value FROM whatif_assumption
		WHERE scenario = '\''policy=v2.6.33-mapped-activate'\'' AND item = '\''policy'\''") &&
	echo "$value" &&
	# per pass: deactivate twice (anon, file), scan_balance once, mapped_once twice,
	# shrink_slab once; all but mapped_once undecidable
	passes=$(echo "$value" | sed -n "s/.*scan_balance \([0-9]*\) (\([0-9]*\) undecidable).*/\1 \2/p") &&
	set -- $passes &&
	test "$1" -gt 0 && assert_eq "$2" "$1" "scan_balance undecidable" &&
	echo "$value" | grep -q "deactivate $(($1 * 2)) ($(($1 * 2)) undecidable)" &&
	echo "$value" | grep -q "mapped_once $(($1 * 2))," &&
	echo "$value" | grep -q "shrink_slab $1 ($1 undecidable)" &&
	assert_eq "$(sql loop.db "SELECT firmness FROM whatif_assumption
		WHERE scenario = '\''policy=v2.6.33-mapped-activate'\'' AND item = '\''policy'\''")" assumed &&
	# the pages kept once by the baseline go active instead: the end state differs
	assert_eq "$(sql loop.db "SELECT whatif != baseline FROM outcome
		WHERE scenario = '\''policy=v2.6.33-mapped-activate'\'' AND metric = '\''reclaimed_file'\''")" 1 &&
	# 4.12 activates anon pages used once, keeps file: nothing changes on a file loop
	vmscope whatif loop.db -a memcg.swappiness=60 --policy v4.12-actual-reclaim > /dev/null 2> err &&
	no_match "answered undecidable" err &&
	assert_eq "$(sql loop.db "SELECT whatif = baseline FROM outcome
		WHERE scenario = '\''policy=v4.12-actual-reclaim'\'' AND metric = '\''reclaimed_file'\''")" 1 &&
	assert_eq "$(sql loop.db "SELECT firmness FROM whatif_assumption
		WHERE scenario = '\''policy=v4.12-actual-reclaim'\'' AND item = '\''policy'\''")" exact
'

test_expect_success SQLITE3 'access=sequential adds no access where the recording has no gap' '
	vmscope whatif loop.db -a memcg.swappiness=60 -a access=sequential --set memcg.limit=800K > /dev/null &&
	assert_eq "$(sql loop.db "SELECT baseline, whatif FROM outcome
		WHERE scenario = '\''memcg.limit=200'\'' AND metric = '\''refault_file'\''")" "600.0|0.0" &&
	assert_eq "$(sql loop.db "SELECT source FROM whatif_assumption
		WHERE scenario = '\''memcg.limit=200'\'' AND item = '\''demand: access'\''")" "--assume access=sequential"
'

test_expect_success SQLITE3 'access=protected: the same loop, the assumption stored' '
	vmscope whatif loop.db -a memcg.swappiness=60 -a access=protected --set memcg.limit=800K > /dev/null &&
	assert_eq "$(sql loop.db "SELECT baseline, whatif FROM outcome
		WHERE scenario = '\''memcg.limit=200'\'' AND metric = '\''refault_file'\''")" "600.0|0.0" &&
	assert_eq "$(sql loop.db "SELECT source FROM whatif_assumption
		WHERE scenario = '\''memcg.limit=200'\'' AND item = '\''demand: access'\''")" "--assume access=protected"
'

test_expect_success SQLITE3 'exec=protected: refused without exec mappings, named' '
	test_expect_code 1 vmscope whatif loop.db -a memcg.swappiness=60 -a exec=protected 2> err &&
	grep -q "no exec mappings" err &&
	vmscope whatif loop.db -a memcg.swappiness=60 > /dev/null &&
	assert_eq "$(sql loop.db "SELECT source FROM whatif_assumption
		WHERE scenario = '\''no change'\'' AND item = '\''model: exec'\''")" missing
'

test_expect_success SQLITE3 'exec=protected: two overlapping mappings of pages 0..49 mark 250 of the 750 insertions' '
	cp loop.db exec.db &&
	sql exec.db "INSERT INTO exec_mapping (ts, pid, s_dev, i_ino, pgoff, pages, path) VALUES
		(1000000000, 42, 8388609, 77, 0, 30, '\''/x'\''), (1000000000, 43, 8388609, 77, 20, 30, '\''/x'\''),
		(1000000000, 42, 8388609, 78, 0, 150, '\''/other file'\'')" &&
	vmscope whatif exec.db -a memcg.swappiness=60 > /dev/null &&
	sql exec.db "SELECT value FROM whatif_assumption WHERE item = '\''model: exec'\''" > v &&
	grep -q "^2 file range(s), 200 pages, mapped executable were recorded and not used" v &&
	vmscope whatif exec.db -a memcg.swappiness=60 -a exec=protected > /dev/null &&
	sql exec.db "SELECT value, source FROM whatif_assumption WHERE item = '\''model: exec'\''" > v &&
	grep -q "^2 file range(s), 200 pages, .* their 250 insertions are protected" v &&
	grep -q "|--assume exec=protected$" v
'

test_expect_success SQLITE3 'without filemap events it refuses, unless counter demand is accepted' '
	cp loop.db counters.db &&
	sql counters.db "DELETE FROM event_generic" &&
	test_expect_code 1 vmscope whatif counters.db -a memcg.swappiness=60 2> err &&
	grep -q "filemap:mm_filemap_add_to_page_cache" err &&
	vmscope whatif counters.db -a memcg.swappiness=60 -a demand=counters > out.txt &&
	test_expect_code 1 vmscope whatif counters.db -a memcg.swappiness=60 -a demand=counters \
		-a exec=protected 2> err &&
	grep -q "exec=protected: the recording has no filemap demand" err &&
	assert_eq "$(sql counters.db "SELECT source FROM whatif_assumption
		WHERE scenario = '\''no change'\'' AND item = '\''demand'\''")" "--assume demand=counters"
'

test_expect_success SQLITE3 'a memcg limit memory.stat does not show (cgroup v2) must be given' '
	cp loop.db nolimit.db &&
	sql nolimit.db "DELETE FROM counter_value WHERE name = '\''hierarchical_memory_limit'\''" &&
	test_expect_code 1 vmscope whatif nolimit.db -a memcg.swappiness=60 2> err &&
	grep -q "does not say memcg.limit" err &&
	vmscope whatif nolimit.db -a memcg.swappiness=60 -a memcg.limit=400K > /dev/null &&
	assert_eq "$(sql nolimit.db "SELECT baseline FROM outcome WHERE scenario = '\''no change'\''
		AND metric = '\''refault_file'\''")" "600.0"
'

# node.db: no memcg; a node of 1000 pages (watermarks 50/100/200) fills with 950 cold file pages
make_node_db() {
	vmscope import -q run.txt -o node.db &&
	sql node.db "
		INSERT INTO sysctl VALUES ('vm.swappiness', '60');
		INSERT INTO counter_sample VALUES (1, 1000000000, 1000000100, 'vmstat', '');
		INSERT INTO counter_sample VALUES (2, 3000000000, 3000000100, 'vmstat', '');
		INSERT INTO counter_sample VALUES (3, 1000000000, 1000000100, 'zoneinfo', 'node0/Normal');
		INSERT INTO counter_sample VALUES (4, 1000000000, 1000000100, 'meminfo', '');
		INSERT INTO counter_value SELECT s, n, 0 FROM (SELECT 1 AS s UNION SELECT 2) JOIN (
			SELECT 'nr_inactive_anon' AS n UNION SELECT 'nr_active_anon' UNION SELECT 'nr_inactive_file'
			UNION SELECT 'nr_active_file' UNION SELECT 'nr_anon_pages' UNION SELECT 'nr_file_pages'
			UNION SELECT 'workingset_refault_file' UNION SELECT 'workingset_refault_anon');
		INSERT INTO counter_value VALUES (1, 'nr_free_pages', 1000), (2, 'nr_free_pages', 1000),
			(3, 'min', 50), (3, 'low', 100), (3, 'high', 200), (3, 'boost', 0), (3, 'managed', 1000),
			(4, 'SwapTotal', 0);
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 949)
		INSERT INTO event_generic (seq, ts, cpu, pid, system, event, fields)
			SELECT 2000 + i, 1000000000 + 1 + i * 2000000, 0, 7, 'filemap', 'mm_filemap_add_to_page_cache',
				json_object('pfn', 0, 'i_ino', 5, 'index', i, 's_dev', 8388609, 'order', 0)
			FROM k;"
}

test_expect_success SQLITE3 'node reclaim: kswapd below the low watermark, to the high one' '
	make_node_db &&
	vmscope whatif node.db > out.txt &&
	# page 901 finds free 99 < low 100: the first sweep keeps the 896 pages it scans
	# (each came in referenced), the 6.9 retry reclaims 7 + 13 + 27 + 53 = 100: free 200
	assert_eq "$(sql node.db "SELECT baseline FROM outcome WHERE scenario = '\''no change'\''
		AND metric = '\''reclaimed_file'\''")" "100.0" &&
	assert_eq "$(sql node.db "SELECT baseline FROM outcome WHERE scenario = '\''no change'\''
		AND metric = '\''reclaim_episodes'\''")" "1.0"
'

test_expect_success SQLITE3 'node reclaim: the run 6.9+ retries is a kswapd failure under 6.8' '
	# 6.8 balance_pgdat() does not restart without cache_trim_mode: the first
	# run keeps the 896 pages it scans and reclaims none (kswapd_failures++);
	# the next allocation wakes kswapd again, and the second run reclaims
	vmscope whatif node.db --policy v6.8-cache-trim > out.txt &&
	assert_eq "$(sql node.db "SELECT recorded, baseline, whatif FROM outcome
		WHERE scenario = '\''policy=v6.8-cache-trim'\'' AND metric = '\''kswapd_failures'\''")" "0.0|0.0|1.0" &&
	assert_eq "$(sql node.db "SELECT whatif FROM outcome
		WHERE scenario = '\''policy=v6.8-cache-trim'\'' AND metric = '\''reclaim_episodes'\''")" "2.0"
'

test_expect_success SQLITE3 'node reclaim: watermarks recomputed from vm.min_free_kbytes and the scale factor' '
	test_expect_code 1 vmscope whatif node.db --set vm.watermark_scale_factor=1000 2> err &&
	grep -q "does not say vm.min_free_kbytes" err &&
	vmscope whatif node.db --set vm.watermark_scale_factor=1000 -a vm.min_free_kbytes=200 > out.txt &&
	# min 200 kB = 50 pages, low = 50 + max(50 / 4, 1000 * 1000 / 10000) = 150, high 250:
	# page 851 wakes kswapd; sweep 1 keeps 845, the retry keeps the other 5 and reclaims
	# 5 + 13 + 26 + 50 + 94 = 188 (free 338 >= 250)
	assert_eq "$(sql node.db "SELECT whatif FROM outcome WHERE scenario = '\''vm.watermark_scale_factor=1000'\''
		AND metric = '\''reclaimed_file'\''")" "188.0" &&
	test_expect_code 1 vmscope whatif node.db --set memcg.limit=1M 2> err &&
	grep -q "does not act on the reclaim this recording" err
'

test_expect_success SQLITE3 'a window without two counter samples is refused' '
	test_expect_code 1 vmscope whatif loop.db -a memcg.swappiness=60 --from 2.6 --to 2.9 2> err &&
	grep -q "counter samples" err
'

test_done
