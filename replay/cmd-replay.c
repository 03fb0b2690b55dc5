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
#include "replay-summary.h"
#include "vms-report.h"

/*
 * --results auto keeps every answer up to this many decisions x policies
 * (replay_summary.results): 41,666 decisions with the six built-in policies
 */
#define ALL_RESULTS_MAX_PAIRS 250000

static const struct cli_help replay_help = {
	.synopsis = { "vmscope replay DB [--policy P]... [options]", "vmscope replay --list" },
	.about = "Rebuild each reclaim decision of a run (passes of kswapd, direct and memcg\n"
		 "reclaim, kswapd runs) with its inputs, run them through policies, and report\n"
		 "where each would have decided differently from the recorded kernel. Results\n"
		 "are stored in the tables decision, replay_result and the replay_* counts of DB.\n",
	.more = "A run with no counters (a trace imported bare) is judged on the bounds its\n"
		"events give; table from-trace says which answers the trace alone decides.\n\n"
		"Questions: scan_balance, deactivate_file, deactivate_anon, shrink_slab,\n"
		"kswapd_retry, mapped_once (pages kept inactive by their references, nr_ref_keep:\n"
		"the kernel's answer is in the trace, so it agrees by construction and is never\n"
		"decisive; v2.6.33-mapped-activate shows what activating them would change).\n\n"
		"Exit status: 0 done; 1 DB unreadable or a policy failed to load; 2 usage\n"
		"error. See docs/replay.md.\n",
};

/* With VMSCOPE_TIMING set: "timing: PHASE S" on stderr, seconds since the previous phase. */
static void phase_done(const char *phase, double *since)
{
	double now = vms_now();

	if (getenv("VMSCOPE_TIMING"))
		fprintf(stderr, "timing: %-24s %7.3f s\n", phase, now - *since);
	*since = now;
}

/* How replay_result keeps the answers: "all" or "differences", for @mode, @ndecisions, @npolicies. */
static const char *results_kept(const char *mode, long ndecisions, int npolicies)
{
	if (!strcmp(mode, "auto"))
		return (long long)ndecisions * npolicies <= ALL_RESULTS_MAX_PAIRS ? "all" : "differences";
	return mode;
}

/* evaluate_policies()'s word that a policy is stored: its timing (@arg: the time since). */
static void policy_done(const char *label, void *arg)
{
	phase_done(label, arg);
}

/* Evaluate every policy into the tables, counting the answers in a summary. Return: 0 or -1. */
static int evaluate_all(struct vms_db *db, const struct decision *all, long n,
			struct policy_instance *pols, int npols, const char *results, double *t)
{
	struct replay_summary *sum = summary_new(npols, n);
	const char **labels = calloc(npols, sizeof(*labels));
	struct eval_target to = { .differences_only = !strcmp(results, "differences"), .summary = sum };
	long long first_ts = 0;
	int rc = -1, i;

	if (!sum || !labels) {
		if (sum)
			vms_error("out of memory");
		goto out;
	}
	for (i = 0; i < npols; i++)
		labels[i] = pols[i].label;
	if (evaluate_policies(db, all, n, pols, npols, &to, policy_done, t))
		goto out;
	for (long k = 0; k < n; k++)
		if (!k || all[k].ts < first_ts)
			first_ts = all[k].ts;
	rc = summary_store(sum, vms_db_sql(db), labels, results, first_ts);
	phase_done("summary", t);
out:
	summary_free(sum);
	free(labels);
	return rc;
}

/*
 * Drop `decision`: the view over decision_row, or the table replays of
 * earlier builds wrote (DROP TABLE of a view, or DROP VIEW of a table, is
 * an error). Return: 0 or -1 (vms_error set).
 */
