#!/bin/sh
# t2000-replay.sh - `vmscope replay` on a hand-built run whose right answers
# follow from the kernel logic (docs/replay.md), plus policy plugins and
# parameters. No root needed.
. "$(dirname "$0")/test-lib.sh"

# Two kswapd runs that scan only file pages at priority 12. Between them the
# file workingset_activate counter rises by 50: the second pass sees refaults.
make_run() {
	cat > run.txt <<'TRACE'
         kswapd0-50      [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0
         kswapd0-50      [000] .....     1.001000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=32 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
         kswapd0-50      [000] .....     1.002000: mm_vmscan_kswapd_sleep: nid=0
         kswapd0-50      [000] .....     2.000000: mm_vmscan_kswapd_wake: nid=0 order=0
         kswapd0-50      [000] .....     2.001000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=32 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
         kswapd0-50      [000] .....     2.002000: mm_vmscan_kswapd_sleep: nid=0
TRACE
	vmscope import -q run.txt -o run.db
	sql run.db "
		INSERT INTO sysctl VALUES ('vm.swappiness', '60');
		INSERT INTO counter_sample VALUES (1, 500000000, 500000100, 'vmstat', '');
		INSERT INTO counter_sample VALUES (2, 1500000000, 1500000100, 'vmstat', '');
		INSERT INTO counter_sample VALUES (3, 500000000, 500000100, 'meminfo', '');
		INSERT INTO counter_sample VALUES (4, 500000000, 500000100, 'zoneinfo', 'node0/Normal');
		INSERT INTO counter_value VALUES (4, 'free', 100000), (4, 'high', 1000), (4, 'boost', 0);
		INSERT INTO counter_value SELECT s, n, v FROM (SELECT 1 AS s UNION SELECT 2) JOIN (
			SELECT 'nr_inactive_anon' AS n, 50000 AS v UNION SELECT 'nr_active_anon', 1000
			UNION SELECT 'nr_inactive_file', 100000 UNION SELECT 'nr_active_file', 1000
			UNION SELECT 'nr_free_pages', 100000 UNION SELECT 'workingset_activate_anon', 0);
		INSERT INTO counter_value VALUES (1, 'workingset_activate_file', 100);
		INSERT INTO counter_value VALUES (2, 'workingset_activate_file', 150);
		INSERT INTO counter_value VALUES (3, 'SwapFree', 1048576);"
	# the samples moved the run's start: derive again, as report checks
	vmscope upgrade -q --rederive run.db
}

# answer POLICY QUESTION COLUMN: one cell of the 'policies' table (JSON output)
answer() {
	python3 -c '
import json, sys
doc = json.load(open("out.json"))
t = [t for t in doc["tables"] if t["table"] == "policies"][0]
names = [c["name"] for c in t["columns"]]
for r in t["rows"]:
    if r[0] == sys.argv[1] and r[1] == sys.argv[2]:
        print(r[names.index(sys.argv[3])])' "$1" "$2" "$3"
}

test_expect_success SQLITE3 'decision records: two kswapd passes and two runs, inputs with provenance' '
	make_run
	vmscope replay run.db --policy v6.18 --format json > out.json
	# 2 passes + 2 kswapd runs
	assert_eq "$(sql run.db "SELECT kind, COUNT(*) FROM decision GROUP BY kind ORDER BY kind")" "kswapd_run|2
pass|2"
	# the first pass has no refault snapshot yet (unknown); the second sees 150 - 100 = 50 (inferred)
	assert_eq "$(sql run.db "SELECT refault_file, json_extract(provenance, \"$.refault_file\") FROM decision WHERE kind = \"pass\" ORDER BY ts")" "|unknown
50|inferred"
	assert_eq "$(sql run.db "SELECT reclaimer, priority, inactive_file, scanned_inactive_file, scanned_inactive_anon, swap_free FROM decision WHERE kind = \"pass\" ORDER BY ts LIMIT 1")" "kswapd|12|100000|32|0|262144"
	# sample ages: pass 1 at 1.001 s from the 0.5 s sample, pass 2 at 2.001 s from 1.5 s
	assert_eq "$(sql run.db "SELECT CAST(sample_age_ms AS INT) FROM decision WHERE kind = \"pass\" ORDER BY ts")" "501
