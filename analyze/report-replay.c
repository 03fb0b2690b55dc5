// SPDX-License-Identifier: GPL-2.0
/*
 * report-replay.c - the 'replay' section of `vmscope report`: the results
 * `vmscope replay` stored in the tables decision and replay_result, read
 * back. The replay command prints the same tables after a run (through
 * vms_report_replay(), with its --show), so that `vmscope report DB replay`
 * shows a stored replay again without rebuilding anything.
 *
 * Tables: agreement (the baseline v6.18 against the recorded kernel, per
 * question: the replayer's credibility, also on the decisive decisions
 * against the trivial predictors of table replay_trivial), policies (where each policy
 * differs from the kernel), vs-baseline (where it differs from the
 * baseline), by-reclaimer, differences (the first N of each policy).
 * Decisions count when their first event (decision.ts) is in the window.
 *
 * Where the counts come from: for the whole run, the counts replay stored
 * (replay_count, replay_trivial_count, replay_vs_baseline of
 * schema/015-replay-summary.sql: a few hundred rows); for a narrower window,
 * the per-answer rows of replay_result, grouped here (possible only when
 * replay kept every answer: replay_summary.results = 'all'); and for a
 * database replayed before the counts existed, always those rows. Both ways
 * give the same tables in the same order: each group is placed by its
 * first answer (MIN(rowid) of its rows, or first_answer).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vms.h"
#include "vms-report.h"
#include "report.h"

/* The baseline, which `vmscope replay` always runs first (replay/policies.c). */
#define BASELINE "v6.18"

/* The replay_result rows of decisions in the window (?1, ?2), as table r. */
#define IN_WINDOW \
	"(SELECT rr.rowid AS rid, rr.* FROM replay_result rr JOIN decision dd" \
	" ON dd.id = rr.decision WHERE dd.ts BETWEEN ?1 AND ?2)"

/* Cell @i of @st as an integer, or null. */
static void int_or_null(struct table *t, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		table_null(t);
	else
		table_int(t, sqlite3_column_int64(st, i));
}

/* Columns of @t without unit, named by the arguments up to a NULL. */
static void plain_columns(struct table *t, ...)
{
	const char *name;
	va_list ap;

	va_start(ap, t);
	while ((name = va_arg(ap, const char *)))
		table_column(t, name, NULL, 0);
	va_end(ap);
}

/* Finish @t after its rows were read from @st: error, or write it out. Frees both. */
static int emit(struct vms_window *w, struct out *o, struct table *t, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		table_free(t);
		return vms_error("%s: cannot read the replay results: %s", vms_db_path(w->db),
				 sqlite3_errmsg(w->sql));
	}
	out_table(o, t);
	table_free(t);
	return 0;
}

/* A new table and its statement. Return: 0, or -1 (nothing to free). */
static int start(struct vms_window *w, const char *name, const char *title, const char *sql,
		 struct table **t, sqlite3_stmt **st)
{
	*t = table_new("replay", name, title);
	if (!*t)
		return vms_error("out of memory");
	*st = vms_window_prepare(w, sql);
	if (!*st) {
		table_free(*t);
		return -1;
	}
	return 0;
}

/*
 * The trivial predictors' agreement on the baseline's decisive decisions in
 * the window, and the best one per question (the first in the predictors'
 * order on a tie), as table best(question, predictor, agreed).
 */
#define BEST_TRIVIAL \
	"best AS (SELECT question, predictor, agreed FROM (SELECT t.question, t.predictor," \
	"  SUM(t.agrees) AS agreed, ROW_NUMBER() OVER (PARTITION BY t.question" \
	"   ORDER BY SUM(t.agrees) DESC, MIN(t.rowid)) AS n" \
	"  FROM replay_trivial t JOIN r ON r.decision = t.decision AND r.question = t.question" \
	"  WHERE r.decisive = 1 GROUP BY t.question, t.predictor) WHERE n = 1)"

/* every question evaluate.c asks, in its order, also when none was asked */
#define QUESTIONS \
	"q(i, name) AS (VALUES (0, 'scan_balance'), (1, 'deactivate_file')," \
	" (2, 'deactivate_anon'), (3, 'shrink_slab'), (4, 'kswapd_retry')," \
	" (5, 'mapped_once'))"

