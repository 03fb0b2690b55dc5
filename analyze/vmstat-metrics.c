// SPDX-License-Identifier: GPL-2.0
/*
 * vmstat-metrics.c - the mmtests-style reclaim metrics (MonitorMmtestsvmstat
 * definitions) of a run's window, as a list shared by `vmscope report`'s
 * vmstat section and `vmscope compare` (see vmstat-metrics.h).
 *
 * Formulas (every counter is its delta: the last vmstat sample at or before
 * the end of the window minus the last at or before its start, the first
 * sample when none is before; T = seconds between those two samples):
 *   efficiency % = 100 * pgsteal / pgscan (undefined when nothing was scanned)
 *   velocity     = pgscan / T
 *   % direct     = 100 * pgscan_direct / (pgscan_direct + pgscan_kswapd)
 *   other reclaim (memcg limit) = pgscan_anon + pgscan_file - pgscan_kswapd
 *                  - pgscan_direct - pgscan_khugepaged - pgscan_proactive
 *   page writes file = nr_vmscan_write - pswpout (undefined when negative)
 *
 * A value with no meaning (a ratio of nothing, a difference of two counters
 * that came out negative) is unavailable with @undefined saying why, never a
 * made-up 100 or 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "vmstat-metrics.h"
#include "vms-strmap.h"

#define NOTHING_SCANNED "nothing was scanned (an efficiency of nothing)"

struct deltas {
	struct strmap map;	/* counter name -> long long * delta */
	double span;		/* T, seconds */
	int samples;		/* counters found in both samples */
};