501"
'

test_expect_success SQLITE3 'baseline 6.18 and 4.12 answer the scan balance as the kernel logic says' '
	# pass 2: 100000>>12 = 24 inactive file, active 1000 (not low) but 50 refaults:
	# 6.18 turns cache_trim_mode off -> FRACT 60:140 -> anon target 50000>>12 = 12,
	# 12*60/200 = 3 > 0: anon+file, while the kernel scanned file only: 1 difference,
	# 3 pages at stake (the scaled anon target). 4.12 ignores the refaults:
	# SCAN_FILE both times: agrees.
	vmscope replay run.db --policy v4.12-actual-reclaim --format json > out.json
	python3 -c "import json; json.load(open(\"out.json\"))"
	assert_eq "$(answer v6.18 scan_balance asked)" 2
	assert_eq "$(answer v6.18 scan_balance differs)" 1
	assert_eq "$(answer v6.18 scan_balance "pages at stake")" 3
	assert_eq "$(answer v4.12-actual-reclaim scan_balance differs)" 0
	# no shrinker events: the slab question is undecidable, never counted as agreement
	assert_eq "$(answer v6.18 shrink_slab undecidable)" 2
	assert_eq "$(sql run.db "SELECT kernel, policy_answer, firmness FROM replay_result WHERE policy = \"v6.18\" AND question = \"scan_balance\" AND agrees = 0")" "file|anon+file|inferred"
'

test_expect_success SQLITE3 'report DB replay prints the tables replay printed, from the stored results' '
	vmscope replay run.db --policy v4.12-actual-reclaim --format json > replay.json
	vmscope report run.db replay --format json > report.json
	python3 -c "
