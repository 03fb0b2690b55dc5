#!/bin/sh
# t1200-record-live.sh - `vmscope record` on real reclaim: same events as
# trace-cmd recording at the same time, Ctrl-C keeps every event read, the
# tracefs instance is removed, missing events and bad options fail cleanly.
. "$(dirname "$0")/test-lib.sh"

CG=/sys/fs/cgroup/memory/vmscope-t1200-$$
TCI=vmscope-t1200-tc-$$
setup_memcg() {
	mkdir -p "$CG" &&
	echo $((64 * 1024 * 1024)) > "$CG/memory.limit_in_bytes" &&
	test_cleanup "rmdir $CG" &&
	dd if=/dev/urandom of=big bs=1M count=200 status=none &&
	drop_cache
}
# Drop the file's page cache: pages cached by the test shell are charged to
# its own cgroup, and reading them from the memcg would need no reclaim.
drop_cache() {
	sync big && dd if=big iflag=nocache count=0 status=none
}
# event_rows DB: rows in all the event tables of DB together
event_rows() {
	total=0
	for t in $(sql "$1" "SELECT DISTINCT tbl FROM event_table UNION SELECT \"event_generic\""); do
		total=$((total + $(sql "$1" "SELECT COUNT(*) FROM \"$t\"")))
	done
	echo $total
}
# run_in_memcg CMD: run a shell command inside the test memcg
run_in_memcg() {
	sh -c "echo \$\$ > $CG/cgroup.procs; $1"
}
# No vmscope-PID instance of a process that has exited (other tests or
# sessions may be recording right now: their instances belong to live pids).
no_instance_left() {
	for i in $(ls /sys/kernel/tracing/instances/ | grep "^vmscope-[0-9][0-9]*$"); do
		pid=${i#vmscope-}
		if [ ! -d /proc/$pid ]; then
			echo "tracefs instance $i left behind by exited pid $pid"
			return 1
		fi
	done
}

test_expect_success ROOT,TRACEFS,MEMCG 'set up a memcg and a file larger than its limit' '
	setup_memcg
'

test_expect_success ROOT,TRACEFS,MEMCG,TRACE_CMD,SQLITE3 'record matches trace-cmd recording at the same time' '
	test_cleanup "rmdir /sys/kernel/tracing/instances/$TCI"
	trace-cmd record --no-filter -q -d -C mono -b 32768 -B $TCI -e vmscan -e writeback \
		-e filemap:mm_filemap_add_to_page_cache -e filemap:mm_filemap_delete_from_page_cache \
		-e filemap:mm_filemap_get_pages -e filemap:mm_filemap_fault -e filemap:mm_filemap_map_pages \
		-o tc.dat >tc.log 2>&1 &
	tc=$!
	test_cleanup "kill -INT $tc; sleep 1"
	# wait until trace-cmd has its instance tracing
	i=0
	while [ "$(cat /sys/kernel/tracing/instances/$TCI/tracing_on 2>/dev/null)" != 1 ] && [ $i -lt 50 ]; do
		sleep 0.2; i=$((i + 1))
	done
	sleep 1
	drop_cache
	$VMSCOPE record -q -o v.db -m $CG -- sh -c "echo \$\$ > $CG/cgroup.procs; cat big >/dev/null; cat big >/dev/null" &
	vp=$!
	wait $vp
	sleep 1
	kill -INT $tc
	wait $tc || true
	vmscope import -q tc.dat -o tc.db
	# Each instance stamps an event when it writes it to its own buffer, a few
	# microseconds apart: compare the window both cover, less 1 ms at each
	# edge, its edges in gaps between events (quiet_window, test-lib.sh).
	w=$(quiet_window v.db) && start=${w% *} end=${w#* } &&
	test -n "$start" && test -n "$end" &&
	test "$(sql v.db "SELECT COUNT(*) FROM mm_vmscan_memcg_reclaim_begin")" -gt 0
	assert_eq "$(sql v.db "SELECT COUNT(*) FROM lost_events")" 0 "vmscope lost events"
	assert_eq "$(sql v.db "SELECT COUNT(*) FROM task WHERE pid = $vp")" 0 "events of vmscope itself"
	assert_eq "$(sql tc.db "SELECT COUNT(*) FROM lost_events")" 0 "trace-cmd lost events"
	# comms come from saved_cmdlines, read while recording and parsed after it
	test "$(sql v.db "SELECT COUNT(*) FROM task WHERE comm = \"cat\"")" -gt 0
	for t in $(sql v.db "SELECT DISTINCT tbl FROM event_table"); do
		has_event=$(sql v.db "SELECT COUNT(*) FROM pragma_table_info(\"$t\") WHERE name = \"event\"")
		if [ "$has_event" = 1 ]; then ev=event; else ev="\"$t\""; fi
		sql v.db "SELECT $ev, COUNT(*) FROM \"$t\" WHERE ts BETWEEN $start AND $end GROUP BY 1" > v.counts
		# vmscope does not trace itself (set_event_notrace_pid); trace-cmd --no-filter does
		sql tc.db "SELECT $ev, COUNT(*) FROM \"$t\" WHERE ts BETWEEN $start AND $end AND pid != $vp GROUP BY 1" > tc.counts
		test_cmp tc.counts v.counts || { echo "table $t differs"; exit 1; }
	done
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'counters are sampled on the trace clock around the events' '
	test "$(sql v.db "SELECT COUNT(*) FROM counter_sample WHERE source = \"vmstat\"")" -ge 2 &&
	test "$(sql v.db "SELECT COUNT(*) FROM counter WHERE source = \"memcg\" AND name = \"cache\"")" -ge 2 &&
	test "$(sql v.db "SELECT COUNT(*) FROM counter WHERE source = \"zoneinfo\" AND name = \"node_unreclaimable\"")" -ge 2 &&
	test "$(sql v.db "SELECT COUNT(*) FROM counter WHERE source = \"zoneinfo\" AND name IN (\"min\", \"low\", \"high\") AND value > 0")" -gt 0 &&
	# samples are taken while tracing is on: the first no later than one
	# interval (100 ms) after the run starts (the first event), the last no
	# earlier than one interval before it ends (the last event); a sampler
	# that started late or stopped early would fail this
	test "$(sql v.db "SELECT MIN(ts) - (SELECT start_ts FROM run) < 100000000 AND (SELECT end_ts FROM run) - MAX(ts) < 100000000 FROM counter_sample")" = 1 &&
	# memcg pgscan grows over the recording
	test "$(sql v.db "SELECT MAX(value) - MIN(value) FROM counter WHERE source = \"memcg\" AND name = \"total_pgpgout\"")" -gt 0 &&
	test "$(sql v.db "SELECT value FROM sysctl WHERE name = \"vm.swappiness\"")" = "$(cat /proc/sys/vm/swappiness)" &&
	test "$(sql v.db "SELECT value FROM sysctl WHERE name = \"memcg.swappiness\"")" = "$(cat $CG/memory.swappiness)" &&
	test "$(sql v.db "SELECT kernel_release FROM run")" = "$(uname -r)" &&
	no_instance_left
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'SIGINT during a busy recording keeps every event read' '
	drop_cache
	run_in_memcg "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do cat big >/dev/null; done" &
	w=$!
	test_cleanup "kill $w"
	# not the shell function: $! must be vmscope itself, or the signal goes to a subshell
	$VMSCOPE record -o int.db 2>int.err &
	r=$!
	test_cleanup "kill -9 $r"
	sleep 2
	kill -INT $r
	wait $r
	wait $w || { echo "workload exit status $?"; exit 1; }
	n=$(sed -n "s/.*recorded \([0-9]*\) events.*/\1/p" int.err)
	test -n "$n"
	test "$n" -gt 100
	assert_eq "$(sql int.db "SELECT status FROM run")" complete status
	assert_eq "$(sql int.db "SELECT events FROM run")" "$n" "run.events"
	assert_eq "$(event_rows int.db)" "$n" "rows in the event tables"
	grep -q "stopped by Interrupt" int.err
	# pages were spooled while recording and decoded after it; the spool is gone
	grep -q "CPU time: [0-9.]* s while recording, [0-9.]* s decoding after it" int.err
	grep -q "decoding after the stop: [0-9.]* s, [0-9]* events/s" int.err
	test -z "$(ls int.db.spool-* 2>/dev/null)"
	no_instance_left
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'a recorder killed with SIGKILL leaves a spool that --recover decodes' '
	drop_cache
	run_in_memcg "for i in 1 2 3 4 5 6 7 8; do cat big >/dev/null; done" &
	w=$!
	test_cleanup "kill $w"
	$VMSCOPE record -q -o kill.db &
	r=$!
	test_cleanup "rmdir /sys/kernel/tracing/instances/vmscope-$r"
	sleep 2
	kill -9 $r
	wait $r || true
	wait $w || { echo "workload exit status $?"; exit 1; }
	rmdir /sys/kernel/tracing/instances/vmscope-$r
	test -s kill.db.spool-$r
	assert_eq "$(sql kill.db "SELECT status FROM run")" recording status
	test "$(sql kill.db "SELECT COUNT(*) FROM counter_sample")" -gt 0
	vmscope record --recover kill.db 2>rec.err
	n=$(sed -n "s/.*recovered \([0-9]*\) events.*/\1/p" rec.err)
	test "$n" -gt 100
	assert_eq "$(sql kill.db "SELECT status FROM run")" incomplete status
	sql kill.db "SELECT status_detail FROM run" | grep -q "recorder died"
	assert_eq "$(sql kill.db "SELECT events FROM run")" "$n" "run.events"
	assert_eq "$(event_rows kill.db)" "$n" "rows in the event tables"
	test "$(sql kill.db "SELECT COUNT(*) FROM event_format")" -gt 0
	test ! -e kill.db.spool-$r &&
	test_must_fail vmscope record --recover kill.db 2>again.err &&
	grep -q "nothing to recover" again.err &&
	test_must_fail vmscope record --recover int.db 2>done.err &&
	grep -q "nothing to recover" done.err
