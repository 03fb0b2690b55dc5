#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0120-hostile-input.sh - input made on purpose to hurt (issue 16): NUL
# bytes inside text lines, --force pointed at things that are not vmscope
# databases or at the input itself, trace text holding terminal escapes,
# and names of tables that do not exist. Each gives a clear error or an
# escaped output, never a crash, a replaced file or a raw escape.

. "$(dirname "$0")/test-lib.sh"

# line N KEYS: one mm_vmscan_lru_shrink_inactive line at 798.N with the
# fields KEYS (printf %b escapes allowed, so \0 is a NUL byte).
line() {
	printf '             cat-6656  [001]   798.%06d: mm_vmscan_lru_shrink_inactive: %b nr_reclaimed=3 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE\n' "$1" "$2"
}

# nul_trace FILE KEYS: 40 good lines (past the first 4 KiB), line 41 with
# KEYS, a good line 42.
nul_trace() {
	{
		i=0
		while [ $i -lt 40 ]; do line $i 'nid=0 nr_scanned=3'; i=$((i + 1)); done
		line 100 "$2"
		line 200 'nid=0 nr_scanned=3'
	} >"$1"
}

# nul_rejected FILE: importing FILE is exit 1, line 41 is the only
# import_error row, with a reason naming the NUL, and 41 events are stored.
nul_rejected() {
	rm -f nul.db &&
	test_must_fail vmscope import -q "$1" -o nul.db 2>err &&
	grep -q ":41: a NUL byte inside the line" err &&
	assert_eq "$(sql nul.db "SELECT line || ' ' || reason FROM import_error")" \
		"41 a NUL byte inside the line" "import_error" &&
	assert_eq "$(sql nul.db "SELECT status || ' ' || events FROM run")" "incomplete 41" "run"
}

test_expect_success SQLITE3 'a NUL inside a field name after the first 4 KiB is an import_error row' '
	nul_trace nul1.txt "nid=0 nr_scan\\0ned=256" &&
	nul_rejected nul1.txt
'

test_expect_success SQLITE3 'a NUL after a known field name, then a long key, is an import_error row (no over-read)' '
	nul_trace nul2.txt "nid\\0$(printf "%0200000d" 0)=0 nr_scanned=3" &&
	nul_rejected nul2.txt
'

test_expect_success SQLITE3 'a NUL inside a value is an import_error row' '
	nul_trace nul3.txt "nid=0 nr_scanned=3\\0 " &&
	nul_rejected nul3.txt
'

# A small good trace and a database imported from it, for the --force cases.
test_expect_success 'setup: a trace and a database' '
	nul_trace good.txt "nid=0 nr_scanned=3" &&
	sed -i "41s/.*/$(sed -n 1p good.txt)/" good.txt &&
	vmscope import -q good.txt -o good.db
'

# fingerprint F: type, inode and size of F itself (not what a symlink points
# to), and the checksum of the content of a regular file.
fingerprint() {
	stat -c '%F %i %s' "$1" &&
	if [ -f "$1" ] && [ ! -L "$1" ]; then cksum <"$1"; fi
}

# refused_replace OUT WHY: import -f into OUT is exit 1 naming WHY, and OUT
# and good.txt are untouched.
refused_replace() {
	_out_before=$(fingerprint "$1") &&
	_in_before=$(fingerprint good.txt) &&
	test_must_fail vmscope import -q good.txt -o "$1" -f 2>err &&
	grep -q "$2" err &&
	assert_eq "$(fingerprint "$1")" "$_out_before" "$1" &&
	assert_eq "$(fingerprint good.txt)" "$_in_before" "the input"
}

test_expect_success '--force does not replace a regular file that is not a vmscope database' '
	echo "my notes" >notes.txt &&
	refused_replace notes.txt "not a vmscope database" &&
	assert_eq "$(cat notes.txt)" "my notes"
'

test_expect_success '--force does not replace the input, by its own name or another' '
	refused_replace good.txt "is the input" &&
	ln -s good.txt link.db &&
	refused_replace link.db "is the input" &&
	[ -L link.db ] &&
	ln good.txt hard.db &&
	refused_replace hard.db "is the input"
'

