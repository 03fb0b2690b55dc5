#!/bin/sh
# t1230-record-pressure.sh - `vmscope record` when the machine is short of
# memory (issue 18): `-b 0` keeps the kernel's size; a borrowed buffer that
# another process reads is refused; then, under real pressure (the
# kswapd-fail hog of samples/ in its short form: free memory below the
# raised watermarks, where the kernel refuses new ring buffers), recording
# into an instance made ahead of time and into the top-level buffer works,
# leaves both as found, says the smaller buffer it got, and gives the events
# a concurrent trace-cmd recording of another buffer gives.
#
# Which pairs can run together: a buffer has one reader. trace-cmd #1 reads
# the top-level buffer while vmscope records into the instance made ahead of
# time (and vmscope --top-level is refused meanwhile); then trace-cmd #2,
# in its own instance made before the pressure, reads while vmscope records
# into the top-level buffer.
#
# The hog keeps every zone's free memory above min + max((low-min)/2,
# 512 MiB) itself (it reads /proc/zoneinfo every 100 ms and gives memory
# back); a watchdog here also kills it when MemFree falls under twice the
# largest min watermark. Everything made (hog, instances, events,
# vm.watermark_scale_factor, the top-level buffer size) is undone on every
# exit path.
. "$(dirname "$0")/test-lib.sh"

T=/sys/kernel/tracing
PRE=vmscope-t1230-pre-$$
CMP=vmscope-t1230-cmp-$$
HOG="$SRC_DIR/samples/workloads/kswapd-fail"

