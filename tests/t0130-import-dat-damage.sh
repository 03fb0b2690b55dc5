#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0130-import-dat-damage.sh - a damaged .dat is never imported as complete
# (issue 16): libtracecmd skips a compressed chunk that does not decompress,
# a buffer it cannot read or a sub-buffer whose header is zeroed, so the
# reader checks the CPU data against the layout the file states
# (record/dat-check.c). Each damage is an import_error row naming the CPU,
# the file offset and an estimate of the records lost (also in lost_events,
# source 'damage'), the records read are kept, the run is incomplete.
# Offsets are those of tests/fixtures/dat/small.dat (version 7, zstd):
# CPU 0's data at 32768 (one chunk), CPU 1's at 36864, its one chunk's
# header at 36868 (1484 bytes compressed, 20480 uncompressed), 226 of the
# 428 records on CPU 1.

. "$(dirname "$0")/test-lib.sh"

DAT="$SRC_DIR/tests/fixtures/dat/small.dat"

# damage OUT OFFSET COUNT BYTE: a copy of small.dat with COUNT bytes from
# OFFSET set to BYTE (octal).
damage() {
	cp "$DAT" "$1" &&
	python3 -c 'import sys
f, off, n, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4], 8)
d = bytearray(open(f, "rb").read()); d[off:off + n] = bytes([b]) * n
open(f, "wb").write(d)' "$1" "$2" "$3" "$4"
}

# flip OUT OFFSET BIT: a copy of small.dat with one bit flipped.
flip() {
	cp "$DAT" "$1" &&
	python3 -c 'import sys
f, off, bit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = bytearray(open(f, "rb").read()); d[off] ^= 1 << bit
open(f, "wb").write(d)' "$1" "$2" "$3"
}

# incomplete IN DB: importing IN is exit 1 and DB holds an incomplete run
# whose status_detail says the CPU data is damaged.
incomplete() {
	rm -f "$2" &&
	test_must_fail vmscope import -q "$1" -o "$2" 2>err &&
	grep -q "CPU data is damaged" err &&
	assert_eq "$(sql "$2" "SELECT status FROM run")" incomplete "run.status" &&
	sql "$2" "SELECT status_detail FROM run" | grep -q "CPU data is damaged"
}

test_expect_success SQLITE3 'the undamaged file: complete, no import_error row' '
	vmscope import -q "$DAT" -o good.db &&
	assert_eq "$(sql good.db "SELECT status, events FROM run")" "complete|428" &&
	assert_eq "$(sql good.db "SELECT COUNT(*) FROM import_error")" 0
'

test_expect_success SQLITE3 'a chunk that does not decompress: CPU, offset and loss named' '
	damage zchunk.dat 36876 1484 0 &&
	incomplete zchunk.dat zchunk.db &&
	sql zchunk.db "SELECT reason FROM import_error" >reasons &&
	grep -q "CPU 1, file offset 36868; about [0-9]* records lost): chunk 0 of 1 does not decompress" reasons &&
	# libtracecmd then gives up on the whole buffer: CPU 0 is short too
	grep -q "CPU 0, file offset 32768; about 202 records lost): libtracecmd read 0 of the 202" reasons &&
	assert_eq "$(sql zchunk.db "SELECT COUNT(*) FROM import_error WHERE byte_offset = 36868")" 1 &&
	assert_eq "$(sql zchunk.db "SELECT COUNT(*) FROM lost_events WHERE source = '"'damage'"' AND cpu = 1")" 1
'

test_expect_success SQLITE3 'a bit flip that hid the whole buffer from libtracecmd: every CPU short' '
	# was: exit 0, status complete, 0 of 428 events
	flip hidden.dat 38146 0 &&
	incomplete hidden.dat hidden.db &&
	sql hidden.db "SELECT reason FROM import_error" >reasons &&
	grep -q "CPU 0, file offset 32768; about 202 records lost): libtracecmd read 0 of the 202" reasons &&
	assert_eq "$(sql hidden.db "SELECT SUM(count) FROM lost_events WHERE source = '"'damage'"' AND cpu = 0")" 202
'

test_expect_success SQLITE3 'a chunk header that states more bytes than the CPU data holds' '
	damage big.dat 36868 2 377 &&
	incomplete big.dat big.db &&
	sql big.db "SELECT reason FROM import_error" | grep -q "CPU 1, file offset 36868; .*chunk 0 of 1 states 6.* bytes compressed"
'

test_expect_success SQLITE3,TRACE_CMD 'an uncompressed file whose sub-buffer header is zeroed' '
	trace-cmd convert -i "$DAT" -o none.dat --compression none >/dev/null 2>&1 &&
	vmscope import -q none.dat -o none.db &&
	assert_eq "$(sql none.db "SELECT status, events FROM run")" "complete|428" &&
	# CPU 1 starts at 196608 there: zero its first sub-buffer header (was: complete, 374 events)
	python3 -c "import sys
d = bytearray(open(\"none.dat\", \"rb\").read()); d[196608:196624] = bytes(16)
open(\"none0.dat\", \"wb\").write(d)" &&
	incomplete none0.dat none0.db &&
	sql none0.db "SELECT reason FROM import_error" | grep -q "CPU 1, file offset 196608; .*timestamp is 0"
'

test_expect_success SQLITE3 'timestamps beyond 2^63 ns: bad records, the good events kept in a database' '
	# was: derive failed ("lies outside the run span"), no database at all
	flip ts63.dat 33899 3 &&
	incomplete ts63.dat ts63.db &&
	sql ts63.db "SELECT reason FROM import_error" | grep -q "timestamp beyond 2^63 ns" &&
	test "$(sql ts63.db "SELECT events FROM run")" -gt 200 &&
	assert_eq "$(sql ts63.db "SELECT MAX(ts) > 0 FROM mm_vmscan_lru_isolate")" 1
'

test_expect_success SQLITE3 'a mutation run of 200 variants: none is complete with records missing' '
	python3 "$SRC_DIR/tests/damage/dat-mutate.py" --vmscope "$SRC_DIR/vmscope" --count 200 \
		--seed 130 "$DAT" >run.txt &&
	cat run.txt &&
	grep -q "complete-missing 0, .* crash 0, hang 0" run.txt
'

test_done
