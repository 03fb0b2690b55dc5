#!/bin/sh
# t1240-record-cgroup.sh - `vmscope record --memory-limit SIZE -- COMMAND`
# runs COMMAND in a memcg of its own with that limit (and --swappiness),
# samples its memory.stat, and removes it afterwards on every exit path:
# success, a command that fails, a recorder that fails to start, SIGINT,
# SIGTERM, a command whose children outlive it. `--cgroup PATH` runs COMMAND
# in an existing memcg and leaves it as it was. Bad combinations are usage
# errors that create nothing.

. "$(dirname "$0")/test-lib.sh"

ROOTCG=/sys/fs/cgroup/memory

# memcgs_of PID: the vmscope-record-PID memcg of that recorder, if it is there.
memcg_of() {
	test -d "$ROOTCG/vmscope-record-$1" && echo "$ROOTCG/vmscope-record-$1"
	return 0
}

# wait_for_memcg_task: the pid of the first task in a vmscope-record-* memcg
# of recorder $1 (up to 10 s).
wait_for_memcg_task() {
	i=0
	while [ $i -lt 100 ]; do
		t=$(cat "$ROOTCG/vmscope-record-$1/cgroup.procs" 2>/dev/null | head -n 1)
		[ -n "$t" ] && { echo "$t"; return 0; }
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# gone PID: the process has ended (gone, or a zombie its new parent has not reaped yet).
gone() {
	st=$(ps -o stat= -p "$1" 2>/dev/null)
	[ -z "$st" ] || [ "${st#Z}" != "$st" ]
}

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'the command runs in a new memcg with the limit and swappiness; it is removed after' '
	vmscope record -q -o lim.db --memory-limit 48M --swappiness 7 -e vmscan -- \
		sh -c "grep memory: /proc/self/cgroup > where; cat \$(grep memory: /proc/self/cgroup | cut -d: -f3 | sed s,^,$ROOTCG,)/memory.limit_in_bytes > limit; echo \$PPID > parent" &&
	grep -q "vmscope-record-" where &&
	assert_eq "$(cat limit)" $((48 * 1024 * 1024)) &&
	cg=$(sed "s/.*://" where) &&
	test ! -d "$ROOTCG$cg" &&
	assert_eq "$(sql lim.db "SELECT value FROM sysctl WHERE name = \"memcg.swappiness\"")" 7 &&
	test "$(sql lim.db "SELECT COUNT(*) FROM counter_sample WHERE source = \"memcg\" AND scope = \"$ROOTCG$cg\"")" -ge 2 &&
	# v1 kernel memory (slab among it), absent from memory.stat: in every memcg sample
	assert_eq "$(sql lim.db "SELECT COUNT(*) FROM counter_sample s WHERE source = \"memcg\" AND NOT EXISTS (SELECT 1 FROM counter_value v WHERE v.sample = s.id AND v.name = \"kmem_usage_in_bytes\")")" 0 &&
	test "$(sql lim.db "SELECT MAX(value) FROM counter WHERE source = \"memcg\" AND name = \"kmem_usage_in_bytes\"")" -gt 0
'

test_expect_success ROOT,TRACEFS,MEMCG 'a command that fails: its exit status, and no memcg left' '
	rc=0 &&
	vmscope record -q -o fail.db --memory-limit 32M -e vmscan -- sh -c "exit 3" || rc=$? &&
	assert_eq "$rc" 3 &&
	rc=0 &&
	vmscope record -q -o fail2.db --memory-limit 32M -e vmscan -- /no/such/command 2> err || rc=$? &&
	assert_eq "$rc" 127 &&
	assert_eq "$(ls $ROOTCG | grep -c "^vmscope-record-")" 0
'

test_expect_success ROOT,TRACEFS,MEMCG 'a recorder that cannot start creates no memcg' '
	test_must_fail vmscope record -q -o nostart.db --memory-limit 32M -e nosuch:event -- true 2> err &&
	grep -q "nosuch" err &&
	assert_eq "$(ls $ROOTCG | grep -c "^vmscope-record-")" 0 &&
	test ! -e nostart.db
'

for sig in INT TERM; do
	test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 "SIG$sig: the recording is kept, the command ended, the memcg removed" '
		$VMSCOPE record -q -o sig-$sig.db --memory-limit 32M -e vmscan -- sleep 60 &
		rec=$! &&
		test_cleanup "kill -KILL $rec; rmdir $ROOTCG/vmscope-record-$rec" &&
		task=$(wait_for_memcg_task $rec) &&
		kill -$sig $rec &&
		rc=0 && wait $rec || rc=$? &&
		test ! -d "$ROOTCG/vmscope-record-$rec" &&
		gone "$task" &&
		assert_eq "$(sql sig-$sig.db "SELECT status FROM run")" complete
	'
