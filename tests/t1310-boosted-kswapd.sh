#!/bin/sh
# t1310-boosted-kswapd.sh - samples/run-scenario boosted-kswapd: the short
# machine-wide run boosts the watermarks and has boosted kswapd runs, which
# `vmscope report boost` finds; the memory hog gives its memory back under
# its floor; nothing is left behind (no hog, no cgroup, no scratch files,
# vm.watermark_boost_factor as it was), also after SIGTERM. The bundled
# recording's boost section is checked without root.
. "$(dirname "$0")/test-lib.sh"

RUN="$SRC_DIR/samples/run-scenario"
HOG="$SRC_DIR/samples/workloads/memhog"
WORK="$TRASH/work"
TRACE="$SRC_DIR/samples/traces/boosted-kswapd.db.xz"

mem_available_mib() {
	echo $(($(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo) / 1024))
}
skip_test() {
	test_count=$((test_count + 1))
	test_skipped=$((test_skipped + 1))
	echo "ok $test_count # skip $1 ($2)"
}
# global_test PREREQS MIB TITLE BODY: a test that puts pressure on the whole
# machine by itself: run with /tmp/vmscope-global.lock held, skipped when
# MemAvailable is under MIB once the lock is ours
global_test() {
	if [ "$(id -u)" != 0 ]; then
		test_expect_success "$1" "$3" "$4"	# skipped: no root
		return 0
	fi
	exec 9> /tmp/vmscope-global.lock
	if ! flock -w 900 9; then
		skip_test "$3" "/tmp/vmscope-global.lock held for 15 minutes"
	elif [ "$(mem_available_mib)" -lt "$2" ]; then
		skip_test "$3" "MemAvailable under $2 MiB"
	else
		test_expect_success "$1" "$3" "$4"
	fi
	exec 9>&-
}
# live_test TITLE BODY: a run of the scenario, which takes the lock itself
# (and lets it go before removing its files) and needs MemAvailable of what
# the hog leaves (2.5 GiB) plus 4 GiB once the lock is its own: skipped on a
# machine with less than 8 GiB
live_test() {
	if [ "$(($(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo) / 1024))" -lt 8192 ]; then
		skip_test "$1" "MemTotal under 8 GiB"
		return 0
	fi
	test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 "$1" "$2"
}
if [ "$(id -u)" = 0 ]; then
	cat /proc/sys/vm/watermark_boost_factor > boost.before
fi

# left_nothing NAME: the run's hog, cgroup and files are gone, the sysctl is back
left_nothing() {
	pid=$(cat "$1.pid")
	if pgrep -P "$pid" memhog || pgrep -f "memhog --leave-mib .*$WORK"; then
		echo "memory hog left running"
		return 1
	fi
	if ls -d /sys/fs/cgroup/memory/vmscope-scenario-boost-"$pid" \
		/sys/fs/cgroup/vmscope-scenario-boost-"$pid" 2>/dev/null | grep .; then
		echo "cgroup left behind"
		return 1
	fi
	if [ -n "$(ls -A "$WORK")" ]; then
		ls -la "$WORK"
		echo "scratch files left behind"
		return 1
	fi
	test_cmp boost.before /proc/sys/vm/watermark_boost_factor ||
		{ echo "vm.watermark_boost_factor not restored"; return 1; }
	if ls /sys/kernel/tracing/instances/ | grep "^vmscope-[0-9]"; then
		echo "tracefs instance left behind"
		return 1
	fi
	return 0
}

