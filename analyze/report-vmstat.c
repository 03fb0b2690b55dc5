// SPDX-License-Identifier: GPL-2.0
/*
 * report-vmstat.c - the 'vmstat' section of `vmscope report`: the table
 * kernel changelogs quote (mmtests' MonitorMmtestsvmstat definitions) from
 * /proc/vmstat deltas over the window. A counter this kernel lacks is shown
 * as unavailable, never as 0. A run without counter samples (an imported
 * trace) gets the rows the trace itself can give, named as such.
 *
 * Formulas (every counter is its delta: the last sample in the window minus
 * the sample at its start; T = seconds between those two samples):
 *   efficiency % = 100 * pgsteal / pgscan (100 when nothing was scanned)
 *   velocity     = pgscan / T
 *   % direct     = 100 * pgscan_direct / (pgscan_direct + pgscan_kswapd)
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "report.h"
#include "../lib/strmap.h"

struct deltas {
	struct strmap map;	/* counter name -> long long * delta */
	double span;		/* T, seconds */
};

static int load_deltas(struct report_ctx *ctx, struct deltas *d)
{
	sqlite3_stmt *st = report_prepare(ctx,
		"WITH ids AS (SELECT"
		" COALESCE((SELECT id FROM counter_sample WHERE source = 'vmstat' AND scope = ''"
		"           AND ts <= ?1 ORDER BY ts DESC LIMIT 1),"
		"          (SELECT id FROM counter_sample WHERE source = 'vmstat' AND scope = ''"
		"           ORDER BY ts LIMIT 1)) AS a,"
		" (SELECT id FROM counter_sample WHERE source = 'vmstat' AND scope = '' AND ts <= ?2"
		"  ORDER BY ts DESC LIMIT 1) AS z)"
		" SELECT va.name, vz.value - va.value,"
		"  (SELECT ts FROM counter_sample WHERE id = ids.z) -"
		"  (SELECT ts FROM counter_sample WHERE id = ids.a)"
		" FROM ids JOIN counter_value va ON va.sample = ids.a"
		" JOIN counter_value vz ON vz.sample = ids.z AND vz.name = va.name");
	int rc;

	strmap_init(&d->map);
	d->span = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		struct strmap_entry *e = strmap_get(&d->map, name, strlen(name));
		long long *v = malloc(sizeof(*v));

		if (!e || !v) {
			free(v);
			sqlite3_finalize(st);
			return vms_error("out of memory");
		}
		*v = sqlite3_column_int64(st, 1);
		free(e->value);
		e->value = v;
		d->span = sqlite3_column_int64(st, 2) / 1e9;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s", sqlite3_errmsg(ctx->sql));
}

/* Return: 1 and *v when the counter exists. */
static int get(const struct deltas *d, const char *name, long long *v)
{
	struct strmap_entry *e = strmap_find(&d->map, name, strlen(name));

	if (!e)
		return 0;
	*v = *(long long *)e->value;
	return 1;
}

/* Sum of every counter starting with @prefix (allocstall_normal, ...). */
static int get_prefix(const struct deltas *d, const char *prefix, long long *v)
{
	size_t i, n = strlen(prefix);
	int found = 0;

	*v = 0;
	for (i = 0; i < d->map.size; i++) {
		const struct strmap_entry *e = &d->map.slots[i];

		if (e->key && !strncmp(e->key, prefix, n)) {
			*v += *(long long *)e->value;
			found = 1;
		}
	}
	return found;
}

static void row_value(struct table *t, const char *label, int have, double v, int is_int,
		      const char *formula)
{
	table_row(t);
	table_text(t, label);
	if (!have)
		table_null(t);
	else if (is_int)
		table_int(t, (long long)v);
	else
		table_real(t, v);
	table_text(t, formula);
}

static void delta_row(struct table *t, const struct deltas *d, const char *label,
		      const char *name, const char *alt)
{
	long long v = 0;
	int have = get(d, name, &v) || (alt && get(d, alt, &v));
	char formula[96];

	snprintf(formula, sizeof(formula), "%s", name);
	row_value(t, label, have, (double)v, 1, formula);
	if (!have)
		table_note(t, "%s: '%s' is not in this kernel's /proc/vmstat", label, name);
}

