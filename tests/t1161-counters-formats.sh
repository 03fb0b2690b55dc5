#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1161-counters-formats.sh - counters kept beside a trace, offline: the
# committed fixtures of tests/fixtures/counters/ (made by make-fixtures.py: a
# text trace of kswapd and memcg reclaim on trace seconds 1000..1030, and its
# counters stamped with epoch seconds = trace seconds + 1733000000.25) in
# every format `import --counters` and `counters add` read, aligned
# automatically, by the user's offset and by the clock; and the bad inputs
# (a truncated gzip, times going backwards, another machine's counters,
# counters that do not overlap, a CSV with an unknown clock, unrecognised
# text): each refused naming the file, with no database or the old one left.

. "$(dirname "$0")/test-lib.sh"

F="$SRC_DIR/tests/fixtures/counters"
TRUTH=-1733000000.25	# trace clock - epoch, as make-fixtures.py wrote them

test_cleanup '[ -n "${VMSCOPE_KEEP_TRASH:-}" ] || rm -rf "$TRASH"/*'

run_rc() {
	_want=$1
	shift
	_rc=0
	"$@" >out 2>err || _rc=$?
	if [ "$_rc" != "$_want" ]; then
		echo "exit status $_rc, want $_want: $*"
		sed 's/^/stderr: /' err
		return 1
	fi
}

err_has() {
	grep -Eq -- "$1" err || { echo "stderr does not match /$1/:"; sed 's/^/stderr: /' err; return 1; }
}

# within A B TOL: |A - B| <= TOL
within() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }' ||
		{ echo "$1 is not within $3 of $2"; return 1; }
}

no_db() {
	if ls "$1"* >/dev/null 2>&1; then echo "'$1' (or a partial of it) exists:"; ls "$1"*; return 1; fi
}

test_expect_success SQLITE3 'every format imports with the trace, aligned automatically' '
	run_rc 0 vmscope import -o all.db "$F/trace.txt.gz" \
		--counters "$F/proc-vmstat-synth.gz" --counters "$F/memory.stat-synth" \
		--counters "$F/meminfo-1733001010.txt" --counters "$F/proc-zoneinfo-synth.gz" \
		--counters "$F/wide.csv" --counters "$F/sysctl-vm.txt" --sysctl vm.dirty_ratio=20
	assert_eq "$(sql all.db "SELECT format || \"|\" || samples FROM counter_source ORDER BY id" | tr "\n" " ")" \
		"mmtests proc-vmstat|69 mmtests memory.stat (cgroup v2)|35 snapshot proc-meminfo|1 mmtests proc-zoneinfo|12 csv|72 sysctl|0 " \
		"formats and samples"
	err_has "proc-vmstat-synth.gz: mmtests proc-vmstat, 69 samples, clock unsaid; offset -1733000000\.2"
	err_has "column .cpu_busy. is not a counter vmscope knows: kept as source .csv."
	err_has "sysctl-vm.txt: sysctl, 3 vm.\* sysctls \(1 others left out\)"
'

test_expect_success SQLITE3 'the automatic offset is within one sampling interval (0.5 s) of the truth' '
	off=$(sql all.db "SELECT offset_ns / 1e9 FROM counter_source WHERE format = \"mmtests proc-vmstat\"")
	within "$off" "$TRUTH" 0.5
	assert_eq "$(sql all.db "SELECT aligned_by, residual < 0.05 FROM counter_source WHERE id = 1")" "automatic|1" \
		"aligned by, residual under 5%"
	off=$(sql all.db "SELECT offset_ns / 1e9 FROM counter_source WHERE format = \"csv\"")
	within "$off" "$TRUTH" 2
'

