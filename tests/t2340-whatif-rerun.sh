#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t2340-whatif-rerun.sh - `vmscope whatif --rerun`, on the bundled pair of
# real thrash runs (samples/traces/thrash-pair-s0 and -s60: the same
# workload at memcg swappiness 0 and 60, recorded one after the other):
# each run predicted from the other and set beside what the other really
# recorded. The stored comparison must follow from the stored outcome (the
# errors, the trivial predictor, the directions), the directions the
# physics fixes must be right (no anon reclaimed at 0; anon swapped out at
# 60, which the recording at 0 never did), and a rerun made with other
# knobs, or no database at all, is said so. And `vmscope info` lists the
# pair's exec mappings, a hostile path quoted and printable. No root.
. "$(dirname "$0")/test-lib.sh"

TRACES="$SRC_DIR/samples/traces"

# rerun_row DB SCENARIO METRIC COLUMN: one column of the stored comparison
rerun_row() {
	sql "$1" "SELECT $4 FROM whatif_rerun WHERE scenario = '$2' AND metric = '$3'"
}

test_expect_success SQLITE3 'the bundled pair: two thrash runs at memcg swappiness 0 and 60' '
	xz -dc "$TRACES/thrash-pair-s0.db.xz" > s0.db &&
	xz -dc "$TRACES/thrash-pair-s60.db.xz" > s60.db &&
	assert_eq "$(sql s0.db "SELECT value FROM sysctl WHERE name = '\''memcg.swappiness'\''")" 0 &&
	assert_eq "$(sql s60.db "SELECT value FROM sysctl WHERE name = '\''memcg.swappiness'\''")" 60
'

test_expect_success SQLITE3 '0 -> 60: anon swapped out as in the real run, the direction right' '
	vmscope whatif s0.db --set memcg.swappiness=60 --rerun s60.db > out.txt 2> err &&
	no_match "warning" err &&
	grep -q "^Against the real rerun" out.txt &&
	sc=memcg.swappiness=60 &&
	assert_eq "$(rerun_row s0.db $sc reclaimed_anon direction)" right &&
	# the recording at 0 swapped nothing out: the trivial predictor misses by -100%
	assert_eq "$(rerun_row s0.db $sc reclaimed_anon "printf('\''%.0f'\'', trivial_error_pct)")" -100 &&
	anon=$(sql s0.db "SELECT whatif FROM outcome WHERE scenario = '\''$sc'\'' AND metric = '\''reclaimed_anon'\''") &&
	real=$(rerun_row s0.db $sc reclaimed_anon rerun) &&
	awk -v p="$anon" -v r="$real" "BEGIN { exit !(p > 0.5 * r && p < 1.5 * r) }"
'