import json
a = json.load(open(\"replay.json\"))[\"tables\"]
b = json.load(open(\"report.json\"))[\"tables\"]
assert [t[\"table\"] for t in a] == [\"agreement\", \"policies\", \"vs-baseline\", \"by-reclaimer\", \"differences\"], a
assert a == b, (a, b)"
	# a window without the second run holds one pass: asked once
	vmscope report run.db replay --table policies --format csv --to 1.5 > early.csv
	assert_eq "$(grep "^v6.18,scan_balance," early.csv | cut -d, -f3,4)" "1,0"
'

test_expect_success SQLITE3 'report DB replay before any replay says so' '
	vmscope import -q run.txt -o never-replayed.db
	vmscope report never-replayed.db replay > never.txt
	grep -q "no replay results in this database" never.txt
'

# agreement_cell QUESTION COLUMN: one cell of the baseline's 'agreement' table (JSON output)
agreement_cell() {
	python3 -c '
import json, sys
doc = json.load(open("out.json"))
t = [t for t in doc["tables"] if t["table"] == "agreement"][0]
names = [c["name"] for c in t["columns"]]
for r in t["rows"]:
    if r[0] == sys.argv[1]:
        print(r[names.index(sys.argv[2])])' "$1" "$2"
}

test_expect_success SQLITE3 'agreement on decisive decisions, against the best trivial predictor' '
	# both passes: swap, priority 12, anon 50000>>12 = 12 and file 24 pages: decisive.
	# The kernel scanned file only twice; the baseline agrees once (50 %), the
	# trivial "file only" twice (100 %): the baseline does not beat it here.
	vmscope replay run.db --policy v6.18 --format json > out.json &&
	assert_eq "$(agreement_cell scan_balance decisive)" 2 &&
	assert_eq "$(agreement_cell scan_balance "agreement on decisive")" 50.0 &&
	assert_eq "$(agreement_cell scan_balance "best trivial")" 100.0 &&
	assert_eq "$(agreement_cell scan_balance "best trivial predictor")" "file only" &&
	# report reads the same from the stored rows, and by window: up to 1.5 s only
	# pass 1 (no refault snapshot yet: file only, as the kernel): 1 decisive, 100 %
	vmscope report run.db replay --table agreement --format json --to 1.5 > out.json &&
	assert_eq "$(agreement_cell scan_balance decisive)" 1 &&
	assert_eq "$(agreement_cell scan_balance "agreement on decisive")" 100.0 &&
	assert_eq "$(agreement_cell scan_balance "best trivial")" 100.0 &&
	assert_eq "$(sql run.db "SELECT COUNT(*), SUM(agrees) FROM replay_trivial WHERE question = \"scan_balance\"")" "8|4" &&
	assert_eq "$(sql run.db "SELECT SUM(decisive) FROM replay_result WHERE policy = \"v6.18\" AND question = \"scan_balance\"")" 2 &&
	# the difference rests on the refault input: at 0 (its lower end) the answer flips
	assert_eq "$(sql run.db "SELECT json_extract(input_range, \"$.refault_file\") FROM decision WHERE kind = \"pass\" ORDER BY ts DESC LIMIT 1")" "[0,50]"
'

test_expect_success SQLITE3 'a zone boost makes boosted-kswapd answers undecidable (nr_boost_reclaim not recorded)' '
	cp run.db boosted.db &&
	sql boosted.db "UPDATE counter_value SET value = 512 WHERE name = \"boost\"" &&
	vmscope replay boosted.db --policy v6.18 --policy v5.0-boost-noslab > /dev/null &&
	# pass 2 is FRACT unless may_swap = !nr_boost_reclaim was 0: undecidable; pass 1 is file only anyway
	assert_eq "$(sql boosted.db "SELECT COUNT(*) FROM replay_result WHERE policy = \"v6.18\" AND question = \"scan_balance\" AND agrees IS NULL")" 1 &&
	assert_eq "$(sql boosted.db "SELECT COUNT(*) FROM decision WHERE kind = \"pass\" AND boost_reclaim IS NULL")" 2 &&
	# 5.0-5.2 may_shrinkslab = !nr_boost_reclaim: slab undecidable in both kswapd passes
	assert_eq "$(sql boosted.db "SELECT COUNT(*) FROM replay_result WHERE policy = \"v5.0-boost-noslab\" AND question = \"shrink_slab\" AND policy_answer = \"undecidable\"")" 2
'

# A direct reclaim episode whose sweeps 12 -> 0 reclaim nothing: 6.18
# do_try_to_free_pages() retries with memcg_full_walk, then (shrink_list()
# skipped the active file list, which had a target at priority 0) with
# force_deactivate, whose pass ages the active file list.
make_retries() {
	for sweep in 0 1 2; do
		for prio in 12 0; do
			t=$(printf "3.%06d" $((1000 + sweep * 10000 + (12 - prio) * 100)))
			echo "          stress-60      [000] .....     $t: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=0 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=32 nr_ref_keep=0 nr_unmap_fail=0 priority=$prio flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
			if [ $sweep = 2 ] && [ $prio = 0 ]; then
				echo "          stress-60      [000] .....     ${t%?}5: mm_vmscan_lru_shrink_active: nid=0 nr_taken=32 nr_active=0 nr_deactivated=32 nr_referenced=0 priority=0 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
			fi
		done
	done
}

test_expect_success SQLITE3 'retry sweeps: full walk, then force_deactivate (6.18 do_try_to_free_pages)' '
	{
		sed -n "1,6p" run.txt
		echo "          stress-60      [000] .....     3.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
		make_retries
		echo "          stress-60      [000] .....     3.500000: mm_vmscan_direct_reclaim_end: nr_reclaimed=0"
	} > retry.txt &&
	vmscope import -q retry.txt -o retry.db &&
	sql retry.db "ATTACH \"run.db\" AS r; INSERT INTO counter_sample SELECT * FROM r.counter_sample;
		INSERT INTO counter_value SELECT * FROM r.counter_value; INSERT INTO sysctl SELECT * FROM r.sysctl" &&
	vmscope replay retry.db --policy v6.18 --policy v4.12-actual-reclaim > /dev/null &&
	assert_eq "$(sql retry.db "SELECT priority, sweep, force_deactivate, activated_file FROM decision WHERE reclaimer = \"direct\" ORDER BY ts")" "12|0|0|32