test_expect_success 'usage errors: options of other scenarios, bad values, memhog limits' '
	test_must_fail "$RUN" boosted-kswapd --limit 64 2> e1 &&
	grep -q "machine-wide" e1 &&
	test_must_fail "$RUN" thrash --watermark-boost-factor 0 2> e2 &&
	grep -q "are for boosted-kswapd" e2 &&
	test_must_fail "$RUN" boosted-kswapd --leave-mib 1000 2> e3 &&
	grep -q "at least 1792" e3 &&
	test_must_fail "$RUN" boosted-kswapd --watermark-boost-factor x 2> e4 &&
	grep -q "whole number" e4 &&
	"$RUN" --help | grep -q -- "--watermark-boost-factor N" &&
	test_must_fail "$RUN" boosted-kswapd --short --holes-mib 2048 2> e7 &&
	grep -q "holes-mib: at most 1536 when 2560 MiB are left" e7 &&
	test_must_fail "$RUN" boosted-kswapd --holes-mib 1k 2> e8 &&
	grep -q "takes a number of MiB" e8 &&
	test_must_fail "$RUN" boosted-kswapd --short --holes-mib 300 2> e11 &&
	grep -q "holes-mib: a multiple of 256" e11 &&
	test_must_fail "$RUN" boosted-kswapd --short --holes-mib 0256 2> e12 &&
	grep -q "no leading zero" e12 &&
	test_must_fail "$RUN" smallfiles --holes-mib 0 2> e9 &&
	grep -q "are for boosted-kswapd" e9 &&
	rc=0 && "$HOG" --leave-mib 2048 --floor-mib 1536 --holes-mib 1024 2> e10 || rc=$? &&
	assert_eq "$rc" 2 "memhog holes that would dip under the floor" &&
	grep -q "half of it must be less than --leave-mib minus --floor-mib" e10 &&
	rc=0 && "$HOG" --floor-mib 512 2> e5 || rc=$? &&
	assert_eq "$rc" 2 "memhog without --leave-mib" &&
	rc=0 && "$HOG" --leave-mib 1024 --floor-mib 2048 2> e6 || rc=$? &&
	assert_eq "$rc" 2 "memhog floor above what it leaves" &&
	grep -q "below --leave-mib" e6
'

test_expect_success SQLITE3 'the bundled recording: boosted kswapd runs, their slab work, the ratio' '
	xz -dc "$TRACE" > boost.db &&
	vmscope report boost.db boost --format csv --table runs > runs.csv &&
	head -1 runs.csv | grep -q "^class,runs,time,lru_scanned,lru_reclaimed,slab_calls,slab_freed" &&
	during=$(sed -n "s/^boosted (zoneinfo during),\([0-9]*\),.*/\1/p" runs.csv) &&
	test "$during" -gt 0 &&
	slab=$(awk -F, "/^boosted \(zoneinfo during\)/ { print \$7 }" runs.csv) &&
	test "$slab" -gt 0 &&
	all=$(awk -F, "NR > 1 { n += \$2 } END { print n }" runs.csv) &&
	assert_eq "$all" "$(sql boost.db "SELECT COUNT(*) FROM kswapd_run")" "every kswapd run in one class" &&
	vmscope report boost.db boost --table boosted --format csv > boosted.csv &&
	boosted=$(awk -F, "/^boosted/ { n += \$2 } END { print n }" runs.csv) &&
	assert_eq "$(($(wc -l < boosted.csv) - 1))" "$boosted" "boosted runs listed" &&
	test "$(awk -F, "NR > 1 && \$5 <= 0" boosted.csv | wc -l)" = 0 &&
	vmscope report boost.db boost > boost.txt &&
	grep -q "node boost > 0 in [1-9][0-9]* of" boost.txt &&
	grep -q "tried to claim the pageblock" boost.txt &&
	vmscope report boost.db ratio --format csv --table summary > ratio.csv &&
	max=$(awk -F, "/^ratio_reclaimable,/ { print \$7 }" ratio.csv) &&
	awk -v m="$max" "BEGIN { exit !(m > 0.2 && m < 1) }"
'

test_expect_success SQLITE3 'replay v5.0-boost-noslab on the bundle: the boosted passes undecidable, none differs' '
	xz -dc "$TRACE" > rp.db &&
	vmscope replay rp.db --policy v5.0-boost-noslab > rp.out &&
	set -- $(awk "\$1 == \"v5.0-boost-noslab\" && \$2 == \"shrink_slab\" && NF == 8 { print \$3, \$4, \$5 }" rp.out) &&
	test "$1" -gt 0 &&
	assert_eq "$2" 0 "shrink_slab decisions that differ from the kernel" &&
	test "$3" -gt 0 &&
	test "$3" -lt "$1" &&
	set -- $(awk "\$1 == \"v6.18\" && \$2 == \"shrink_slab\" && NF == 8 { print \$4, \$5 }" rp.out) &&
	assert_eq "$*" "0 0" "the baseline: shrink everywhere, decidable"
'

test_expect_success SQLITE3 'vm.watermark_boost_factor 0 recorded: no fallback counts as evidence' '
	xz -dc "$TRACE" > b0.db &&
	sql b0.db "UPDATE sysctl SET value = 0 WHERE name = \"vm.watermark_boost_factor\"" &&
	vmscope report b0.db boost --format csv --table runs > runs0.csv &&
	assert_eq "$(sed -n "s/^fallbacks only,\([0-9]*\),.*/\1/p" runs0.csv)" 0 "fallbacks-only runs" &&
	vmscope report b0.db boost > b0.txt &&
	grep -q "vm.watermark_boost_factor was 0" b0.txt &&
	vmscope report boost.db boost --format csv --table runs > runs15000.csv &&
	test "$(sed -n "s/^fallbacks only,\([0-9]*\),.*/\1/p" runs15000.csv)" -gt 0