static int counter_table(struct report_ctx *ctx, struct out *o, const struct deltas *d)
{
	struct table *t = table_new("vmstat", "vmstat", "Reclaim counters (/proc/vmstat deltas)");
	long long sk = 0, sd = 0, rk = 0, rd = 0, a = 0, b = 0, x = 0;
	int hk, hd, hrk, hrd;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "metric", NULL, 0);
	table_column(t, "value", NULL, 2);
	table_column(t, "formula", NULL, 0);
	hk = get(d, "pgscan_kswapd", &sk);
	hd = get(d, "pgscan_direct", &sd);
	hrk = get(d, "pgsteal_kswapd", &rk);
	hrd = get(d, "pgsteal_direct", &rd);

	delta_row(t, d, "Direct pages scanned", "pgscan_direct", NULL);
	delta_row(t, d, "Kswapd pages scanned", "pgscan_kswapd", NULL);
	delta_row(t, d, "Kswapd pages reclaimed", "pgsteal_kswapd", NULL);
	delta_row(t, d, "Direct pages reclaimed", "pgsteal_direct", NULL);
	row_value(t, "Kswapd efficiency %", hk && hrk, sk ? 100.0 * rk / sk : 100.0, 0,
		  "100*pgsteal_kswapd/pgscan_kswapd");
	row_value(t, "Kswapd velocity (pages/s)", hk && d->span > 0, d->span > 0 ? sk / d->span : 0,
		  0, "pgscan_kswapd/T");
	row_value(t, "Direct efficiency %", hd && hrd, sd ? 100.0 * rd / sd : 100.0, 0,
		  "100*pgsteal_direct/pgscan_direct");
	row_value(t, "Direct velocity (pages/s)", hd && d->span > 0, d->span > 0 ? sd / d->span : 0,
		  0, "pgscan_direct/T");
	row_value(t, "Percentage direct scans", hk && hd, sk + sd ? 100.0 * sd / (sk + sd) : 0, 0,
		  "100*pgscan_direct/(pgscan_direct+pgscan_kswapd)");
	delta_row(t, d, "Pages scanned anon (all reclaimers)", "pgscan_anon", NULL);
	delta_row(t, d, "Pages scanned file (all reclaimers)", "pgscan_file", NULL);
	delta_row(t, d, "Pages reclaimed anon", "pgsteal_anon", NULL);
	delta_row(t, d, "Pages reclaimed file", "pgsteal_file", NULL);
	{
		/* memcg limit reclaim is in pgscan_anon/file but not in pgscan_kswapd/direct */
		long long k2 = 0, p2 = 0;
		int have = get(d, "pgscan_anon", &a) && get(d, "pgscan_file", &b) && hk && hd;

		get(d, "pgscan_khugepaged", &k2);
		get(d, "pgscan_proactive", &p2);
		row_value(t, "Pages scanned by other reclaim (memcg limit)", have,
			  (double)(a + b - sk - sd - k2 - p2), 1,
			  "pgscan_anon+pgscan_file-pgscan_kswapd-direct-khugepaged-proactive");
	}
	delta_row(t, d, "Page writes by reclaim", "nr_vmscan_write", NULL);
	{
		int have = get(d, "nr_vmscan_write", &a) && get(d, "pswpout", &b);

		row_value(t, "Page writes file", have, (double)(a - b), 1, "nr_vmscan_write-pswpout");
		row_value(t, "Page writes anon", have, (double)b, 1, "pswpout");
	}
	delta_row(t, d, "Page reclaim immediate", "nr_vmscan_immediate_reclaim", NULL);
	delta_row(t, d, "Slabs scanned", "slabs_scanned", NULL);
	delta_row(t, d, "Direct inode steals", "pginodesteal", NULL);
	delta_row(t, d, "Kswapd inode steals", "kswapd_inodesteal", NULL);
	delta_row(t, d, "Swap ins", "pswpin", NULL);
	delta_row(t, d, "Swap outs", "pswpout", NULL);
	delta_row(t, d, "Refaults file", "workingset_refault_file", "workingset_refault");
	delta_row(t, d, "Refaults anon", "workingset_refault_anon", NULL);
	delta_row(t, d, "Refault activations file", "workingset_activate_file", "workingset_activate");
	delta_row(t, d, "Refault activations anon", "workingset_activate_anon", NULL);
	delta_row(t, d, "Refault restores file", "workingset_restore_file", "workingset_restore");
	row_value(t, "Allocation stalls", get_prefix(d, "allocstall", &x), (double)x, 1,
		  "sum of allocstall_*");
	delta_row(t, d, "Compaction stalls", "compact_stall", NULL);
	delta_row(t, d, "Kswapd runs (balance_pgdat)", "pageoutrun", NULL);
	delta_row(t, d, "Kswapd low wmark hit quickly", "kswapd_low_wmark_hit_quickly", NULL);
	delta_row(t, d, "Kswapd high wmark hit quickly", "kswapd_high_wmark_hit_quickly", NULL);
	delta_row(t, d, "Active list scanned (pgrefill)", "pgrefill", NULL);
	delta_row(t, d, "Pages deactivated", "pgdeactivate", NULL);
	delta_row(t, d, "Pages activated", "pgactivate", NULL);
	delta_row(t, d, "Pages rotated", "pgrotated", NULL);
	row_value(t, "Elapsed (T)", d->span > 0, d->span, 0, "s between the two samples");
	table_note(t, "every counter in a formula is its delta between the vmstat samples at "
		   "%.3f s and %.3f s of the run (T = %.3f s)", report_rel_s(ctx, ctx->from), report_rel_s(ctx, ctx->to), d->span);
	table_note(t, "pgscan/pgsteal_kswapd|direct count global reclaim only; memcg limit reclaim "
		   "shows in pgscan_anon/file (5.8+) and in the memcg's memory.stat");
	out_table(o, t);
	table_free(t);
	return 0;
}

