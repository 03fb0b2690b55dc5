#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t2140-replay-mapped-once.sh - the mapped_once question (the 2010 seed) on
# the bundled recordings: it is asked on exactly the passes whose inactive
# batches kept pages by their references (nr_ref_keep > 0 in
# mm_vmscan_lru_shrink_inactive), the baseline keeps them all as the kernel
# did (6.18 folio_check_references(): FOLIOREF_KEEP), v2.6.33-mapped-activate
# activates them all (2.6.33 shrink_page_list(): referenced &&
# page_mapping_inuse()), its pages are the kept pages of the events, no
# answer is decisive, and the report says the agreement holds by
# construction. No root.
. "$(dirname "$0")/test-lib.sh"

S="$SRC_DIR/samples/traces"

# kept DB TYPE: SUM(nr_ref_keep) of the inactive batches of TYPE (1 anon, 2 file)
kept() {
	sql "$1" "SELECT TOTAL(nr_ref_keep) FROM mm_vmscan_lru_shrink_inactive
		WHERE reclaim_flags & 3 = $2" | cut -d. -f1
}
# mapped DB POLICY WHAT: WHAT over the policy's mapped_once rows
mapped() {
	sql "$1" "SELECT $3 FROM replay_result WHERE policy = '$2' AND question = 'mapped_once'"
}

test_expect_success SQLITE3 'sparse-mmap: asked where file pages were kept, 2.6.33 would activate them' '
	xz -dc "$S/sparse-mmap.db.xz" > sm.db &&
	vmscope replay sm.db -p v2.6.33-mapped-activate --format json > out.json 2> /dev/null &&
	# the recording: 326 file batches kept 2,322 pages, no anon batch kept any
	assert_eq "$(sql sm.db "SELECT COUNT(*) FROM mm_vmscan_lru_shrink_inactive
		WHERE reclaim_flags & 3 = 2 AND nr_ref_keep > 0")" 326 &&
	assert_eq "$(kept sm.db 2)" 2322 && assert_eq "$(kept sm.db 1)" 0 &&
	# the passes carry them, per type
	assert_eq "$(sql sm.db "SELECT TOTAL(ref_keep_file), TOTAL(ref_keep_anon) FROM decision")" \
		"2322.0|0.0" &&
	# asked on exactly the passes that kept pages
	kept_passes=$(sql sm.db "SELECT COUNT(*) FROM decision WHERE ref_keep_anon + ref_keep_file > 0") &&
	assert_eq "$kept_passes" 326 &&
	assert_eq "$(mapped sm.db v6.18 "COUNT(*)")" "$kept_passes" &&
	assert_eq "$(sql sm.db "SELECT COUNT(*) FROM replay_result r JOIN decision d ON d.id = r.decision
		WHERE r.question = \"mapped_once\" AND r.policy = \"v6.18\"
		AND d.ref_keep_anon + d.ref_keep_file > 0")" "$kept_passes" &&
	# the kernel kept them; the baseline keeps them all
	assert_eq "$(mapped sm.db v6.18 "kernel, policy_answer, COUNT(*), SUM(agrees)")" "keep|keep|326|326" &&
	# 2.6.33 activates every one: its pages are the kept pages of the events
	assert_eq "$(mapped sm.db v2.6.33-mapped-activate "policy_answer, COUNT(*), SUM(agrees), SUM(pages)")" \
		"activate file|326|0|$(kept sm.db 2)" &&
	# never decisive: the answer is in the trace, what decides it per page is not
	assert_eq "$(sql sm.db "SELECT COUNT(*), TOTAL(decisive) FROM replay_result
		WHERE question = \"mapped_once\"")" "652|0.0" &&
	# 2.6.33 lends no other answer from the baseline: undecidable
	assert_eq "$(sql sm.db "SELECT COUNT(agrees) FROM replay_result
		WHERE policy = \"v2.6.33-mapped-activate\" AND question != \"mapped_once\"")" 0 &&
	python3 -c "
