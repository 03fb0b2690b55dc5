#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1320-trim-retry.sh - samples/run-scenario trim-retry --short (the 2024
# kswapd cache_trim_mode report, the mechanism; machine-wide: it takes
# /tmp/vmscope-global.lock): with page cache pinned and cold anon, kswapd
# scans file only down to low priorities while anon is reclaimable, and the
# scenario leaves nothing behind. Whether kswapd's first sweep then reclaims
# nothing at all, so that 6.9+ retries it, depends on the rest of the
# machine (samples/README.md, "The cache_trim_mode retry"): the test prints
# the retries the report names and checks them when there are some.

. "$(dirname "$0")/test-lib.sh"

RUN="$SRC_DIR/samples/run-scenario"
WORK="$TRASH/work"

vm_sysctls() {
	for f in /proc/sys/vm/*; do
		case "${f##*/}" in stat_refresh|drop_caches|compact_memory) continue ;; esac
		printf '%s=%s\n' "${f##*/}" "$(tr '\n\t' '  ' < "$f" 2>/dev/null)"
	done
}

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
	vm_sysctls > sysctls.before
	grep -q "node_unreclaimable:  *1" /proc/zoneinfo && unrecl_before=1 || unrecl_before=0
fi

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'trim-retry --short runs and records' '
	mkdir -p "$WORK" &&
	rc=0 &&
	{ "$RUN" trim-retry --short -q -f -o "$DB" -w "$WORK" > out.txt 2>&1 || rc=$?; } &&
	cat out.txt &&
	test $rc = 0 &&
	assert_eq "$(sql "$DB" "SELECT status FROM run")" complete "run status"
'

# the phenomenon: a kswapd sweep in cache_trim_mode, i.e. a run whose passes
# at priorities 12 to 4 (8 of them at least) scanned file only, while swap
# had room for the cold anon (samples/README.md, attempt a4: 4 of 7 runs)
test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'kswapd scanned file only down to low priorities while anon was reclaimable' '
	test -s "$DB" &&
	n=$(sql "$DB" "SELECT COUNT(*) FROM (SELECT r.run FROM kswapd_run r
		JOIN mm_vmscan_lru_shrink_inactive e ON e.pid = r.pid AND e.ts > r.wake_ts
			AND (r.end_ts IS NULL OR e.ts < r.end_ts)
		WHERE e.priority BETWEEN 4 AND 12 GROUP BY r.run
		HAVING SUM((e.reclaim_flags & 2) = 0) = 0 AND COUNT(DISTINCT e.priority) >= 8)") &&
	echo "# kswapd runs with file-only sweeps from 12 to 4: $n" &&
	test "$n" -gt 0 &&
	swap=$(sql "$DB" "SELECT MIN(value) FROM counter WHERE source = '"'"'meminfo'"'"' AND name = '"'"'SwapFree'"'"'
		AND ts > (SELECT MIN(wake_ts) FROM kswapd_run)") &&
	echo "# lowest SwapFree while kswapd ran: $swap kB" &&
	test "$swap" -gt 0 &&
	grep "^cache_trim_mode retries" out.txt
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'the report names the retries the trace shows, if any' '
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

test_expect_success ROOT 'nothing left behind: cgroup, swap file, scratch files, sysctls, tracefs instance' '
	test -f sysctls.before &&
	! ls -d /sys/fs/cgroup/memory/vmscope-scenario-trim-* /sys/fs/cgroup/vmscope-scenario-trim-* 2>/dev/null | grep . &&
	! grep -F "$WORK" /proc/swaps &&
	test -z "$(ls -A "$WORK" 2>/dev/null)" &&
	vm_sysctls > sysctls.after &&
	test_cmp sysctls.before sysctls.after &&
	! ls /sys/kernel/tracing/instances/ 2>/dev/null | grep "^vmscope-[0-9]" &&
	{ [ "$unrecl_before" = 1 ] || ! grep -q "node_unreclaimable:  *1" /proc/zoneinfo; }
'

test_done