static int drop_decision(struct vms_db *db)
{
	sqlite3_stmt *st = NULL;
	int view = 0;

	if (sqlite3_prepare_v2(vms_db_sql(db), "SELECT type = 'view' FROM sqlite_master"
			       " WHERE name = 'decision'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		view = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return vms_db_exec(db, view ? "DROP VIEW decision" : "DROP TABLE IF EXISTS decision");
}

/* Is policy spec @i given again after it? */
static int given_later(const struct cli_list *specs, int i)
{
	for (int j = i + 1; j < specs->n; j++)
		if (!strcmp(specs->items[i], specs->items[j]))
			return 1;
	return 0;
}

static void list_policies(void)
{
	int i;

	for (i = 0; i < builtin_npolicies; i++)
		printf("%-24s %-18s %s\n", builtin_policies[i]->name, builtin_policies[i]->kernels,
		       builtin_policies[i]->description);
}

/* The median of @rounds timings of one evaluation of @p (@times: scratch of @rounds). */
static double median_time(const struct decision *all, long n, struct policy_instance *p,
			  int rounds, int answers_only, double *times)
{
	for (int r = 0; r < rounds; r++) {
		times[r] = evaluate_bench(all, n, p, 1, answers_only);
		for (int k = r; k > 0 && times[k] < times[k - 1]; k--) {
			double t = times[k];

			times[k] = times[k - 1];
			times[k - 1] = t;
		}
	}
	return times[rounds / 2];
}

/*
 * Decisions per second of each policy, evaluated in memory, and the ratio
 * to a reference: the same loop with the baseline, measured in the same run.
 * Each policy is timed @rounds times; the median round is reported. Twice:
 * as replay evaluates (each answer asked again with the inputs moved, for
 * its firmness), and with the answers only (the policy's own cost).
 */
static int bench(const struct decision *all, long n, struct policy_instance *pols, int npols,
		 int rounds)
{
	double *times = calloc(rounds, sizeof(*times)), base[2] = { 0, 0 };
	int i;

	if (!times)
		return error("out of memory");
	printf("%-28s %14s %10s %14s %10s  (%ld decisions, median of %d rounds)\n", "policy",
	       "decisions/s", "vs v6.18", "answers only/s", "vs v6.18", n, rounds);
	for (i = 0; i < npols; i++) {
		double t[2];

		for (int a = 0; a < 2; a++) {
			t[a] = median_time(all, n, &pols[i], rounds, a, times);
			if (!i)
				base[a] = t[a];
		}
		printf("%-28s %14.0f %10.2f %14.0f %10.2f\n", pols[i].label,
		       t[0] > 0 ? n / t[0] : 0.0, base[0] > 0 ? t[0] / base[0] : 0.0,
		       t[1] > 0 ? n / t[1] : 0.0, base[1] > 0 ? t[1] / base[1] : 0.0);
	}
	free(times);
	return 0;
}

int cmd_replay(int argc, const char **argv)
{
	struct policy_instance *pols = NULL;
	int npols = 0, show = 10, bench_rounds = 0, list = 0, rc, i;
	struct cli_list specs = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct vms_window win = { 0 };
	const char *path = NULL, *results_mode = "auto", *results;
	struct vms_db *db = NULL;
	struct decision *all = NULL;
	struct out *o = NULL;
	double t = vms_now();
	long n, nall = 0;
	const struct cli_option opts[] = {
		OPT_STRING_LIST('p', "policy", &specs, "P",
				"a built-in policy NAME or a plugin PATH.so, with optional\n"
				"parameters: NAME:key=value,... (repeatable; default: all\n"
				"built-in policies)"),
		OPT_MODE(0, "list", &list, "list the built-in policies and exit"),
		OPT_FORMAT(&fmt),
		OPT_INT(0, "show", &show, "N", "differences listed per policy (default 10)", 0, INT_MAX),
		OPT_STRING(0, "results", &results_mode, "K",
			   "answers kept in replay_result: all, differences (those\n"
			   "that differ from the kernel; counts in replay_count), or\n"
			   "auto (default: all up to 250000 decisions x policies)"),
		OPT_INT(0, "bench", &bench_rounds, "R",
			"time R rounds of every policy over the decisions in\n"
			"memory (nothing stored) and print decisions per second", 1, 1000000),
		OPT_ARG("DB", "database", &path),
		OPT_END(),
	};

	if (cli_parse_options(argc, argv, opts, &replay_help, &rc))
		goto out;
	if (list) {
		list_policies();
		goto out;
	}
	if (strcmp(results_mode, "auto") && strcmp(results_mode, "all") &&
	    strcmp(results_mode, "differences")) {
		rc = cli_usage_error(opts, &replay_help, "--results must be all, differences or auto, "
				     "not '%s'", results_mode);
		goto out;
	}
	rc = 1;
	pols = calloc(specs.n + builtin_npolicies + 1, sizeof(*pols));
	if (!pols) {
		rc = error("out of memory");
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
	if (!specs.n)
		for (i = 1; i < builtin_npolicies; i++)
			if (cli_list_add(&specs, builtin_policies[i]->name)) {
				rc = error("out of memory");
				goto out;
			}
	for (i = 0; i < specs.n; i++) {
		/*
		 * a policy given twice is evaluated once, where it was given last:
		 * its rows replaced the earlier ones before the counts, and
		 * counting it twice would double its counts
		 */
		if (!strcmp(specs.items[i], "v6.18") || given_later(&specs, i))
			continue;
		if (policy_open(specs.items[i], &pols[npols])) {
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
	/*
	 * replay rewrites its tables: drop them, as their columns may be older
	 * than the DDL. Without zeroing the freed pages (SQLite's secure_delete,
	 * on in Debian's build): the old tables are replay's own results, and
	 * zeroing them wrote (and journaled) the whole of them again, 6 s of a
	 * second replay of 10M events.
	 */
	/*
	 * A page cache of 64 MiB, not SQLite's 2 MiB: building the two indexes
	 * of replay_result over the rows of a 10M-event recording (a million)
	 * took a fifth less time with it.
	 */
	if (vms_db_exec(db, "PRAGMA secure_delete = OFF; PRAGMA cache_size = -65536") ||
	    drop_decision(db) ||
	    vms_db_exec(db, "DROP TABLE IF EXISTS replay_trivial; DROP TABLE IF EXISTS replay_result;"
			" DROP TABLE IF EXISTS decision_row; DROP TABLE IF EXISTS decision_json;"
			" DROP TABLE IF EXISTS replay_summary;"
			" DROP TABLE IF EXISTS replay_count; DROP TABLE IF EXISTS replay_trivial_count;"
			" DROP TABLE IF EXISTS replay_class_count;"
			" DROP TABLE IF EXISTS replay_vs_baseline") ||
	    vms_db_apply_schema_file(db, "007-replay.sql") ||
	    vms_db_apply_schema_file(db, "015-replay-summary.sql") ||
	    /* the results are indexed once they are all in (007-replay.sql again, below) */
	    vms_db_exec(db, "DROP INDEX replay_result_policy; DROP INDEX replay_result_decision") ||
	    vms_db_exec(db, "BEGIN")) {
		rc = error_last();
		goto out;
	}
	phase_done("open", &t);
	/* the records in memory as they are stored: not read back from the table */
	n = decisions_build(db, &all);
	if (n < 0) {
		rc = error_last();
		goto out;
	}
	nall = n;
	phase_done("build decisions", &t);
	if (bench_rounds) {
		rc = bench(all, nall, pols, npols, bench_rounds);
		goto out;
	}
	results = results_kept(results_mode, nall, npols);
	if (evaluate_all(db, all, nall, pols, npols, results, &t)) {
		rc = error_last();
		goto out;
	}
	if (vms_db_apply_schema_file(db, "007-replay.sql") || vms_db_exec(db, "COMMIT")) {
		rc = error_last();
		goto out;
	}
	phase_done("index and commit", &t);
	note("%ld decision records rebuilt from %s", n, path);
	if (!strcmp(results, "differences"))
		note("replay_result holds the answers that differ from the kernel's only; the counts "
		     "of all are in replay_count (--results all keeps every answer)");
	win.db = db;
	if (vms_window_open(&win, 0, 0, 0, 0)) {
		rc = error_last();
		goto out;
	}
	o = out_open(stdout, fmt);
	if (!o) {
		rc = error("out of memory");
		goto out;
	}
	if (vms_report_replay(&win, o, show)) {
		rc = error_last();
		goto out;
	}
	rc = out_close(o) ? error("cannot write to standard output") : 0;
	o = NULL;
	phase_done("report", &t);
out:
	if (o)
		out_close(o);
	for (i = 0; i < npols; i++)
		policy_close(&pols[i]);
	vms_db_close(db);
	free(all);
	free(pols);
	cli_list_release(&specs);
	return rc;
}