test_expect_success SQLITE3 'the counters land where vmscope record would put them' '
	# the vmstat sample of trace second 1010.0 holds the kswapd scans of the trace up to it
	ksw=$(sql all.db "SELECT SUM(nr_scanned) FROM mm_vmscan_lru_shrink_inactive WHERE pid = 52 AND ts <= 1010000000000")
	got=$(sql all.db "SELECT v.value - 5000000 FROM counter_sample s JOIN counter_value v ON v.sample = s.id
		WHERE s.source = \"vmstat\" AND s.scope = \"\" AND v.name = \"pgscan_kswapd\"
		AND abs(s.ts - 1010000000000) < 300000000
		AND s.id BETWEEN (SELECT first_sample FROM counter_source WHERE id = 1)
		AND (SELECT last_sample FROM counter_source WHERE id = 1)")
	assert_eq "$got" "$ksw" "pgscan_kswapd at 1010 s"
	assert_eq "$(sql all.db "SELECT value FROM counter WHERE source = \"meminfo\" AND name = \"MemFree\" AND scope = \"\" ORDER BY ts LIMIT 1")" \
		400000 "meminfo value"
	assert_eq "$(sql all.db "SELECT COUNT(DISTINCT scope) FROM counter_sample WHERE source = \"zoneinfo\" AND scope LIKE \"node0/%\"")" \
		"$(grep -c "^Node 0, zone" "$F/zoneinfo.sample")" "one zoneinfo scope per zone"
	assert_eq "$(sql all.db "SELECT value FROM counter WHERE source = \"zoneinfo\" AND scope = \"node0/Normal\" AND name = \"min\" ORDER BY ts LIMIT 1")" \
		1200 "zone.Normal.min of the CSV"
	assert_eq "$(sql all.db "SELECT name FROM counter WHERE source = \"csv\" LIMIT 1")" "" "cpu_busy: 0.5 is left out"
	assert_eq "$(sql all.db "SELECT name || \"=\" || value FROM sysctl ORDER BY name" | tr "\n" " ")" \
		"vm.dirty_ratio=20 vm.min_free_kbytes=67584 vm.swappiness=60 vm.watermark_scale_factor=10 " "sysctls"
'

test_expect_success SQLITE3 'info shows each counter file, its span and how it was aligned' '
	run_rc 0 vmscope info all.db
	grep -q "^counter files (path, format, clock, samples, span on the trace clock, aligned by: how):" out
	grep -Eq "proc-vmstat-synth.gz.  mmtests proc-vmstat  unsaid  69  997\.[0-9]+\.\.1031\.[0-9]+  automatic: offset -1733000000\.[0-9]+ s found from the reclaim counters \(residual [0-9.]+% over [0-9]+ sampling intervals\)" out ||
		{ grep "proc-vmstat" out; false; }
	grep -q "sysctl-vm.txt.  sysctl  unsaid  0  -  none: sysctls only" out
'

test_expect_success SQLITE3 'audit compares the trace with the imported counters' '
	run_rc 0 vmscope report all.db audit --format csv
	assert_eq "$(grep -c ",MISMATCH" out)" 0 "mismatches"
	grep -q "^pages scanned,kswapd,[1-9]" out
'

test_expect_success SQLITE3 '--counters-offset and --counters-clock trace are taken as given' '
	run_rc 0 vmscope import -q -o off.db "$F/trace.txt.gz" --counters "$F/proc-vmstat-synth.gz" \
		--counters-offset=-1733000000.25
	assert_eq "$(sql off.db "SELECT aligned_by, offset_ns FROM counter_source")" "user-offset|-1733000000250000000" "user offset"
	awk "/^time:/ { printf \"time: %.3f\n\", \$2 - 1733000000.25; next } { print }" \
		"$F/memory.stat-synth" >memcg-trace-clock
	run_rc 0 vmscope import -q -o clk.db "$F/trace.txt.gz" --counters memcg-trace-clock --counters-clock trace
	assert_eq "$(sql clk.db "SELECT aligned_by, offset_ns, clock FROM counter_source")" "same-clock|0|trace" "trace clock"
'

test_expect_success SQLITE3 'a trace-cmd --date trace carries its offset: epoch counters need none' '
	# date.dat: trace-cmd record --date (make-date-dat.sh), its timestamps epoch times
	run_rc 0 vmscope import -o date.db "$F/date.dat" --counters "$F/proc-vmstat-date.gz"
	assert_eq "$(sql date.db "SELECT aligned_by, offset_ns, samples FROM counter_source")" "trace-date|0|20" "aligned by the trace"
	assert_eq "$(sql date.db "SELECT start_ts > 1700000000000000000 FROM run")" 1 "epoch timestamps"
	err_has "offset 0: the trace.s timestamps carry its own offset to the wall clock \(trace-cmd record --date\)"
'

