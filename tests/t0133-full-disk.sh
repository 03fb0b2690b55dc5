#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0133-full-disk.sh - a full file system gives a clear message naming the
# file, and leaves nothing behind (issue 16): an import into a 64 KB tmpfs
# once said "error:  (in schema file 900-indexes.sql)", a plot left a
# 0-byte figure. The tmpfs is unmounted however the script ends.

. "$(dirname "$0")/test-lib.sh"

DAT="$SRC_DIR/tests/fixtures/dat/small.dat"

# full_fs DIR: mount a 64 KB tmpfs on DIR (unmounted at exit).
full_fs() {
	mkdir -p "$1" &&
	mount -t tmpfs -o size=64k vmscope-full "$1" &&
	test_cleanup "umount '$PWD/$1'"
}

test_expect_success ROOT 'an import into a full file system: the file and the cause named, nothing left' '
	full_fs full &&
	test_must_fail vmscope import -q "$DAT" -o full/x.db 2>err &&
	cat err &&
	grep -q "cannot write .*full/x\.db\.partial-[0-9]*.: no space left on its file system" err &&
	no_match "in schema file" err &&
	assert_eq "$(ls full | wc -l)" 0 "files left"
'

test_expect_success ROOT,GNUPLOT 'a plot onto a full file system leaves no empty figure' '
	vmscope import -q "$DAT" -o s.db &&
	full_fs full2 &&
	dd if=/dev/zero of=full2/fill bs=1k count=60 2>/dev/null &&
	test_must_fail vmscope plot s.db scan -o full2/scan.png 2>err &&
	grep -q "cannot write .*full2/scan\.png.: No space left on device" err &&
	test ! -e full2/scan.png
'

test_done
