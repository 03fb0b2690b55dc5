#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t2360-whatif-pinned.sh - `vmscope whatif` on the bundled trim-retry
# recording (node reclaim, swap on, 4 GiB of page cache held by pipes,
# 16 GiB of cold anon unmapped and allocated again in cycles): the file
# pages reclaim scanned and could not free are taken as pinned, the anon
# the workload freed frees swap, so the baseline reproduces the recorded
# file and anon reclaim within 10% without running out of memory; and the
# seed pair of the 2024 report: 6.8's cache_trim_mode without the retry
# fails kswapd again and again and swaps nothing out, where 6.18 retries
# and swaps the cold anon. --assume pinned=none takes the pins off; a
# recording whose keeps are few pins nothing.
# No root.
. "$(dirname "$0")/test-lib.sh"

TRACES="$SRC_DIR/samples/traces"

# value DB SCENARIO METRIC COLUMN: an outcome cell, as an integer
value() {
	sql "$1" "SELECT CAST(ROUND($4) AS INTEGER) FROM outcome WHERE scenario = '$2' AND metric = '$3'"
}
# assumption DB SCENARIO ITEM
assumption() {
	sql "$1" "SELECT value FROM whatif_assumption WHERE scenario = '$2' AND item = '$3'"
}
# within LO HI GOT WHAT: fail unless LO <= GOT <= HI (integers)
within() {
	[ -n "$3" ] && [ "$3" -ge "$1" ] && [ "$3" -le "$2" ] ||
		{ echo "$4: got '$3', want $1 to $2"; return 1; }
}

test_expect_success SQLITE3 'trim-retry: pinned pages and anon frees, baseline within 10%' '
	xz -dc "$TRACES/trim-retry.db.xz" > t.db &&
	vmscope whatif t.db > out.txt 2> err &&
	no_match "out of memory" err &&
	pinned=$(assumption t.db "no change" "model: pinned") &&
	echo "$pinned" &&
	marked=$(echo "$pinned" | sed -n "s/.*, \([0-9]*\) marked;.*/\1/p") &&
	within 1000000 1100000 "$marked" "pages marked pinned (4 GiB held by pipes)" &&
	freed=$(assumption t.db "no change" "demand: anon frees" | sed -n "s/^\([0-9]*\) anon pages freed.*/\1/p") &&
	within 4000000 10000000 "$freed" "anon pages freed (cycles of 2 GiB, then the exit)" &&
	for m in reclaimed_file reclaimed_anon; do
		rec=$(value t.db "no change" $m recorded) && base=$(value t.db "no change" $m baseline) &&
		echo "$m: recorded $rec, baseline $base" &&
		within $((rec * 9 / 10)) $((rec * 11 / 10)) "$base" "$m of the baseline" || return 1
	done &&
	assumption t.db "no change" "self-consistency: reclaimed_anon" | grep -q "^within 10%"
'

test_expect_success SQLITE3 'the 2024 seed pair: 6.8 fails kswapd and swaps nothing, 6.18 swaps the cold anon' '
	vmscope whatif t.db --policy v6.8-cache-trim > pair.txt 2> err &&
	no_match "out of memory" err &&
	sc=policy=v6.8-cache-trim &&
	base_anon=$(value t.db $sc reclaimed_anon baseline) &&
	wi_anon=$(value t.db $sc reclaimed_anon whatif) &&
	base_fail=$(value t.db $sc kswapd_failures baseline) &&
	wi_fail=$(value t.db $sc kswapd_failures whatif) &&
	echo "6.18: $base_anon anon reclaimed, $base_fail failed kswapd runs; 6.8: $wi_anon, $wi_fail" &&
	within 1000000 100000000 "$base_anon" "anon reclaimed by 6.18" &&
	within 0 $((base_anon / 100)) "$wi_anon" "anon reclaimed by 6.8" &&
	within 10 16 "$wi_fail" "failed kswapd runs of 6.8 (MAX_RECLAIM_RETRIES stops it)" &&
	within 0 $((wi_fail - 5)) "$base_fail" "failed kswapd runs of 6.18" &&
	grep -q "kswapd_retry" pair.txt
'

test_expect_success SQLITE3 'pinned=none: the pipes pages are reclaimed, and said so' '
	vmscope whatif t.db -a pinned=none > none.txt &&
	assumption t.db "no change" "model: pinned" | grep -q "^none: --assume pinned=none (99" &&
	within 500000 2000000 "$(value t.db "no change" reclaimed_file baseline)" \
		"file pages reclaimed with nothing pinned"
'

test_expect_success SQLITE3 'few unexplained keeps (the thrash pair at 60): nothing pinned' '
	xz -dc "$TRACES/thrash-pair-s60.db.xz" > s60.db &&
	vmscope whatif s60.db > s60.txt &&
	assumption s60.db "no change" "model: pinned" | grep -q "^none: [0-9.]*% of the recorded file scans .*transient"
'

test_done
