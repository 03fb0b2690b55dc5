#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t2350-whatif-boost.sh - `vmscope whatif --set vm.watermark_boost_factor`
# on the bundled machine-wide boosted-kswapd recording (node reclaim,
# recorded at 15000): the fallbacks that boost are the ones the kernel's
# try_to_claim_block() boosts before, the baseline has boosted kswapd runs
# and the prediction at 0 has none and fewer kswapd runs; a node recording
# without the extfrag event, or without the recorded factor, is refused
# with the way out; a memcg recording refuses the knob, and values outside
# the sysctls' ranges are refused. No root.
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
	awk -v b="$eb" -v w="$ew" "BEGIN { exit !(w < b) }"
'

# ev CPU DT_NS PFN FALLBACK_ORDER ALLOC_MT CHANGE_OWNERSHIP: an extfrag row DT_NS after T0
ev() {
	echo "INSERT INTO mm_page_alloc_extfrag (ts, cpu, pid, pfn, alloc_order, fallback_order,
		alloc_migratetype, fallback_migratetype, change_ownership)
		VALUES ($T0 + $2, $1, 1, $3, 0, $4, $5, 1, $6);"
}

test_expect_success SQLITE3 'which fallbacks boost: claims below a pageblock, the first steal of a bulk, node 0 only' '
	cp b.db frag.db &&
	T0=$(sql frag.db "SELECT MIN(ts) + 1000000000 FROM counter_sample") &&
	P=$(sql frag.db "SELECT value FROM counter WHERE source = '\''zoneinfo'\'' AND scope = '\''node0/Normal'\''
		AND name = '\''start_pfn'\'' ORDER BY ts LIMIT 1") &&
	{
		echo "DELETE FROM mm_page_alloc_extfrag;" &&
		ev 0 0 $P 5 0 1 &&		# a claim of part of a block: boosts
		ev 0 1000000 $P 10 0 1 &&	# a whole block claimed: no boost
		ev 1 2000000 $P 0 0 0 &&	# an unmovable steal, claims tried first: boosts
		ev 1 2005000 $P 0 0 0 &&	# the same rmqueue_bulk() steals on: no boost
		ev 0 2005000 $P 0 0 0 &&	# a steal on another CPU: boosts
		ev 1 3000000 $P 0 1 0 &&	# a movable steal below order 4: no claim was tried
		ev 1 4000000 $P 5 1 0 &&	# a movable steal at order 5: a claim came first
		ev 0 5000000 999999999999 5 0 1	# not node 0: not counted
	} > frag.sql &&
	sql frag.db "$(cat frag.sql)" &&
	vmscope whatif frag.db -a demand=counters > frag.txt &&
	grep -q "model: boost  *4 of 8 fallbacks" frag.txt
'

# the ceiling rarely binds: kswapd takes each boost off at the next allocation
test_expect_success SQLITE3 'a larger factor: no fewer boosted runs, and the recorded fallbacks are called an upper bound' '
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

test_expect_success SQLITE3 'out of the sysctls range: refused, with the range' '
	test_must_fail vmscope whatif b.db -a demand=counters --set vm.watermark_boost_factor=4000000000000000 2> err &&
	grep -q "takes 0..2147483647" err &&
	test_must_fail vmscope whatif b.db -a demand=counters --set vm.watermark_scale_factor=5000 2> err &&
	grep -q "vm.watermark_scale_factor. takes 1..3000" err
'

test_expect_success SQLITE3 'memcg reclaim: the knob does not act on it and is refused' '
	xz -dc "$TRACES/thrash-pair-s0.db.xz" > m.db &&
	test_must_fail vmscope whatif m.db --set vm.watermark_boost_factor=0 2> err &&
	grep -q "vm.watermark_boost_factor does not act on the reclaim this recording.s simulation models (memcg reclaim)" err
'

test_done
