#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1162-import-stale-partial.sh - an import (or `counters add`) killed with
# SIGKILL leaves its DB.partial-PID behind; the next import to DB removes
# those of pids that are gone, with a warning, and leaves alone the one of a
# live process (another import writing it) and files that only look alike.

. "$(dirname "$0")/test-lib.sh"

F="$SRC_DIR/tests/fixtures/counters"

test_cleanup '[ -n "${VMSCOPE_KEEP_TRASH:-}" ] || rm -rf "$TRASH"/*'

# a pid that was just used and is gone
dead_pid() {
	sh -c 'echo $$' >pid.out
	cat pid.out
}

test_expect_success 'an import killed with SIGKILL leaves its partial file' '
	zcat "$F/trace.txt.gz" >big.txt
	for i in 1 2 3 4 5 6 7 8; do zcat "$F/trace.txt.gz" | sed "1,2d"; done >>big.txt
	$VMSCOPE import -q -o k.db big.txt &
	pid=$!
	i=0
	until ls k.db.partial-$pid >/dev/null 2>&1 || [ $i -ge 200 ]; do sleep 0.01; i=$((i + 1)); done
	kill -KILL $pid 2>/dev/null || true
	wait $pid || true
	if [ -e k.db ]; then
		echo "the import finished before SIGKILL: the partial is made by hand"
		rm -f k.db
		: >k.db.partial-$pid
	fi
	echo $pid >killed.pid
	ls k.db.partial-$pid
'

test_expect_success 'the next import removes it with a warning' '
	pid=$(cat killed.pid)
	vmscope import -q -o k.db "$F/trace.txt.gz" 2>err
	grep -q "warning: removed .k.db.partial-$pid., left by an import that was killed (pid $pid is gone)" err ||
		{ cat err; false; }
	ls >files
	no_match "partial" files
	test -f k.db
'

test_expect_success 'the partial file of a live process and look-alikes are left alone' '
	dead=$(dead_pid)
	: >"o.db.partial-$$"
	: >"o.db.partial-$dead"
	: >"o.db.partial-${dead}x"
	: >"other.db.partial-$dead"
	vmscope import -q -o o.db "$F/trace.txt.gz" 2>err
	test -e "o.db.partial-$$"
	test ! -e "o.db.partial-$dead"
	test -e "o.db.partial-${dead}x"
	test -e "other.db.partial-$dead"
	assert_eq "$(grep -c "warning: removed" err)" 1 "removed"
'

test_expect_success 'counters add cleans the partials of its database too' '
	dead=$(dead_pid)
	mkdir sub
	vmscope import -q -o sub/c.db "$F/trace.txt.gz"
	: >"sub/c.db.partial-$dead"
	vmscope counters add -q sub/c.db "$F/proc-vmstat-synth.gz" 2>err
	grep -q "removed .sub/c.db.partial-$dead." err
	assert_eq "$(ls sub)" "c.db" "files left in sub/"
'

test_done
