#!/bin/sh
# t2120-replay-counts.sh - the counts replay keeps while it evaluates
# (replay_count, replay_trivial_count, replay_vs_baseline, issue 18) are
# those that grouping every answer of replay_result gives, and the report
# printed from them is the one printed from the rows. On three bundled
# recordings with every built-in policy:
#  - --results all: replay_result row for row is that of the binary before
#    the counts (commit d855123; digests made with `vmscope replay DB >
#    out.txt; sqlite3 -batch DB 'SELECT * FROM replay_result ORDER BY
#    rowid' | sha256sum`), thrash's since the deactivation questions are
#    asked only where the scan fraction leaves the active list a target
#    (390 fewer answers), leaving out the rows added since (question
#    mapped_once, policy v2.6.33-mapped-activate); the text replay prints
#    is that of the binary that added them (it has their rows); each count
#    table equals a plain GROUP BY over the rows;
#  - --results differences: the same text, the same counts, and
#    replay_result holds exactly the rows of the first with agrees = 0;
#  - the report from the rows (a database replayed before the counts
#    existed, or a window) is the report from the counts; a window over a
#    differences-only replay says it needs --results all, and so does
#    `vmscope plot DB replay`.
#  - firmness: since a pass's inputs of one provenance are also moved to
#    their other ends together (stop 27), 1,555 answers on smallfiles and
#    31,038 on thrash (all policies) are 'sampled' that were 'exact' (compared with the
#    binary before); every other column of every row is as before, which
#    the digest of the rows without firmness holds, and the full digest is
#    the new binary's;
#  - the text's digests are those of the binary that added the balanced
#    agreement (its three columns and note are the only change from the one
#    before; replay_class_count equals the grouping of the rows);
# No root.
. "$(dirname "$0")/test-lib.sh"

S="$SRC_DIR/samples/traces"

# counts_of DB: replay_count as stored, one line per group
counts_of() {
	sql "$1" "SELECT policy, question, reclaimer, first_answer, first_decidable, asked, decidable,
		agreed, undecidable, pages, firm, soft, decisive, agreed_decisive
		FROM replay_count ORDER BY 1, 2, 3"
}
# counts_from_rows DB: the same groups counted from replay_result (every answer)
counts_from_rows() {
	sql "$1" "SELECT r.policy, r.question, d.reclaimer, MIN(r.rowid) - 1,
		MIN(CASE WHEN r.agrees IS NOT NULL THEN r.rowid END) - 1, COUNT(*), COUNT(r.agrees),
		COALESCE(SUM(r.agrees = 1), 0), SUM(r.agrees IS NULL), SUM(CASE WHEN r.agrees = 0 THEN r.pages END),
		COALESCE(SUM(r.agrees = 0 AND r.firmness IN ('exact', 'sampled')), 0),
		COALESCE(SUM(r.agrees = 0 AND r.firmness IN ('inferred', 'unknown')), 0),
		SUM(r.decisive = 1), SUM(r.decisive = 1 AND r.agrees = 1)
		FROM replay_result r JOIN decision d ON d.id = r.decision GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
}
trivial_of() {
	sql "$1" "SELECT question, predictor, rank, decisions, agreed FROM replay_trivial_count ORDER BY 1, 3"
}
trivial_from_rows() {
	sql "$1" "SELECT t.question, t.predictor, MIN(t.rowid) - MIN(MIN(t.rowid)) OVER (PARTITION BY t.question),
		COUNT(*), SUM(t.agrees) FROM replay_trivial t JOIN replay_result r ON r.decision = t.decision
		AND r.question = t.question AND r.policy = 'v6.18' WHERE r.decisive = 1
		GROUP BY 1, 2 ORDER BY 1, 3"
}
# replay_class_count, and the same from the rows: per question and kernel answer, the
# baseline's and each trivial predictor's agreement on the baseline's decisive decisions
classes_of() {
	sql "$1" "SELECT question, predictor, rank, kernel_answer, decisions, agreed
		FROM replay_class_count ORDER BY 1, 3, 4"
}
classes_from_rows() {
	sql "$1" "SELECT question, 'v6.18', -1, kernel, COUNT(*), SUM(agrees = 1) FROM replay_result
		WHERE policy = 'v6.18' AND decisive = 1 GROUP BY 1, 4
		UNION ALL SELECT t.question, t.predictor, t.rank, r.kernel, COUNT(*), SUM(t.agrees)
		FROM (SELECT *, DENSE_RANK() OVER (PARTITION BY question ORDER BY first) - 1 AS rank
		FROM (SELECT *, MIN(rowid) OVER (PARTITION BY question, predictor) AS first
		FROM replay_trivial)) t
		JOIN replay_result r ON r.decision = t.decision AND r.question = t.question
		AND r.policy = 'v6.18' WHERE r.decisive = 1 GROUP BY 1, 2, 4 ORDER BY 1, 3, 4"
}
vs_of() {
	sql "$1" "SELECT policy, question, baseline_answer, policy_answer, first_answer, decisions, pages
		FROM replay_vs_baseline ORDER BY 1, 2, 3, 4"
}
vs_from_rows() {
	sql "$1" "SELECT b.policy, b.question, a.policy_answer, b.policy_answer, MIN(b.rowid) - 1, COUNT(*),
		SUM(b.pages) FROM replay_result a JOIN replay_result b ON a.decision = b.decision
		AND a.question = b.question WHERE a.policy = 'v6.18' AND b.policy != 'v6.18'
		AND a.policy_answer != b.policy_answer GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4"
}
# the rows of the questions and policies of d855123
OLD_ROWS="WHERE question != 'mapped_once' AND policy != 'v2.6.33-mapped-activate'"
rows_digest() {
	sql "$1" "SELECT * FROM replay_result ${2:-} ORDER BY rowid" | sha256sum | cut -c1-16
}
# rows_digest_but_firmness DB WHERE: the same without the firmness column
rows_digest_but_firmness() {
	sql "$1" "SELECT policy, decision, question, kernel, policy_answer, agrees, pages, decisive
		FROM replay_result $2 ORDER BY rowid" | sha256sum | cut -c1-16
}

