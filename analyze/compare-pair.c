// SPDX-License-Identifier: GPL-2.0
/*
 * compare-pair.c - the table of `vmscope compare A.db B.db` (two runs, no
 * --vs): one before/after table in the layout vmscan changelogs used (metric,
 * A, B, change %): the vmstat metrics (vmstat-metrics.c, the definitions of
 * report's vmstat section), the same quantities from the trace, the
 * slab/file LRU ratio, direct/memcg/kswapd episodes and event rates per type.
 *
 * Runs may come from different kernels (different counter sets: a counter
 * one kernel lacks is '-', never 0) and be of different lengths: every total
 * is divided by its run's window (vmstat deltas by T) and labelled "per s".
 * The formulas are in docs/compare.md. Groups of runs, totals and
 * significance are the --vs form (compare-rows.c and the files it names).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "report.h"
#include "vmstat-metrics.h"
#include "compare.h"

static const char *const run_letter[2] = { "A", "B" };

struct run {
	const char *path;
	char *release;			/* run.kernel_release, NULL when unknown */
	struct vms_window ctx;
	double window;			/* s: [from, to] clamped to the run's first and last ts */
	int has_formats;		/* event_format lists the traced events (.dat, live) */
	struct vmstat_metrics vm, tr;
};

struct cmp {
	struct run r[2];
	struct table *t;
	struct vms_buf zero;		/* labels of the rows whose change is null as A = 0 */
	int nzero;
};

struct event_count {
	char *name;
	long long win[2];		/* events in the window */
	long long all[2];		/* events in the whole run */
};