/*
 * The balanced agreement per question (the mean over the kernel's answers of
 * the share of the decisive decisions with that answer a predictor got
 * right), from table cls(question, predictor, rank, kernel, n, agreed):
 * bb the baseline's (rank -1), bt the best trivial predictor's.
 */
#define BALANCED \
	" bal AS (SELECT question, predictor, rank, AVG(1.0 * agreed / n) AS b FROM cls" \
	"  WHERE n > 0 GROUP BY question, predictor, rank)," \
	" bb AS (SELECT question, b FROM bal WHERE rank < 0)," \
	" bt AS (SELECT question, predictor, b FROM (SELECT question, predictor, b," \
	"  ROW_NUMBER() OVER (PARTITION BY question ORDER BY b DESC, rank) AS k" \
	"  FROM bal WHERE rank >= 0) WHERE k = 1)"
#define BALANCED_COLUMNS " bb.b, bt.b, bt.predictor"
#define BALANCED_JOIN " LEFT JOIN bb ON bb.question = n.name LEFT JOIN bt ON bt.question = n.name"

/*
 * The agreement table's rows from the stored counts (the whole run), the
 * counts per kernel answer (table cls) from @CLS.
 */
#define AGREEMENT_COUNTS(CLS) \
	"WITH " QUESTIONS "," \
	" cls(question, predictor, rank, kernel, n, agreed) AS (" CLS ")," BALANCED "," \
	" n AS (SELECT q.i, q.name, TOTAL(c.asked) AS asked, TOTAL(c.decidable) AS decidable," \
	"  TOTAL(c.agreed) AS agreed, TOTAL(c.decisive) AS decisive," \
	"  TOTAL(c.agreed_decisive) AS agreed_decisive" \
	"  FROM q LEFT JOIN replay_count c ON c.question = q.name AND c.policy = '" BASELINE "'" \
	"  GROUP BY q.i)," \
	" best AS (SELECT question, predictor, agreed FROM (SELECT question, predictor, agreed," \
	"  ROW_NUMBER() OVER (PARTITION BY question ORDER BY agreed DESC, rank) AS k" \
	"  FROM replay_trivial_count) WHERE k = 1)" \
	" SELECT n.name, n.asked, n.decidable, n.agreed, n.decisive, n.agreed_decisive," \
	" best.agreed, best.predictor," BALANCED_COLUMNS \
	" FROM n LEFT JOIN best ON best.question = n.name" BALANCED_JOIN \
	" ORDER BY n.i"

static const char agreement_counts_sql[] = AGREEMENT_COUNTS(
	"SELECT question, predictor, rank, kernel_answer, decisions, agreed FROM replay_class_count");
/* counts stored by a vmscope before replay_class_count: no balanced agreement */
static const char agreement_counts_sql_old[] = AGREEMENT_COUNTS(
	"SELECT NULL, NULL, NULL, NULL, NULL, NULL WHERE 0");

