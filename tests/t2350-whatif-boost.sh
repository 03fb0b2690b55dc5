#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t2350-whatif-boost.sh - `vmscope whatif --set vm.watermark_boost_factor`
# on the bundled machine-wide boosted-kswapd recording (node reclaim,
# recorded at 15000): the fallbacks that boost are the ones the kernel's
# try_to_claim_block() boosts before, the baseline has boosted kswapd runs
# and the prediction at 0 has none and fewer kswapd runs; a node recording
# without the extfrag event, or without the recorded factor, is refused
# with the way out; a memcg recording refuses the knob. No root.
. "$(dirname "$0")/test-lib.sh"

TRACES="$SRC_DIR/samples/traces"

# at_least GOT MIN WHAT: fail unless the integer GOT is MIN or more
at_least() {
	[ -n "$1" ] && [ "$1" -ge "$2" ] || { echo "$3: got '$1', want at least $2"; return 1; }
}

# boost_runs DB SCENARIO WHICH: boosted kswapd runs of the baseline or the whatif
boost_runs() {
	sql "$1" "SELECT value FROM whatif_assumption WHERE scenario = '$2' AND item = 'model: boost'" |
		sed -n "s/.*$3 \([0-9]*\) (.*/\1/p"
}

test_expect_success SQLITE3 'the bundled recording: node reclaim at vm.watermark_boost_factor 15000' '
	xz -dc "$TRACES/boosted-kswapd.db.xz" > b.db &&
	assert_eq "$(sql b.db "SELECT value FROM sysctl WHERE name = '\''vm.watermark_boost_factor'\''")" 15000 &&
	at_least "$(sql b.db "SELECT COUNT(*) FROM mm_page_alloc_extfrag")" 1 "extfrag events"
'

test_expect_success SQLITE3 'factor 0: no boosted run, fewer kswapd runs than the baseline' '
	vmscope whatif b.db -a demand=counters --set vm.watermark_boost_factor=0 > out.txt 2> err &&
	no_match "warning" err &&
	sc=vm.watermark_boost_factor=0 &&
	base=$(boost_runs b.db $sc baseline) && wi=$(boost_runs b.db $sc whatif) &&
	at_least "$base" 1 "boosted kswapd runs of the baseline" &&
	assert_eq "$wi" 0 "boosted kswapd runs at factor 0" &&
	eb=$(sql b.db "SELECT baseline FROM outcome WHERE scenario = '\''$sc'\'' AND metric = '\''reclaim_episodes'\''") &&
	ew=$(sql b.db "SELECT whatif FROM outcome WHERE scenario = '\''$sc'\'' AND metric = '\''reclaim_episodes'\''") &&
	awk -v b="$eb" -v w="$ew" "BEGIN { exit !(w < b) }" &&
	# a boosted run reclaims file only: no anon either way (and no swap here)
	assert_eq "$(sql b.db "SELECT whatif FROM outcome WHERE scenario = '\''$sc'\'' AND metric = '\''reclaimed_anon'\''")" 0.0
'

test_expect_success SQLITE3 'the boosting fallbacks: below pageblock order, claims, or steals a claim came before' '
	n=$(sql b.db "SELECT COUNT(*) FROM mm_page_alloc_extfrag WHERE fallback_order < 9 AND
		(change_ownership OR alloc_migratetype <> 1 OR fallback_order >= 4)") &&
	all=$(sql b.db "SELECT COUNT(*) FROM mm_page_alloc_extfrag") &&
	grep -q "model: boost  *$n of $all fallbacks" out.txt
'

test_expect_success SQLITE3 'a larger factor boosts no less, and the recorded fallbacks are called an upper bound' '
	vmscope whatif b.db -a demand=counters --set vm.watermark_boost_factor=30000 > out2.txt 2> err &&
	grep -q "warning: the recording.s [0-9]* boosting fallbacks were made with vm.watermark_boost_factor 15000" err &&
	grep -q "upper bound" err &&
	sc=vm.watermark_boost_factor=30000 &&
	base=$(boost_runs b.db $sc baseline) && wi=$(boost_runs b.db $sc whatif) &&
	at_least "$wi" "$base" "boosted kswapd runs at 30000"
'

test_expect_success SQLITE3 'without the extfrag event the knob is refused and the baseline says boosting is off' '
	cp b.db nofrag.db &&
	sql nofrag.db "DELETE FROM mm_page_alloc_extfrag; DELETE FROM event_format WHERE name = '\''mm_page_alloc_extfrag'\''" &&
	test_must_fail vmscope whatif nofrag.db -a demand=counters --set vm.watermark_boost_factor=0 2> err &&
	grep -q "vm.watermark_boost_factor acts through the allocator.s fragmentation fallbacks" err &&
	grep -q "record kmem:mm_page_alloc_extfrag" err &&
	vmscope whatif nofrag.db -a demand=counters > out3.txt &&
	grep -q "model: boost  *off: kmem:mm_page_alloc_extfrag was not recorded" out3.txt
'

test_expect_success SQLITE3 'a recording that does not say the factor is refused, with --assume as the way out' '
	cp b.db nofactor.db &&
	sql nofactor.db "DELETE FROM sysctl WHERE name = '\''vm.watermark_boost_factor'\''" &&
	test_must_fail vmscope whatif nofactor.db -a demand=counters 2> err &&
	grep -q "does not say vm.watermark_boost_factor" err &&
	vmscope whatif nofactor.db -a demand=counters -a vm.watermark_boost_factor=15000 > out4.txt &&
	grep -q "vm.watermark_boost_factor  *15000  *--assume" out4.txt
'

test_expect_success SQLITE3 'memcg reclaim: the knob does not act on it and is refused' '
	xz -dc "$TRACES/thrash-pair-s0.db.xz" > m.db &&
	test_must_fail vmscope whatif m.db --set vm.watermark_boost_factor=0 2> err &&
	grep -q "vm.watermark_boost_factor does not act on the reclaim this recording.s simulation models (memcg reclaim)" err
'

test_done