test_expect_success SQLITE3 'an hour of 1 Hz integer epoch seconds (the mmtests default) aligns within a second' '
	run_rc 0 vmscope import -q -o bare.db "$F/trace.txt.gz"
	# sample i read at trace second i + 0.3, stamped with epoch 1733000000 + i
	sql bare.db "WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 3599),
		e AS (SELECT ts, pid = 52 AS k, nr_scanned AS sc, nr_reclaimed AS st FROM mm_vmscan_lru_shrink_inactive)
		SELECT i, (SELECT COALESCE(SUM(sc * k), 0) || \" \" || COALESCE(SUM(st * k), 0) || \" \" ||
			COALESCE(SUM(sc), 0) || \" \" || COALESCE(SUM(st), 0) FROM e WHERE ts <= i * 1000000000 + 300000000)
		FROM s" | awk -F"|" "{ split(\$2, v, \" \"); printf \"time: %d\\nnr_free_pages 5\\npgscan_kswapd %d\\npgsteal_kswapd %d\\npgscan_direct 0\\npgsteal_direct 0\\npgscan_anon 0\\npgscan_file %d\\npgsteal_anon 0\\npgsteal_file %d\\n\", \$1 + 1733000000, v[1], v[2], v[3], v[4] }" >hour-vmstat
	assert_eq "$(grep -c "^time:" hour-vmstat)" 3600 "frames"
	run_rc 0 vmscope import -q -o hour.db "$F/trace.txt.gz" --counters hour-vmstat
	within "$(sql hour.db "SELECT offset_ns / 1e9 FROM counter_source")" -1732999999.7 1
'

test_expect_success SQLITE3 'a memcg log alone aligns on the memcg reclaim' '
	run_rc 0 vmscope import -q -o mc.db "$F/trace.txt.gz" --counters "$F/memory.stat-synth"
	within "$(sql mc.db "SELECT offset_ns / 1e9 FROM counter_source")" "$TRUTH" 1
'

test_expect_success SQLITE3 'a timeless snapshot needs FILE@SECONDS; then it is a vmstat table' '
	printf "nr_free_pages 5\npgscan_kswapd 100\n" >before
	printf "nr_free_pages 5\npgscan_kswapd 900\n" >after
	run_rc 1 vmscope import -q -o snap.db "$F/trace.txt.gz" --counters before --counters-clock trace
	err_has "before: a single proc-vmstat snapshot without a time: give it as before@SECONDS"
	no_db snap.db
	run_rc 0 vmscope import -q -o snap.db "$F/trace.txt.gz" --counters before@999.5 --counters after@1030.5 \
		--counters-clock trace
	assert_eq "$(sql snap.db "SELECT COUNT(*), MIN(ts), MAX(ts) FROM counter_sample")" "2|999500000000|1030500000000" "snapshots"
	run_rc 0 vmscope report snap.db vmstat --format csv
	grep -q "pgscan_kswapd" out
'

test_expect_success SQLITE3 'counters add: the same counters into a database imported before' '
	run_rc 0 vmscope import -o add.db "$F/trace.txt.gz"
	err_has "no counters: plot ratio, refaults and lru, report vmstat and audit need them, and replay has only the bounds the events give"
	run_rc 0 vmscope info add.db
	grep -q "^  none (no counters were imported from files)" out
	run_rc 1 vmscope counters add add.db "$F/proc-vmstat-synth.gz" missing-file
	assert_eq "$(sql add.db "SELECT COUNT(*) FROM counter_sample")" 0 "nothing added by a failed add"
	run_rc 0 vmscope counters add add.db "$F/proc-vmstat-synth.gz" "$F/wide.csv"
	err_has "added to add.db"
	run_rc 0 vmscope counters add --counters-offset=-1733000000.25 add.db "$F/meminfo-1733001010.txt"
	err_has "warning: the database has [0-9]+ vmstat samples already"
	assert_eq "$(sql add.db "SELECT COUNT(*) FROM counter_source")" 3 "three sources"
	assert_eq "$(sql add.db "SELECT status FROM run")" complete "still complete"
	# the run now starts at the first sample (997.998 s): derived tables follow
	assert_eq "$(sql add.db "SELECT origin_ts < 1000000000000 FROM derive_info")" 1 "derived again"
	no_db add.db.partial
'

test_expect_success SQLITE3 'counters add on a database without counter_source (an older one) creates it' '
	run_rc 0 vmscope import -q -o old.db "$F/trace.txt.gz"
	sql old.db "DROP TABLE counter_source"
	run_rc 0 vmscope info old.db
	no_match "^counter files" out
	run_rc 0 vmscope counters add -q old.db "$F/proc-vmstat-synth.gz"
	assert_eq "$(sql old.db "SELECT aligned_by FROM counter_source")" automatic "source row"
'

test_expect_success 'a truncated gzip is refused, nothing imported' '
	run_rc 1 vmscope import -q -o bad.db "$F/trace.txt.gz" --counters "$F/bad-truncated.gz"
	err_has "bad-truncated.gz.: compressed data ends early \(truncated gzip file\) after [0-9]+ frames: nothing of it is imported"
	no_db bad.db
'

test_expect_success 'times going backwards are refused, naming the line' '
	run_rc 1 vmscope import -q -o bad.db "$F/trace.txt.gz" --counters "$F/bad-backwards"
	err_has "bad-backwards:208: time 1733000999\.750 goes backwards \(the frame at line 185 has 1733001002\.250\)"
	no_db bad.db
'

test_expect_success 'counters of another machine do not fit: refused with a hint' '
	run_rc 1 vmscope import -q -o bad.db "$F/trace.txt.gz" --counters "$F/bad-other-machine"
	err_has "cannot align the counters of .*bad-other-machine. to the trace: the best offset, .* leaves [0-9]+% of the reclaim unmatched"
	err_has "Give --counters-offset SECONDS or --counters-clock"
	no_db bad.db
'

test_expect_success 'counters that do not overlap the trace are refused' '
	run_rc 1 vmscope import -q -o bad.db "$F/trace.txt.gz" --counters "$F/bad-no-overlap" --counters-clock trace
	err_has "do not overlap the trace \(1000\.[0-9]+ \.\. 1029\.[0-9]+ s\): are they from another machine or boot"
	no_db bad.db
'

test_expect_success 'a CSV with an unknown clock is refused; so is --counters-clock tsc' '
	run_rc 1 vmscope import -q -o bad.db "$F/trace.txt.gz" --counters "$F/bad-clock.csv"
	err_has "bad-clock.csv:1: unknown clock .tsc. in the time column .time\(tsc\)."
	no_db bad.db
	run_rc 2 vmscope import -q -o bad.db "$F/trace.txt.gz" --counters "$F/wide.csv" --counters-clock tsc
	err_has "option .--counters-clock. takes realtime, mono, boot or trace, not .tsc."
	run_rc 2 vmscope import -q -o bad.db "$F/trace.txt.gz" --counters-offset 5
	err_has "need --counters FILE"
	no_db bad.db
'

test_expect_success 'unrecognised content is refused naming the file and line' '
	run_rc 1 vmscope import -q -o bad.db "$F/trace.txt.gz" --counters "$F/bad-unknown.txt"
	err_has "bad-unknown.txt:1: not a copy of /proc/vmstat, /proc/meminfo, /proc/zoneinfo or a memory.stat"
	printf "time: 5\nnr_free_pages 1\ntime: 6\nMemTotal: 5 kB\n" >mixed
	run_rc 1 vmscope import -q -o bad.db "$F/trace.txt.gz" --counters mixed --counters-clock trace
	err_has "mixed:3: a proc-meminfo frame in a log of proc-vmstat frames"
	printf "time,pgscan_kswapd\n1,2,3\n" >wide-bad.csv
	run_rc 1 vmscope import -q -o bad.db "$F/trace.txt.gz" --counters wide-bad.csv
	err_has "wide-bad.csv:2: more fields than the header.s 2"
	no_db bad.db
'

test_expect_success SQLITE3 'a failed counters add leaves the database as it was' '
	cp add.db keep.db
	run_rc 1 vmscope counters add add.db "$F/bad-backwards"
	test_cmp keep.db add.db
	no_db add.db.partial
	run_rc 2 vmscope counters remove add.db x
	err_has "unknown action .remove."
	run_rc 2 vmscope counters add add.db
	err_has "no counters FILE given"
'

test_expect_success 'info: an unknown option is a usage error' '
	run_rc 2 vmscope info --bogus all.db
	err_has "unknown option .--bogus."
	no_match "one database" err
'

test_expect_success SQLITE3 'a time: line past any real time (the fuzzer found its overflow) is refused, naming the file' '
	printf "time: 52133001005\nnr_free_pages 100\npgscan_kswapd 5\ntime: 52133001006\nnr_free_pages 100\npgscan_kswapd 6\n" > bigtime &&
	run_rc 1 vmscope import -q -o bigtime.db "$F/trace.txt.gz" --counters bigtime --counters-clock trace &&
	err_has "bigtime" &&
	no_match "runtime error" err &&
	test ! -e bigtime.db
'

test_expect_success SQLITE3 'a NUL byte in a CSV header (the fuzzer found a heap over-read there) is refused, naming the file and line' '
	printf "time,pgscan_kswapd\000,x\n1,2\n2,3\n" > nulhead.csv &&
	run_rc 1 vmscope import -q -o nulhead.db "$F/trace.txt.gz" --counters nulhead.csv --counters-clock trace &&
	err_has "nulhead.csv:1: a NUL byte in the CSV header" &&
	test ! -e nulhead.db
'

test_done