/* Without counters: the same quantities as far as the trace can give them. */
static int trace_table(struct report_ctx *ctx, struct out *o)
{
	sqlite3_stmt *st = report_prepare(ctx,
		"SELECT CASE WHEN t.comm LIKE 'kswapd%' THEN 'kswapd' ELSE 'other tasks' END AS who,"
		" SUM(s.nr_scanned), SUM(s.nr_reclaimed),"
		" SUM(CASE WHEN s.reclaim_flags & 1 THEN s.nr_scanned ELSE 0 END),"
		" SUM(CASE WHEN s.reclaim_flags & 2 THEN s.nr_scanned ELSE 0 END)"
		" FROM mm_vmscan_lru_shrink_inactive s"
		" LEFT JOIN (SELECT pid, MIN(comm) AS comm FROM task GROUP BY pid) t ON t.pid = s.pid"
		" WHERE s.ts BETWEEN ?1 AND ?2 GROUP BY who ORDER BY who");
	struct table *t;
	int rc;

	if (!st)
		return -1;
	t = table_new("vmstat", "trace", "Reclaim from the trace (no /proc/vmstat samples in this run)");
	if (!t) {
		sqlite3_finalize(st);
		return vms_error("out of memory");
	}
	table_column(t, "reclaimer", NULL, 0);
	table_column(t, "pages scanned", NULL, 0);
	table_column(t, "pages reclaimed", NULL, 0);
	table_column(t, "efficiency", "%", 1);
	table_column(t, "anon scanned", NULL, 0);
	table_column(t, "file scanned", NULL, 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long sc = sqlite3_column_int64(st, 1), re = sqlite3_column_int64(st, 2);

		table_row(t);
		table_text(t, (const char *)sqlite3_column_text(st, 0));
		table_int(t, sc);
		table_int(t, re);
		table_real(t, sc ? 100.0 * re / sc : 100.0);
		table_int(t, sqlite3_column_int64(st, 3));
		table_int(t, sqlite3_column_int64(st, 4));
	}
	sqlite3_finalize(st);
	table_note(t, "sums of mm_vmscan_lru_shrink_inactive nr_scanned/nr_reclaimed; 'other tasks' "
		   "holds direct and memcg reclaim");
	table_note(t, "unavailable without counters: velocities over the whole window, swap, "
		   "refaults, allocation and compaction stalls, inode steals, slabs scanned "
		   "(see the shrinkers section), page reclaim immediate");
	out_table(o, t);
	table_free(t);
	return rc == SQLITE_DONE ? 0 : vms_error("%s", sqlite3_errmsg(ctx->sql));
}

int report_vmstat(struct report_ctx *ctx, struct out *o)
{
	struct deltas d;
	int rc;

	if (!ctx->has_counters)
		return trace_table(ctx, o);
	rc = load_deltas(ctx, &d);
	if (!rc)
		rc = counter_table(ctx, o, &d);
	strmap_release(&d.map, free);
	return rc;
}
