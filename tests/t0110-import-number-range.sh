#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0110-import-number-range.sh - numbers in text traces never wrap: a value
# that does not fit 64 bits (or a device number beyond MAJOR:MINOR 12:20
# bits) makes its line an import_error row with its line number, the rest
# of the trace is imported and the run is marked incomplete (docs/import.md,
# "Unparseable lines"). Values at the edges of the range are kept exactly.

. "$(dirname "$0")/test-lib.sh"

# trace NID [SB_DEV]: a 3-line text trace whose line 2 carries nid=NID and
# line 3 sb_dev SB_DEV (8:0 when not given).
trace() {
	cat <<EOF
             cat-6656  [001]   798.128942: mm_vmscan_memcg_reclaim_end: nr_reclaimed=975
             cat-6656  [001]   798.128963: mm_vmscan_lru_shrink_inactive: nid=$1 nr_scanned=3 nr_reclaimed=3 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
kworker/u8:2-231   [001]   799.001000: writeback_start:      bdi 8:0: sb_dev ${2:-8:0} nr_pages=4096 sync_mode=0 kupdate=1 range_cyclic=1 background=1 reason=vmscan cgroup_ino=1
EOF
}

# out_of_range NID SB_DEV LINE: importing is exit 1, LINE is in import_error
# with a reason saying "out of range", stderr names file and line, the other
# two events are stored and the run is incomplete.
out_of_range() {
	trace "$1" "$2" >range.txt &&
	rm -f range.db &&
	test_must_fail vmscope import -q range.txt -o range.db 2>err &&
	grep -q "range\.txt:$3: .*out of range" err &&
	assert_eq "$(sql range.db "SELECT line FROM import_error")" "$3" "import_error line" &&
	sql range.db "SELECT reason FROM import_error" | grep -q "out of range" &&
	assert_eq "$(sql range.db "SELECT status FROM run")" incomplete "run.status" &&
	assert_eq "$(sql range.db "SELECT events FROM run")" 2 "events stored"
}

test_expect_success SQLITE3 'a decimal beyond 64 bits is an import_error row, not a wrapped value' '
	out_of_range 99999999999999999999999 8:0 2 &&
	assert_eq "$(sql range.db "SELECT COUNT(*) FROM mm_vmscan_lru_shrink_inactive")" 0 &&
	out_of_range 18446744073709551616 8:0 2
'

test_expect_success SQLITE3 'a negative number below -2^63 and a hex number beyond 64 bits are import_error rows' '
	out_of_range -9223372036854775809 8:0 2 &&
	out_of_range 0x10000000000000000 8:0 2 &&
	out_of_range -99999999999999999999 8:0 2
'

test_expect_success SQLITE3 'a device number beyond 12:20 bits is an import_error row' '
	out_of_range 0 4096:0 3 &&
	out_of_range 0 8:1048576 3 &&
	out_of_range 0 99999999999999999999:0 3 &&
	out_of_range 0 -1:0 3
'

test_expect_success SQLITE3 'the edges of the range are kept exactly' '
	for v in -9223372036854775808 9223372036854775807 0 -1; do
		trace $v 4095:1048575 >edge.txt &&
		rm -f edge.db &&
		vmscope import -q edge.txt -o edge.db &&
		assert_eq "$(sql edge.db "SELECT nid FROM mm_vmscan_lru_shrink_inactive")" $v "nid" &&
		assert_eq "$(sql edge.db "SELECT sb_dev FROM writeback_work")" \
			$(((4095 << 20) | 1048575)) "sb_dev" &&
		assert_eq "$(sql edge.db "SELECT status FROM run")" complete "run.status" || exit 1
	done &&
	# a u64 printed in full keeps its 64-bit pattern, as a .dat import stores it
	trace 18446744073709551615 >u64.txt &&
	vmscope import -q u64.txt -o u64.db &&
	assert_eq "$(sql u64.db "SELECT nid FROM mm_vmscan_lru_shrink_inactive")" -1 &&
	trace 0xffffffffffffffff >hex.txt &&
	vmscope import -q hex.txt -o hex.db &&
	assert_eq "$(sql hex.db "SELECT nid FROM mm_vmscan_lru_shrink_inactive")" -1
'

test_done