0|0|0|32
12|1|0|32
0|1|0|32
12|2|1|32
0|2|1|32" &&
	# the forced sweep: 6.18 ages the active file list (both bits), as the kernel did;
	# 4.12 has no forced sweep and keeps it (ratio 100000*1 >= 1000, no refaults)
	assert_eq "$(sql retry.db "SELECT r.policy, r.kernel, r.policy_answer FROM replay_result r JOIN decision d ON d.id = r.decision WHERE d.force_deactivate = 1 AND r.question = \"deactivate_file\" ORDER BY r.policy")" "v4.12-actual-reclaim|aged|kept
v6.18|aged|aged"
'

test_expect_success SQLITE3 'a parameter is a what-if: swappiness=0 keeps 6.18 on file only' '
	# swappiness 0: FRACT with fraction_anon = 0*1/1 = 0 -> anon target 0 -> file only
	vmscope replay run.db --policy v6.18:swappiness=0 --format json > out.json
	assert_eq "$(answer v6.18:swappiness=0 scan_balance differs)" 0
'

test_expect_success SQLITE3 'the example plugin loads with parameters and decides' '
	make -C "$SRC_DIR/samples" policies/refault-guard.so >/dev/null
	# threshold 10 < 50 refaults in pass 2: equal fractions, anon 12*1/2 = 6 > 0: differs
	vmscope replay run.db --policy "$SRC_DIR/samples/policies/refault-guard.so:threshold=10" --format json > out.json
	assert_eq "$(answer "$SRC_DIR/samples/policies/refault-guard.so:threshold=10" scan_balance differs)" 1
	# threshold 100 > 50: defers to the baseline (which differs once too)
	vmscope replay run.db --policy "$SRC_DIR/samples/policies/refault-guard.so:threshold=100" --format json > out.json
	assert_eq "$(answer "$SRC_DIR/samples/policies/refault-guard.so:threshold=100" scan_balance differs)" 1
'

test_expect_success SQLITE3 'the plugin decides by its threshold: two thresholds, two answers' '
	# with vm.swappiness 0 the baseline scans file only (fraction_anon 0), as
	# the kernel did: it never differs. threshold 10 < 50 refaults in pass 2:
	# the plugin scans anon and file 1:1 and differs there, with the scaled
	# anon target 50000>>12 = 12, 12*1/2 = 6 pages at stake (replay.md); threshold 100 > 50: it defers to
	# the baseline and differs nowhere
	cp run.db s0.db
	sql s0.db "UPDATE sysctl SET value = 0 WHERE name = \"vm.swappiness\""
	guard="$SRC_DIR/samples/policies/refault-guard.so"
	vmscope replay s0.db --policy "$guard:threshold=10" --format json > out.json
	assert_eq "$(answer v6.18 scan_balance differs)" 0 "baseline, swappiness 0"
	assert_eq "$(answer "$guard:threshold=10" scan_balance differs)" 1 "threshold 10"
	assert_eq "$(answer "$guard:threshold=10" scan_balance "pages at stake")" 6 "threshold 10"
	assert_eq "$(sql s0.db "SELECT kernel, policy_answer FROM replay_result WHERE policy LIKE \"%threshold=10\" AND agrees = 0")" "file|anon+file"
	vmscope replay s0.db --policy "$guard:threshold=100" --format json > out.json
	assert_eq "$(answer "$guard:threshold=100" scan_balance differs)" 0 "threshold 100"
'