/* @counts: from the stored counts, else from the rows of replay_result. */
static int agreement(struct vms_window *w, struct out *o, int have_trivial, int counts)
{
	static const char sql[] =
		"WITH q(i, name) AS (VALUES (0, 'scan_balance'), (1, 'deactivate_file'),"
		" (2, 'deactivate_anon'), (3, 'shrink_slab'), (4, 'kswapd_retry'),"
		" (5, 'mapped_once')),"
		" r AS (SELECT * FROM " IN_WINDOW " WHERE policy = '" BASELINE "'), " BEST_TRIVIAL ","
		" cls(question, predictor, rank, kernel, n, agreed) AS ("
		"  SELECT question, '" BASELINE "', -1, kernel, COUNT(*), TOTAL(agrees = 1) FROM r"
		"  WHERE decisive = 1 GROUP BY question, kernel"
		"  UNION ALL SELECT t.question, t.predictor,"
		"  MIN(MIN(t.rowid)) OVER (PARTITION BY t.question, t.predictor), r.kernel, COUNT(*),"
		"  TOTAL(t.agrees) FROM replay_trivial t JOIN r ON r.decision = t.decision"
		"  AND r.question = t.question WHERE r.decisive = 1"
		"  GROUP BY t.question, t.predictor, r.kernel)," BALANCED ","
		" n AS (SELECT q.i, q.name, COUNT(r.rid) AS asked, COUNT(r.agrees) AS decidable,"
		"  TOTAL(r.agrees = 1) AS agreed, TOTAL(r.decisive = 1) AS decisive,"
		"  TOTAL(r.decisive = 1 AND r.agrees = 1) AS agreed_decisive"
		"  FROM q LEFT JOIN r ON r.question = q.name GROUP BY q.i)"
		" SELECT n.name, n.asked, n.decidable, n.agreed, n.decisive, n.agreed_decisive,"
		" best.agreed, best.predictor," BALANCED_COLUMNS
		" FROM n LEFT JOIN best ON best.question = n.name" BALANCED_JOIN
		" ORDER BY n.i";
	/* a database replayed before replay_trivial existed: no trivial predictor */
	static const char sql_old[] =
		"WITH q(i, name) AS (VALUES (0, 'scan_balance'), (1, 'deactivate_file'),"
		" (2, 'deactivate_anon'), (3, 'shrink_slab'), (4, 'kswapd_retry'),"
		" (5, 'mapped_once')),"
		" r AS (SELECT * FROM " IN_WINDOW " WHERE policy = '" BASELINE "')"
		" SELECT q.name, COUNT(r.rid), COUNT(r.agrees), TOTAL(r.agrees = 1),"
		" TOTAL(r.decisive = 1), TOTAL(r.decisive = 1 AND r.agrees = 1), NULL, NULL,"
		" NULL, NULL, NULL FROM q LEFT JOIN r ON r.question = q.name GROUP BY q.i ORDER BY q.i";
	struct table *t = NULL;
	sqlite3_stmt *st = NULL;
	long long have_class = 0;
	int rc;

	if (counts && vms_window_int(w, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'"
				     " AND name = 'replay_class_count'", &have_class) < 0)
		return -1;
	if (start(w, "agreement", "Baseline agreement with the recorded kernel",
		  counts ? (have_class ? agreement_counts_sql : agreement_counts_sql_old) :
		  have_trivial ? sql : sql_old, &t, &st))
		return -1;
	plain_columns(t, "question", "asked", "decidable", "agreed", NULL);
	table_column(t, "agreement", "%", 1);
	table_column(t, "decisive", NULL, 0);
	table_column(t, "agreement on decisive", "%", 1);
	table_column(t, "best trivial", "%", 1);
	table_column(t, "best trivial predictor", NULL, 0);
	table_column(t, "balanced on decisive", "%", 1);
	table_column(t, "best trivial balanced", "%", 1);
	table_column(t, "best balanced predictor", NULL, 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long dec = sqlite3_column_int64(st, 2), agreed = sqlite3_column_int64(st, 3);
		long long decisive = sqlite3_column_int64(st, 4);

		table_row(t);
		table_text(t, (const char *)sqlite3_column_text(st, 0));
		table_int(t, sqlite3_column_int64(st, 1));
		table_int(t, dec);
		table_int(t, agreed);
		if (dec)
			table_real(t, 100.0 * agreed / dec);
		else
			table_null(t);
		table_int(t, decisive);
		if (decisive)
			table_real(t, 100.0 * sqlite3_column_int64(st, 5) / decisive);
		else
			table_null(t);
		if (decisive && sqlite3_column_type(st, 7) != SQLITE_NULL) {
			table_real(t, 100.0 * sqlite3_column_int64(st, 6) / decisive);
			table_text(t, (const char *)sqlite3_column_text(st, 7));
		} else {
			table_null(t);
			table_null(t);
		}
		for (int c = 8; c <= 9; c++)
			if (decisive && sqlite3_column_type(st, c) != SQLITE_NULL)
				table_real(t, 100.0 * sqlite3_column_double(st, c));
			else
				table_null(t);
		if (decisive && sqlite3_column_type(st, 10) != SQLITE_NULL)
			table_text(t, (const char *)sqlite3_column_text(st, 10));
		else
			table_null(t);
	}
	table_note(t, "policy %s; a decision is undecidable when the recording cannot tell the "
		   "kernel's choice (e.g. no shrinker event: not called, or nothing to free)", BASELINE);
	table_note(t, "decisive: decidable decisions where the question's deciding input varies "
		   "(not settled by swap, list sizes at this priority or loop structure alone); "
		   "best trivial: the best of the question's trivial predictors on those decisions. "
		   "Agreement is evidence for the policy's logic only where it beats the trivial one");
	table_note(t, "balanced: the mean, over the kernel's answers on the decisive decisions, "
		   "of the share of those decisions answered right, for the baseline and for the best "
		   "trivial predictor on it: always giving the kernel's most frequent answer scores "
		   "100 / (answers seen) %%, however rare the others are");
	table_note(t, "mapped_once agrees by construction: the kernel's answer (keep) is what the "
		   "pass's nr_ref_keep counts, and what decides it per page (its referenced PTEs, "
		   "PG_referenced, VM_EXEC) is in no event, so no decision is decisive; it shows "
		   "what a policy that activates those pages (<= 2.6.33) would change, in pages");
	if (!have_trivial)
		table_note(t, "no trivial predictors stored (replayed by an older vmscope): "
			   "`vmscope replay DB` stores them");
	table_note(t, "the residual: inputs are sampled (counter samples up to one interval "
		   "old; list sizes move by the millisecond), memcg reclaim without a sampled memcg "
		   "is judged on node-wide lists, the refault snapshot and the anon/file cost are "
		   "models; see the firmness column of replay_result");
	return emit(w, o, t, st, rc);
}