test_expect_success SQLITE3 'the simulated memcg reclaims the recorded mean per reclaim call: as many calls as recorded' '
	# at swappiness 0 only file is reclaimed and the baseline reproduces it
	# (0.0% refaults); the calls are 283,508 pages over 1,608 calls, 176 a call
	sql s0.db "SELECT recorded, baseline FROM outcome WHERE scenario = '\''memcg.swappiness=60'\''
		AND metric = '\''reclaim_episodes'\''" | awk -F"|" "{ e = (\$2 - \$1) / \$1;
		print \"episodes recorded \" \$1 \", baseline \" \$2; exit !(e > -0.1 && e < 0.1) }"
'

test_expect_success SQLITE3 'the stored errors follow from the stored outcome and the rerun' '
	sc=memcg.swappiness=60 &&
	sql s0.db "SELECT COUNT(*) FROM whatif_rerun r JOIN outcome o USING (scenario, metric)
		WHERE r.scenario = '\''$sc'\'' AND r.rerun > 0 AND (
			abs(r.whatif_error_pct - 100.0 * (o.whatif - r.rerun) / r.rerun) > 0.001 OR
			abs(r.trivial_error_pct - 100.0 * (o.recorded - r.rerun) / r.rerun) > 0.001 OR
			abs(r.scaled - CASE WHEN o.baseline > 0 THEN o.recorded * o.whatif / o.baseline
				ELSE o.whatif END) > 0.001 OR
			abs(r.scaled_error_pct - 100.0 * (r.scaled - r.rerun) / r.rerun) > 0.001)" > bad &&
	assert_eq "$(cat bad)" 0 &&
	assert_eq "$(sql s0.db "SELECT COUNT(*) FROM whatif_rerun WHERE scenario = '\''$sc'\''")" 8 &&
	assert_eq "$(rerun_row s0.db $sc refault_file rerun_path)" s60.db
'

test_expect_success SQLITE3 'the directions stored are the signs of the two changes (5% or 64 pages: none)' '
	sc=memcg.swappiness=60 &&
	# not page counts: no direction (a 64-page floor means nothing for seconds)
	assert_eq "$(sql s0.db "SELECT COUNT(*) FROM whatif_rerun WHERE scenario = '\''$sc'\''
		AND metric IN ('\''reclaim_episodes'\'', '\''reclaim_seconds'\'', '\''kswapd_failures'\'') AND direction IS NULL")" 3 &&
	sql s0.db "SELECT o.metric, o.baseline, o.whatif, o.recorded, r.rerun, r.direction
		FROM whatif_rerun r JOIN outcome o USING (scenario, metric) WHERE r.scenario = '\''$sc'\''
		AND r.direction IS NOT NULL" > dirs &&
	assert_eq "$(wc -l < dirs)" 5 &&
	cat dirs |
	awk -F"|" "
		function sgn(d, ref,   band) { band = (ref < 0 ? -ref : ref) * 0.05; if (band < 64) band = 64;
			return d > band ? 1 : (d < -band ? -1 : 0) }
		{ want = sgn(\$3 - \$2, \$2) == sgn(\$5 - \$4, \$4) ? \"right\" : \"wrong\"
		  if (want != \$6) { print \"direction of \" \$1 \": \" \$6 \", expected \" want; bad = 1 } }
		END { exit bad }"
'

test_expect_success SQLITE3 '60 -> 0: no anon reclaimed at 0, as in the real run' '
	vmscope whatif s60.db --set memcg.swappiness=0 --rerun s0.db > out.txt &&
	sc=memcg.swappiness=0 &&
	assert_eq "$(sql s60.db "SELECT whatif FROM outcome WHERE scenario = '\''$sc'\'' AND metric = '\''reclaimed_anon'\''")" 0.0 &&
	assert_eq "$(rerun_row s60.db $sc reclaimed_anon rerun)" 0.0 &&
	assert_eq "$(rerun_row s60.db $sc reclaimed_anon direction)" right &&
	grep -q "reclaimed_anon within +-25%: whatif [0-3], scaled [0-3], trivial [0-3] of 3; direction right [0-3] of 3" out.txt
'

# recorded_of DB METRIC: the recorded value of the last 'no change' whatif of DB
recorded_of() {
	sql "$1" "SELECT CAST(recorded AS INTEGER) FROM outcome WHERE scenario = 'no change' AND metric = '$2'"
}

test_expect_success SQLITE3 'a window: the rerun is read over the same seconds of its own run' '
	vmscope whatif s60.db --to 0.5 > /dev/null &&
	part=$(recorded_of s60.db refault_file) &&
	vmscope whatif s60.db > /dev/null &&
	whole=$(recorded_of s60.db refault_file) &&
	test "$part" -gt 0 && test "$part" -lt "$whole" &&
	vmscope whatif s0.db --set memcg.swappiness=60 --to 0.5 --rerun s60.db > out.txt &&
	assert_eq "$(rerun_row s0.db memcg.swappiness=60 refault_file "CAST(rerun AS INTEGER)")" "$part"
'

test_expect_success SQLITE3 'a rerun with other knobs than the whatif simulates is said so' '
	vmscope whatif s0.db --set memcg.swappiness=100 --rerun s60.db > out.txt 2> err &&
	grep -q "warning: the rerun .s60.db. ran with memcg.swappiness=60, the whatif simulates 100" err &&
	grep -q "note: the rerun ran with memcg.swappiness=60, the whatif simulates 100" out.txt
'

test_expect_success SQLITE3 'no change: no direction, only the spread; a whatif without --rerun clears its comparison' '
	vmscope whatif s60.db --rerun s60.db > out.txt &&
	assert_eq "$(sql s60.db "SELECT COUNT(*) FROM whatif_rerun WHERE scenario = '\''no change'\'' AND direction IS NULL")" 8 &&
	assert_eq "$(rerun_row s60.db "no change" refault_file trivial_error_pct)" 0.0 &&
	vmscope whatif s60.db > /dev/null &&
	assert_eq "$(sql s60.db "SELECT COUNT(*) FROM whatif_rerun WHERE scenario = '\''no change'\''")" 0
'

test_expect_success SQLITE3 'a rerun that is not a vmscope database is refused, naming it; nothing stored' '
	echo "not a database" > junk.db &&
	rc=0 && vmscope whatif s0.db --set memcg.swappiness=60 --rerun junk.db > out.txt 2> err || rc=$? &&
	assert_eq "$rc" 1 &&
	grep -q "junk.db" err &&
	assert_eq "$(sql s0.db "SELECT COUNT(*) FROM whatif_rerun WHERE scenario = '\''memcg.swappiness=60'\''")" 8 &&
	rc=0 && vmscope whatif s0.db --set memcg.swappiness=60 --rerun missing.db 2> err || rc=$? &&
	assert_eq "$rc" 1 &&
	grep -q "missing.db" err
'

test_expect_success SQLITE3 'info lists the exec mappings, a hostile path quoted and made printable' '
	vmscope info s0.db > info.txt &&
	grep -q "^  32768  0  .*/data.  ([0-9]* ranges in all)$" info.txt &&
	cp s0.db hostile.db &&
	sql hostile.db "INSERT INTO exec_mapping (ts, pid, s_dev, i_ino, pgoff, pages, path)
		VALUES (0, 1, 1, 1, 0, 99999, '\''/x/a'\'''\''; DROP TABLE run; --'\'' || char(27) || '\''[31m'\'')" &&
	vmscope info hostile.db > info2.txt &&
	grep -q "^  99999  0  .*/x/a.*DROP TABLE run; --?\[31m" info2.txt &&
	no_match "$(printf "\033")" info2.txt &&
	assert_eq "$(sql hostile.db "SELECT COUNT(*) FROM run")" 1
'

test_done