# check SAMPLE ROWS OLD_ROWS OLD_ROWS_DIGEST_BUT_FIRMNESS ROWS_DIGEST TEXT_DIGEST (OLD_: of
# the binary before the counts); smallfiles has no answer that differs from the baseline's, thrash has (vs-baseline)
check() {
	xz -dc "$S/$1.db.xz" > "$1.db" &&
	vmscope replay "$1.db" --results all > "$1.txt" 2> /dev/null &&
	assert_eq "$(sql "$1.db" "SELECT results, answers FROM replay_summary")" "all|$2" "$1 summary" &&
	assert_eq "$(sql "$1.db" "SELECT COUNT(*) FROM replay_result")" "$2" "$1 rows" &&
	assert_eq "$(sql "$1.db" "SELECT COUNT(*) FROM replay_result $OLD_ROWS")" "$3" "$1 rows before" &&
	assert_eq "$(rows_digest_but_firmness "$1.db" "$OLD_ROWS")" "$4" "$1 replay_result as before" &&
	assert_eq "$(rows_digest "$1.db" "$OLD_ROWS")" "$5" "$1 replay_result with its firmness" &&
	assert_eq "$(sha256sum < "$1.txt" | cut -c1-16)" "$6" "$1 text" &&
	counts_of "$1.db" > counts.txt && counts_from_rows "$1.db" > rows.txt &&
	test -s counts.txt && test_cmp rows.txt counts.txt &&
	trivial_of "$1.db" > counts.txt && trivial_from_rows "$1.db" > rows.txt &&
	test -s counts.txt && test_cmp rows.txt counts.txt &&
	vs_of "$1.db" > counts.txt && vs_from_rows "$1.db" > rows.txt &&
	test_cmp rows.txt counts.txt &&
	classes_of "$1.db" > counts.txt && classes_from_rows "$1.db" > rows.txt &&
	test_cmp rows.txt counts.txt &&
	# only the differences
	xz -dc "$S/$1.db.xz" > "$1-d.db" &&
	vmscope replay "$1-d.db" --results differences > "$1-d.txt" 2> d.err &&
	grep -q "replay_result holds the answers that differ" d.err &&
	test_cmp "$1.txt" "$1-d.txt" &&
	assert_eq "$(sql "$1-d.db" "SELECT results, answers FROM replay_summary")" "differences|$2" &&
	assert_eq "$(rows_digest "$1-d.db")" "$(rows_digest "$1.db" "WHERE agrees = 0")" "$1 differences" &&
	assert_eq "$(sql "$1-d.db" "SELECT COUNT(*) FROM replay_trivial")" 0 &&
	counts_of "$1.db" > a.txt && counts_of "$1-d.db" > b.txt && test_cmp a.txt b.txt &&
	trivial_of "$1.db" > a.txt && trivial_of "$1-d.db" > b.txt && test_cmp a.txt b.txt &&
	vs_of "$1.db" > a.txt && vs_of "$1-d.db" > b.txt && test_cmp a.txt b.txt &&
	classes_of "$1.db" > a.txt && classes_of "$1-d.db" > b.txt && test_cmp a.txt b.txt &&
	# the report from the counts, and from the rows as for a database replayed before them
	vmscope report "$1.db" replay > report.txt && test_cmp "$1.txt" report.txt &&
	cp "$1.db" "$1-old.db" &&
	sql "$1-old.db" "DROP TABLE replay_summary; DROP TABLE replay_count;
		DROP TABLE replay_trivial_count; DROP TABLE replay_vs_baseline;
		DROP TABLE replay_class_count" &&
	vmscope report "$1-old.db" replay > old.txt && test_cmp "$1.txt" old.txt
}

test_expect_success SQLITE3 'kswapd-fail: counts equal the rows, text and rows as before' '
	check kswapd-fail 3678 3050 fc48f92fb4e2f875 a1d7f13dab5b8128 e2217e0785977ccb
'

