#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3810-report-honesty.sh - the honesty defects of issue 17 in the report
# tables, each a regression test: kswapd failures found with and without
# counters on the bundled kswapd-fail recording (16 failed balance_pgdat()
# runs, none with an lru_shrink_inactive event); an efficiency of nothing
# scanned and a negative-by-sampling difference are '-' with a note, never
# 100 or a negative count; `report episodes` text shows the per-task table,
# not every episode, unless asked; `--table nope` is a usage error; the help's
# CSV advice works as written; the docs cite no path outside the repository.

. "$(dirname "$0")/test-lib.sh"

SAMPLES="$SRC_DIR/samples/traces"

test_expect_success SQLITE3 'kswapd-fail sample: 16 failed runs, with its counters' '
	xz -dc "$SAMPLES/kswapd-fail.db.xz" > kf.db &&
	vmscope upgrade -q kf.db &&
	# the runs that reclaimed nothing have no LRU event at all
	assert_eq "$(sql kf.db "SELECT COUNT(*) FROM kswapd_run WHERE failed = 1 AND lru_events = 0")" 16 \
		"failed runs without an lru_shrink_inactive event" &&
	vmscope report kf.db kswapd-failures --format csv > kf.csv &&
	grep -q "zero-reclaim runs,episode,.*16 kswapd runs (pid 45) reclaimed 0 pages" kf.csv
'

test_expect_success SQLITE3 'kswapd-fail sample without its counters (as an imported trace): the same 16' '
	cp kf.db nocnt.db &&
	sql nocnt.db "DELETE FROM counter_value; DELETE FROM counter_sample" &&
	vmscope upgrade -q --rederive nocnt.db &&
	assert_eq "$(sql nocnt.db "SELECT COUNT(*) FROM counter_sample")" 0 "no counters left" &&
	vmscope report nocnt.db kswapd-failures --format csv > nocnt.csv &&
	grep -q "zero-reclaim runs,episode,.*16 kswapd runs (pid 45) reclaimed 0 pages" nocnt.csv &&
	assert_eq "$(sql nocnt.db "SELECT MAX(streak) FROM kswapd_run")" 16 "longest streak"
'