test_expect_success SQLITE3 'broken plugins and bad parameters fail clearly' '
	cat > nosym.c <<-EOC
	int something_else = 1;
	EOC
	cc -shared -fPIC -o nosym.so nosym.c
	test_must_fail vmscope replay run.db --policy ./nosym.so 2>err
	grep -q "exports no .vms_policy. symbol" err
	cat > oldabi.c <<-EOC
	#include "vms-policy.h"
	static int no(void *p, const struct vms_pass_input *in) { return 0; }
	const struct vms_policy vms_policy = { .abi = VMS_POLICY_ABI + 1, .name = "old",
		.description = "x", .shrink_slab = no };
	EOC
	cc -shared -fPIC -I"$SRC_DIR/include" -o oldabi.so oldabi.c
	test_must_fail vmscope replay run.db --policy ./oldabi.so 2>err
	grep -q "built for policy ABI 5; this vmscope speaks ABI 4" err
	test_must_fail vmscope replay run.db --policy ./missing.so 2>err
	grep -q "cannot load policy plugin" err
	test_must_fail vmscope replay run.db --policy v6.18:swappiness=300 2>err
	grep -q "swappiness takes 0..200" err
	test_must_fail vmscope replay run.db --policy v6.18:swapiness=3 2>err
	grep -q "unknown policy parameter .swapiness." err
	test_must_fail vmscope replay run.db --policy no-such-policy 2>err
	grep -q "no policy .no-such-policy." err
	rc=0; vmscope replay 2>/dev/null || rc=$?; assert_eq $rc 2
'

# inact PID TS PRIO: one file batch of kswapd that reclaims nothing
inact() {
	echo "         kswapd0-$1      [000] .....     $2: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=0 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=32 nr_ref_keep=0 nr_unmap_fail=0 priority=$3 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
}

test_expect_success SQLITE3 'kswapd sweeps: the 6.9+ cache-trim retry, told from a boost restart' '
	{
		sed -n "1,6p" run.txt
		# run 3: 12 -> 1 reclaiming nothing with cache_trim_mode on, then again from 12
		echo "         kswapd0-50      [000] .....     3.000000: mm_vmscan_kswapd_wake: nid=0 order=0"
		inact 50 3.001000 12; inact 50 3.002000 1; inact 50 3.003000 12
		echo "         kswapd0-50      [000] .....     3.004000: mm_vmscan_kswapd_sleep: nid=0"
		# run 4: back to 12 from 11: a boost restart (the loop did not run to the end)
		echo "         kswapd0-50      [000] .....     4.000000: mm_vmscan_kswapd_wake: nid=0 order=0"
		inact 50 4.001000 12; inact 50 4.002000 11; inact 50 4.003000 12
		echo "         kswapd0-50      [000] .....     4.004000: mm_vmscan_kswapd_sleep: nid=0"
	} > sweeps.txt &&
	vmscope import -q sweeps.txt -o sweeps.db &&
	sql sweeps.db "ATTACH \"run.db\" AS r; INSERT INTO counter_sample SELECT * FROM r.counter_sample;
		INSERT INTO counter_value SELECT * FROM r.counter_value; INSERT INTO sysctl SELECT * FROM r.sysctl" &&
	vmscope replay sweeps.db --policy v6.8-cache-trim > /dev/null &&
	assert_eq "$(sql sweeps.db "SELECT first_sweep_lowest, first_sweep_reclaimed, restarted, retried FROM decision WHERE kind = \"kswapd_run\" AND ts >= 3000000000 ORDER BY ts")" "1|0|1|1
11|0|1|0" &&
	assert_eq "$(sql sweeps.db "SELECT priority, sweep, no_cache_trim_mode FROM decision WHERE kind = \"pass\" AND ts >= 3000000000 ORDER BY ts")" "12|0|0
1|0|0
12|1|1
12|0|0
11|0|0
12|1|0" &&
	# 6.18: cache_trim_mode (100000>>12, no refaults) failed and the loop ran to
	# priority 1: retry, as the kernel did; 6.8 counts a failure. Run 4 broke at 11:
	# neither retries, and it is not decisive.
	assert_eq "$(sql sweeps.db "SELECT r.policy, r.kernel, r.policy_answer, r.decisive FROM replay_result r JOIN decision d ON d.id = r.decision WHERE r.question = \"kswapd_retry\" AND d.ts >= 3000000000 ORDER BY d.ts, r.policy")" "v6.18|retried|retry|1
v6.8-cache-trim|retried|failure counted|1
v6.18|failure counted|failure counted|0
v6.8-cache-trim|failure counted|failure counted|0"
'

