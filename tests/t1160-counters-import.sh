#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1160-counters-import.sh - the postmortem case, live: a shell in a memcg
# limited to 64 MiB reads a 200 MiB file while `trace-cmd record` traces
# vmscan on its default clock (no -C, no --date) and tests/counters-sampler.sh
# keeps mmtests-format proc-vmstat, proc-meminfo, proc-zoneinfo and
# memory.stat logs stamped with epoch seconds. `vmscope import --counters`
# must find the offset by itself, within one sampling interval of the truth
# (CLOCK_REALTIME minus the local trace clock when the test starts, read
# through a marker: the local clock drifts from CLOCK_MONOTONIC on a VM); the ratio, refaults and lru plots must
# render; audit must match within 1%; and replay must decide at least 90% of
# the scan-balance decisions that `vmscope record` of the same workload
# decides (as a share: the runs' pass counts differ), agreeing within 5
# points. The same trace imported without the logs is replayed on the
# bounds the events give, asking the same scan-balance decisions. Needs root, tracefs, the memory
# controller, trace-cmd, sqlite3 and python3 (for the two clocks); else SKIP.
#
# Everything this test starts or makes (trace-cmd and its instance, the
# sampler, the memcg, the data file) is undone on every exit path.

. "$(dirname "$0")/test-lib.sh"

TRACING=/sys/kernel/tracing
CG_NAME=vmscope-t1160-$$
if [ -d /sys/fs/cgroup/memory ]; then
	CG=/sys/fs/cgroup/memory/$CG_NAME
	CG_LIMIT=memory.limit_in_bytes
else
	CG=/sys/fs/cgroup/$CG_NAME
	CG_LIMIT=memory.max
fi
INSTANCE_NAME=vmscope-t1160-$$
INSTANCE=$TRACING/instances/$INSTANCE_NAME
CLOCK_PROBE=$TRACING/instances/vmscope-t1160-clock-$$
TC_PID="$TRASH/trace-cmd.pid"
SAMPLER_PID="$TRASH/sampler.pid"
BIG="$TRASH/big.data"
INTERVAL=0.1

