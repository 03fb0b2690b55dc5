#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3800-compare-groups.sh - `vmscope compare A1.db ... --vs B1.db ...`: the
# statistics of two groups of runs. First on hand-made runs whose every
# expected number is worked out below from their inputs; then (ROOT, live) on
# real recordings of `samples/run-scenario thrash --short`, three rounds of
# three runs interleaved (memcg swappiness 0, 60, 60): the file-refault
# change from 0 to 60 is flagged significant, 60 against 60 is not, the totals
# are the counters' deltas, the brief table fits 80 columns. The workload is
# deterministic: its data file is thrash's xorshift64 stream from the fixed
# seed 0x9e3779b97f4a7c15; what varies between runs is the machine.

. "$(dirname "$0")/test-lib.sh"

# mkrun DB REFAULT_END SWAPOUT_END ELAPSED: a 10 s run (trace 100..110 s) with two
# vmstat and two memory.stat samples (at 100 and 110 s), the memcg's
# workingset_refault_file going 1000 -> REFAULT_END, the machine's 500 more,
# pswpout 0 -> SWAPOUT_END, pgscan_direct 0 -> 0, and run_result elapsed.
mkrun() {
	cat > "$1.txt" <<-EOF
	# tracer: nop
	         kswapd0-90      [002] .....   100.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-90      [002] .....   110.000000: mm_vmscan_kswapd_sleep: nid=0
	EOF
	vmscope import -q --kernel 6.18.0 -o "$1" "$1.txt" &&
	sql "$1" "INSERT INTO counter_sample VALUES (1, 100000000000, NULL, 'vmstat', ''),
			(2, 110000000000, NULL, 'vmstat', ''),
			(3, 100000000000, NULL, 'memcg', '/sys/fs/cgroup/memory/t'),
			(4, 110000000000, NULL, 'memcg', '/sys/fs/cgroup/memory/t');
		INSERT INTO counter_value VALUES
			(1, 'workingset_refault_file', 1000), (2, 'workingset_refault_file', $2 + 500),
			(1, 'pswpout', 0), (2, 'pswpout', $3),
			(1, 'pgscan_direct', 0), (2, 'pgscan_direct', 0),
			(3, 'workingset_refault_file', 1000), (4, 'workingset_refault_file', $2),
			(3, 'pgmajfault', 7), (4, 'pgmajfault', 7);
		INSERT INTO sysctl VALUES ('memcg.swappiness', '$5');
		INSERT INTO run_result (name, value, unit) VALUES ('elapsed', $4, 's');" &&
	vmscope upgrade -q --rederive "$1"
}

# csvrow CSV METRIC SCOPE COLUMN: one cell of the CSV of a comparison
csvrow() {
	sqlite3 :memory: ".import --csv $1 t" "SELECT \"$4\" FROM t WHERE metric = '$2' AND scope = '$3'"
}

test_expect_success SQLITE3 'set up: three runs a side' '
	# memcg file refaults (deltas): A 2000 3000 4000, B 5000 6000 7000
	mkrun a1.db 3000 10 1.0 0 && mkrun a2.db 4000 20 2.0 0 && mkrun a3.db 5000 30 3.0 0 &&
	mkrun b1.db 6000 10 2.0 60 && mkrun b2.db 7000 20 4.0 60 && mkrun b3.db 8000 30 6.0 60 &&
	assert_eq "$(sql a1.db "SELECT COUNT(*) FROM run_result")" 1 "run_result row"
'