test_expect_success '--force does not replace what is not a regular file' '
	mkdir dir.db &&
	refused_replace dir.db "not a regular file" &&
	[ -d dir.db ] &&
	mkfifo fifo.db &&
	refused_replace fifo.db "not a regular file" &&
	[ -p fifo.db ]
'

test_expect_success SQLITE3 '--force replaces a vmscope database, and a missing -o needs no --force' '
	vmscope import -q good.txt -o good.db -f &&
	assert_eq "$(sql good.db "SELECT events FROM run")" 42 &&
	test_must_fail vmscope import -q good.txt -o good.db 2>err &&
	grep -q "already exists (use --force" err
'

test_expect_success '--force does not replace a SQLite database of another program' '
	sqlite3 other.db "CREATE TABLE t (x); INSERT INTO t VALUES (1)" &&
	refused_replace other.db "not a vmscope database"
'

test_expect_success ROOT,TRACEFS 'record --force does not replace a file that is not a vmscope database' '
	echo "my notes" >rec-notes.txt &&
	_before=$(fingerprint rec-notes.txt) &&
	test_must_fail vmscope record -q -o rec-notes.txt -f -- true 2>err &&
	grep -q "not a vmscope database" err &&
	assert_eq "$(fingerprint rec-notes.txt)" "$_before"
'

# esc_trace: three direct reclaims by a task whose comm is "ev" ESC "[2Jil",
# and one by "c1" CSI(U+009B in UTF-8) "2Jx".
esc_trace() {
	_esc=$(printf '\033') _csi=$(printf '\302\233')
	echo "# tracer: nop"
	for i in 1 2 3; do
		printf '   ev%s[2Jil-6656  [001]   798.%06d: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n' "$_esc" $((i * 10))
		printf '   ev%s[2Jil-6656  [001]   798.%06d: mm_vmscan_direct_reclaim_end: nr_reclaimed=5\n' "$_esc" $((i * 10 + 5))
	done
	printf '   c1%s2Jx-6657  [001]   799.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n' "$_csi"
	printf '   c1%s2Jx-6657  [001]   799.000005: mm_vmscan_direct_reclaim_end: nr_reclaimed=5\n' "$_csi"
}

# no_escapes FILE: FILE holds no ESC and no UTF-8 C1 byte pair, and shows
# both comms with their control characters as "?".
no_escapes() {
	if LC_ALL=C grep -q "$(printf '\033')" "$1"; then echo "ESC in $1"; return 1; fi
	if LC_ALL=C grep -q "$(printf '\302\233')" "$1"; then echo "CSI in $1"; return 1; fi
	grep -q "ev?\[2Jil" "$1" &&
	grep -q "c1??2Jx" "$1"
}

test_expect_success 'info, text and CSV reports show control characters of trace text as ?' '
	esc_trace >esc.txt &&
	vmscope import -q esc.txt -o esc.db &&
	vmscope info esc.db >info.out &&
	no_escapes info.out &&
	vmscope report esc.db >report.out &&
	no_escapes report.out &&
	vmscope report --format csv esc.db >report.csv &&
	no_escapes report.csv
'

test_expect_success 'JSON keeps the control characters, escaped' '
	vmscope report --format json esc.db >report.json &&
	grep -q "ev\\\\u001b\\[2Jil" report.json &&
	if LC_ALL=C grep -q "$(printf "\\033")" report.json; then echo "raw ESC in JSON"; false; fi
'

# exit_is N CMD...: CMD exits with status N.
exit_is() {
	_want=$1
	shift
	_rc=0
	"$@" || _rc=$?
	assert_eq "$_rc" "$_want" "exit status of $*"
}

test_expect_success 'report --table naming no table is a usage error listing the tables' '
	exit_is 2 vmscope report esc.db --table nosuch >out 2>err &&
	test ! -s out &&
	grep -q "no table .nosuch. in this report (tables: .*per-task" err &&
	exit_is 2 vmscope report esc.db episodes --table nosuch --format json >out 2>err &&
	test ! -s out &&
	vmscope report esc.db --table per-task >out &&
	grep -q "ev?\[2Jil" out
'

test_expect_success SQLITE3 'info on a database without lost_events fails naming the table' '
	cp esc.db nolost.db &&
	sql nolost.db "DROP TABLE lost_events" &&
	test_must_fail vmscope info nolost.db >out 2>err &&
	grep -q "no such table: lost_events" err
'

test_done