done

test_expect_success ROOT,TRACEFS,MEMCG 'children that outlive the command are ended and the memcg removed' '
	vmscope record -q -o orphan.db --memory-limit 32M -e vmscan -- \
		sh -c "sleep 120 > /dev/null 2>&1 & echo \$! > orphan; exit 0" &&
	orphan=$(cat orphan) &&
	test_cleanup "kill -KILL $orphan" &&
	gone "$orphan" &&
	assert_eq "$(ls $ROOTCG | grep -c "^vmscope-record-")" 0
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 '--cgroup PATH: the command runs in an existing memcg, which is left as found' '
	mkdir "$ROOTCG/vmscope-t1240-$$" &&
	test_cleanup "rmdir $ROOTCG/vmscope-t1240-$$" &&
	echo $((40 * 1024 * 1024)) > "$ROOTCG/vmscope-t1240-$$/memory.limit_in_bytes" &&
	vmscope record -q -o given.db --cgroup vmscope-t1240-$$ -e vmscan -- \
		sh -c "grep memory: /proc/self/cgroup > where" &&
	assert_eq "$(sed "s/.*://" where)" "/vmscope-t1240-$$" &&
	test -d "$ROOTCG/vmscope-t1240-$$" &&
	assert_eq "$(cat "$ROOTCG/vmscope-t1240-$$/memory.limit_in_bytes")" $((40 * 1024 * 1024)) &&
	test "$(sql given.db "SELECT COUNT(*) FROM counter_sample WHERE scope = \"$ROOTCG/vmscope-t1240-$$\"")" -ge 2
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'exec mappings: of the tasks of a cgroup below the memcg too, one row per file range' '
	cg="$ROOTCG/vmscope-t1240x-$$" &&
	mkdir "$cg" && test_cleanup "rmdir $cg" &&
	mkdir "$cg/child" && test_cleanup "rmdir $cg/child; sleep 0.5; rmdir $cg/child" &&
	{ sh -c "echo \$\$ > $cg/child/cgroup.procs && exec sleep 30" & } &&
	pid=$! &&
	{ sh -c "echo \$\$ > $cg/child/cgroup.procs && exec sleep 30" & } &&
	pid2=$! &&
	test_cleanup "kill $pid $pid2" &&
	sleep 0.3 &&
	vmscope record -q -o ex.db -m "$cg" -e vmscan -d 0.5 &&
	sleep_bin=$(realpath "$(command -v sleep)") &&
	# two tasks map the same sleep binary: one row, the first task seen with it
	assert_eq "$(sql ex.db "SELECT COUNT(*) FROM exec_mapping WHERE path = \"$sleep_bin\"")" 1 &&
	assert_eq "$(sql ex.db "SELECT i_ino FROM exec_mapping WHERE path = \"$sleep_bin\"")" "$(stat -c %i "$sleep_bin")" &&
	sql ex.db "SELECT pid FROM exec_mapping WHERE path = \"$sleep_bin\"" | grep -qx "$pid\|$pid2" &&
	vmscope record -q -o nomaps.db -m "$cg" --no-memcg-sampling -e vmscan -d 0.3 &&
	assert_eq "$(sql nomaps.db "SELECT COUNT(*) FROM exec_mapping")" 0 &&
	kill $pid $pid2
'

test_expect_success 'bad combinations are usage errors that create nothing' '
	test_must_fail vmscope record -o u.db --memory-limit 32M 2> err &&
	grep -q "give it after --" err &&
	test_must_fail vmscope record -o u.db --swappiness 10 -- true 2> err &&
	grep -q "give a limit too" err &&
	test_must_fail vmscope record -o u.db --cgroup x --memory-limit 32M -- true 2> err &&
	grep -q "do not change --cgroup" err &&
	test_must_fail vmscope record -o u.db --memory-limit 32M -m /x -- true 2> err &&
	grep -q "no -m with them" err &&
	test_must_fail vmscope record -o u.db --memory-limit 10 -- true 2> err &&
	grep -q "at least 1M" err &&
	test_must_fail vmscope record -o u.db --memory-limit 32M --swappiness 201 -- true 2> err &&
	test ! -e u.db
'

test_expect_success ROOT,MEMCG '--cgroup naming no memcg fails before recording' '
	test_must_fail vmscope record -q -o nocg.db --cgroup no-such-memcg-$$ -e vmscan -- true 2> err &&
	grep -q "not a cgroup directory" err &&
	test ! -e nocg.db
'

test_done