/*
 * The baseline's answers on decisions whose inputs come from the events
 * alone (a trace imported without counters: decision.lru_scope 'trace'),
 * and how many of them hold for every value the events allow (firmness
 * 'exact': replay/trace-inference.c). Needs every answer's row (@all).
 */
static int from_trace(struct vms_window *w, struct out *o, int all)
{
	static const char sql[] =
		"WITH " QUESTIONS ","
		" r AS (SELECT x.* FROM " IN_WINDOW " x JOIN decision d ON d.id = x.decision"
		"  WHERE x.policy = '" BASELINE "' AND d.lru_scope = 'trace')"
		" SELECT q.name, COUNT(r.rid), COUNT(r.agrees), TOTAL(r.agrees = 1),"
		" TOTAL(r.agrees IS NOT NULL AND r.firmness = 'exact'),"
		" TOTAL(r.agrees = 1 AND r.firmness = 'exact')"
		" FROM q LEFT JOIN r ON r.question = q.name GROUP BY q.i ORDER BY q.i";
	struct table *t = NULL;
	sqlite3_stmt *st = NULL;
	long long have;
	int rc = vms_window_int(w, "SELECT COUNT(*) FROM decision WHERE lru_scope = 'trace'"
				" AND ts BETWEEN ?1 AND ?2", &have);

	if (rc < 0)
		return -1;
	if (rc || !have)
		return 0;	/* the run has counters: nothing was inferred from the events alone */
	if (!all) {
		struct table *n = table_new("replay", "from-trace", "Decided by the trace alone");

		if (!n)
			return vms_error("out of memory");
		table_column(n, "question", NULL, 0);
		table_note(n, "not counted: replay_result holds only the differing answers; "
			   "`vmscope replay DB --results all` keeps the agreeing ones too");
		out_table(o, n);
		table_free(n);
		return 0;
	}
	if (start(w, "from-trace", "Decided by the trace alone", sql, &t, &st))
		return -1;
	plain_columns(t, "question", "asked", "decidable", NULL);
	table_column(t, "agreement", "%", 1);
	table_column(t, "decided by the events", NULL, 0);
	table_column(t, "agreement on those", "%", 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long dec = sqlite3_column_int64(st, 2), firm = sqlite3_column_int64(st, 4);

		table_row(t);
		table_text(t, (const char *)sqlite3_column_text(st, 0));
		table_int(t, sqlite3_column_int64(st, 1));
		table_int(t, dec);
		if (dec)
			table_real(t, 100.0 * sqlite3_column_int64(st, 3) / dec);
		else
			table_null(t);
		table_int(t, firm);
		if (firm)
			table_real(t, 100.0 * sqlite3_column_int64(st, 5) / firm);
		else
			table_null(t);
	}
	table_note(t, "no counters: policy %s judged on what the events bound (inferred): each "
		   "list at least what the pass scanned from it << priority, swap from the span of "
		   "anon reclaim, refaults, free pages and watermarks open", BASELINE);
	table_note(t, "decided by the events: the answer is the same for every value those bounds "
		   "allow; the deactivation questions are not asked (an active list's size shows "
		   "only where the kernel aged it); `--counters` gives the sampled inputs");
	return emit(w, o, t, st, rc);
}