'

test_expect_success 'the boost section of a recording without boost or extfrag says so' '
	xz -dc "$SRC_DIR/samples/traces/smallfiles.db.xz" > sf.db &&
	vmscope report sf.db boost > sf.txt &&
	grep -q "node boost > 0 in 0 of" sf.txt &&
	grep -q "no boosted kswapd run in the window" sf.txt
'

# start_hog OUT LEAVE FLOOR [OPTION...]: a memhog in the background, hog_pid
# set once it holds
start_hog() {
	out=$1 leave=$2 floor=$3
	shift 3
	rm -f "$out.ready"
	"$HOG" --leave-mib "$leave" --floor-mib "$floor" --chunk-mib 64 --ready "$out.ready" "$@" \
		> "$out" 2>&1 &
	hog_pid=$!
	test_cleanup "kill $hog_pid 2>/dev/null"
	i=0
	while [ ! -e "$out.ready" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

global_test ROOT 4096 'memhog gives its memory back when MemAvailable falls under its floor' '
	avail=$(mem_available_mib)
	start_hog hog1.out $((avail - 512)) $((avail - 768))
	pid1=$hog_pid
	test -e hog1.out.ready
	start_hog hog2.out $((avail - 1280)) 512
	pid2=$hog_pid &&
	test_cleanup "kill $pid2 2>/dev/null" &&
	rc=0 && wait $pid1 || rc=$? &&
	kill $pid2 && wait $pid2 || : &&
	cat hog1.out &&
	assert_eq "$rc" 3 "exit status of the hog under its floor" &&
	grep -q "floor crossed" hog1.out
'

# 256 MiB in 4 KiB pages, every other one given back: 32,768 pages; the
# hog allocates down to 128 MiB under what it leaves (half the holes) and
# reads MemAvailable once it has punched them (the pages given back wait on
# the per-CPU free lists, not counted yet, and other work moves it: 62 MiB
# under what was asked in one run). Holes that were not given back, or
# faulted in again, would leave the hog resident over what it says it
# holds (its VmRSS, read before it stops).
global_test ROOT 4096 'memhog --holes-mib: every other page of the last 256 MiB given back, MemAvailable as asked' '
	avail=$(mem_available_mib)
	leave=$((avail - 1024))
	start_hog holes.out $leave 512 --holes-mib 256 --mlock
	test -e holes.out.ready &&
	rss=$(sed -n "s/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p" /proc/$hog_pid/status) &&
	kill $hog_pid && wait $hog_pid &&
	cat holes.out &&
	grep -q "32768 single pages given back in the last 256 MiB" holes.out &&
	held=$(sed -n "s/^memhog: holding \([0-9]*\) MiB.*/\1/p" holes.out) &&
	echo "resident $((rss / 1024)) MiB, holding $held MiB" &&
	test $((rss / 1024)) -ge $((held - 16)) &&
	test $((rss / 1024)) -le $((held + 16)) &&
	left=$(sed -n "s/^memhog: holding .* MemAvailable \([0-9]*\) MiB.*/\1/p" holes.out) &&
	test "$left" -ge $((leave - 128 - 64)) &&
	test "$left" -le $((leave + 256))
'

# boost_run NAME: one boosted-kswapd --short run into NAME.db, its output
# in NAME.out; it must end well and record the fallbacks and zoneinfo
boost_run() {
	mkdir -p "$WORK"
	"$RUN" boosted-kswapd --short -q -f -o "$1.db" -w "$WORK" > "$1.out" 2>&1 &
	pid=$!
	echo $pid > "$1.pid"
	test_cleanup "kill $pid 2>/dev/null; sleep 5"
	rc=0 && wait $pid || rc=$?
	cat "$1.out"
	assert_eq "$rc" 0 "exit status" &&
	test "$(sql "$1.db" "SELECT COUNT(*) FROM mm_page_alloc_extfrag")" -gt 0 &&
	test "$(sql "$1.db" "SELECT COUNT(*) FROM counter WHERE source = \"zoneinfo\" AND name = \"boost\"")" -gt 0 &&
	grep -q "single pages given back in the last [1-9][0-9]* MiB" "$1.out" &&
	grep -q "^kswapd runs boosted (zoneinfo during): " "$1.out" &&
	grep -q "^slab/pagecache ratio" "$1.out"
}
max_boost() {
	sql "$1" "SELECT MAX(value) FROM counter WHERE source = \"zoneinfo\" AND name = \"boost\""
}

# Whether the kernel boosts depends on how fragmented the free memory is
# (6.18 try_to_claim_block() boosts only for a fallback below the pageblock
# order), which the hog's holes make likely, not certain: one of three runs
# on fresh machines had 4 such fallbacks and no boost in any sample. So a
# run without a boost is run once more, and only two without one skip the
# boost checks (saying so); the report must agree with the samples anyway.
live_test 'boosted-kswapd --short: runs, records the fallbacks (once more if the kernel did not boost)' '
	boost_run run &&
	if [ "$(max_boost run.db)" = 0 ]; then
		echo "no boost in the first run: once more" &&
		mv run.db first.db && mv run.out first.out && mv run.pid first.pid &&
		boost_run run
	fi &&
	vmscope report run.db boost --format csv --table runs > runs.csv &&
	during=$(sed -n "s/^boosted (zoneinfo during),\([0-9]*\),.*/\1/p" runs.csv) &&
	if [ "$(max_boost run.db)" = 0 ]; then assert_eq "$during" 0 "boosted runs without a boost"; fi
'

if [ -f run.db ] && [ "$(max_boost run.db 2>/dev/null)" != 0 ]; then
	test_expect_success ROOT,SQLITE3 'boosted-kswapd --short: boost > 0, boosted kswapd runs, reclaim of slab and LRU' '
		test "$(max_boost run.db)" -gt 0 &&
		test "$(sql run.db "SELECT COUNT(*) FROM mm_page_alloc_extfrag WHERE fallback_order < 9")" -gt 0 &&
		boosted=$(awk -F, "/^boosted/ { n += \$2 } END { print n + 0 }" runs.csv) &&
		test "$boosted" -gt 0 &&
		test "$(awk -F, "NR > 1 { n += \$7 } END { print n + 0 }" runs.csv)" -gt 0 &&
		test "$(awk -F, "NR > 1 { n += \$5 } END { print n + 0 }" runs.csv)" -gt 0
	'
elif [ -f run.db ]; then
	skip_test 'boosted-kswapd --short: boost > 0, boosted kswapd runs, reclaim of slab and LRU' \
		"the kernel did not boost in $([ -f first.db ] && echo two runs || echo one run): $(sql run.db "SELECT COUNT(*) || \" fallbacks, \" || SUM(fallback_order < 9) || \" below the pageblock order\" FROM mm_page_alloc_extfrag")"
