#!/bin/sh
# t2200-replay-whatif.sh - a sysctl what-if checked against reality: record
# the thrash scenario twice, with the memcg's swappiness at 10 and at 100;
# replaying the first recording with v6.18:swappiness=100 must predict the
# direction of the change seen in the second (more passes scanning anon).
. "$(dirname "$0")/test-lib.sh"

# share DB POLICY COLUMN: % of scan_balance answers in COLUMN that scan anon
share() {
	sql "$1" "SELECT CAST(100.0 * SUM($3 LIKE 'anon%') / COUNT(*) AS INT) FROM replay_result
		WHERE question = 'scan_balance' AND policy = '$2'"
}

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'replaying swappiness 10 with swappiness=100 predicts more anon scanning, as recorded at 100' '
	make -C "$SRC_DIR/samples" >/dev/null &&
	"$SRC_DIR/samples/run-scenario" thrash --short --swappiness 10 -q -f -o s10.db >s10.out 2>&1 &&
	"$SRC_DIR/samples/run-scenario" thrash --short --swappiness 100 -q -f -o s100.db >s100.out 2>&1 &&
	assert_eq "$(sql s10.db "SELECT value FROM sysctl WHERE name = \"memcg.swappiness\"")" 10 &&
	assert_eq "$(sql s100.db "SELECT value FROM sysctl WHERE name = \"memcg.swappiness\"")" 100 &&
	vmscope replay s10.db -p v6.18:swappiness=100 > r10.txt &&
	vmscope replay s100.db -p v6.18 > r100.txt &&
	kernel10=$(share s10.db v6.18 kernel) &&
	base10=$(share s10.db v6.18 policy_answer) &&
	whatif=$(share s10.db v6.18:swappiness=100 policy_answer) &&
	kernel100=$(share s100.db v6.18 kernel) &&
	echo "anon-scanning passes: recorded at 10: $kernel10%, baseline $base10%, what-if 100: $whatif%, recorded at 100: $kernel100%" &&
	# reality: more anon scanning at 100
	test "$kernel100" -gt "$kernel10" &&
	# the prediction goes the same way, from the baseline of the first recording
	test "$whatif" -gt "$base10" &&
	test "$whatif" -gt "$kernel10"
'

test_done