static int policies(struct vms_window *w, struct out *o, int counts)
{
	static const char sql[] =
		"SELECT policy, question, COUNT(*), SUM(agrees = 0), SUM(agrees IS NULL),"
		" SUM(CASE WHEN agrees = 0 THEN pages END),"
		" SUM(agrees = 0 AND firmness IN ('exact', 'sampled')),"
		" SUM(agrees = 0 AND firmness IN ('inferred', 'unknown'))"
		" FROM " IN_WINDOW " GROUP BY policy, question ORDER BY MIN(rid), question";
	/* the same from the counts: differs is NULL, as SUM(agrees = 0) is, when none is decidable */
	static const char sql_counts[] =
		"SELECT policy, question, SUM(asked),"
		" CASE WHEN SUM(decidable) > 0 THEN SUM(decidable - agreed) END, SUM(undecidable),"
		" SUM(pages), SUM(firm), SUM(soft)"
		" FROM replay_count GROUP BY policy, question ORDER BY MIN(first_answer), question";
	struct table *t = NULL;
	sqlite3_stmt *st = NULL;
	int rc, i;

	if (start(w, "policies", "Where each policy differs from the recorded kernel",
		  counts ? sql_counts : sql, &t, &st))
		return -1;
	plain_columns(t, "policy", "question", "asked", "differs", "undecidable",
		      "pages at stake", "firm", "soft", NULL);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		table_row(t);
		table_text(t, (const char *)sqlite3_column_text(st, 0));
		table_text(t, (const char *)sqlite3_column_text(st, 1));
		for (i = 2; i < 8; i++)
			int_or_null(t, st, i);
	}
	table_note(t, "pages at stake: for scan_balance the pages the policy would have scanned "
		   "from anon instead of file (or the anon pages the kernel scanned that it would "
		   "not have); for deactivation the active list's target at that priority");
	table_note(t, "firm: differences resting on exact or sampled inputs; soft: on inferred "
		   "(modelled) or unknown inputs");
	table_note(t, "undecidable also where a policy does not model the question rather than "
		   "lend it the baseline's answer (v2.6.33-mapped-activate: every question but "
		   "mapped_once); mapped_once pages: the pages kept that it would have activated");
	return emit(w, o, t, st, rc);
}

/* What each policy changes relative to the baseline. */
static int vs_baseline(struct vms_window *w, struct out *o, int counts)
{
	static const char sql_counts[] =
		"SELECT policy, question, baseline_answer, policy_answer, decisions, pages"
		" FROM replay_vs_baseline ORDER BY first_answer, question, decisions DESC";
	static const char sql[] =
		"WITH r AS " IN_WINDOW
		" SELECT b.policy, b.question, a.policy_answer, b.policy_answer, COUNT(*), SUM(b.pages)"
		" FROM r a JOIN r b ON a.decision = b.decision AND a.question = b.question"
		" WHERE a.policy = '" BASELINE "' AND b.policy != '" BASELINE "'"
		" AND a.policy_answer != b.policy_answer"
		" GROUP BY 1, 2, 3, 4 ORDER BY MIN(b.rid), 2, 5 DESC";
	struct table *t = NULL;
	sqlite3_stmt *st = NULL;
	int rc, i;

	if (start(w, "vs-baseline", "Where each policy decides differently from the baseline",
		  counts ? sql_counts : sql, &t, &st))
		return -1;
	plain_columns(t, "policy", "question", "baseline", "policy answer", "decisions",
		      "pages at stake", NULL);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		table_row(t);
		for (i = 0; i < 4; i++)
			table_text(t, (const char *)sqlite3_column_text(st, i));
		table_int(t, sqlite3_column_int64(st, 4));
		int_or_null(t, st, 5);
	}
	table_note(t, "decisions where the policy's answer is not the baseline's, whatever the kernel "
		   "did; undecidable answers included");
	return emit(w, o, t, st, rc);
}

static int by_reclaimer(struct vms_window *w, struct out *o, int counts)
{
	static const char sql_counts[] =
		"SELECT policy, question, reclaimer, decidable, decidable - agreed FROM replay_count"
		" WHERE decidable > 0 ORDER BY first_decidable, question, reclaimer";
	static const char sql[] =
		"SELECT r.policy, r.question, d.reclaimer, COUNT(*), SUM(r.agrees = 0)"
		" FROM " IN_WINDOW " r JOIN decision d ON d.id = r.decision WHERE r.agrees IS NOT NULL"
		" GROUP BY 1, 2, 3 ORDER BY MIN(r.rid), 2, 3";
	struct table *t = NULL;
	sqlite3_stmt *st = NULL;
	int rc, i;

	if (start(w, "by-reclaimer", "Differences by reclaimer", counts ? sql_counts : sql, &t, &st))
		return -1;
	plain_columns(t, "policy", "question", "reclaimer", "decidable", "differs", NULL);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		table_row(t);
		for (i = 0; i < 3; i++)
			table_text(t, (const char *)sqlite3_column_text(st, i));
		table_int(t, sqlite3_column_int64(st, 3));
		table_int(t, sqlite3_column_int64(st, 4));
	}
	return emit(w, o, t, st, rc);
}