test_expect_success GNUPLOT 'kswapd figure: the 16 runs are failures (failed = 1), with and without counters' '
	for db in kf nocnt; do
		vmscope plot $db.db kswapd -o $db.txt --keep keep-$db 2> /dev/null &&
		# block 1 of kswapd-a.dat: y t0 t1 reclaimed failed streak
		n=$(awk "/^# block 1/ { b = 1; next } /^# block/ { b = 0 }
			b && !/^#/ && NF >= 6 && \$5 == 1 { n++ } END { print n + 0 }" keep-$db/kswapd-a.dat) &&
		assert_eq "$n" 16 "$db: failed runs in the figure" || return 1
	done
'

# A run where kswapd never scanned: pgscan_kswapd 0, so its efficiency has no
# value; nr_vmscan_write 90 < pswpout 100: file writes would be -10.
test_expect_success SQLITE3 'vmstat: efficiency of nothing scanned and a negative difference are "-" with a note' '
	cat > e.txt <<-EOF
	# tracer: nop
	            dd-200     [001] .....     1.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
	            dd-200     [001] .....     1.001000: mm_vmscan_direct_reclaim_end: nr_reclaimed=0
	            dd-200     [001] .....     2.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
	EOF
	vmscope import -q --kernel 6.18.0 -o e.db e.txt &&
	sql e.db "INSERT INTO counter_sample VALUES (1, 1000000000, NULL, '"'vmstat'"', '"''"');
		INSERT INTO counter_sample VALUES (2, 2000000000, NULL, '"'vmstat'"', '"''"');
		INSERT INTO counter_value VALUES (1, '"'pgscan_kswapd'"', 5), (1, '"'pgsteal_kswapd'"', 5),
			(1, '"'pgscan_direct'"', 0), (1, '"'pgsteal_direct'"', 0),
			(1, '"'nr_vmscan_write'"', 10), (1, '"'pswpout'"', 0);
		INSERT INTO counter_value VALUES (2, '"'pgscan_kswapd'"', 5), (2, '"'pgsteal_kswapd'"', 5),
			(2, '"'pgscan_direct'"', 0), (2, '"'pgsteal_direct'"', 0),
			(2, '"'nr_vmscan_write'"', 100), (2, '"'pswpout'"', 100);" &&
	vmscope upgrade -q --rederive e.db &&
	vmscope report e.db vmstat > e.out &&
	grep -Eq "^Kswapd efficiency % +- " e.out &&
	grep -Eq "^Direct efficiency % +- " e.out &&
	grep -Eq "^Percentage direct scans +- " e.out &&
	grep -Eq "^Page writes file +- " e.out &&
	grep -Eq "^Page writes anon +100 " e.out &&
	grep -q "note: Kswapd efficiency % is .-.: nothing was scanned" e.out &&
	grep -q "note: Page writes file is .-.: negative" e.out &&
	no_match "100\.00 .*efficiency\|efficiency.* 100\.00" e.out &&
	vmscope report e.db vmstat --format csv --table vmstat > e.csv &&
	grep -qx "Kswapd efficiency %,,100\*pgsteal_kswapd/pgscan_kswapd" e.csv
'

test_expect_success SQLITE3 'trace rows: an efficiency of nothing scanned is "-" too' '
	vmscope import -q --kernel 6.18.0 -o t.db e.txt &&
	vmscope report t.db vmstat > t.out &&
	grep -Eq "^Trace: kswapd efficiency % +- " t.out &&
	grep -q "note: Trace: kswapd efficiency % is .-.: nothing was scanned" t.out
'

test_expect_success SQLITE3 'vmstat: the memcg table gives the memcg own counters, and each table its scope' '
	cp e.db m.db &&
	sql m.db "INSERT INTO counter_sample VALUES (3, 1000000000, NULL, '"'memcg'"', '"'/cg/t'"'),
			(4, 2000000000, NULL, '"'memcg'"', '"'/cg/t'"');
		INSERT INTO counter_value VALUES (3, '"'workingset_refault_file'"', 100),
			(4, '"'workingset_refault_file'"', 350), (3, '"'total_pgmajfault'"', 1),
			(4, '"'total_pgmajfault'"', 8);" &&
	vmscope upgrade -q --rederive m.db &&
	vmscope report m.db vmstat --table memcg --format csv > m.csv &&
	grep -qx "Refaults file,250,workingset_refault_file" m.csv &&
	grep -qx "Major faults,7,pgmajfault" m.csv &&
	grep -qx "Pages scanned,,pgscan" m.csv &&
	vmscope report m.db vmstat > m.txt &&
	grep -q "note: scope: the whole machine (/proc/vmstat)" m.txt &&
	grep -q "note: scope: the memcg /cg/t only" m.txt &&
	vmscope report e.db vmstat > nomemcg.txt &&
	no_match "recorded memcg" nomemcg.txt
'

test_expect_success SQLITE3 'episodes text: the per-task table, not one row per episode, unless asked' '
	xz -dc "$SAMPLES/thrash.db.xz" > th.db &&
	vmscope upgrade -q th.db &&
	n=$(sql th.db "SELECT COUNT(*) FROM episode") &&
	test "$n" -gt 1000 &&
	vmscope report th.db episodes > ep.txt &&
	assert_eq "$(head -n 1 ep.txt)" "Reclaim episodes per kind and task" "first table" &&
	test "$(wc -l < ep.txt)" -lt 40 &&
	grep -q "note: the $n episodes one per row: vmscope report DB episodes --table episodes" ep.txt &&
	vmscope report th.db episodes --table episodes > all.txt &&
	assert_eq "$(head -n 1 all.txt)" "Reclaim episodes" "asked for" &&
	test "$(grep -c "^memcg " all.txt)" = "$n" &&
	# CSV and JSON, read by programs, keep it
	vmscope report th.db episodes --format json |
		python3 -c "import json,sys; d=json.load(sys.stdin); assert [t[\"table\"] for t in d[\"tables\"]] == [\"episodes\", \"per-task\", \"per-node\"]"
'

test_expect_success SQLITE3 '--table nope is a usage error that prints nothing' '
	rc=0 &&
	vmscope report th.db --table nope > nope.out 2> nope.err || rc=$? &&
	assert_eq "$rc" 2 "exit status" &&
	test ! -s nope.out &&
	grep -q "no table .nope. in this report" nope.err
'

test_expect_success SQLITE3 'the --help advice on sqlite3 works as written' '
	vmscope report --help > help.txt &&
	grep -q "(--table NAME) loads with .sqlite3 :memory: .\.import --csv FILE t.." help.txt &&
	vmscope report th.db episodes --table per-task --format csv > FILE &&
	assert_eq "$(sqlite3 :memory: ".import --csv FILE t" "SELECT SUM(episodes) FROM t")" \
		"$(sql th.db "SELECT COUNT(*) FROM episode")" "episodes loaded"
'

test_expect_success 'docs of report, compare and plot cite no path outside the repository' '
	cd "$SRC_DIR" &&
	no_match "/work/\|\.\./shared" docs/report*.md docs/compare.md docs/plot.md docs/schema.md
'

test_done