'

test_expect_success ROOT,TRACEFS 'a missing event fails cleanly, leaving nothing behind' '
	test_must_fail vmscope record -o miss.db -d 1 -e vmscan:no_such_event 2>err &&
	grep -q "no trace event .vmscan:no_such_event." err &&
	test ! -e miss.db && test ! -e miss.db-wal && test -z "$(ls miss.db* 2>/dev/null)" &&
	no_instance_left
'

test_expect_success ROOT,TRACEFS 'records for --duration and exits with the command status' '
	vmscope record -q -o dur.db -d 0.5 &&
	assert_eq "$(sql dur.db "SELECT status FROM run")" complete &&
	rc=0 && vmscope record -q -o cmd.db -- sh -c "exit 7" || rc=$? &&
	assert_eq "$rc" 7 "exit status of the command" &&
	no_instance_left
'

test_expect_success ROOT,TRACEFS 'a recording that ends first stops the command; the command holds no trace buffer' '
	start=$(date +%s)
	rc=0
	vmscope record -q -o early.db -d 0.5 -- sh -c "ls -l /proc/\$\$/fd > fds.txt; sleep 30" || rc=$?
	assert_eq "$rc" 143 "exit status of a command ended by SIGTERM"
	test $(( $(date +%s) - start )) -lt 10
	no_match trace_pipe_raw fds.txt
	assert_eq "$(sql early.db "SELECT status FROM run")" complete
	no_instance_left
'

test_expect_success 'usage errors exit 2' '
	for args in "" "-o x.db -d abc" "-o x.db -b 12x" "-o x.db --interval 0" "-o x.db --bogus" \
		    "--recover x.db -o y.db"; do
		rc=0
		vmscope record $args 2>/dev/null || rc=$?
		assert_eq "$rc" 2 "exit status of vmscope record $args" || exit 1
	done
	test ! -e x.db
	vmscope record --help | grep -q "^usage: vmscope record"
'

test_done