test_expect_success SQLITE3 'csv: mean, stddev, cov, min, max, change and p as worked out by hand' '
	vmscope compare a1.db a2.db a3.db --vs b1.db b2.db b3.db --format csv > g.csv &&
	# memcg refaults A 2000 3000 4000: mean 3000, sd 1000, cov 33.333%; B mean 6000, sd 1000
	assert_eq "$(csvrow g.csv "memcg: Refaults file" memcg a_mean)" 3000.000 "A mean" &&
	assert_eq "$(csvrow g.csv "memcg: Refaults file" memcg a_stddev)" 1000.000 "A stddev" &&
	assert_eq "$(csvrow g.csv "memcg: Refaults file" memcg a_cov)" 33.333 "A cov" &&
	assert_eq "$(csvrow g.csv "memcg: Refaults file" memcg a_min)" 2000.000 "A min" &&
	assert_eq "$(csvrow g.csv "memcg: Refaults file" memcg b_max)" 7000.000 "B max" &&
	assert_eq "$(csvrow g.csv "memcg: Refaults file" memcg change)" 100.00 "change" &&
	# Welch: t = 3000 / sqrt(2 * 1e6 / 3) = 3.674235, df = 4 (equal variances, n 3 + 3):
	# p = I_{4/(4+13.5)}(2, 1/2) = 0.021311 (t table: t 3.674 at df 4 is p 0.0213)
	assert_eq "$(csvrow g.csv "memcg: Refaults file" memcg p)" 0.0213 "p" &&
	assert_eq "$(csvrow g.csv "memcg: Refaults file" memcg significant)" 1 "significant" &&
	# the machine saw 500 more refaults each run: mean 3500 vs 6500, the same spread
	assert_eq "$(csvrow g.csv "Refaults file" system a_mean)" 3500.000 "system A mean" &&
	# elapsed 1 2 3 vs 2 4 6: mean 2 vs 4, sd 1 vs 2: t = 2 / sqrt(1/3 + 4/3) = 1.549193,
	# df = (5/3)^2 / ((1/9)/2 + (16/9)/2) = 2.941176: p = 0.22088 (the t density of that
	# df integrated numerically from t to infinity, doubled): not significant
	assert_eq "$(csvrow g.csv "Elapsed (s)" run change)" 100.00 "elapsed change" &&
	assert_eq "$(csvrow g.csv "Elapsed (s)" run p)" 0.2209 "elapsed p" &&
	assert_eq "$(csvrow g.csv "Elapsed (s)" run significant)" 0 "elapsed not significant" &&
	# swap outs 10 20 30 on both sides: p 1, change 0
	assert_eq "$(csvrow g.csv "Swap outs" system p)" 1.0000 "equal sides" &&
	assert_eq "$(csvrow g.csv "Swap outs" system change)" 0.00 "no change"
'

test_expect_success SQLITE3 'totals by default; --rates divides by each run s seconds' '
	# 10 s between the samples: 3000 refaults = 300/s
	vmscope compare a1.db a2.db a3.db --vs b1.db b2.db b3.db --rates --format csv > r.csv &&
	assert_eq "$(csvrow r.csv "memcg: Refaults file" memcg a_mean)" 300.000 "rate" &&
	assert_eq "$(csvrow r.csv "memcg: Refaults file" memcg unit)" "per s" "unit" &&
	assert_eq "$(csvrow g.csv "memcg: Refaults file" memcg unit)" "total" "unit"
'

test_expect_success SQLITE3 'labels: from --label, else the sysctl that differs; in CSV and JSON' '
	assert_eq "$(csvrow g.csv "Elapsed (s)" run a_label)" "memcg.swappiness=0" "default label A" &&
	assert_eq "$(csvrow g.csv "Elapsed (s)" run b_label)" "memcg.swappiness=60" "default label B" &&
	vmscope compare a1.db a2.db a3.db --vs b1.db b2.db b3.db --label A=base --label B=patched \
		--format json > g.json &&
	python3 -c "
