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
		INSERT INTO counter_value SELECT s, n, v FROM (SELECT 1 AS s UNION SELECT 2) JOIN (
			SELECT 'nr_inactive_anon' AS n, 50000 AS v UNION SELECT 'nr_active_anon', 1000
			UNION SELECT 'nr_inactive_file', 100000 UNION SELECT 'nr_active_file', 1000
			UNION SELECT 'nr_free_pages', 100000 UNION SELECT 'workingset_activate_anon', 0);
		INSERT INTO counter_value VALUES (1, 'workingset_activate_file', 100);
		INSERT INTO counter_value VALUES (2, 'workingset_activate_file', 150);
		INSERT INTO counter_value VALUES (3, 'SwapFree', 1048576);"
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
	# 12 pages at stake. 4.12 ignores the refaults: SCAN_FILE both times: agrees.
	vmscope replay run.db --policy v4.12-actual-reclaim --format json > out.json
	python3 -c "import json; json.load(open(\"out.json\"))"
	assert_eq "$(answer v6.18 scan_balance asked)" 2
	assert_eq "$(answer v6.18 scan_balance differs)" 1
	assert_eq "$(answer v6.18 scan_balance "pages at stake")" 12
	assert_eq "$(answer v4.12-actual-reclaim scan_balance differs)" 0
	# no shrinker events: the slab question is undecidable, never counted as agreement
	assert_eq "$(answer v6.18 shrink_slab undecidable)" 2
	assert_eq "$(sql run.db "SELECT kernel, policy_answer, firmness FROM replay_result WHERE policy = \"v6.18\" AND question = \"scan_balance\" AND agrees = 0")" "file|anon+file|inferred"
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
	# the plugin scans anon and file 1:1 and differs there, with inactive
	# anon 50000>>12 = 12 pages at stake; threshold 100 > 50: it defers to
	# the baseline and differs nowhere
	cp run.db s0.db
	sql s0.db "UPDATE sysctl SET value = 0 WHERE name = \"vm.swappiness\""
	guard="$SRC_DIR/samples/policies/refault-guard.so"
	vmscope replay s0.db --policy "$guard:threshold=10" --format json > out.json
	assert_eq "$(answer v6.18 scan_balance differs)" 0 "baseline, swappiness 0"
	assert_eq "$(answer "$guard:threshold=10" scan_balance differs)" 1 "threshold 10"
	assert_eq "$(answer "$guard:threshold=10" scan_balance "pages at stake")" 12 "threshold 10"
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
	grep -q "built for policy ABI 2; this vmscope speaks ABI 1" err
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
	for p in v6.18 v4.12-actual-reclaim v5.3-refault-anon v5.0-boost-noslab v5.3-boost-slab v6.8-cache-trim v6.9-cache-trim-retry; do
		grep -q "^$p " list
	done
'

test_done