test_expect_success SQLITE3 'smallfiles: counts equal the rows, text and rows as before' '
	check smallfiles 73632 61355 d32c5e4106a62f86 d638a820a9d0cc57 f38b2ea5e2f8c8dd
'

test_expect_success SQLITE3 'thrash: counts equal the rows, text and rows as before' '
	check thrash 373644 307675 01b4cd24acc67e87 d7ed4c510278b0d8 ef10ee50060cba81 &&
	test "$(sql thrash.db "SELECT COUNT(*) FROM replay_vs_baseline")" -gt 0 &&
	# balanced: the kernel kept 4,636 of the decisive deactivate_file passes and aged
	# 26; the baseline is right on 4,629 and 19 of them, every trivial predictor on all
	# of one answer and none of the other
	assert_eq "$(sql thrash.db "SELECT group_concat(kernel_answer || \" \" || decisions || \" \" || agreed)
		FROM (SELECT * FROM replay_class_count WHERE question = \"deactivate_file\" AND rank = -1
		ORDER BY kernel_answer)")" "aged 26 19,kept 4636 4629" &&
	vmscope report thrash.db replay --table agreement --format csv > agreement.csv &&
	assert_eq "$(awk -F, "\$1 == \"deactivate_file\" { print \$10, \$11, \$12 }" agreement.csv)" \
		"$(awk "BEGIN { printf \"%.1f\", 50 * (19 / 26 + 4629 / 4636) }") 50.0 refault-blind (ratio only)" &&
	# counts stored before replay_class_count: the other columns as they were, no balanced ones
	cp thrash.db thrash-noclass.db &&
	sql thrash-noclass.db "DROP TABLE replay_class_count" &&
	vmscope report thrash-noclass.db replay --table agreement --format csv > noclass.csv &&
	assert_eq "$(cut -d, -f1-9 noclass.csv | md5sum)" "$(cut -d, -f1-9 agreement.csv | md5sum)" &&
	assert_eq "$(awk -F, "\$1 == \"deactivate_file\" { print \$10 \$11 \$12 }" noclass.csv)" ""
'

test_expect_success SQLITE3 'a window: from the rows with every answer, a note with the differences only' '
	vmscope report thrash.db replay --to 1 --format csv --table agreement > all.csv &&
	vmscope report thrash-old.db replay --to 1 --format csv --table agreement > old.csv &&
	test_cmp all.csv old.csv &&
	# a narrower window: fewer shrink_slab answers than the whole run, more than none
	whole=$(sql thrash.db "SELECT SUM(asked) FROM replay_count WHERE policy = \"v6.18\"
		AND question = \"shrink_slab\"") &&
	asked=$(awk -F, "\$1 == \"shrink_slab\" { print \$2 }" all.csv) &&
	test "$asked" -gt 0 && test "$asked" -lt "$whole" &&
	vmscope report thrash-d.db replay --to 1 > window.txt &&
	grep -q "the counts of a window need .vmscope replay DB --results all." window.txt
'

test_expect_success SQLITE3,GNUPLOT 'plot replay of a differences-only replay says to keep all' '
	test_must_fail vmscope plot thrash-d.db replay -o diff.png 2> err &&
	grep -q "keeps only the differing answers of its replay: run .vmscope replay thrash-d.db --results all." err &&
	vmscope plot thrash.db replay -o all.txt &&
	grep -q "differing decisions" all.txt
'

test_expect_success SQLITE3 'auto keeps every answer of a small replay; VMSCOPE_TIMING times the parts' '
	xz -dc "$S/kswapd-fail.db.xz" > auto.db &&
	VMSCOPE_TIMING=1 vmscope replay auto.db > auto.txt 2> auto.err &&
	test_cmp kswapd-fail.txt auto.txt &&
	assert_eq "$(sql auto.db "SELECT results FROM replay_summary")" all &&
	grep -q "^timing: build decisions " auto.err &&
	grep -q "^timing: report " auto.err
'

test_expect_success SQLITE3 'a policy given twice is counted once, where it was given last' '
	xz -dc "$S/kswapd-fail.db.xz" > twice.db &&
	xz -dc "$S/kswapd-fail.db.xz" > once.db &&
	vmscope replay twice.db -p v4.12-actual-reclaim -p v5.3-refault-anon -p v4.12-actual-reclaim \
		> twice.txt 2> /dev/null &&
	vmscope replay once.db -p v5.3-refault-anon -p v4.12-actual-reclaim > once.txt 2> /dev/null &&
	test_cmp once.txt twice.txt &&
	counts_of twice.db > counts.txt && counts_from_rows twice.db > rows.txt &&
	test_cmp rows.txt counts.txt &&
	assert_eq "$(sql twice.db "SELECT policies FROM replay_summary")" 3
'

test_expect_success 'a --results that is not all, differences or auto is a usage error' '
	rc=0; vmscope replay auto.db --results some > out 2> err || rc=$?
	assert_eq "$rc" 2 &&
	test ! -s out &&
	grep -q "results must be all, differences or auto" err
'

test_done