else
	skip_test 'boosted-kswapd --short: boost > 0, boosted kswapd runs, reclaim of slab and LRU' "no run above"
fi

if [ -f run.pid ] || [ "$(id -u)" != 0 ]; then
	test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'boosted-kswapd: no hog, no cgroup, no files left, sysctl as it was' '
		left_nothing run &&
		if [ -f first.pid ]; then left_nothing first; fi
	'
else
	skip_test 'boosted-kswapd: no hog, no cgroup, no files left, sysctl as it was' "no run above"
fi

live_test 'SIGTERM while the files are made: the hog is stopped, the factor restored' '
	mkdir -p "$WORK"
	"$RUN" boosted-kswapd --short --watermark-boost-factor 0 -q -f -o term.db -w "$WORK" \
		> term.out 2>&1 &
	pid=$! &&
	echo $pid > term.pid &&
	test_cleanup "kill $pid 2>/dev/null; sleep 5" &&
	i=0 && while ! grep -q "^created [1-9]" term.log 2>/dev/null && [ $i -lt 1800 ] &&
		kill -0 $pid 2>/dev/null; do
		sleep 0.1; i=$((i + 1)); done &&
	{ grep -q "^created [1-9]" term.log || { cat term.out; false; }; } &&
	assert_eq "$(cat /proc/sys/vm/watermark_boost_factor)" 0 "factor during the run" &&
	pgrep -P $pid memhog &&
	kill -TERM $pid &&
	rc=0 && wait $pid || rc=$? &&
	assert_eq "$rc" 143 "exit status" &&
	grep -q "terminated: cleaning up" term.out &&
	left_nothing term
'

test_done