# state BUFFER: what a recording must leave as it found it ("" the top level)
state() {
	d=$T${1:+/instances/$1}
	echo "size $(cat $d/buffer_size_kb) clock $(cat $d/trace_clock) on $(cat $d/tracing_on)" \
		"events $(sort $d/set_event | tr '\n' ' ') notrace $(cat $d/set_event_notrace_pid | tr '\n' ' ')"
}
# No vmscope-PID instance of a process that has exited.
no_instance_left() {
	for i in $(ls $T/instances/ | grep "^vmscope-[0-9][0-9]*$"); do
		if [ ! -d /proc/${i#vmscope-} ]; then
			echo "tracefs instance $i left behind"
			return 1
		fi
	done
}
# by_task VMSCOPE_DB TRACE_CMD_DB TABLE: where two counts differ, the events of
# each task on each side in the window (what tells a lost event from a filter)
by_task() {
	for db in "$1" "$2.db"; do
		echo "# $db: pid comm events of $3 in the window"
		sql "$db" "SELECT e.pid, COALESCE((SELECT group_concat(comm) FROM task t
			WHERE t.pid = e.pid), '?'), COUNT(*) FROM \"$3\" e
			WHERE e.ts BETWEEN $start AND $end GROUP BY e.pid" | sed "s/^/# /"
	done
}
# same_events VMSCOPE_DB TRACE_CMD_DAT RECORDER_PID: per event, the same count
# in the window both cover. vmscope does not trace itself (set_event_notrace_pid),
# trace-cmd --no-filter does: its events of the recorder's pid are left out.
# (By pid, not by comm: the kernel's saved comm of a pid can be a stale one
# after pids wrap, as they do in a long test run with pid_max 32768.)
same_events() {
	vmscope import -q -f "$2" -o "$2.db" &&

	# the window both cover, its edges in gaps between events (test-lib.sh)
	w=$(quiet_window "$1") && start=${w% *} end=${w#* } &&
	test -n "$start" && test -n "$end" &&
	assert_eq "$(sql "$1" "SELECT COUNT(*) FROM lost_events")" 0 "vmscope lost events" &&
	# the reference may lose events under this pressure (its buffer is the
	# kernel's to give): then vmscope, which lost none, has at least as many
	tc_lost=$(sql "$2.db" "SELECT COUNT(*) FROM lost_events") &&
	[ "$tc_lost" = 0 ] || echo "trace-cmd lost events ($tc_lost rows): vmscope must have at least its counts" &&
	test "$(sql "$1" "SELECT COUNT(*) FROM mm_vmscan_lru_shrink_inactive")" -gt 100 &&
	for t in $(sql "$1" "SELECT DISTINCT tbl FROM event_table WHERE system = \"vmscan\""); do
		sql "$1" "SELECT COUNT(*) FROM \"$t\" WHERE ts BETWEEN $start AND $end" > v.count
		sql "$2.db" "SELECT COUNT(*) FROM \"$t\" WHERE ts BETWEEN $start AND $end
			AND pid != $3" > tc.count
		if [ "$tc_lost" = 0 ]; then
			test_cmp tc.count v.count || { echo "table $t differs"; by_task "$1" "$2" "$t"; return 1; }
		else
			[ "$(cat v.count)" -ge "$(cat tc.count)" ] ||
				{ echo "table $t: vmscope $(cat v.count) < trace-cmd $(cat tc.count)"; by_task "$1" "$2" "$t"; return 1; }
		fi
	done
}
CG=/sys/fs/cgroup/memory/vmscope-t1230-$$
# READ: the command recorded: in a 32 MiB memcg, reads a file 8 times its size
# (memcg reclaim: the same events whatever the global pressure does meanwhile),
# its page cache dropped first: pages the test shell cached are not the memcg's
READ="echo \$\$ > $CG/cgroup.procs; i=0; while [ \$i -lt 3 ]; do
	dd if=big iflag=nocache count=0 status=none; cat big > /dev/null; i=\$((i + 1)); done"
# tracing PID: wait until recorder PID traces into its spool (at most 20 s), and commits
tracing() {
	i=0
	while { [ "$(cat $T/instances/vmscope-$1/tracing_on 2>/dev/null)" != 1 ] ||
		[ -z "$(ls ./*.spool-$1 2>/dev/null)" ]; } && [ $i -lt 100 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	sleep 2	# past the first commit (once a second): before it, nothing to recover
}
# trace_cmd OUT [-B NAME]: start trace-cmd, wait until its buffer traces; pid in tc_pid
trace_cmd() {
	out=$1
	shift
	trace-cmd record --no-filter -q -d -C mono "$@" -b 32768 -e vmscan -o "$out" \
		> "$out.log" 2>&1 &
	tc_pid=$!
	test_cleanup "kill -INT $tc_pid; sleep 1"
	d=$T${2:+/instances/$2}
	i=0
	while [ "$(cat $d/tracing_on)" != 1 ] && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
	sleep 0.5
	test "$(cat $d/tracing_on)" = 1
}
# stop_trace_cmd: SIGINT; it may exit 1 after writing a complete .dat
stop_trace_cmd() {
	kill -INT $tc_pid
	wait $tc_pid || test -s "$out"
}

test_expect_success ROOT,TRACEFS,SQLITE3 '-b 0 keeps the size the kernel gives a new instance' '
	mkdir $T/instances/$PRE || exit 1
	test_cleanup "rmdir $T/instances/$PRE"
	default=$(cat $T/instances/$PRE/buffer_size_kb)
	rmdir $T/instances/$PRE || exit 1
	$VMSCOPE record -q -b 0 -e vmscan -o b0.db -d 2 &
	r=$!
	sleep 1
	assert_eq "$(cat $T/instances/vmscope-$r/buffer_size_kb)" "$default" "-b 0 size" &&
	wait $r &&
	assert_eq "$(sql b0.db "SELECT status FROM run")" complete &&
	no_instance_left
'

test_expect_success ROOT,TRACEFS,SQLITE3 'a borrowed buffer another process reads is refused, and left alone' '
	before=$(state)
	cat $T/trace_pipe > /dev/null &
	reader=$!
	test_cleanup "kill $reader"
	sleep 0.3
	test_must_fail vmscope record -q --top-level -o top-refused.db -d 1 2> refused.err &&
	grep -q "the top-level buffer is being read by process $reader (cat): two readers" refused.err &&
	test ! -e top-refused.db &&
	kill $reader &&
	assert_eq "$(state)" "$before" "top-level state" &&
	test_must_fail vmscope record -q --instance no-such-$$ -o none.db -d 1 2> none.err &&
	grep -q "no tracefs instance .no-such-$$. (make it ahead of time" none.err &&
	test_must_fail vmscope record -q --instance x --top-level -o none.db 2> both.err &&
	grep -q "exclude each other" both.err
'

test_expect_success ROOT,TRACEFS,SQLITE3 'after SIGKILL, --recover offers to remove the instance, --remove-instance removes it' '
	$VMSCOPE record -q -e vmscan -o k1.db &
	r=$!
	test_cleanup "rmdir $T/instances/vmscope-$r"
	tracing $r
	kill -9 $r
	wait $r || true
	test -d $T/instances/vmscope-$r &&
	vmscope record --recover k1.db < /dev/null 2> k1.err &&
	grep -q "tracefs instance .vmscope-$r. of the dead recorder still traces into its buffers: remove it with .echo 0 > $T/instances/vmscope-$r/events/enable; rmdir" k1.err &&
	test -d $T/instances/vmscope-$r &&
	echo 0 > $T/instances/vmscope-$r/events/enable &&
	rmdir $T/instances/vmscope-$r || exit 1
	$VMSCOPE record -q -e vmscan -o k2.db &
	r=$!
	test_cleanup "rmdir $T/instances/vmscope-$r"
	tracing $r
	kill -9 $r
	wait $r || true
	vmscope record --recover k2.db --remove-instance 2> k2.err &&
	grep -q "removed tracefs instance .vmscope-$r. of the dead recorder" k2.err &&
	test ! -d $T/instances/vmscope-$r &&
	assert_eq "$(sql k2.db "SELECT status FROM run")" incomplete &&
	no_instance_left
'

test_expect_success ROOT,TRACEFS,MEMCG,TRACE_CMD,SQLITE3 'under memory pressure: an instance made ahead of time and the top-level buffer record, and are left as found' '
	test -x "$HOG" || { echo "build the samples (make samples)"; exit 1; }
	# trace-cmd #1 needs the top-level buffer to itself (another tracer starting
	# there resets its events): fail clearly rather than compare split events
	for f in /proc/[0-9]*/fd/*; do readlink "$f"; done 2>/dev/null |
		grep -q "^$T/\(trace_pipe\|per_cpu/cpu[0-9]*/trace_pipe_raw\)$" &&
		{ echo "another process reads the top-level buffer: run this test alone"; exit 1; }
	assert_eq "$(cat $T/set_event)" "" "events enabled in the top-level buffer"
	wsf=$(cat /proc/sys/vm/watermark_scale_factor)
	top_size=$(cat $T/buffer_size_kb | cut -d" " -f1)
	# last registered runs first: trace-cmd is stopped before the size is restored
	test_cleanup "echo $wsf > /proc/sys/vm/watermark_scale_factor"
	test_cleanup "echo $top_size > $T/buffer_size_kb"
	# made before the pressure, as a user would at boot
	mkdir $T/instances/$PRE $T/instances/$CMP || exit 1
	test_cleanup "rmdir $T/instances/$PRE"
	test_cleanup "rmdir $T/instances/$CMP"
	echo 2048 > $T/instances/$PRE/buffer_size_kb &&
	echo 32768 > $T/instances/$CMP/buffer_size_kb || exit 1
	pre_state=$(state $PRE)
	dd if=/dev/urandom of=big bs=1M count=256 status=none && sync big || exit 1
	mkdir $CG || exit 1
	test_cleanup "rmdir $CG"
	echo $((32 << 20)) > $CG/memory.limit_in_bytes || exit 1
	trace_cmd tc1.dat || exit 1
	echo 3000 > /proc/sys/vm/watermark_scale_factor || exit 1
	"$HOG" --hold 40 > hog.log 2>&1 &
	hog=$!
	test_cleanup "kill $hog"
	# the watchdog: MemFree under twice the largest min watermark ends the hog
	floor=$(awk "/^ +min / { if (\$2 > m) m = \$2 } END { print 2 * m * 4 }" /proc/zoneinfo)
	(while kill -0 $hog 2>/dev/null; do
		free=$(awk "/^MemFree:/ { print \$2 }" /proc/meminfo)
		[ "$free" -lt "$floor" ] && { kill $hog; echo "watchdog: MemFree $free kB" >> hog.log; }
		sleep 0.2
	done) &
	test_cleanup "kill $!"
	# the state of the issue: a new instance cannot be made (ENOMEM)
	i=0
	while mkdir $T/instances/probe-$$ 2>/dev/null; do
		rmdir $T/instances/probe-$$
		sleep 0.5
		i=$((i + 1))
		test $i -lt 120 || { cat hog.log; echo "no memory pressure after 60 s"; exit 1; }
	done
	echo "# pressure after $i probes: $(grep MemAvailable /proc/meminfo)"
	# a private instance cannot be made: the error names the ways around it
	test_must_fail vmscope record -q -e vmscan -o own.db -d 1 2> own.err &&
	grep -q "Cannot allocate memory (the kernel cannot allocate a ring buffer now.*--instance NAME.*--top-level" own.err ||
		exit 1
	# the made instance: 16 MiB per CPU cannot be had, what it has is kept
	# (in the background for its pid, which trace-cmd traces)
	$VMSCOPE record -e vmscan --instance $PRE -o pre.db -- sh -c "$READ" 2> pre.err &
	pre_pid=$!
	wait $pre_pid &&
	cat pre.err &&
	grep -q "could not allocate 16384 KiB per CPU for the tracefs instance .$PRE. (memory is short): recording with 20[0-9][0-9] KiB per CPU" pre.err &&
	assert_eq "$(state $PRE)" "$pre_state" "instance left as found" &&
	# trace-cmd reads the top-level buffer: a second reader is refused
	test_must_fail vmscope record -q --top-level -o top-busy.db -d 1 2> busy.err &&
	grep -q "the top-level buffer is being read by process" busy.err &&
	stop_trace_cmd || exit 1
	trace_cmd tc2.dat -B $CMP || exit 1
	top_state=$(state)
	$VMSCOPE record -q -e vmscan --top-level -b 0 -o top.db -- sh -c "$READ" &
	top_pid=$!
	wait $top_pid &&
	assert_eq "$(state)" "$top_state" "top level left as found" &&
	stop_trace_cmd || exit 1
	kill $hog 2>/dev/null
	wait $hog || true	# killed, or done holding (its exit status is not the point)
	tail -2 hog.log
	no_match watchdog hog.log &&
	same_events pre.db tc1.dat $pre_pid &&
	same_events top.db tc2.dat $top_pid &&
	no_instance_left
'

test_done
