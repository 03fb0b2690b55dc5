#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0132-import-number-cases.sh - the numbers of a text trace's line anatomy
# never wrap (issue 16; t0110 covers the payload's values): a CPU beyond
# int, in the CPU column or a LOST line, a pid beyond int, a timestamp
# beyond 64 bits of ns, a lost count that is hex or beyond 64 bits, an
# entries-written count beyond 64 bits. Each is an import_error row with
# its line number, the other lines are imported and the run is incomplete.
# A LOST line cut by the end of the file is counted and flagged. A line
# that lacks a field of table required_field is rejected the same way.

. "$(dirname "$0")/test-lib.sh"

# at TS: an event line at 798.TS.
at() {
	echo "             cat-6656  [001] .....   798.$1: mm_vmscan_memcg_reclaim_end: nr_reclaimed=975"
}

# rejected LINE REASON: a 3-line trace with LINE as line 2: exit 1, line 2
# is the only import_error row, its reason is REASON, 2 events are stored,
# nothing is in lost_events and the run is incomplete.
rejected() {
	{ at 128942 && echo "$1" && at 128952; } >n.txt &&
	rm -f n.db &&
	test_must_fail vmscope import -q n.txt -o n.db 2>err &&
	grep -q "n\.txt:2: $2" err &&
	assert_eq "$(sql n.db "SELECT line, reason FROM import_error")" "2|$2" "import_error" &&
	assert_eq "$(sql n.db "SELECT status, events FROM run")" "incomplete|2" "run" &&
	assert_eq "$(sql n.db "SELECT COUNT(*) FROM lost_events")" 0 "lost_events"
}

test_expect_success SQLITE3 'LOST lines: a hex count, a count beyond 64 bits, a CPU beyond int' '
	rejected "CPU:1 [LOST 0x10 EVENTS]" "lost event count is not a decimal number" &&
	rejected "CPU:1 [LOST 18446744073709551615 EVENTS]" "lost event count out of range" &&
	rejected "CPU:4294967297 [LOST 5 EVENTS]" "CPU number out of range"
'

test_expect_success SQLITE3 'the CPU column, the pid and the timestamp beyond their range' '
	rejected "             cat-6656  [4294967297] .....   798.128945: mm_vmscan_memcg_reclaim_end: nr_reclaimed=975" \
		"CPU number out of range" &&
	rejected "             cat-12345678901234567890  [001] .....   798.128945: mm_vmscan_memcg_reclaim_end: nr_reclaimed=975" \
		"pid out of range" &&
	rejected "             cat-6656  [001] .....   18446744074.000000: mm_vmscan_memcg_reclaim_end: nr_reclaimed=975" \
		"timestamp out of range" &&
	# the database stores signed 64-bit ns: 9223372036.854775807 s at most
	rejected "             cat-6656  [001] .....   9223372036.854775808: mm_vmscan_memcg_reclaim_end: nr_reclaimed=975" \
		"timestamp out of range"
'

test_expect_success SQLITE3 'entries-written beyond 64 bits' '
	rejected "# entries-in-buffer/entries-written: 16/18446744073709551615   #P:4" \
		"entries-in-buffer/entries-written count out of range"
'

test_expect_success SQLITE3 'the edges are kept: CPU 2147483647, pid 2147483647, LOST 9223372036854775807' '
	{ echo "          cat-2147483647  [2147483647] .....   798.128942: mm_vmscan_memcg_reclaim_end: nr_reclaimed=975" &&
	  echo "CPU:2147483647 [LOST 9223372036854775807 EVENTS]"; } >edge.txt &&
	vmscope import -q edge.txt -o edge.db &&
	assert_eq "$(sql edge.db "SELECT cpu, pid FROM mm_vmscan_memcg_reclaim_end")" "2147483647|2147483647" &&
	assert_eq "$(sql edge.db "SELECT cpu, count FROM lost_events")" "2147483647|9223372036854775807"
'

test_expect_success SQLITE3 'a core field missing from a line, or from every line of its event' '
	rejected "             cat-6656  [001] .....   798.128945: mm_vmscan_memcg_reclaim_end: nr_freed=975" \
		"field '"'"'nr_reclaimed'"'"' of mm_vmscan_memcg_reclaim_end is missing (every kernel from 4.14 on prints it)" &&
	# every shrink_inactive line lacks priority: none is stored as complete with a NULL
	for i in 1 2 3; do
		echo "          kswapd0-90   [000] .....   798.12894$i: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 flags=RECLAIM_WB_FILE"
	done >nopri.txt &&
	at 128952 >>nopri.txt &&
	test_must_fail vmscope import -q nopri.txt -o nopri.db 2>err &&
	grep -q "nopri\.txt:1: field .priority. of mm_vmscan_lru_shrink_inactive is missing" err &&
	assert_eq "$(sql nopri.db "SELECT GROUP_CONCAT(line) FROM import_error")" "1,2,3" "import_error" &&
	assert_eq "$(sql nopri.db "SELECT status, events FROM run")" "incomplete|1" "run" &&
	# the same lines and nothing else: not a trace, and no database
	head -3 nopri.txt >only.txt &&
	test_must_fail vmscope import -q only.txt -o only.db 2>err &&
	grep -q "none of its 3 lines parsed" err && ! test -e only.db &&
	# a field that came or went between kernels is not required: nr_activate_anon (5.2+)
	echo "          kswapd0-90   [000] .....   798.128941: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 priority=12 flags=RECLAIM_WB_FILE" >opt.txt &&
	vmscope import -q opt.txt -o opt.db &&
	assert_eq "$(sql opt.db "SELECT status FROM run")" complete
'

test_expect_success SQLITE3 'a last LOST line without a newline is counted and flagged as cut' '
	{ at 128942 && printf "CPU:1 [LOST 5 EVENTS]"; } >cut.txt &&
	test_must_fail vmscope import -q cut.txt -o cut.db 2>err &&
	grep -q "ends without a newline: line 2 may be cut short" err &&
	assert_eq "$(sql cut.db "SELECT cpu, count FROM lost_events")" "1|5" &&
	assert_eq "$(sql cut.db "SELECT line FROM import_error")" 2 &&
	assert_eq "$(sql cut.db "SELECT status FROM run")" incomplete
'

test_done