/* The deltas of every counter of @source and @scope over the window. */
static int load_deltas(struct vms_window *ctx, const char *source, const char *scope,
		       struct deltas *d)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"WITH ids AS (SELECT"
		" COALESCE((SELECT id FROM counter_sample WHERE source = ?3 AND scope = ?4"
		"           AND ts <= ?1 ORDER BY ts DESC LIMIT 1),"
		"          (SELECT id FROM counter_sample WHERE source = ?3 AND scope = ?4"
		"           ORDER BY ts LIMIT 1)) AS a,"
		" (SELECT id FROM counter_sample WHERE source = ?3 AND scope = ?4 AND ts <= ?2"
		"  ORDER BY ts DESC LIMIT 1) AS z)"
		" SELECT va.name, vz.value - va.value,"
		"  (SELECT ts FROM counter_sample WHERE id = ids.z) -"
		"  (SELECT ts FROM counter_sample WHERE id = ids.a)"
		" FROM ids JOIN counter_value va ON va.sample = ids.a"
		" JOIN counter_value vz ON vz.sample = ids.z AND vz.name = va.name");
	int rc;

	strmap_init(&d->map);
	d->span = 0;
	d->samples = 0;
	if (!st)
		return -1;
	sqlite3_bind_text(st, 3, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, scope, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		struct strmap_entry *e = name ? strmap_get(&d->map, name, strlen(name)) : NULL;
		long long *v = malloc(sizeof(*v));

		if (!name) {
			free(v);
			continue;
		}
		if (!e || !v) {
			free(v);
			sqlite3_finalize(st);
			return vms_error("out of memory");
		}
		*v = sqlite3_column_int64(st, 1);
		free(e->value);
		e->value = v;
		d->span = sqlite3_column_int64(st, 2) / 1e9;
		d->samples++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s: %s", vms_db_path(ctx->db), sqlite3_errmsg(ctx->sql));
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

/* get(), remembering the first counter that is missing in *missing. */
static int need(const struct deltas *d, const char *name, long long *v, const char **missing)
{
	if (get(d, name, v))
		return 1;
	if (!*missing)
		*missing = name;
	return 0;
}

/* Return: the metric added, NULL when the list is full. */
static struct vmstat_metric *add(struct vmstat_metrics *out, const char *label, const char *formula,
				 enum vmstat_metric_kind kind, int available, double value,
				 const char *missing)
{
	struct vmstat_metric *m;

	if (out->n >= VMSTAT_METRICS_MAX)
		return NULL;
	m = &out->m[out->n++];
	m->label = label;
	m->formula = formula;
	m->kind = kind;
	m->available = available;
	m->value = available ? value : 0;
	m->missing = available ? NULL : missing;
	m->undefined = NULL;
	return m;
}

/* add() of a value that all its counters give but that means nothing: '-' and @why. */
static void add_undefined(struct vmstat_metrics *out, const char *label, const char *formula,
			  enum vmstat_metric_kind kind, int have, int defined, double value,
			  const char *missing, const char *why)
{
	struct vmstat_metric *m = add(out, label, formula, kind, have && defined, value, missing);

	if (m && have && !defined)
		m->undefined = why;
}

/* One counter's delta; @alt is its name on older kernels (workingset_refault before 5.9). */
static void add_delta(struct vmstat_metrics *out, const struct deltas *d, const char *label,
		      const char *name, const char *alt)
{
	long long v = 0;
	int have = get(d, name, &v) || (alt && get(d, alt, &v));

	add(out, label, name, VMSTAT_COUNT, have, (double)v, name);
}

int vmstat_counter_metrics(struct vms_window *ctx, struct vmstat_metrics *out)
{
	long long sk = 0, sd = 0, rk = 0, rd = 0, a = 0, b = 0, x = 0, k2 = 0, p2 = 0;
	const char *miss;
	struct deltas d;
	int hk, hd, have;

	memset(out, 0, sizeof(*out));
	if (load_deltas(ctx, "vmstat", "", &d)) {
		strmap_release(&d.map, free);
		return -1;
	}
	out->has_samples = d.samples > 0;
	out->span = d.span;
	hk = get(&d, "pgscan_kswapd", &sk);
	hd = get(&d, "pgscan_direct", &sd);

	add_delta(out, &d, "Direct pages scanned", "pgscan_direct", NULL);
	add_delta(out, &d, "Kswapd pages scanned", "pgscan_kswapd", NULL);
	add_delta(out, &d, "Kswapd pages reclaimed", "pgsteal_kswapd", NULL);
	add_delta(out, &d, "Direct pages reclaimed", "pgsteal_direct", NULL);

	miss = NULL;
	have = need(&d, "pgscan_kswapd", &sk, &miss) & need(&d, "pgsteal_kswapd", &rk, &miss);
	add_undefined(out, "Kswapd efficiency %", "100*pgsteal_kswapd/pgscan_kswapd", VMSTAT_PERCENT,
		      have, sk > 0, sk ? 100.0 * rk / sk : 0, miss, NOTHING_SCANNED);
	add(out, "Kswapd velocity (pages/s)", "pgscan_kswapd/T", VMSTAT_RATE, hk && d.span > 0,
	    d.span > 0 ? sk / d.span : 0, hk ? NULL : "pgscan_kswapd");
	miss = NULL;
	have = need(&d, "pgscan_direct", &sd, &miss) & need(&d, "pgsteal_direct", &rd, &miss);
	add_undefined(out, "Direct efficiency %", "100*pgsteal_direct/pgscan_direct", VMSTAT_PERCENT,
		      have, sd > 0, sd ? 100.0 * rd / sd : 0, miss, NOTHING_SCANNED);
	add(out, "Direct velocity (pages/s)", "pgscan_direct/T", VMSTAT_RATE, hd && d.span > 0,
	    d.span > 0 ? sd / d.span : 0, hd ? NULL : "pgscan_direct");
	miss = NULL;
	have = need(&d, "pgscan_direct", &sd, &miss) & need(&d, "pgscan_kswapd", &sk, &miss);
	add_undefined(out, "Percentage direct scans", "100*pgscan_direct/(pgscan_direct+pgscan_kswapd)",
		      VMSTAT_PERCENT, have, sk + sd > 0, sk + sd ? 100.0 * sd / (sk + sd) : 0, miss,
		      "neither kswapd nor direct reclaim scanned a page (a share of nothing)");

	add_delta(out, &d, "Pages scanned anon (all reclaimers)", "pgscan_anon", NULL);
	add_delta(out, &d, "Pages scanned file (all reclaimers)", "pgscan_file", NULL);
	add_delta(out, &d, "Pages reclaimed anon", "pgsteal_anon", NULL);
	add_delta(out, &d, "Pages reclaimed file", "pgsteal_file", NULL);
	/* memcg limit reclaim is in pgscan_anon/file but not in pgscan_kswapd/direct */
	miss = NULL;
	have = need(&d, "pgscan_anon", &a, &miss) & need(&d, "pgscan_file", &b, &miss) &
	       need(&d, "pgscan_kswapd", &sk, &miss) & need(&d, "pgscan_direct", &sd, &miss);
	get(&d, "pgscan_khugepaged", &k2);
	get(&d, "pgscan_proactive", &p2);
	add(out, "Pages scanned by other reclaim (memcg limit)",
	    "pgscan_anon+pgscan_file-pgscan_kswapd-pgscan_direct-pgscan_khugepaged-pgscan_proactive",
	    VMSTAT_COUNT, have, (double)(a + b - sk - sd - k2 - p2), miss);

	add_delta(out, &d, "Page writes by reclaim", "nr_vmscan_write", NULL);
	miss = NULL;
	have = need(&d, "nr_vmscan_write", &a, &miss) & need(&d, "pswpout", &b, &miss);
	add_undefined(out, "Page writes file", "nr_vmscan_write-pswpout", VMSTAT_COUNT, have, a >= b,
		      (double)(a - b), miss,
		      "negative: nr_vmscan_write is a node counter whose per-CPU parts /proc/vmstat "
		      "had not all folded in when sampled, pswpout an exact event count");
	add(out, "Page writes anon", "pswpout", VMSTAT_COUNT, have, (double)b, miss);
	add_delta(out, &d, "Page reclaim immediate", "nr_vmscan_immediate_reclaim", NULL);
	add_delta(out, &d, "Slabs scanned", "slabs_scanned", NULL);
	add_delta(out, &d, "Direct inode steals", "pginodesteal", NULL);
	add_delta(out, &d, "Kswapd inode steals", "kswapd_inodesteal", NULL);
	add_delta(out, &d, "Swap ins", "pswpin", NULL);
	add_delta(out, &d, "Swap outs", "pswpout", NULL);
	add_delta(out, &d, "Refaults file", "workingset_refault_file", "workingset_refault");
	add_delta(out, &d, "Refaults anon", "workingset_refault_anon", NULL);
	add_delta(out, &d, "Refault activations file", "workingset_activate_file", "workingset_activate");
	add_delta(out, &d, "Refault activations anon", "workingset_activate_anon", NULL);
	add_delta(out, &d, "Refault restores file", "workingset_restore_file", "workingset_restore");
	have = get_prefix(&d, "allocstall", &x);	/* before reading x: argument order is unspecified */
	add(out, "Allocation stalls", "sum of allocstall_*", VMSTAT_COUNT, have, (double)x,
	    "allocstall_*");
	add_delta(out, &d, "Compaction stalls", "compact_stall", NULL);
	add_delta(out, &d, "Kswapd runs (balance_pgdat)", "pageoutrun", NULL);
	add_delta(out, &d, "Kswapd low wmark hit quickly", "kswapd_low_wmark_hit_quickly", NULL);
	add_delta(out, &d, "Kswapd high wmark hit quickly", "kswapd_high_wmark_hit_quickly", NULL);
	add_delta(out, &d, "Active list scanned (pgrefill)", "pgrefill", NULL);
	add_delta(out, &d, "Pages deactivated", "pgdeactivate", NULL);
	add_delta(out, &d, "Pages activated", "pgactivate", NULL);
	add_delta(out, &d, "Pages rotated", "pgrotated", NULL);
	add(out, "Elapsed (T)", "s between the two samples", VMSTAT_SECONDS, d.span > 0, d.span, NULL);
	if (!out->has_samples)
		for (int i = 0; i < out->n; i++)
			out->m[i].missing = NULL;
	strmap_release(&d.map, free);
	return 0;
}

/* A memory.stat counter: its name on cgroup v2 / v1 (local), then the v1 hierarchical one. */
static int get_memcg(const struct deltas *d, const char *name, long long *v)
{
	char total[64];

	if (get(d, name, v))
		return 1;
	snprintf(total, sizeof(total), "total_%s", name);
	return get(d, total, v);
}

int vmstat_memcg_metrics(struct vms_window *ctx, const char *scope, struct vmstat_metrics *out)
{
	static const struct {
		const char *label, *name, *alt;	/* alt: the name before 5.9 */
	} rows[] = {
		{ "Refaults file", "workingset_refault_file", "workingset_refault" },
		{ "Refaults anon", "workingset_refault_anon", NULL },
		{ "Refault activations file", "workingset_activate_file", "workingset_activate" },
		{ "Refault activations anon", "workingset_activate_anon", NULL },
		{ "Refault restores file", "workingset_restore_file", "workingset_restore" },
		{ "Major faults", "pgmajfault", NULL },
		{ "Pages scanned", "pgscan", NULL },
		{ "Pages reclaimed", "pgsteal", NULL },
		{ "Kswapd pages scanned", "pgscan_kswapd", NULL },
		{ "Direct pages scanned", "pgscan_direct", NULL },
		{ "Proactive pages scanned", "pgscan_proactive", NULL },
		{ "Pages scanned anon", "pgscan_anon", NULL },
		{ "Pages scanned file", "pgscan_file", NULL },
		{ "Swap outs", "pswpout", NULL },
		{ "Swap ins", "pswpin", NULL },
		{ "Pages paged out (v1 pgpgout)", "pgpgout", NULL },
	};
	struct deltas d;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (load_deltas(ctx, "memcg", scope, &d)) {
		strmap_release(&d.map, free);
		return -1;
	}
	out->has_samples = d.samples > 0;
	out->span = d.span;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		long long v = 0;
		int have = get_memcg(&d, rows[i].name, &v) ||
			   (rows[i].alt && get_memcg(&d, rows[i].alt, &v));

		add(out, rows[i].label, rows[i].name, VMSTAT_COUNT, have, (double)v, rows[i].name);
	}
	strmap_release(&d.map, free);
	return 0;
}

