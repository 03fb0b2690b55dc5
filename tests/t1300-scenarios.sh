#!/bin/sh
# t1300-scenarios.sh - samples/run-scenario: each scenario's --short run causes
# its phenomenon, checked in the numbers of its recording, and leaves nothing
# behind (no cgroup, no swap file, no scratch file, no tracefs instance, every
# vm sysctl as it was), also when it is stopped by SIGTERM.
. "$(dirname "$0")/test-lib.sh"

RUN="$SRC_DIR/samples/run-scenario"
WORK="$TRASH/work"

# every vm sysctl, one "name=value" line each
vm_sysctls() {
	for f in /proc/sys/vm/*; do
		case "${f##*/}" in stat_refresh|drop_caches|compact_memory) continue ;; esac
		printf '%s=%s\n' "${f##*/}" "$(tr '\n\t' '  ' < "$f" 2>/dev/null)"
	done
}
node_unreclaimable() {
	grep -q "node_unreclaimable:  *1" /proc/zoneinfo
}
if [ "$(id -u)" = 0 ]; then
	vm_sysctls > sysctls.before
	node_unreclaimable && unrecl_before=1 || unrecl_before=0
fi

# run_scenario NAME [OPTIONS]: run it in the background (so that the test
# can stop it) and wait; NAME.db, NAME.log (the workload), NAME.out, NAME.pid
run_scenario() {
	n=$1
	shift
	mkdir -p "$WORK"
	"$RUN" "$n" -q -f -o "$n.db" -w "$WORK" "$@" > "$n.out" 2>&1 &
	pid=$!
	echo $pid > "$n.pid"
	test_cleanup "kill $pid 2>/dev/null; sleep 2"
	rc=0
	wait $pid || rc=$?
	cat "$n.out"
	return $rc
}

# left_nothing NAME: what the run of NAME made is gone, the sysctls are back
left_nothing() {
	pid=$(cat "$1.pid")
	if ls -d /sys/fs/cgroup/memory/vmscope-scenario-*-"$pid" \
		/sys/fs/cgroup/vmscope-scenario-*-"$pid" 2>/dev/null | grep .; then
		echo "cgroup left behind"
		return 1
	fi
	if grep -F "$WORK" /proc/swaps; then
		echo "swap file still on"
		return 1
	fi
	if [ -n "$(ls -A "$WORK")" ]; then
		ls -la "$WORK"
		echo "scratch files left behind"
		return 1
	fi
	vm_sysctls > sysctls.after
	test_cmp sysctls.before sysctls.after || { echo "a vm sysctl was not restored"; return 1; }
	if ls /sys/kernel/tracing/instances/ | grep "^vmscope-[0-9]"; then
		echo "tracefs instance left behind"
		return 1
	fi
	if [ "$unrecl_before" = 0 ] && node_unreclaimable; then
		echo "the node is still marked unreclaimable"
		return 1
	fi
	return 0
}

q() {
	sqlite3 -batch "$1" "$2"
}
# counter_delta DB SOURCE NAME: growth of a cumulative counter
counter_delta() {
	q "$1" "SELECT COALESCE(MAX(value) - MIN(value), 0) FROM counter
		WHERE source = '$2' AND name = '$3'"
}
# scanned DB anon|file: pages scanned on the inactive anon or file list
scanned() {
	if [ "$2" = file ]; then f='<> 0'; else f='= 0'; fi
	q "$1" "SELECT COALESCE(SUM(nr_scanned), 0) FROM mm_vmscan_lru_shrink_inactive
		WHERE reclaim_flags & 2 $f"
}
# slab_share DB first|max: nr_slab_reclaimable / (that + nr_file_pages), in %
slab_share() {
	if [ "$2" = first ]; then agg="share FROM r ORDER BY ts LIMIT 1"; else agg="MAX(share) FROM r"; fi
	q "$1" "WITH s AS (
		SELECT ts, MAX(CASE WHEN name = 'nr_slab_reclaimable' THEN value END) AS slab,
		       MAX(CASE WHEN name = 'nr_file_pages' THEN value END) AS file
		FROM counter WHERE source = 'vmstat' AND name IN ('nr_slab_reclaimable', 'nr_file_pages')
		GROUP BY ts),
	   r AS (SELECT ts, 100 * slab / (slab + file) AS share FROM s)
	SELECT $agg"
}
# near_min DB PAGES: zoneinfo samples of zones of 1 GiB or more whose free
# pages were less than PAGES above their min watermark, or not stored
near_min() {
	q "$1" "SELECT COUNT(*) FROM (
		SELECT MAX(CASE WHEN v.name = 'free' THEN v.value END) AS free_pages,
		       MAX(CASE WHEN v.name = 'min' THEN v.value END) AS min_mark,
		       MAX(CASE WHEN v.name = 'managed' THEN v.value END) AS managed
		FROM counter_sample s JOIN counter_value v ON v.sample = s.id
		WHERE s.source = 'zoneinfo' AND v.name IN ('free', 'min', 'managed')
		GROUP BY s.id) WHERE managed >= 262144 AND (free_pages IS NULL OR free_pages < min_mark + $2)"
}
# field LOG MODE KEY: KEY=value of sparse-mmap's "mode MODE" line
field() {
	sed -n "s/^mode $2 start_ns=.* $3=\([0-9.]*\).*/\1/p" "$1"
}
# gt A B: A > B for decimal numbers
gt() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'
}

