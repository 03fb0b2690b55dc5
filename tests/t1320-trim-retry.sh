#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1320-trim-retry.sh - samples/run-scenario trim-retry --short (the 2024
# kswapd cache_trim_mode report, the mechanism; machine-wide: it takes
# /tmp/vmscope-global.lock): with page cache pinned and cold anon, kswapd
# scans the unfreeable file pages down to low priorities while anon is
# reclaimable, and the scenario leaves nothing behind. Whether kswapd's first sweep then reclaims
# nothing at all, so that 6.9+ retries it, depends on the rest of the
# machine (samples/README.md, "The cache_trim_mode retry"): the test prints
# the retries the report names and checks them when there are some.

. "$(dirname "$0")/test-lib.sh"

RUN="$SRC_DIR/samples/run-scenario"
WORK="$TRASH/work"


# the scenario fills memory down to the low watermarks with 4 GiB pinned:
# on a small machine skip it, saying why
if [ "$(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo)" -lt $((12 << 20)) ]; then
	for t in "trim-retry --short runs and records" "kswapd scanned file only" \
		"the report names the retries" "nothing left behind"; do
		test_count=$((test_count + 1))
		test_skipped=$((test_skipped + 1))
		echo "ok $test_count # skip $t (needs 12 GiB of memory)"
	done
	test_done
fi

if [ "$(id -u)" = 0 ] && [ -w /dev/shm ]; then
	# the recording on tmpfs: its page cache is not file LRU (run-scenario warns otherwise)
	SHM=$(mktemp -d /dev/shm/vmscope-t1320.XXXXXX) || exit 1
	test_cleanup "rm -rf '$SHM'"
	DB=$SHM/trim.db
	# the one sysctl the scenario changes (the other machine-wide helper may
	# change others meanwhile, under the same lock)
	cat /proc/sys/vm/watermark_scale_factor > wsf.before
	grep -q "node_unreclaimable:  *1" /proc/zoneinfo && unrecl_before=1 || unrecl_before=0
fi

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'trim-retry --short runs and records' '
	mkdir -p "$WORK" &&
	rc=0 &&
	{ "$RUN" trim-retry --short -q -f -o "$DB" -w "$WORK" > out.txt 2>&1 || rc=$?; } &&
	cat out.txt &&
	test $rc = 0 &&
	assert_eq "$(sql "$DB" "SELECT status FROM run")" complete "run status" &&
	# recorded: kept in the scratch directory for a look afterwards
	mv "$DB" "${DB%.db}.log" . && DB=$TRASH/trim.db
'

# the measured part (samples/README.md, "The cache_trim_mode retry"): kswapd
# went down to low priorities over the pinned file pages (1,048,576 of them)
# and could not free them (under 10% of the file pages it scanned were
# reclaimed: other tasks' page cache), while swap had room for the cold anon.
# Whether a sweep stayed file only (cache_trim_mode) down to priority 4
# depends on other tasks' refaults: printed, not checked.
test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'kswapd scanned the unfreeable file pages at low priority while anon was reclaimable' '
	DB=$TRASH/trim.db &&
	test -s "$DB" &&
	k="e.pid IN (SELECT pid FROM kswapd_pid) AND e.reclaim_flags & 2" &&
	low=$(sql "$DB" "SELECT COALESCE(SUM(nr_scanned), 0) FROM mm_vmscan_lru_shrink_inactive e
		WHERE $k AND e.priority <= 3") &&
	echo "# file pages kswapd scanned at priority 3-1: $low" &&
	test "$low" -ge 1000000 &&
	pct=$(sql "$DB" "SELECT CAST(100.0 * SUM(nr_reclaimed) / SUM(nr_scanned) AS INTEGER)
		FROM mm_vmscan_lru_shrink_inactive e WHERE $k") &&
	echo "# percent of them reclaimed: $pct" &&
	test "$pct" -lt 10 &&
	swap=$(sql "$DB" "SELECT MIN(value) FROM counter WHERE source = '"'"'meminfo'"'"' AND name = '"'"'SwapFree'"'"'
		AND ts > (SELECT MIN(wake_ts) FROM kswapd_run)") &&
	echo "# lowest SwapFree while kswapd ran: $swap kB" &&
	test "$swap" -gt 0 &&
	n=$(sql "$DB" "SELECT COUNT(*) FROM (SELECT r.run FROM kswapd_run r
		JOIN mm_vmscan_lru_shrink_inactive e ON e.pid = r.pid AND e.ts > r.wake_ts
			AND (r.end_ts IS NULL OR e.ts < r.end_ts)
		WHERE e.priority BETWEEN 4 AND 12 GROUP BY r.run
		HAVING SUM((e.reclaim_flags & 2) = 0) = 0 AND COUNT(DISTINCT e.priority) >= 8)") &&
	echo "# kswapd runs with file-only sweeps from 12 to 4 (cache_trim_mode): $n" &&
	grep "^cache_trim_mode retries" out.txt
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'the report names the retries the trace shows, if any' '
	DB=$TRASH/trim.db &&
	test -s "$DB" &&
	vmscope report "$DB" kswapd-failures > report.txt &&
	grep "cache_trim retry" report.txt | cut -c1-400 &&
	n=$(sed -n "s/.*cache_trim retry: \([0-9]*\) of [0-9]* kswapd runs restarted.*/\1/p" report.txt) &&
	echo "# retried runs: $n" &&
	if [ "$n" -gt 0 ]; then
		grep -q "^0 *cache_trim retry *retry" report.txt
	else
		! grep -q "^0 *cache_trim retry *retry" report.txt
	fi
'

test_expect_success ROOT 'nothing left behind: cgroup, swap file, scratch files, the sysctl, tracefs instance' '
	test -f wsf.before &&
	! ls -d /sys/fs/cgroup/memory/vmscope-scenario-trim-* /sys/fs/cgroup/vmscope-scenario-trim-* 2>/dev/null | grep . &&
	! grep -F "$WORK" /proc/swaps &&
	test -z "$(ls -A "$WORK" 2>/dev/null)" &&
	cat /proc/sys/vm/watermark_scale_factor > wsf.after &&
	test_cmp wsf.before wsf.after &&
	! ls /sys/kernel/tracing/instances/ 2>/dev/null | grep "^vmscope-[0-9]" &&
	{ [ "$unrecl_before" = 1 ] || ! grep -q "node_unreclaimable:  *1" /proc/zoneinfo; }
'

test_done