/* The window of `vmscope report` (cmd-report.c's init_ctx), per run. */
static int init_run(struct run *r, double from_s, double to_s, int has_from, int has_to)
{
	struct vms_window *ctx = &r->ctx;
	long long v;

	r->window = cmp_window_open(ctx, from_s, to_s, has_from, has_to);
	if (r->window < 0)
		return -1;
	r->has_formats = vms_window_int(ctx, "SELECT 1 FROM event_format LIMIT 1", &v) == 0;
	{
		sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT kernel_release FROM run");

		if (!st)
			return -1;
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			r->release = strdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	return report_derived(ctx);
}

/* First column of the first row, with ?3 = @arg. Return: 0, 1 when no row/NULL, -1 on error. */
static int run_int(struct run *r, const char *sql, const char *arg, long long *out)
{
	sqlite3_stmt *st = vms_window_prepare(&r->ctx, sql);
	int rc;

	if (!st)
		return -1;
	if (arg)
		sqlite3_bind_text(st, 3, arg, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*out = sqlite3_column_int64(st, 0);
		rc = 0;
	} else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
		rc = 1;
	} else {
		rc = vms_error("%s: %s", r->path, sqlite3_errmsg(r->ctx.sql));
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * Was @event traced in this run? Yes when it has rows (in @tbl, or anywhere
 * when @tbl is NULL and @rows says so), when the source lists its formats and
 * this one is among them, or when the source lists none (text traces: a 0
 * may then also mean "not traced", which a note says).
 * Return: 1, 0, or -1 on error.
 */
static int traced(struct run *r, const char *event, const char *tbl, long long rows)
{
	long long v;
	int rc;

	if (!r->has_formats || rows > 0)
		return 1;
	rc = run_int(r, "SELECT 1 FROM event_format WHERE name = ?3", event, &v);
	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	if (tbl) {
		char *q = sqlite3_mprintf("SELECT 1 FROM \"%w\" LIMIT 1", tbl);

		if (!q)
			return vms_error("out of memory");
		rc = run_int(r, q, NULL, &v);
		sqlite3_free(q);
		if (rc <= 0)
			return rc < 0 ? -1 : 1;
	}
	return 0;
}

/* One row: label, A, B, change; '-' (null) for what a run cannot give. */
static void row(struct cmp *c, const char *label, const int have[2], const double v[2])
{
	table_row(c->t);
	table_text(c->t, label);
	for (int k = 0; k < 2; k++)
		if (have[k])
			table_real(c->t, v[k]);
		else
			table_null(c->t);
	if (have[0] && have[1] && v[0] != 0) {
		double ch = 100.0 * (v[1] - v[0]) / v[0];

		table_real(c->t, ch > -0.005 && ch < 0 ? 0 : ch);	/* not "-0.00" */
	} else {
		table_null(c->t);
		if (have[0] && have[1]) {
			vms_buf_addf(&c->zero, "%s%s", c->nzero ? "; " : "", label);
			c->nzero++;
		}
	}
}

static void window_row(struct cmp *c)
{
	int have[2] = { 1, 1 };
	double v[2] = { c->r[0].window, c->r[1].window };

	row(c, "Window (s)", have, v);
	for (int k = 0; k < 2; k++)
		if (c->r[k].window <= 0)
			table_note(c->t, "%s: the window holds 0 s of the run (past its end, or fewer "
				   "than two timestamps in it): its 'per s' rows from the trace are '-'",
				   run_letter[k]);
}

/* A metric of the shared lists, totals made rates. */
static void metric_row(struct cmp *c, const struct vmstat_metric *m[2], const double span[2],
		       int have[2], double v[2])
{
	char label[160];

	for (int k = 0; k < 2; k++) {
		have[k] = m[k]->available;
		v[k] = m[k]->value;
		if (m[k]->kind == VMSTAT_COUNT) {
			have[k] = have[k] && span[k] > 0;
			v[k] = have[k] ? v[k] / span[k] : 0;
		}
	}
	if (m[0]->kind == VMSTAT_COUNT)
		snprintf(label, sizeof(label), "%s per s", m[0]->label);
	else if (m[0]->kind == VMSTAT_SECONDS)
		snprintf(label, sizeof(label), "%s", "Elapsed (T, s)");
	else
		snprintf(label, sizeof(label), "%s", m[0]->label);
	row(c, label, have, v);
}

static int vmstat_rows(struct cmp *c)
{
	struct vmstat_metrics *l[2] = { &c->r[0].vm, &c->r[1].vm };
	struct vms_buf missing[2] = { { 0 }, { 0 } };
	int k, i;

	for (k = 0; k < 2; k++)
		if (vmstat_counter_metrics(&c->r[k].ctx, l[k]))
			return -1;
	if (l[0]->n != l[1]->n)
		return vms_error("internal error: vmstat metric lists differ");
	for (k = 0; k < 2; k++) {
		if (!l[k]->has_samples)
			table_note(c->t, "%s has no /proc/vmstat samples (`vmscope record` samples them; "
				   "import --counters or counters add give an imported trace its own): "
				   "its vmstat and ratio rows are '-'",
				   run_letter[k]);
		else if (l[k]->span <= 0)
			table_note(c->t, "%s: one vmstat sample in reach of the window (T = 0): its vmstat "
				   "rates are '-'", run_letter[k]);
	}
	for (i = 0; i < l[0]->n; i++) {
		const struct vmstat_metric *m[2] = { &l[0]->m[i], &l[1]->m[i] };
		const double sp[2] = { l[0]->span, l[1]->span };
		int have[2];
		double v[2];

		metric_row(c, m, sp, have, v);
		for (k = 0; k < 2; k++)
			if (m[k]->undefined)
				table_note(c->t, "%s: %s is '-': %s", run_letter[k], m[k]->label,
					   m[k]->undefined);
		for (k = 0; k < 2; k++) {
			const char *name = m[k]->missing;
			int j, seen = 0;

			if (m[k]->available || !l[k]->has_samples || !name)
				continue;
			for (j = 0; j < i && !seen; j++)
				seen = l[k]->m[j].missing && !strcmp(l[k]->m[j].missing, name);
			if (!seen)
				vms_buf_addf(&missing[k], "%s%s", missing[k].len ? ", " : "", name);
		}
	}
	for (k = 0; k < 2; k++) {
		if (missing[k].len)
			table_note(c->t, "%s: not in this kernel's /proc/vmstat, so the rows that need "
				   "them are '-': %s", run_letter[k], missing[k].buf);
		vms_buf_release(&missing[k]);
	}
	return 0;
}

static int trace_rows(struct cmp *c)
{
	int ok[2], k, i;

	for (k = 0; k < 2; k++) {
		struct run *r = &c->r[k];

		if (vmstat_trace_metrics(&r->ctx, &r->tr))
			return -1;
		/* the metrics' span is the clamped window: use ours, the same */
		r->tr.span = r->window;
		ok[k] = traced(r, "mm_vmscan_lru_shrink_inactive", "mm_vmscan_lru_shrink_inactive", 0);
		if (ok[k] < 0)
			return -1;
		if (!ok[k])
			table_note(c->t, "%s did not trace mm_vmscan_lru_shrink_inactive: its 'Trace:' "
				   "rows are '-'", run_letter[k]);
	}
	for (i = 0; i < c->r[0].tr.n; i++) {
		const struct vmstat_metric *m[2] = { &c->r[0].tr.m[i], &c->r[1].tr.m[i] };
		const double sp[2] = { c->r[0].window, c->r[1].window };
		struct vmstat_metric mm[2] = { *m[0], *m[1] };
		const struct vmstat_metric *pm[2] = { &mm[0], &mm[1] };
		int have[2];
		double v[2];

		for (k = 0; k < 2; k++)
			mm[k].available = mm[k].available && ok[k];
		metric_row(c, pm, sp, have, v);
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int episode_rows(struct cmp *c)
{
	static const struct {
		const char *name;	/* row label prefix */
		const char *what;	/* in notes */
		const char *kind;	/* episode.kind */
		const char *event;	/* its begin event, to tell "not traced" */
	} kinds[] = {
		{ "Direct reclaim", "direct reclaim", "direct", "mm_vmscan_direct_reclaim_begin" },
		{ "Memcg reclaim", "memcg reclaim", "memcg", "mm_vmscan_memcg_reclaim_begin" },
		{ "Kswapd awake", "kswapd awake", "kswapd", "mm_vmscan_kswapd_wake" },
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct cmp_episodes e[2];
		int ok[2], rate[2], dist[2], k;
		char label[96];
		double v[2];

		for (k = 0; k < 2; k++) {
			struct run *r = &c->r[k];

			if (cmp_episodes_load(&r->ctx, kinds[i].kind, &e[k]))
				return -1;
			ok[k] = traced(r, kinds[i].event, kinds[i].event, e[k].n);
			if (ok[k] < 0)
				return -1;
			rate[k] = ok[k] && r->window > 0;
			dist[k] = ok[k] && e[k].complete > 0;
			if (!ok[k])
				table_note(c->t, "%s did not trace %s: its %s rows are '-'", run_letter[k],
					   kinds[i].event, kinds[i].what);
			else if (!e[k].complete)
				table_note(c->t, "%s: no complete %s episode in the window: its %s p50, p99 "
					   "and max are '-'", run_letter[k], kinds[i].what, kinds[i].what);
		}
		snprintf(label, sizeof(label), "%s episodes per s", kinds[i].name);
		for (k = 0; k < 2; k++)
			v[k] = rate[k] ? e[k].n / c->r[k].window : 0;
		row(c, label, rate, v);
		snprintf(label, sizeof(label), "%s total duration (ms) per s", kinds[i].name);
		for (k = 0; k < 2; k++)
			v[k] = rate[k] ? e[k].total_ms / c->r[k].window : 0;
		row(c, label, rate, v);
		snprintf(label, sizeof(label), "%s p50 (ms)", kinds[i].name);
		for (k = 0; k < 2; k++)
			v[k] = e[k].p50;
		row(c, label, dist, v);
		snprintf(label, sizeof(label), "%s p99 (ms)", kinds[i].name);
		for (k = 0; k < 2; k++)
			v[k] = e[k].p99;
		row(c, label, dist, v);
		snprintf(label, sizeof(label), "%s max (ms)", kinds[i].name);
		for (k = 0; k < 2; k++)
			v[k] = e[k].max;
		row(c, label, dist, v);
		if (strcmp(kinds[i].kind, "kswapd")) {
			snprintf(label, sizeof(label), "%s pages reclaimed per s", kinds[i].name);
			for (k = 0; k < 2; k++)
				v[k] = rate[k] ? e[k].pages / c->r[k].window : 0;
			row(c, label, rate, v);
		}
	}
	return 0;
}

/* nr_slab_reclaimable / (nr_active_file + nr_inactive_file) of each vmstat sample in the window. */
static int ratio_rows(struct cmp *c)
{
	static const char *const labels[3] = {
		"Slab/file LRU ratio min", "Slab/file LRU ratio median", "Slab/file LRU ratio max"
	};
	double v[3][2] = { { 0 } };
	int have[2], k, j;

	for (k = 0; k < 2; k++) {
		struct run *r = &c->r[k];
		sqlite3_stmt *st = vms_window_prepare(&r->ctx,
			"SELECT CAST(sl.value AS REAL) / (af.value + inf.value) AS ratio"
			" FROM counter_sample s"
			" JOIN counter_value sl ON sl.sample = s.id AND sl.name = 'nr_slab_reclaimable'"
			" JOIN counter_value af ON af.sample = s.id AND af.name = 'nr_active_file'"
			" JOIN counter_value inf ON inf.sample = s.id AND inf.name = 'nr_inactive_file'"
			" WHERE s.source = 'vmstat' AND s.scope = '' AND s.ts BETWEEN ?1 AND ?2"
			" AND af.value + inf.value > 0 ORDER BY ratio");
		double *d = NULL;
		int n = 0, alloc = 0;
		int rc;

		if (!st)
			return -1;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (vms_array_reserve(&d, &alloc, n, 64, sizeof(*d))) {
				free(d);
				sqlite3_finalize(st);
				return -1;
			}
			d[n++] = sqlite3_column_double(st, 0);
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE) {
			free(d);
			return vms_error("%s: %s", r->path, sqlite3_errmsg(r->ctx.sql));
		}
		if (n)
			qsort(d, n, sizeof(*d), cmp_double);
		have[k] = n > 0;
		if (n) {
			v[0][k] = d[0];
			v[1][k] = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
			v[2][k] = d[n - 1];
		} else if (r->vm.has_samples) {
			table_note(c->t, "%s: no vmstat sample in the window has nr_slab_reclaimable, "
				   "nr_active_file and nr_inactive_file with a non-empty file LRU: its "
				   "ratio rows are '-'", run_letter[k]);
		}
		free(d);
	}
	for (j = 0; j < 3; j++)
		row(c, labels[j], have, v[j]);
	return 0;
}

static int find_event(struct event_count *ev, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(ev[i].name, name))
			return i;
	return -1;
}

static int cmp_event(const void *a, const void *b)
{
	return strcmp(((const struct event_count *)a)->name, ((const struct event_count *)b)->name);
}

/* Events per type, from every typed table (event_table) and event_generic. */
static int load_event_counts(struct run *r, int k, struct event_count **evp, int *np)
{
	struct vms_buf q = { 0 };
	sqlite3_stmt *st = vms_window_prepare(&r->ctx, "SELECT DISTINCT tbl, (SELECT COUNT(*) FROM"
					  " pragma_table_info(tbl) WHERE name = 'event') FROM event_table"
					  " ORDER BY tbl");
	int first = 1, rc;

	if (!st)
		return -1;
	vms_buf_addf(&q, "SELECT event, TOTAL(ts BETWEEN ?1 AND ?2), COUNT(*) FROM (");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *tbl = (const char *)sqlite3_column_text(st, 0);
		char *part;

		if (!tbl)
			continue;
		part = sqlite3_column_int(st, 1)
			? sqlite3_mprintf("%sSELECT event, ts FROM \"%w\"", first ? "" : " UNION ALL ", tbl)
			: sqlite3_mprintf("%sSELECT %Q AS event, ts FROM \"%w\"", first ? "" : " UNION ALL ",
					  tbl, tbl);
		if (!part) {
			sqlite3_finalize(st);
			vms_buf_release(&q);
			return vms_error("out of memory");
		}
		vms_buf_addf(&q, "%s", part);
		sqlite3_free(part);
		first = 0;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		vms_buf_release(&q);
		return vms_error("%s: %s", r->path, sqlite3_errmsg(r->ctx.sql));
	}
	vms_buf_addf(&q, "%sSELECT event, ts FROM event_generic) GROUP BY event",
		     first ? "" : " UNION ALL ");
	st = vms_window_prepare(&r->ctx, q.buf);
	vms_buf_release(&q);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		int i;

		if (!name)
			continue;
		i = find_event(*evp, *np, name);
		if (i < 0) {
			struct event_count *ev = realloc(*evp, (*np + 1) * sizeof(*ev));

			if (!ev || !(name = strdup(name))) {
				if (ev)
					*evp = ev;
				sqlite3_finalize(st);
				return vms_error("out of memory");
			}
			*evp = ev;
			i = (*np)++;
			memset(&ev[i], 0, sizeof(ev[i]));
			ev[i].name = (char *)name;
		}
		(*evp)[i].win[k] = (long long)sqlite3_column_double(st, 1);
		(*evp)[i].all[k] = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s: %s", r->path, sqlite3_errmsg(r->ctx.sql));
}

static int event_rows(struct cmp *c)
{
	struct event_count *ev = NULL;
	int n = 0, i, k, rc = 0;
	struct vms_buf untraced[2] = { { 0 }, { 0 } };

	for (k = 0; k < 2 && !rc; k++)
		rc = load_event_counts(&c->r[k], k, &ev, &n);
	if (!rc && n)
		qsort(ev, n, sizeof(*ev), cmp_event);
	for (i = 0; i < n && !rc; i++) {
		int have[2];
		double v[2];
		char *label;

		for (k = 0; k < 2; k++) {
			int t = traced(&c->r[k], ev[i].name, NULL, ev[i].all[k]);

			if (t < 0) {
				rc = -1;
				break;
			}
			if (!t)
				vms_buf_addf(&untraced[k], "%s%s", untraced[k].len ? ", " : "", ev[i].name);
			have[k] = t && c->r[k].window > 0;
			v[k] = have[k] ? ev[i].win[k] / c->r[k].window : 0;
		}
		if (rc)
			break;
		if (asprintf(&label, "Events %s per s", ev[i].name) < 0) {
			rc = vms_error("out of memory");
			break;
		}
		row(c, label, have, v);
		free(label);
	}
	for (k = 0; k < 2; k++) {
		if (!rc && untraced[k].len)
			table_note(c->t, "%s did not trace (no rows, and its event formats do not list "
				   "them), so their rows are '-': %s", run_letter[k], untraced[k].buf);
		vms_buf_release(&untraced[k]);
	}
	for (i = 0; i < n; i++)
		free(ev[i].name);
	free(ev);
	return rc;
}

/* "base.db (kernel 6.18.0)" with control characters made '?' (text titles are not escaped). */
static char *run_name(const struct run *r)
{
	char *s = NULL;

	if (asprintf(&s, "%s (kernel %s)", r->path, r->release ? r->release : "unknown") < 0)
		return NULL;
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

static void add_meta(struct out *o, struct run *r, int k)
{
	static const char *const cols[] = { "status", "source_kind", "source_path", "kernel_release",
					    "trace_clock" };
	struct vms_window *ctx = &r->ctx;
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT status, source_kind, source_path,"
					  " kernel_release, trace_clock FROM run");
	char key[32], buf[64];

	snprintf(key, sizeof(key), "%s_database", k ? "b" : "a");
	out_meta(o, key, r->path);
	if (st && sqlite3_step(st) == SQLITE_ROW)
		for (int i = 0; i < 5; i++) {
			snprintf(key, sizeof(key), "%s_%s", k ? "b" : "a", cols[i]);
			out_meta(o, key, (const char *)sqlite3_column_text(st, i));
		}
	sqlite3_finalize(st);
	snprintf(key, sizeof(key), "%s_from_s", k ? "b" : "a");
	snprintf(buf, sizeof(buf), "%.6f", vms_window_rel_s(ctx, ctx->from));
	out_meta(o, key, buf);
	snprintf(key, sizeof(key), "%s_to_s", k ? "b" : "a");
	snprintf(buf, sizeof(buf), "%.6f", vms_window_rel_s(ctx, ctx->to));
	out_meta(o, key, buf);
	snprintf(key, sizeof(key), "%s_window_s", k ? "b" : "a");
	snprintf(buf, sizeof(buf), "%.6f", r->window);
	out_meta(o, key, buf);
}

static int build(struct cmp *c)
{
	char *na = run_name(&c->r[0]), *nb = run_name(&c->r[1]), *title = NULL;
	int k;

	if (!na || !nb || asprintf(&title, "Before/after: A = %s, B = %s", na, nb) < 0) {
		free(na);
		free(nb);
		return vms_error("out of memory");
	}
	free(na);
	free(nb);
	c->t = table_new("compare", "compare", title);
	free(title);
	if (!c->t)
		return vms_error("out of memory");
	table_column(c->t, "metric", NULL, 0);
	table_column(c->t, "A", NULL, 3);
	table_column(c->t, "B", NULL, 3);
	table_column(c->t, "change", "%", 2);
	for (k = 0; k < 2; k++) {
		struct vms_window *ctx = &c->r[k].ctx;

		table_note(c->t, "%s window: %.3f s to %.3f s from the start of the run (%.3f s of it "
			   "covered by events or samples)", run_letter[k], vms_window_rel_s(ctx, ctx->from),
			   vms_window_rel_s(ctx, ctx->to), c->r[k].window);
	}
	table_note(c->t, "change (%%) = 100*(B-A)/A; rows ending in 'per s' are totals over each "
		   "run's window divided by its length (vmstat rows by T, the time between the two "
		   "vmstat samples), so that runs of different lengths compare; %% and ms rows are "
		   "not rates");
	window_row(c);
	if (vmstat_rows(c) || trace_rows(c) || ratio_rows(c) || episode_rows(c) || event_rows(c))
		return -1;
	table_note(c->t, "an efficiency of nothing scanned is '-'; 'Trace:' rows sum "
		   "mm_vmscan_lru_shrink_inactive, kswapd being the tasks whose comm starts with "
		   "'kswapd' and other tasks direct and memcg reclaim");
	if (c->nzero)
		table_note(c->t, "change is '-' (null) where A is 0, as a change from 0 has no "
			   "percentage: %s", c->zero.buf);
	for (k = 0; k < 2; k++)
		if (!c->r[k].has_formats)
			table_note(c->t, "%s is a text import, which does not list the traced events: "
				   "a 0 there may also mean that the event was not traced", run_letter[k]);
	return 0;
}

int cmp_pair_write(FILE *f, enum out_format fmt, const char *const paths[2], double from_s,
		   double to_s, int has_from, int has_to)
{
	struct cmp c = { 0 };
	struct out *o;
	int rc = 0, k;

	for (k = 0; k < 2 && !rc; k++) {
		c.r[k].path = paths[k];
		c.r[k].ctx.db = vms_db_open(paths[k], VMS_OPEN_READONLY);
		if (!c.r[k].ctx.db || init_run(&c.r[k], from_s, to_s, has_from, has_to))
			rc = vms_error("%s: %s", run_letter[k], vms_last_error());
	}
	if (!rc)
		rc = build(&c);
	if (!rc && !(o = out_open(f, fmt)))
		rc = vms_error("out of memory");
	if (!rc) {
		for (k = 0; k < 2; k++)
			add_meta(o, &c.r[k], k);
		out_meta(o, "change", "100*(B-A)/A, null when A = 0");
		out_table(o, c.t);
		if (out_close(o))
			rc = vms_error("cannot write the comparison to standard output");
	}
	for (k = 0; k < 2; k++) {
		vms_db_close(c.r[k].ctx.db);
		free(c.r[k].release);
	}
	table_free(c.t);
	vms_buf_release(&c.zero);
	return rc;
}