/* Columns of the differences table, and one row of it from @st. */
static void difference_columns(struct table *t)
{
	table_column(t, "policy", NULL, 0);
	table_column(t, "time", "s", 6);
	plain_columns(t, "reclaimer", "pid", "priority", "question", "kernel", "policy answer",
		      "pages", "firmness", NULL);
}

static void difference_row(struct table *t, sqlite3_stmt *st)
{
	table_row(t);
	table_text(t, (const char *)sqlite3_column_text(st, 0));
	table_real(t, sqlite3_column_double(st, 1));
	table_text(t, (const char *)sqlite3_column_text(st, 2));
	table_int(t, sqlite3_column_int64(st, 3));
	table_int(t, sqlite3_column_int64(st, 4));
	for (int i = 5; i < 8; i++)
		table_text(t, (const char *)sqlite3_column_text(st, i));
	int_or_null(t, st, 8);
	table_text(t, (const char *)sqlite3_column_text(st, 9));
}

#define DIFFERENCES_NOTE "time: seconds from the first decision; all differences are in table " \
			 "replay_result (agrees = 0)"

/* The first @show differences of each policy, from the rows in the window. */
static int differences(struct vms_window *w, struct out *o, int show)
{
	static const char sql[] =
		"WITH r AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY policy ORDER BY rid) AS n"
		"  FROM " IN_WINDOW " WHERE agrees = 0)"
		" SELECT r.policy, (d.ts - (SELECT MIN(ts) FROM decision)) / 1e9, d.reclaimer, d.pid,"
		" d.priority, r.question, r.kernel, r.policy_answer, r.pages, r.firmness"
		" FROM r JOIN decision d ON d.id = r.decision WHERE r.n <= ?3 ORDER BY r.rid";
	struct table *t = NULL;
	sqlite3_stmt *st = NULL;
	int rc;

	if (start(w, "differences", "First differences of each policy", sql, &t, &st))
		return -1;
	sqlite3_bind_int(st, 3, show);
	difference_columns(t);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		difference_row(t, st);
	table_note(t, DIFFERENCES_NOTE);
	return emit(w, o, t, st, rc);
}

/*
 * The same for the whole run, with the stored counts: the policies in their
 * order from replay_count, then the first rows of each (a policy's rows
 * follow one another in replay_result: a range of rowids, its bounds from
 * the index on policy and question, one lookup per question the policy was
 * counted for: MIN(rowid) of a policy alone read all its index entries, 0.4
 * s at 10M events), the first decision's time from replay_summary; no
 * grouping of every difference.
 */
static int differences_counted(struct vms_window *w, struct out *o, int show)
{
	static const char rows_sql[] =
		"SELECT r.policy, (d.ts - (SELECT first_decision_ts FROM replay_summary)) / 1e9,"
		" d.reclaimer, d.pid, d.priority, r.question, r.kernel, r.policy_answer, r.pages,"
		" r.firmness FROM replay_result r JOIN decision d ON d.id = r.decision"
		" WHERE r.rowid BETWEEN (SELECT MIN((SELECT MIN(rowid) FROM replay_result q"
		"   WHERE q.policy = ?3 AND q.question = c.question)) FROM replay_count c"
		"   WHERE c.policy = ?3)"
		" AND (SELECT MAX((SELECT MAX(rowid) FROM replay_result q"
		"   WHERE q.policy = ?3 AND q.question = c.question)) FROM replay_count c"
		"   WHERE c.policy = ?3)"
		" AND +r.policy = ?3 AND r.agrees = 0 ORDER BY r.rowid LIMIT ?4";
	struct table *t = NULL;
	sqlite3_stmt *pst = NULL, *st = NULL;
	int rc;

	if (start(w, "differences", "First differences of each policy",
		  "SELECT policy FROM replay_count GROUP BY policy ORDER BY MIN(first_answer)", &t, &pst))
		return -1;
	st = vms_window_prepare(w, rows_sql);
	if (!st) {
		sqlite3_finalize(pst);
		table_free(t);
		return -1;
	}
	difference_columns(t);
	while ((rc = sqlite3_step(pst)) == SQLITE_ROW) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 3, (const char *)sqlite3_column_text(pst, 0), -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 4, show);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			difference_row(t, st);
		if (rc != SQLITE_DONE)
			break;
	}
	sqlite3_finalize(pst);
	table_note(t, DIFFERENCES_NOTE);
	return emit(w, o, t, st, rc);
}