/* Who scanned what: kswapd (the kswapd_pid view, 920-kswapd.sql) or other tasks. */
#define WHO "CASE WHEN s.pid IN (SELECT pid FROM kswapd_pid) THEN 'kswapd' ELSE 'other tasks' END AS who"

/*
 * Add the mm_vmscan_lru_shrink_inactive sums of buckets b_lo..b_hi
 * (inactive_bucket), or with @e of that edge's raw rows, to @v.
 */
static int sum_inactive(struct vms_window *ctx, const struct report_edge *e, long long b_lo,
			long long b_hi, long long v[2][4])
{
	sqlite3_stmt *st;
	int rc, i, empty = 0;

	if (e)
		st = report_prepare_edge(ctx,
			"SELECT " WHO ", SUM(s.nr_scanned), SUM(s.nr_reclaimed),"
			" SUM(CASE WHEN s.reclaim_flags & 1 THEN s.nr_scanned ELSE 0 END),"
			" SUM(CASE WHEN s.reclaim_flags & 2 THEN s.nr_scanned ELSE 0 END)"
			" FROM mm_vmscan_lru_shrink_inactive s"
			" WHERE s.ts BETWEEN ?1 AND ?2 AND s.seq BETWEEN ?3 AND ?4 GROUP BY who",
			"mm_vmscan_lru_shrink_inactive", e, &empty);
	else if ((st = vms_window_prepare(ctx,
			"SELECT " WHO ", SUM(s.nr_scanned), SUM(s.nr_reclaimed), SUM(s.scanned_anon),"
			" SUM(s.scanned_file) FROM inactive_bucket s"
			" WHERE s.bucket BETWEEN ?3 AND ?4 GROUP BY who"))) {
		sqlite3_bind_int64(st, 3, b_lo);
		sqlite3_bind_int64(st, 4, b_hi);
	}
	if (!st)
		return empty ? 0 : -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		i = !strcmp((const char *)sqlite3_column_text(st, 0), "kswapd") ? 0 : 1;
		for (int k = 0; k < 4; k++)
			v[i][k] += sqlite3_column_int64(st, k + 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s: %s", vms_db_path(ctx->db),
						  sqlite3_errmsg(ctx->sql));
}

