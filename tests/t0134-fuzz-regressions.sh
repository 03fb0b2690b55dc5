#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0134-fuzz-regressions.sh - the inputs with which the fuzz targets of
# tests/fuzz once failed (tests/fuzz/crashes/, named TARGET-WHAT): each is
# imported again and must end in a plain exit 0 or 1, in time, with the
# reader process ending normally (dat-libtracecmd-*: libtracecmd itself
# over-reads or over-allocates in the reader, which may then end). Under `make check-sanitize` this also
# catches the undefined behaviour some of them once caused.

. "$(dirname "$0")/test-lib.sh"

CRASHES="$SRC_DIR/tests/fuzz/crashes"

test_expect_success 'every fuzz regression input imports or is refused, in time, without a fault' '
	# libtracecmd, in the reader, may ask for terabytes when a count is damaged
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:allocator_may_return_null=1" &&
	export ASAN_OPTIONS &&
	for f in "$CRASHES"/*; do
		rm -f r.db &&
		rc=0 &&
		timeout 60 "$VMSCOPE" import -q "$f" -o r.db 2>err || rc=$?
		case $rc in 0|1) ;; *) echo "$f: exit $rc"; cat err; exit 1 ;; esac
		# faults of libtracecmd itself: its reader process may end (under ASan it does)
		case $f in *dat-libtracecmd-*) continue ;; esac
		no_match "reader process\|stopped by\|runtime error\|Sanitizer" err || exit 1
	done
'

test_expect_success SQLITE3 'a .dat whose CPU count is 11862018: incomplete in well under a minute, not hours' '
	# libtracecmd scans every CPU for each record: such a buffer is not read
	rc=0
	timeout 20 "$VMSCOPE" import -q "$CRASHES/dat-cpu-count-11862018.dat" -o cpus.db 2>err || rc=$?
	assert_eq "$rc" 1 "exit status"
	assert_eq "$(sql cpus.db "SELECT status, cpus FROM run")" "incomplete|" &&
	sql cpus.db "SELECT reason FROM import_error" | grep -q "the file states 11862018 CPUs"
'

test_expect_success SQLITE3 'a text trace whose events fill no bucket list: derived, complete' '
	vmscope import -q "$CRASHES/text-trace-derive-no-buckets.txt" -o nb.db 2>err &&
	assert_eq "$(sql nb.db "SELECT status FROM run")" complete
'

test_done
