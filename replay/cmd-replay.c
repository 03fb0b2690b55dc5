// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-replay.c - `vmscope replay`: rebuild the reclaim decisions of a run,
 * feed them through policies (the kernel's own logic of other versions, or
 * a user's plugin), and report where and how much each would have decided
 * differently, with the baseline's agreement as the replayer's credibility.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "cli.h"
#include "replay.h"
#include "vms-table.h"

static const char replay_usage[] =
	"usage: vmscope replay DB [--policy P]... [options]\n"
	"\n"
	"Rebuild each reclaim decision of a run (passes of kswapd, direct and memcg\n"
	"reclaim, kswapd runs) with its inputs, run them through policies, and report\n"
	"where each would have decided differently from the recorded kernel. Results\n"
	"are stored in the tables decision and replay_result of DB.\n"
	"\n"
	"  -p, --policy P   a built-in policy NAME or a plugin PATH.so, with optional\n"
	"                   parameters: NAME:key=value,... (repeatable; default: all\n"
	"                   built-in policies)\n"
	"      --list       list the built-in policies and exit\n"
	"      --format F   text (default), csv or json\n"
	"      --show N     differences listed per policy (default 10)\n"
	"      --bench R    time R rounds of every policy over the decisions in\n"
	"                   memory (nothing stored) and print decisions per second\n"
	"  -h, --help       this help\n"
	"\n"
	"Exit status: 0 done; 1 DB unreadable or a policy failed to load; 2 usage\n"
	"error. See docs/replay.md.\n";

static void list_policies(void)
{
	int i;

	for (i = 0; i < builtin_npolicies; i++)
		printf("%-24s %-18s %s\n", builtin_policies[i]->name, builtin_policies[i]->kernels,
		       builtin_policies[i]->description);
}

static int agreement_table(struct out *o, struct policy_instance *base, const struct eval_totals *t)
{
	struct table *tb = table_new("replay", "agreement",
				     "Baseline agreement with the recorded kernel");
	int q;

	if (!tb)
		return vms_error("out of memory");
	table_column(tb, "question", NULL, 0);
	table_column(tb, "asked", NULL, 0);
	table_column(tb, "decidable", NULL, 0);
	table_column(tb, "agreed", NULL, 0);
	table_column(tb, "agreement", "%", 1);
	for (q = 0; q < 5; q++) {
		long long dec = t->asked[q] - t->undecidable[q];

		table_row(tb);
		table_text(tb, question_names[q]);
		table_int(tb, t->asked[q]);
		table_int(tb, dec);
		table_int(tb, t->agreed[q]);
		if (dec)
			table_real(tb, 100.0 * t->agreed[q] / dec);
		else
			table_null(tb);
	}
	table_note(tb, "policy %s; a decision is undecidable when the recording cannot tell the "
		   "kernel's choice (e.g. no shrinker event: not called, or nothing to free)",
		   base->label);
	table_note(tb, "the residual: inputs are sampled (counter samples up to one interval "
		   "old; list sizes move by the millisecond), memcg reclaim without a sampled memcg "
		   "is judged on node-wide lists, the refault snapshot and the anon/file cost are "
		   "models; see the firmness column of replay_result");
	out_table(o, tb);
	table_free(tb);
	return 0;
}

static int policy_rows(struct out *o, struct vms_db *db, int show)
{
	static const char summary_sql[] =
		"SELECT policy, question, COUNT(*), SUM(agrees = 0), SUM(agrees IS NULL),"
		" SUM(CASE WHEN agrees = 0 THEN pages END),"
		" SUM(agrees = 0 AND firmness IN ('exact', 'sampled')),"
		" SUM(agrees = 0 AND firmness IN ('inferred', 'unknown'))"
		" FROM replay_result GROUP BY policy, question ORDER BY MIN(rowid), question";
	static const char diff_sql[] =
		"WITH r AS (SELECT rowid AS rid, *, ROW_NUMBER() OVER (PARTITION BY policy"
		"  ORDER BY rowid) AS n FROM replay_result WHERE agrees = 0)"
		" SELECT r.policy, (d.ts - (SELECT MIN(ts) FROM decision)) / 1e9, d.reclaimer, d.pid,"
		" d.priority, r.question, r.kernel, r.policy_answer, r.pages, r.firmness"
		" FROM r JOIN decision d ON d.id = r.decision WHERE r.n <= ?1 ORDER BY r.rid";
	static const char who_sql[] =
		"SELECT r.policy, r.question, d.reclaimer, COUNT(*), SUM(r.agrees = 0)"
		" FROM replay_result r JOIN decision d ON d.id = r.decision WHERE r.agrees IS NOT NULL"
		" GROUP BY 1, 2, 3 ORDER BY MIN(r.rowid), 2, 3";
	sqlite3 *sql = vms_db_sql(db);
	struct table *t;
	sqlite3_stmt *st;
	int i, rc;

	/* summary per policy and question */
	t = table_new("replay", "policies", "Where each policy differs from the recorded kernel");
	if (!t || sqlite3_prepare_v2(sql, summary_sql, -1, &st, NULL)) {
		table_free(t);
		return vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(sql));
	}
	table_column(t, "policy", NULL, 0);
	table_column(t, "question", NULL, 0);
	table_column(t, "asked", NULL, 0);
	table_column(t, "differs", NULL, 0);
	table_column(t, "undecidable", NULL, 0);
	table_column(t, "pages at stake", NULL, 0);
	table_column(t, "firm", NULL, 0);
	table_column(t, "soft", NULL, 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		table_row(t);
		table_text(t, (const char *)sqlite3_column_text(st, 0));
		table_text(t, (const char *)sqlite3_column_text(st, 1));
		for (i = 2; i < 8; i++)
			if (sqlite3_column_type(st, i) == SQLITE_NULL)
				table_null(t);
			else
				table_int(t, sqlite3_column_int64(st, i));
	}
	sqlite3_finalize(st);
	table_note(t, "pages at stake: for scan_balance the pages the policy would have scanned "
		   "from anon instead of file (or the anon pages the kernel scanned that it would "
		   "not have); for deactivation the active list's target at that priority");
	table_note(t, "firm: differences resting on exact or sampled inputs; soft: on inferred "
		   "(modelled) or unknown inputs");
	out_table(o, t);
	table_free(t);

	/* against the baseline: what each policy changes relative to 6.18 */
	t = table_new("replay", "vs-baseline", "Where each policy decides differently from the baseline");
	if (!t || sqlite3_prepare_v2(sql, "SELECT b.policy, b.question, a.policy_answer, b.policy_answer,"
				     " COUNT(*), SUM(b.pages) FROM replay_result a JOIN replay_result b"
				     " ON a.decision = b.decision AND a.question = b.question"
				     " WHERE a.policy = 'v6.18' AND b.policy != 'v6.18'"
				     " AND a.policy_answer != b.policy_answer"
				     " GROUP BY 1, 2, 3, 4 ORDER BY MIN(b.rowid), 2, 5 DESC", -1, &st, NULL)) {
		table_free(t);
		return vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(sql));
	}
	table_column(t, "policy", NULL, 0);
	table_column(t, "question", NULL, 0);
	table_column(t, "baseline", NULL, 0);
	table_column(t, "policy answer", NULL, 0);
	table_column(t, "decisions", NULL, 0);
	table_column(t, "pages at stake", NULL, 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		table_row(t);
		for (i = 0; i < 4; i++)
			table_text(t, (const char *)sqlite3_column_text(st, i));
		table_int(t, sqlite3_column_int64(st, 4));
		if (sqlite3_column_type(st, 5) == SQLITE_NULL)
			table_null(t);
		else
			table_int(t, sqlite3_column_int64(st, 5));
	}
	sqlite3_finalize(st);
	table_note(t, "decisions where the policy's answer is not the baseline's, whatever the kernel "
		   "did; undecidable answers included");
	out_table(o, t);
	table_free(t);

	/* where: by reclaimer */
	t = table_new("replay", "by-reclaimer", "Differences by reclaimer");
	if (!t || sqlite3_prepare_v2(sql, who_sql, -1, &st, NULL)) {
		table_free(t);
		return vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(sql));
	}
	table_column(t, "policy", NULL, 0);
	table_column(t, "question", NULL, 0);
	table_column(t, "reclaimer", NULL, 0);
	table_column(t, "decidable", NULL, 0);
	table_column(t, "differs", NULL, 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		table_row(t);
		for (i = 0; i < 3; i++)
			table_text(t, (const char *)sqlite3_column_text(st, i));
		table_int(t, sqlite3_column_int64(st, 3));
		table_int(t, sqlite3_column_int64(st, 4));
	}
	sqlite3_finalize(st);
	out_table(o, t);
	table_free(t);

	/* when: the first differences of each policy */
	t = table_new("replay", "differences", "First differences of each policy");
	if (!t || sqlite3_prepare_v2(sql, diff_sql, -1, &st, NULL)) {
		table_free(t);
		return vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(sql));
	}
	sqlite3_bind_int(st, 1, show);
	table_column(t, "policy", NULL, 0);
	table_column(t, "time", "s", 6);
	table_column(t, "reclaimer", NULL, 0);
	table_column(t, "pid", NULL, 0);
	table_column(t, "priority", NULL, 0);
	table_column(t, "question", NULL, 0);
	table_column(t, "kernel", NULL, 0);
	table_column(t, "policy answer", NULL, 0);
	table_column(t, "pages", NULL, 0);
	table_column(t, "firmness", NULL, 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		table_row(t);
		table_text(t, (const char *)sqlite3_column_text(st, 0));
		table_real(t, sqlite3_column_double(st, 1));
		table_text(t, (const char *)sqlite3_column_text(st, 2));
		table_int(t, sqlite3_column_int64(st, 3));
		table_int(t, sqlite3_column_int64(st, 4));
		for (i = 5; i < 8; i++)
			table_text(t, (const char *)sqlite3_column_text(st, i));
		if (sqlite3_column_type(st, 8) == SQLITE_NULL)
			table_null(t);
		else
			table_int(t, sqlite3_column_int64(st, 8));
		table_text(t, (const char *)sqlite3_column_text(st, 9));
	}
	sqlite3_finalize(st);
	table_note(t, "time: seconds from the first decision; all differences are in table "
		   "replay_result (agrees = 0)");
	out_table(o, t);
	table_free(t);
	return 0;
}