int vmstat_trace_metrics(struct vms_window *ctx, struct vmstat_metrics *out)
{
	static const char *const labels[2][5] = {
		{ "Trace: kswapd pages scanned", "Trace: kswapd pages reclaimed",
		  "Trace: kswapd efficiency %", "Trace: kswapd anon pages scanned",
		  "Trace: kswapd file pages scanned" },
		{ "Trace: other tasks pages scanned", "Trace: other tasks pages reclaimed",
		  "Trace: other tasks efficiency %", "Trace: other tasks anon pages scanned",
		  "Trace: other tasks file pages scanned" },
	};
	long long v[2][4] = { { 0 } };
	long long lo = ctx->from > ctx->run_start ? ctx->from : ctx->run_start;
	long long hi = ctx->to < ctx->run_end ? ctx->to : ctx->run_end;
	struct report_split sp;
	int i;

	memset(out, 0, sizeof(*out));
	report_split(ctx, ctx->from, ctx->to, &sp);
	if (sum_inactive(ctx, NULL, sp.b_lo, sp.b_hi, v))
		return -1;
	for (i = 0; i < sp.nedge; i++)
		if (sum_inactive(ctx, &sp.edge[i], 0, 0, v))
			return -1;
	out->span = hi > lo ? (hi - lo) / 1e9 : 0;
	for (i = 0; i < 2; i++) {
		add(out, labels[i][0], "sum of nr_scanned", VMSTAT_COUNT, 1, (double)v[i][0], NULL);
		add(out, labels[i][1], "sum of nr_reclaimed", VMSTAT_COUNT, 1, (double)v[i][1], NULL);
		add_undefined(out, labels[i][2], "100*nr_reclaimed/nr_scanned", VMSTAT_PERCENT, 1,
			      v[i][0] > 0, v[i][0] ? 100.0 * v[i][1] / v[i][0] : 0, NULL,
			      NOTHING_SCANNED);
		add(out, labels[i][3], "sum of nr_scanned with RECLAIM_WB_ANON", VMSTAT_COUNT, 1,
		    (double)v[i][2], NULL);
		add(out, labels[i][4], "sum of nr_scanned with RECLAIM_WB_FILE", VMSTAT_COUNT, 1,
		    (double)v[i][3], NULL);
	}
	return 0;
}