import json, sys
d = json.load(open(\"g.json\"))
assert d[\"run\"][\"a_label\"] == \"base\" and d[\"run\"][\"b_label\"] == \"patched\", d[\"run\"]
assert d[\"run\"][\"b_database_3\"] == \"b3.db\"
t = d[\"tables\"][0]
cols = [c[\"name\"] for c in t[\"columns\"]]
row = [r for r in t[\"rows\"] if r[0] == \"Elapsed (s)\"][0]
assert row[cols.index(\"a_label\")] == \"base\" and row[cols.index(\"b_label\")] == \"patched\"
"
'

test_expect_success SQLITE3 'brief text: chosen rows, zero and duplicate rows hidden, 80 and 72 columns' '
	vmscope compare a1.db a2.db a3.db --vs b1.db b2.db b3.db > b.txt &&
	# the title, wrapped at 80
	assert_eq "$(head -n 2 b.txt | tr "\n" " ")" \
		"Compare: A = memcg.swappiness=0 (3 runs), B = memcg.swappiness=60 (3 runs), kernel 6.18.0 " "title" &&
	test "$(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" b.txt)" -le 80 &&
	# cv: 1000/3000 = 33%, 1000/6000 = 17%; elapsed sd 1 and 2 of means 2 and 4: 50%
	grep -Eq "^File refaults +memcg +3000 +33 +6000 +17 +\+100%\*$" b.txt &&
	grep -Eq "^Elapsed \(s\) +run +2\.00 +50 +4\.00 +50 +\+100% $" b.txt &&
	# pgscan_direct is 0 everywhere: hidden; Major faults 0 everywhere: hidden
	no_match "^Direct pages scanned\|^Major faults" b.txt &&
	grep -q "hidden: .* rows zero in every run" b.txt &&
	vmscope compare a1.db a2.db a3.db --vs b1.db b2.db b3.db --width 72 > b72.txt &&
	test "$(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" b72.txt)" -le 72 &&
	grep -q "^  note: \* = significant: Welch" b72.txt
'

test_expect_success SQLITE3 '--full text: every metric with every statistic, as many rows as the CSV' '
	vmscope compare a1.db a2.db a3.db --vs b1.db b2.db b3.db --full > full.txt &&
	assert_eq "$(head -n 1 full.txt)" "Compare groups of runs" "title" &&
	sed -n 2p full.txt | grep -q "^metric  *scope  *unit  *a_label  *a_runs  *a_mean  *a_stddev" &&
	assert_eq "$(grep -c "memcg.swappiness=0 " full.txt)" "$(($(wc -l < g.csv) - 1))" "rows" &&
	rc=0 &&
	vmscope compare a1.db --vs b1.db --brief --full > /dev/null 2>&1 || rc=$? &&
	assert_eq "$rc" 2 "--brief with --full"
'

test_expect_success SQLITE3 'a duplicate row is hidden: machine refaults equal to the memcg ones' '
	for r in a1 a2 a3 b1 b2 b3; do
		cp $r.db d$r.db &&
		sql d$r.db "UPDATE counter_value SET value = value - 500 WHERE sample = 2
			AND name = '"'workingset_refault_file'"'" || return 1
	done &&
	vmscope compare da1.db da2.db da3.db --vs db1.db db2.db db3.db > d.txt &&
	assert_eq "$(grep -c "^File refaults " d.txt)" 1 "one File refaults row" &&
	grep -Eq "^File refaults +memcg " d.txt &&
	# and the kswapd period max, equal to its p99 (one period a run)
	grep -q "2 repeating a row above" d.txt
'

test_expect_success SQLITE3 'one run a side: no stddev, no test, said so; the two-run table stays' '
	vmscope compare a1.db b1.db --brief > one.txt &&
	grep -q "no significance test: it needs at least 2 runs a side" one.txt &&
	vmscope compare a1.db b1.db --format csv > pair.csv &&
	assert_eq "$(head -n 1 pair.csv)" "metric,A,B,change" "the two-run table"
'

test_expect_success SQLITE3 'side B: every database after --vs, after --vs=DB, or each after its --vs' '
	for args in "a1.db --vs b1.db b2.db" "a1.db --vs=b1.db b2.db" "a1.db --vs b1.db --format csv --vs b2.db" \
		    "--format csv a1.db --vs b1.db --label B=x b2.db"; do
		vmscope compare $args --format csv > vs.csv &&
		assert_eq "$(csvrow vs.csv "Elapsed (s)" run a_runs)|$(csvrow vs.csv "Elapsed (s)" run b_runs)" \
			"1|2" "compare $args" || return 1
	done
'

test_expect_success SQLITE3 'usage errors of the group form' '
	for args in "--vs b1.db" "a1.db a2.db a3.db" "a1.db --vs b1.db --label C=x" \
		    "a1.db --vs b1.db --brief --full" "a1.db --vs b1.db --width 50" \
		    "a1.db --vs b1.db --alpha 2"; do
		rc=0 &&
		vmscope compare $args > u.out 2> u.err || rc=$? &&
		assert_eq "$rc" 2 "compare $args" &&
		test ! -s u.out || return 1
	done &&
	rc=0 &&
	vmscope compare a1.db --vs b1.db missing.db > u.out 2> u.err || rc=$? &&
	assert_eq "$rc" 1 "missing B" &&
	grep -q "error: B: cannot open .missing.db." u.err
'

test_expect_success SQLITE3 'a database without the run_result table (older): no run rows' '
	cp a1.db old1.db && cp b1.db old2.db &&
	sql old1.db "DROP TABLE run_result" && sql old2.db "DROP TABLE run_result" &&
	vmscope compare old1.db --vs old2.db --format csv > old.csv &&
	assert_eq "$(csvrow old.csv "Elapsed (s)" run a_mean)" "" "no elapsed row" &&
	test -n "$(csvrow old.csv "memcg: Refaults file" memcg a_mean)"
'

# --- live: real recordings ----------------------------------------------------

# The three sides take turns: each runs first, second and last once, so
# that no side always runs right after the same other one (in one CI run
# the swappiness-60 side that always ran second had more refaults in all
# three rounds: +3.8 %, p 0.052 at the 1 % level held below)
record_runs() {
	for i in 1 2 3; do
		case $i in
		1) sides="0:sw0 60:sw60 60:same" ;;
		2) sides="60:sw60 60:same 0:sw0" ;;
		3) sides="60:same 0:sw0 60:sw60" ;;
		esac
		for side in $sides; do
			sw=${side%%:*} name=${side#*:}
			"$SRC_DIR/samples/run-scenario" thrash --short -q -f --swappiness $sw \
				-o $name-$i.db > $name-$i.out 2>&1 || { cat $name-$i.out; return 1; }
		done
	done
}

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'live: 3 rounds of thrash --short at memcg swappiness 0, 60, 60' '
	test -x "$SRC_DIR/samples/workloads/thrash" &&
	start=$(date +%s) &&
	record_runs &&
	echo "recorded 9 runs in $(( $(date +%s) - start )) s" &&
	for f in sw0-1 sw60-2 same-3; do
		assert_eq "$(sql $f.db "SELECT status FROM run")" complete "$f status" || return 1
	done
'

# The swappiness effect is flagged at the default 5% level; the same-setting
# comparison below is held to 1%, where it is flagged by chance in 1 run of
# 100 (at 5%, 1 in 20). With three runs a side the effect's p varies from day
# to day: file refaults -31% at p 0.0001, -25% on another day, and -24% at p
# 0.0102 in a CI run (the swappiness-0 side's spread 5%), which the 1% level
# this test once used missed.
test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'live: swappiness 0 -> 60 changes the file refaults, flagged' '
	vmscope compare sw0-1.db sw0-2.db sw0-3.db --vs sw60-1.db sw60-2.db sw60-3.db \
		--format csv > live.csv &&
	assert_eq "$(csvrow live.csv "memcg: Refaults file" memcg significant)" 1 "flagged" &&
	ch=$(csvrow live.csv "memcg: Refaults file" memcg change) &&
	awk "BEGIN { exit !($ch < -10) }"
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'live: 60 against 60, the file refaults are not flagged' '
	vmscope compare sw60-1.db sw60-2.db sw60-3.db --vs same-1.db same-2.db same-3.db --alpha 0.01 \
		--format csv > same.csv &&
	assert_eq "$(csvrow same.csv "memcg: Refaults file" memcg significant)" 0 "not flagged"
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'live: the totals are the counters deltas' '
	want=$(for f in sw0-1 sw0-2 sw0-3; do
		sql $f.db "SELECT MAX(value) - MIN(value) FROM counter WHERE source = '"'memcg'"'
			AND name = '"'workingset_refault_file'"'"; done |
		awk "{ s += \$1 } END { printf \"%.3f\", s / NR }") &&
	assert_eq "$(csvrow live.csv "memcg: Refaults file" memcg a_mean)" "$want" "memcg mean" &&
	want=$(for f in sw60-1 sw60-2 sw60-3; do
		sql $f.db "SELECT MAX(value) - MIN(value) FROM counter WHERE source = '"'vmstat'"'
			AND name = '"'pswpout'"'"; done |
		awk "{ s += \$1 } END { printf \"%.3f\", s / NR }") &&
	assert_eq "$(csvrow live.csv "Swap outs" system b_mean)" "$want" "pswpout mean"
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'live: the brief table fits 80 columns and flags the refaults' '
	vmscope compare sw0-1.db sw0-2.db sw0-3.db --vs sw60-1.db sw60-2.db sw60-3.db > live.txt &&
	cat live.txt &&
	test "$(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" live.txt)" -le 80 &&
	grep -Eq "^File refaults +memcg .*%\*$" live.txt
'

test_done