test_expect_success 'help and usage errors need no root' '
	"$RUN" --help | grep -q "^usage: samples/run-scenario NAME" &&
	rc=0 && "$RUN" 2>/dev/null || rc=$? && assert_eq "$rc" 2 &&
	rc=0 && "$RUN" no-such-scenario 2>/dev/null || rc=$? && assert_eq "$rc" 2 &&
	rc=0 && "$RUN" thrash --bogus 2>/dev/null || rc=$? && assert_eq "$rc" 2 &&
	for w in thrash smallfiles sparse-mmap kswapd-fail; do
		"$SRC_DIR/samples/workloads/$w" --help | grep -q "^usage: $w" || exit 1
		rc=0 && "$SRC_DIR/samples/workloads/$w" --bogus 2>/dev/null || rc=$?
		assert_eq "$rc" 2 "$w --bogus" || exit 1
	done
'

test_expect_success SQLITE3 'the kept recordings show their phenomena, without root' '
	command -v xz >/dev/null
	for n in thrash smallfiles sparse-mmap kswapd-fail; do
		xz -dc "$SRC_DIR/samples/traces/$n.db.xz" > kept-$n.db
		cp "$SRC_DIR/samples/traces/$n.log" kept-$n.log
		"$RUN" $n --report -o kept-$n.db > kept-$n.out
		grep -q "^recording: kept-$n.db (complete, " kept-$n.out || exit 1
	done
	test "$(counter_delta kept-thrash.db memcg total_workingset_refault_file)" -gt 0
	test "$(scanned kept-thrash.db anon)" -gt 0
	test "$(scanned kept-thrash.db file)" -gt 0
	test "$(q kept-smallfiles.db "SELECT COUNT(*) FROM mm_shrink_slab_start")" -gt 0
	test "$(slab_share kept-smallfiles.db max)" -ge $(($(slab_share kept-smallfiles.db first) + 5))
	gt "$(field kept-sparse-mmap.log normal mean_us)" "$(field kept-sparse-mmap.log random mean_us)"
	grep -q "^node_unreclaimable: 1 in [1-9]" kept-kswapd-fail.out
	grep -q "longest streak 1[6-9]" kept-kswapd-fail.out
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'thrash: file refaults, anon and file lists both scanned' '
	run_scenario thrash --short
	assert_eq "$(q thrash.db "SELECT status FROM run")" complete
	test "$(grep -c "^round [0-9]*: " thrash.log)" = 5
	rf=$(counter_delta thrash.db memcg total_workingset_refault_file)
	test "$rf" -gt 1000 || { echo "file refaults: $rf"; exit 1; }
	anon=$(scanned thrash.db anon)
	file=$(scanned thrash.db file)
	test "$anon" -gt 0 || { echo "anon scanned: $anon"; exit 1; }
	test "$file" -gt 0 || { echo "file scanned: $file"; exit 1; }
	test "$(counter_delta thrash.db vmstat pswpout)" -gt 0
	grep -q "^file refaults (memcg workingset_refault_file): $rf in" thrash.out
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'thrash: record -m stored the exec mapping of the data file, the file most inserted' '
	# the first half of the data file, mapped PROT_EXEC: 128 MiB in pages
	half=$((128 * 1024 * 1024 / $(getconf PAGESIZE)))
	assert_eq "$(q thrash.db "SELECT COUNT(*) FROM exec_mapping
		WHERE path LIKE '\''%/data'\'' AND pgoff = 0 AND pages = $half")" 1 &&
	assert_eq "$(q thrash.db "SELECT s_dev || '\'':'\'' || i_ino FROM exec_mapping WHERE path LIKE '\''%/data'\''")" \
		"$(q thrash.db "SELECT s_dev || '\'':'\'' || i_ino FROM mm_filemap_add_to_page_cache
			GROUP BY s_dev, i_ino ORDER BY COUNT(*) DESC LIMIT 1")" &&
	vmscope whatif thrash.db -a exec=protected > /dev/null &&
	q thrash.db "SELECT value FROM whatif_assumption WHERE item = '\''model: exec'\''" > v &&
	grep -q "pages, mapped executable by the memcg.s tasks .*: their [1-9][0-9]* insertions are protected" v
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'thrash: nothing left behind' '
	left_nothing thrash
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'smallfiles: shrink_slab runs and slab takes a larger share' '
	run_scenario smallfiles --short
	assert_eq "$(q smallfiles.db "SELECT status FROM run")" complete
	grep -q "^create: 40000 files" smallfiles.log
	test "$(q smallfiles.db "SELECT COUNT(*) FROM mm_shrink_slab_start")" -gt 0
	test "$(q smallfiles.db "SELECT COALESCE(SUM(freed), 0) FROM shrink_slab_interval")" -gt 0
	test "$(q smallfiles.db "SELECT COUNT(*) FROM reclaim_interval WHERE kind = \"memcg\"")" -gt 0
	first=$(slab_share smallfiles.db first)
	max=$(slab_share smallfiles.db max)
	test "$max" -ge $((first + 5)) || { echo "slab share: $first% at the start, $max% at most"; exit 1; }
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'smallfiles: nothing left behind' '
	left_nothing smallfiles
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'sparse-mmap: fault latencies of both modes, read-around costs more' '
	run_scenario sparse-mmap --short
	assert_eq "$(q sparse-mmap.db "SELECT status FROM run")" complete
	for m in normal random; do
		for k in accesses mean_us p99_us max_us; do
			v=$(field sparse-mmap.log $m $k)
			test -n "$v" || { echo "no $k for mode $m"; exit 1; }
		done
	done
	assert_eq "$(field sparse-mmap.log normal accesses)" 150
	assert_eq "$(field sparse-mmap.log random accesses)" 20000
	gt "$(field sparse-mmap.log normal max_us)" 0
	gt "$(field sparse-mmap.log normal mean_us)" "$(field sparse-mmap.log random mean_us)"
	# reclaim of clean pages happened while each mode ran
	for m in normal random; do
		t0=$(sed -n "s/^mode $m start_ns=\([0-9]*\).*/\1/p" sparse-mmap.log)
		t1=$(sed -n "s/^mode $m .*end_ns=\([0-9]*\).*/\1/p" sparse-mmap.log)
		n=$(q sparse-mmap.db "SELECT COUNT(*) FROM reclaim_interval
			WHERE kind = \"memcg\" AND begin_ts BETWEEN $t0 AND $t1")
		test "$n" -gt 0 || { echo "no memcg reclaim in mode $m"; exit 1; }
	done
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'sparse-mmap: nothing left behind' '
	left_nothing sparse-mmap
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'kswapd-fail: kswapd fails, gigabytes still free' '
	run_scenario kswapd-fail --short
	assert_eq "$(q kswapd-fail.db "SELECT status FROM run")" complete
	test "$(q kswapd-fail.db "SELECT COUNT(*) FROM mm_vmscan_kswapd_wake")" -gt 0
	unrecl=$(q kswapd-fail.db "SELECT COUNT(*) FROM counter WHERE source = \"zoneinfo\"
		AND name = \"node_unreclaimable\" AND value = 1")
	zero=$(sed -n "s/^kswapd runs that reclaimed nothing (LRU): \([0-9]*\) of.*/\1/p" kswapd-fail.out)
	echo "zoneinfo samples with node_unreclaimable 1: $unrecl; kswapd runs that reclaimed nothing: $zero"
	test "$unrecl" -gt 0 || test "${zero:-0}" -gt 0
	# never near the min watermark: every sample of a zone of 1 GiB or more
	# at least 256 MiB above it (the workload keeps 512 MiB or more)
	assert_eq "$(near_min kswapd-fail.db 65536)" 0 "zoneinfo samples within 256 MiB of the min watermark"
	test "$(q kswapd-fail.db "SELECT COUNT(*) FROM counter WHERE source = \"zoneinfo\" AND name = \"free\"")" -gt 0
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'kswapd-fail: nothing left behind, watermark_scale_factor restored' '
	left_nothing kswapd-fail
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'SIGTERM: the recording is kept, everything is cleaned up' '
	mkdir -p "$WORK"
	"$RUN" thrash -q -f -o term.db -w "$WORK" > term.out 2>&1 &
	pid=$!
	echo $pid > term.pid
	test_cleanup "kill $pid 2>/dev/null; sleep 2"
	i=0
	while ! grep -q "^round 1:" term.log 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q "^round 1:" term.log
	kill -TERM $pid
	rc=0
	wait $pid || rc=$?
	assert_eq "$rc" 143 "exit status"
	grep -q "terminated: cleaning up" term.out
	assert_eq "$(q term.db "SELECT status FROM run")" complete
	test "$(grep -c "^round [0-9]*: " term.log)" -lt 15
	left_nothing term
'

test_done