# stop_pid FILE SIGNAL NAME: end the process whose pid is in FILE (if it is
# still the NAME this test started), SIGKILL after 60 s.
stop_pid() {
	[ -f "$1" ] || return 0
	_pid=$(cat "$1")
	if [ -n "$_pid" ] && kill -0 "$_pid" 2>/dev/null &&
	   grep -q "$3" /proc/"$_pid"/cmdline 2>/dev/null; then
		kill "-$2" "$_pid" 2>/dev/null
		_i=0
		while kill -0 "$_pid" 2>/dev/null && [ $_i -lt 600 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		kill -0 "$_pid" 2>/dev/null && kill -KILL "$_pid" 2>/dev/null
	fi
	rm -f "$1"
}

remove_files() {
	rm -f "$BIG"
	[ -n "${VMSCOPE_KEEP_TRASH:-}" ] || rm -rf "$TRASH"/*
}

test_cleanup remove_files
test_cleanup remove_memcg
test_cleanup remove_instance
test_cleanup "rmdir '$CLOCK_PROBE' 2>/dev/null || :"
test_cleanup "stop_pid '$TC_PID' INT trace-cmd"
test_cleanup "stop_pid '$SAMPLER_PID' TERM counters-sampler"

# The workload of both recordings: fill the memcg to its limit, let the
# samplers see it full, then read the file twice inside it; the pids of those
# two readers are appended to the file $1. (The first passes of a memcg that
# is still filling are replayed from a sample taken before it filled: they
# measure the sampling phase, not the import.)
workload() {
	sh -c 'echo $$ >"$1/cgroup.procs" || exit 1
		head -c 80M "$2" >/dev/null
		sleep 0.5
		for i in 1 2; do cat "$2" >/dev/null & echo $! >>"$3"; wait $! || exit 1; done' \
		reader "$CG" "$BIG" "$1"
}

# scan_balance_of DB PIDFILE: "asked decidable agreement(%)" of the v6.18
# replay's scan-balance decisions of the workload's readers (other sessions
# on the machine may reclaim in their own memcgs meanwhile).
scan_balance_of() {
	sql "$1" "SELECT COUNT(*), COUNT(r.agrees), printf('%.1f', 100.0 * SUM(r.agrees) / COUNT(r.agrees))
		FROM decision d JOIN replay_result r ON r.decision = d.id
		WHERE r.policy = 'v6.18' AND r.question = 'scan_balance'
		AND d.pid IN ($(paste -sd, "$2"))" | tr '|' ' '
}

# clock_truth: CLOCK_REALTIME minus the local trace clock, now. The local
# clock is sched_clock, which drifts from CLOCK_MONOTONIC on a VM (0.3 s
# after 16 hours here), so it is read itself: a marker written into a probe
# instance on that clock, between two reads of the real-time clock.
clock_truth() {
	mkdir "$CLOCK_PROBE" &&
	echo local >"$CLOCK_PROBE/trace_clock" &&
	python3 -c "
import re, sys, time
d = sys.argv[1]
r0 = time.clock_gettime(time.CLOCK_REALTIME)
open(d + \"/trace_marker\", \"w\").write(\"vmscope-t1160\\n\")
r1 = time.clock_gettime(time.CLOCK_REALTIME)
m = re.search(r\" (\\d+\\.\\d+): .*vmscope-t1160\", open(d + \"/trace\").read())
print(\"%.6f\" % ((r0 + r1) / 2 - float(m.group(1))))" "$CLOCK_PROBE"
	_rc=$?
	rmdir "$CLOCK_PROBE"
	return $_rc
}

prepare() {
	[ -d "$CG" ] || mkdir "$CG"
	echo 64M >"$CG/$CG_LIMIT"
	[ -f "$BIG" ] || dd if=/dev/urandom of="$BIG" bs=1M count=200 status=none
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

test_expect_success ROOT,TRACEFS,MEMCG,TRACE_CMD,SQLITE3 'trace-cmd on its default clock, mmtests logs on epoch seconds' '
	command -v python3
	prepare
	clock_truth >truth
	trace-cmd record --no-filter -q -d -b 32768 -B $INSTANCE_NAME -e vmscan -o t.dat >record.log 2>&1 &
	echo $! >"$TC_PID"
	i=0
	until [ "$(cat "$INSTANCE/tracing_on" 2>/dev/null)" = 1 ] &&
	      [ "$(cat "$INSTANCE/events/vmscan/mm_vmscan_lru_shrink_inactive/enable" 2>/dev/null)" = 1 ]; do
		if [ $i -ge 300 ] || ! kill -0 "$(cat "$TC_PID")" 2>/dev/null; then
			echo "trace-cmd did not start recording:"
			sleep 0.5
			cat record.log
			exit 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	mkdir logs
	# what a harness keeps beside its logs: the vm sysctls
	sysctl vm >logs/sysctl-vm.txt
	sh "$SRC_DIR/tests/counters-sampler.sh" logs $INTERVAL "$CG" &
	echo $! >"$SAMPLER_PID"
	sleep 1
	workload imp.pids
	sleep 0.5
	# the sampler stops first: the counters span lies inside the trace
	stop_pid "$SAMPLER_PID" TERM counters-sampler
	stop_pid "$TC_PID" INT trace-cmd
	remove_instance
	ls logs/proc-vmstat-run.gz logs/proc-zoneinfo-run.gz logs/proc-meminfo-run logs/memory.stat-run
	test -s t.dat
'

test_expect_success ROOT,TRACEFS,MEMCG,TRACE_CMD,SQLITE3 'import aligns the logs automatically, within one sampling interval' '
	vmscope import -o t.db t.dat --counters logs/proc-vmstat-run.gz --counters logs/proc-meminfo-run \
		--counters logs/proc-zoneinfo-run.gz --counters logs/memory.stat-run \
		--counters logs/sysctl-vm.txt --sysctl memcg.swappiness=$(cat "$CG/memory.swappiness" 2>/dev/null || echo 60) \
		2>import.err
	cat import.err
	assert_eq "$(sql t.db "SELECT trace_clock FROM run")" local "the trace clock (trace-cmd default)"
	assert_eq "$(sql t.db "SELECT DISTINCT aligned_by FROM counter_source WHERE samples > 0")" automatic "aligned by"
	# one sampling interval: the median step between the vmstat frames
	zcat logs/proc-vmstat-run.gz | awk "/^time:/ { if (p) print \$2 - p; p = \$2 }" | sort -n >steps
	step=$(awk "{ v[NR] = \$1 } END { print v[int((NR + 1) / 2)] }" steps)
	off=$(sql t.db "SELECT offset_ns / 1e9 FROM counter_source WHERE id = 1")
	err=$(awk -v o="$off" -v t="$(cat truth)" "BEGIN { d = o + t; if (d < 0) d = -d; printf \"%.6f\", d }")
	echo "offset $off, truth -$(cat truth), error $err s, sampling interval $step s" | tee align.txt
	assert_eq "$(awk -v e="$err" -v s="$step" "BEGIN { print (e <= s) }")" 1 "error within one interval"
	# the residual grows with the lag of the sampler between its time stamp and its
	# read (a fork of date, then of cat): 1-6% here, 14% with the machine at
	# load 14; above 25% the import would have refused
	assert_eq "$(sql t.db "SELECT residual < 0.25 FROM counter_source WHERE id = 1")" 1 "residual reported, under 25%"
'

test_expect_success ROOT,TRACEFS,MEMCG,TRACE_CMD,SQLITE3,GNUPLOT 'the ratio, refaults and lru plots render from the imported counters' '
	for k in ratio refaults lru; do
		vmscope plot t.db $k -o $k.png
		test -s $k.png || { echo "no $k.png"; exit 1; }
	done
	vmscope plot t.db lru -o lru.txt
	test "$(wc -l <lru.txt)" -ge 10
'

test_expect_success ROOT,TRACEFS,MEMCG,TRACE_CMD,SQLITE3 'audit: the trace and the imported counters agree within 1%' '
	vmscope report t.db audit --format csv >audit.csv
	grep "^pages" audit.csv
	# the trace is machine-wide: another session reclaiming hard at the same
	# time can overrun the ring buffer, and lost events make the trace short
	lost=$(sql t.db "SELECT COALESCE(SUM(count), 0) FROM lost_events")
	if [ "$lost" != 0 ]; then
		echo "the trace lost $lost events (machine busy): the audit cannot match; not judged"
		exit 0
	fi
	awk -F, "\$2 == \"all reclaimers\" { d = \$3 - \$4; if (d < 0) d = -d; m = \$4 > \$3 ? \$4 : \$3;
		n++; if (m < 1000 || d > m / 100) bad = bad \" \" \$1 } END { print n \":\" bad }" audit.csv >audit.res
	assert_eq "$(cat audit.res)" "2:" "all-reclaimer rows (scanned, reclaimed), those off by more than 1%"
'

test_expect_success ROOT,TRACEFS,MEMCG,TRACE_CMD,SQLITE3 'the same trace imported bare: the same passes, judged on the bounds the events give' '
	vmscope import -o bare.db t.dat >/dev/null 2>bare.err
	grep "no counters" bare.err
	vmscope replay bare.db --results all >bare.txt 2>&1
	vmscope replay t.db --results all >/dev/null 2>&1
	assert_eq "$(sql bare.db "SELECT COUNT(*) FROM decision WHERE kind = \"pass\" AND lru_scope IS NOT \"trace\"")" 0 \
		"passes without the events-alone inputs"
	bare=$(scan_balance_of bare.db imp.pids)
	counted=$(scan_balance_of t.db imp.pids)
	echo "scan_balance asked decidable agreement: bare $bare; with counters $counted" | tee bare-replay.txt
	# the same decisions are asked, with or without counters
	assert_eq "${bare%% *}" "${counted%% *}" "scan_balance decisions asked"
	grep -A9 "^Decided by the trace alone" bare.txt | tee -a bare-replay.txt
	grep -E "^scan_balance +[1-9][0-9]* " bare.txt >/dev/null
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'replay decides >= 90% of what vmscope record of the same workload decides' '
	prepare
	# as the trace-cmd recording: sampling for a second before the workload starts
	$VMSCOPE record -q -o rec.db -m "$CG" &
	echo $! >rec.pid
	test_cleanup "stop_pid \"$TRASH/rec.pid\" INT vmscope"
	sleep 1
	workload rec.pids
	sleep 0.5
	stop_pid rec.pid INT vmscope
	assert_eq "$(sql rec.db "SELECT status FROM run")" complete "the recording"
	vmscope replay t.db --format csv >imp.csv 2>/dev/null
	vmscope replay rec.db --format csv >rec.csv 2>/dev/null
	grep "^scan_balance," imp.csv rec.csv
	# the two runs differ in their number of passes: the shares decidable are compared
	imp=$(scan_balance_of t.db imp.pids)
	rec=$(scan_balance_of rec.db rec.pids)
	echo "scan_balance asked decidable agreement: import $imp; record $rec" | tee replay.txt
	assert_eq "$(echo "$imp $rec" | awk "{ print (\$1 > 0 && \$4 > 0 && \$5 > 0 && \$2 / \$1 >= 0.9 * \$5 / \$4) }")" 1 \
		"share decidable, import against record"
	assert_eq "$(echo "$imp $rec" | awk "{ d = \$3 - \$6; if (d < 0) d = -d; print (d <= 5) }")" 1 \
		"agreement within 5 points"
'

test_done