/*
 * Decisions per second of each policy, evaluated in memory, and the ratio
 * to a reference: the same loop with the baseline, measured in the same run.
 * Each policy is timed @rounds times; the median round is reported.
 */
static int bench(const struct decision *all, long n, struct policy_instance *pols, int npols,
		 int rounds)
{
	double *times = calloc(rounds, sizeof(*times)), base = 0;
	int i, r;

	if (!times)
		return error("out of memory");
	printf("%-28s %14s %10s  (%ld decisions, median of %d rounds)\n", "policy", "decisions/s",
	       "vs v6.18", n, rounds);
	for (i = 0; i < npols; i++) {
		for (r = 0; r < rounds; r++) {
			times[r] = evaluate_bench(all, n, &pols[i], 1);
			for (int k = r; k > 0 && times[k] < times[k - 1]; k--) {
				double t = times[k];

				times[k] = times[k - 1];
				times[k - 1] = t;
			}
		}
		if (!i)
			base = times[rounds / 2];
		printf("%-28s %14.0f %10.2f\n", pols[i].label,
		       times[rounds / 2] > 0 ? n / times[rounds / 2] : 0.0,
		       base > 0 ? times[rounds / 2] / base : 0.0);
	}
	free(times);
	return 0;
}

int cmd_replay(int argc, const char **argv)
{
	struct policy_instance *pols = calloc(argc + builtin_npolicies + 1, sizeof(*pols));
	const char **specs = calloc(argc + builtin_npolicies + 1, sizeof(*specs));
	int nspecs = 0, npols = 0, show = 10, rc = 1, i;
	enum out_format fmt = OUT_TEXT;
	struct eval_totals tot, base_tot;
	const char *path = NULL;
	struct vms_db *db = NULL;
	struct decision *all = NULL;
	struct out *o = NULL;
	int bench_rounds = 0;
	long n, nall = 0;

	if (!pols || !specs) {
		free(pols);
		free(specs);
		return error("out of memory");
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (is_help(a)) {
			rc = show_help(replay_usage);
			goto out;
		} else if (!strcmp(a, "--list")) {
			list_policies();
			rc = 0;
			goto out;
		} else if ((!strcmp(a, "-p") || !strcmp(a, "--policy")) && i + 1 < argc) {
			specs[nspecs++] = argv[++i];
		} else if (!strcmp(a, "--format") && i + 1 < argc) {
			a = argv[++i];
			if (out_format_parse(a, &fmt)) {
				rc = usage_error(replay_usage, "--format takes text, csv or json, not '%s'", a);
				goto out;
			}
		} else if (!strcmp(a, "--bench") && i + 1 < argc) {
			char *end;

			bench_rounds = (int)strtol(argv[++i], &end, 10);
			if (*end || bench_rounds < 1) {
				rc = usage_error(replay_usage, "--bench takes a number of rounds, not '%s'",
						 argv[i]);
				goto out;
			}
		} else if (!strcmp(a, "--show") && i + 1 < argc) {
			char *end;

			show = (int)strtol(argv[++i], &end, 10);
			if (*end || show < 0) {
				rc = usage_error(replay_usage, "--show takes a number, not '%s'", argv[i]);
				goto out;
			}
		} else if (a[0] == '-') {
			rc = usage_error(replay_usage, "unknown or incomplete option '%s'", a);
			goto out;
		} else if (!path) {
			path = a;
		} else {
			rc = usage_error(replay_usage, "one database at a time ('%s')", a);
			goto out;
		}
	}
	if (!path) {
		rc = usage_error(replay_usage, "no database given");
		goto out;
	}
	if (policies_check(builtin_policies, builtin_npolicies)) {
		rc = error_last();
		goto out;
	}
	/* the baseline always runs first: its agreement is the replayer's credibility */
	if (policy_open("v6.18", &pols[npols++])) {
		rc = error_last();
		goto out;
	}
	if (!nspecs)
		for (i = 1; i < builtin_npolicies; i++)
			specs[nspecs++] = builtin_policies[i]->name;
	for (i = 0; i < nspecs; i++) {
		if (!strcmp(specs[i], "v6.18"))
			continue;
		if (policy_open(specs[i], &pols[npols])) {
			rc = error_last();
			goto out;
		}
		npols++;
	}
	db = vms_db_open(path, 0);
	if (!db) {
		rc = error_last();
		goto out;
	}
	if (vms_db_apply_schema_file(db, "007-replay.sql") || vms_db_exec(db, "BEGIN")) {
		rc = error_last();
		goto out;
	}
	n = decisions_build(db);
	if (n < 0) {
		rc = error_last();
		goto out;
	}
	if (decisions_load(db, &all, &nall)) {
		rc = error_last();
		goto out;
	}
	if (bench_rounds) {
		rc = bench(all, nall, pols, npols, bench_rounds);
		goto out;
	}
	for (i = 0; i < npols; i++) {
		if (evaluate_policy(db, all, nall, &pols[i], i ? &tot : &base_tot)) {
			rc = error("policy '%s': %s", pols[i].label, vms_last_error());
			goto out;
		}
	}
	if (vms_db_exec(db, "COMMIT")) {
		rc = error_last();
		goto out;
	}
	note("%ld decision records rebuilt from %s", n, path);
	o = out_open(stdout, fmt);
	if (!o || agreement_table(o, &pols[0], &base_tot) || policy_rows(o, db, show)) {
		rc = error_last();
		goto out;
	}
	rc = out_close(o) ? error("cannot write to standard output") : 0;
	o = NULL;
out:
	if (o)
		out_close(o);
	for (i = 0; i < npols; i++)
		policy_close(&pols[i]);
	vms_db_close(db);
	free(all);
	free(pols);
	free(specs);
	return rc;
}