/* A replay table with nothing but a note: no results, or none for this window. */
static int note_only(struct out *o, const char *note)
{
	struct table *t = table_new("replay", "agreement", "Baseline agreement with the recorded kernel");

	if (!t)
		return vms_error("out of memory");
	table_column(t, "question", NULL, 0);
	table_note(t, "%s", note);
	out_table(o, t);
	table_free(t);
	return 0;
}

/*
 * "all" or "differences" from replay_summary into @results, or "" when the
 * database has no counts (replayed before they existed) or counts that are
 * not of the rows of replay_result (a vmscope without them replayed it
 * again: its rows are not the ones counted).
 */
static int results_kept(struct vms_window *w, char *results, size_t size, long long *answers)
{
	long long v;
	sqlite3_stmt *st;
	int rc = vms_window_int(w, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'"
			       " AND name IN ('replay_summary', 'replay_count', 'replay_trivial_count',"
			       " 'replay_vs_baseline')", &v);

	results[0] = 0;
	*answers = 0;
	if (rc < 0)
		return -1;
	if (v < 4)
		return 0;
	st = vms_window_prepare(w, "SELECT s.results, s.answers FROM replay_summary s"
				" WHERE s.result_rows = COALESCE((SELECT MAX(rowid) FROM replay_result), 0)"
				" AND s.last_policy IS (SELECT policy FROM replay_result"
				" ORDER BY rowid DESC LIMIT 1)");
	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(results, size, "%s", (const char *)sqlite3_column_text(st, 0));
		*answers = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return vms_error("%s: %s", vms_db_path(w->db), sqlite3_errmsg(w->sql));
	return 0;
}

int vms_report_replay(struct vms_window *w, struct out *o, int show)
{
	long long v, have_trivial, answers;
	char results[16];
	/* decision: a view over decision_row, or the table of a replay by an earlier build */
	int rc = vms_window_int(w, "SELECT COUNT(*) FROM sqlite_master WHERE type IN ('table', 'view')"
			       " AND name IN ('decision', 'replay_result')", &v), counts;

	if (rc < 0 || vms_window_int(w, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'"
				     " AND name = 'replay_trivial'", &have_trivial) < 0 ||
	    (v == 2 && results_kept(w, results, sizeof(results), &answers)))
		return -1;
	if (v == 2 && !results[0]) {
		/* replayed before the counts were stored: every answer is a row */
		rc = vms_window_int(w, "SELECT 1 FROM replay_result LIMIT 1", &v);
		if (rc < 0)
			return -1;
		v = rc ? 0 : 2;
	} else if (v == 2 && !answers) {
		v = 0;
	}
	if (v < 2)
		return note_only(o, "no replay results in this database: `vmscope replay DB` computes "
				 "and stores them");
	/* the counts are of the whole run; a narrower window needs every answer's row */
	counts = results[0] && w->from <= w->run_start && w->to >= w->run_end;
	if (results[0] && !counts && strcmp(results, "all"))
		return note_only(o, "replay_result holds only the differing answers (replayed with "
				 "--results differences, the default above 250000 decisions x policies): the "
				 "counts of a window need `vmscope replay DB --results all`");
	if (agreement(w, o, have_trivial != 0, counts) ||
	    from_trace(w, o, !results[0] || !strcmp(results, "all")) || policies(w, o, counts) ||
	    vs_baseline(w, o, counts) || by_reclaimer(w, o, counts) ||
	    (counts ? differences_counted(w, o, show) : differences(w, o, show)))
		return -1;
	return 0;
}

int report_replay(struct vms_window *ctx, struct out *o)
{
	return vms_report_replay(ctx, o, 10);
}