test_expect_success SQLITE3 'an MGLRU recording is refused (classic-LRU logic only)' '
	cp run.db mglru.db &&
	sql mglru.db "INSERT INTO sysctl VALUES (\"lru_gen.enabled\", \"0x0007\")" &&
	test_must_fail vmscope replay mglru.db 2>err &&
	grep -q "recorded with MGLRU on" err &&
	sql mglru.db "UPDATE sysctl SET value = \"0x0000\" WHERE name = \"lru_gen.enabled\"" &&
	vmscope replay mglru.db > /dev/null
'

test_expect_success SQLITE3,GNUPLOT 'plot replay draws the differences over time' '
	vmscope replay run.db --policy v4.12-actual-reclaim > /dev/null &&
	vmscope plot run.db replay -o replay.svg &&
	python3 -c "import xml.dom.minidom, sys; xml.dom.minidom.parse(sys.argv[1])" replay.svg &&
	grep -q "v4.12-actual-reclaim" replay.svg &&
	vmscope plot run.db replay -o replay.txt &&
	grep -q "differing decisions" replay.txt &&
	awk "length > 80 { exit 1 }" replay.txt &&
	vmscope import -q run.txt -o fresh.db &&
	test_must_fail vmscope plot fresh.db replay -o x.png 2>err &&
	grep -q "has no replay results: run .vmscope replay" err
'

test_expect_success '--list names every built-in policy' '
	vmscope replay --list > list
	for p in v6.18 v4.12-actual-reclaim v5.3-refault-anon v5.0-boost-noslab v6.8-cache-trim; do
		grep -q "^$p " list
	done &&
	# the label policies (the baseline hooks byte for byte) are gone
	! grep -q "^v5.3-boost-slab \|^v6.9-cache-trim-retry " list
'

# A memcg pass at priority 12 that scanned 2 inactive anon pages: 6.18
# get_scan_count() at swappiness 60 with no cost yet is FRACT 60:140, so
# the inactive anon target is (30000 >> 12) * 60 / 200 = 2 and the active
# anon target (16000 >> 12) * 60 / 200 = 0 (div64_u64 rounds down): the
# kernel scans no active anon page whatever it decided, and the question
# is not asked; with 24000 active anon pages it is 5 * 60 / 200 = 1: asked.
test_expect_success SQLITE3 'deactivation is asked only where the scan fraction leaves the active list a target' '
	for active in 16000 24000; do
		cat > frac.txt <<TRACE
             cat-700   [000] .....     1.000000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
             cat-700   [000] .....     1.000100: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=2 nr_reclaimed=2 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC
             cat-700   [000] .....     1.000200: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=1 nr_reclaimed=1 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
             cat-700   [000] .....     1.000400: mm_vmscan_memcg_reclaim_end: nr_reclaimed=3
TRACE
		vmscope import -q frac.txt -o frac-$active.db &&
		sql frac-$active.db "
			INSERT INTO sysctl VALUES (\"vm.swappiness\", \"60\");
			INSERT INTO counter_sample VALUES (1, 500000000, 500000100, \"vmstat\", \"\");
			INSERT INTO counter_sample VALUES (2, 500000000, 500000100, \"meminfo\", \"\");
			INSERT INTO counter_value VALUES (1, \"nr_inactive_anon\", 30000), (1, \"nr_active_anon\", $active),
				(1, \"nr_inactive_file\", 4000), (1, \"nr_active_file\", 1000),
				(1, \"nr_free_pages\", 100000), (1, \"workingset_activate_anon\", 0),
				(1, \"workingset_activate_file\", 0);
			INSERT INTO counter_value VALUES (2, \"SwapFree\", 1048576), (2, \"SwapTotal\", 1048576)" &&
		vmscope upgrade -q --rederive frac-$active.db &&
		vmscope replay frac-$active.db --policy v6.18 --results all >/dev/null || exit 1
	done &&
	assert_eq "$(sql frac-16000.db "SELECT COUNT(*) FROM replay_result WHERE question = \"deactivate_anon\"")" 0 &&
	assert_eq "$(sql frac-24000.db "SELECT kernel FROM replay_result WHERE question = \"deactivate_anon\" AND policy = \"v6.18\"")" kept
'

test_done