import json
d = json.load(open(\"out.json\"))
t = [t for t in d[\"tables\"] if t[\"table\"] == \"agreement\"][0]
names = [c[\"name\"] for c in t[\"columns\"]]
r = [r for r in t[\"rows\"] if r[0] == \"mapped_once\"][0]
assert r[names.index(\"asked\")] == 326, r
assert r[names.index(\"decisive\")] == 0, r
assert r[names.index(\"agreement on decisive\")] is None, r
assert any(\"mapped_once agrees by construction\" in n for n in t[\"notes\"]), t[\"notes\"]
" &&
	vmscope report sm.db replay > report.txt &&
	grep -q "^mapped_once  *326  *326  *326  *100.0  *0 " report.txt &&
	grep -q "mapped_once agrees by construction" report.txt &&
	grep -q "v2.6.33-mapped-activate  *mapped_once  *keep  *activate file  *326  *2322" report.txt
'

test_expect_success SQLITE3 'thrash: anon and file kept; 4.12-5.4 activate the anon pages only' '
	xz -dc "$S/thrash.db.xz" > th.db &&
	vmscope replay th.db -p v2.6.33-mapped-activate -p v4.12-actual-reclaim > out.txt 2> /dev/null &&
	anon=$(kept th.db 1) && file=$(kept th.db 2) &&
	assert_eq "$anon $file" "65561 230661" &&
	assert_eq "$(sql th.db "SELECT TOTAL(ref_keep_anon), TOTAL(ref_keep_file) FROM decision")" \
		"$anon.0|$file.0" &&
	passes=$(sql th.db "SELECT COUNT(*) FROM decision WHERE ref_keep_anon + ref_keep_file > 0") &&
	assert_eq "$(mapped th.db v6.18 "COUNT(*), SUM(agrees), TOTAL(decisive)")" "$passes|$passes|0.0" &&
	assert_eq "$(mapped th.db v2.6.33-mapped-activate "SUM(agrees), SUM(pages)")" \
		"0|$((anon + file))" &&
	# 4.19/5.2.1 page_check_references(): PageSwapBacked -> PAGEREF_ACTIVATE, file kept
	assert_eq "$(mapped th.db v4.12-actual-reclaim "SUM(agrees = 0), SUM(CASE WHEN agrees = 0 THEN pages END)")" \
		"$(sql th.db "SELECT COUNT(*) FROM decision WHERE ref_keep_anon > 0")|$anon" &&
	assert_eq "$(mapped th.db v4.12-actual-reclaim "COUNT(*) FILTER (WHERE policy_answer LIKE \"%file%\")")" 0
'

test_expect_success SQLITE3 'no nr_ref_keep recorded (NULL): not asked; a decision table without the columns' '
	xz -dc "$S/sparse-mmap.db.xz" > null.db &&
	sql null.db "UPDATE mm_vmscan_lru_shrink_inactive SET nr_ref_keep = NULL" &&
	vmscope replay null.db -p v2.6.33-mapped-activate > /dev/null 2>&1 &&
	assert_eq "$(sql null.db "SELECT COUNT(*) FROM replay_result WHERE question = \"mapped_once\"")" 0 &&
	# a replay stored by a vmscope before the question: its decision table (a
	# table then, not the view over decision_row) lacks the columns
	sql sm.db "CREATE TABLE old_decision AS SELECT * FROM decision; DROP VIEW decision;
		DROP TABLE decision_row; DROP TABLE decision_json;
		ALTER TABLE old_decision RENAME TO decision;
		ALTER TABLE decision DROP COLUMN ref_keep_anon; ALTER TABLE decision DROP COLUMN ref_keep_file;
		DELETE FROM replay_result WHERE question = \"mapped_once\";
		DELETE FROM replay_count WHERE question = \"mapped_once\";
		DELETE FROM replay_vs_baseline WHERE question = \"mapped_once\"" &&
	vmscope report sm.db replay > old.txt &&
	grep -q "^mapped_once  *0  *0  *0  *-" old.txt &&
	# and replaying it again rebuilds them, the table replaced by the view
	vmscope replay sm.db -p v6.18 > /dev/null 2>&1 &&
	assert_eq "$(sql sm.db "SELECT type FROM sqlite_master WHERE name = \"decision\"")" view &&
	assert_eq "$(sql sm.db "SELECT TOTAL(ref_keep_file) FROM decision")" "2322.0"
'

test_done
