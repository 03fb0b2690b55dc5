#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1210-record-values.sh - `vmscope record` stores what the kernel exposed,
# value by value: each event on the CPU that traced it (workloads pinned with
# taskset), and the free pages of every zone from /proc/zoneinfo, checked
# against /proc/vmstat's nr_free_pages read in the same tick. Needs root,
# tracefs and a cgroup v1 memory controller; short (a few seconds).
. "$(dirname "$0")/test-lib.sh"

CG=/sys/fs/cgroup/memory/vmscope-t1210-$$
# Drop the file's page cache: pages cached by the test shell are charged to
# its own cgroup, and reading them from the memcg would need no reclaim.
drop_cache() {
	sync big && dd if=big iflag=nocache count=0 status=none
}

test_expect_success ROOT,TRACEFS,MEMCG 'set up a memcg and a file larger than its limit' '
	mkdir -p "$CG"
	test_cleanup "rmdir $CG"
	echo $((16 * 1024 * 1024)) > "$CG/memory.limit_in_bytes"
	dd if=/dev/urandom of=big bs=1M count=64 status=none
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'events are stored on the CPU that traced them (workloads pinned with taskset)' '
	# two readers in the memcg, pinned to CPU 1 and then CPU 0, each writing
	# its pid first (task.comm is not needed: pids are reused quickly here)
	cat > readers.sh <<-\EOF
	echo $$ > "$1/cgroup.procs"
	taskset -c 1 sh -c "echo \$\$ > pid1; exec cat big > /dev/null"
	dd if=big iflag=nocache count=0 status=none
	taskset -c 0 sh -c "echo \$\$ > pid0; exec cat big > /dev/null"
	EOF
	drop_cache
	vmscope record -q -o cpu.db -m $CG -- sh readers.sh $CG
	# memcg limit reclaim runs in the charging task: the first reader
	# reclaims on CPU 1 only, the second on CPU 0 only (64 MiB read through a
	# 16 MiB limit, the file dropped from the page cache in between)
	for c in 1 0; do
		sql cpu.db "SELECT MIN(cpu), MAX(cpu), COUNT(*) > 0 FROM mm_vmscan_memcg_reclaim_begin
			WHERE pid = $(cat pid$c)" || exit 1
	done > got
	printf "1|1|1\n0|0|1\n" > want
	test_cmp want got
	assert_eq "$(sql cpu.db "SELECT COUNT(DISTINCT cpu) FROM mm_vmscan_lru_shrink_inactive
		WHERE pid IN ($(cat pid1), $(cat pid0))")" 2 "CPUs of the readers scans"
	assert_eq "$(sql cpu.db "SELECT cpus FROM run")" "$(getconf _NPROCESSORS_CONF)" "run.cpus"
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'zoneinfo: every zone s free pages stored, as /proc/vmstat counts them' '
	test -f cpu.db
	# the zones of each /proc/zoneinfo read, as the file lists them now
	zones=$(grep -c "^Node .*, zone" /proc/zoneinfo)
	assert_eq "$(sql cpu.db "SELECT COUNT(DISTINCT scope) FROM counter WHERE source = \"zoneinfo\"
		AND name = \"free\"")" "$zones" "zones with free pages"
	# no zone has more free pages than it manages
	assert_eq "$(sql cpu.db "SELECT COUNT(*) FROM counter f JOIN counter m ON m.ts = f.ts
		AND m.scope = f.scope AND m.source = f.source WHERE f.source = \"zoneinfo\"
		AND f.name = \"free\" AND m.name = \"managed\" AND (f.value < 0 OR f.value > m.value)")" 0
	# each read: the zones free pages add up to nr_free_pages of the
	# /proc/vmstat read just before it (same tick, microseconds apart; other
	# processes allocate in between, so within 16384 pages or a tenth)
	sql cpu.db "SELECT z.zts, z.zfree, v.value FROM
		(SELECT ts, value FROM counter WHERE source = \"vmstat\" AND name = \"nr_free_pages\") v
		JOIN (SELECT ts AS zts, SUM(value) AS zfree FROM counter WHERE source = \"zoneinfo\"
		      AND name = \"free\" AND scope LIKE \"node%/%\" GROUP BY ts) z
		ON z.zts BETWEEN v.ts AND v.ts + 50000000"
	sql cpu.db "SELECT COUNT(*), SUM(ABS(z.zfree - v.value) <= MAX(16384, v.value / 10)) FROM
		(SELECT ts, value FROM counter WHERE source = \"vmstat\" AND name = \"nr_free_pages\") v
		JOIN (SELECT ts AS zts, SUM(value) AS zfree FROM counter WHERE source = \"zoneinfo\"
		      AND name = \"free\" AND scope LIKE \"node%/%\" GROUP BY ts) z
		ON z.zts BETWEEN v.ts AND v.ts + 50000000" > pairs
	n=$(cut -d"|" -f1 pairs)
	test "$n" -ge 2
	assert_eq "$(cut -d"|" -f2 pairs)" "$n" "zoneinfo reads agreeing with vmstat nr_free_pages"
'

test_done
