// SPDX-License-Identifier: GPL-2.0
/*
 * report-refaults.c - the 'refaults' section of `vmscope report`: workingset
 * refault, activation and restore rates per sampling interval from
 * /proc/vmstat, their totals, and the reclaim that preceded the busiest
 * refault intervals (docs/report-refaults.md).
 *
 * Samples: the last /proc/vmstat sample at or before the start of the window
 * and every sample after it up to the end; an interval is two consecutive
 * samples. For a counter C over an interval of Δt seconds:
 *   rate(C) = ΔC / Δt                      (ΔC < 0: a reset, the interval is left out for C)
 *   refaults per reclaimed file page = Δworkingset_refault_file / Δpgsteal_file
 * Kernels up to 5.8 name the file counters workingset_refault, _activate and
 * _restore (file pages only: anon refaults were not detected before 5.9).
 *
 * When the run sampled a memcg's memory.stat (`record -m`), the totals are
 * given a second time from that memcg's own counters (cgroup v1 and v2 name
 * its refaults as /proc/vmstat does), each table saying its scope.
 *
 * Busiest intervals: the 5 with the highest refault rate (anon + file); for
 * each, the reclaim in the LOOKBACK seconds before its start: reclaim_interval
 * and kswapd_interval episodes overlapping [start - LOOKBACK, start), and the
 * pages mm_vmscan_lru_shrink_inactive reclaimed in that span.
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "report.h"

#define LOOKBACK_NS 1000000000LL
#define TOP 5

enum { M_REFAULT_ANON, M_REFAULT_FILE, M_ACTIVATE_ANON, M_ACTIVATE_FILE, M_RESTORE_ANON,
       M_RESTORE_FILE, M_PGSTEAL_FILE, NMETRICS };

struct metric {
	const char *label;
	const char *name, *legacy;	/* /proc/vmstat names: 5.9+ and up to 5.8 */
	const char *used;		/* the one this run has, or NULL */
};

static struct metric metrics_init[NMETRICS] = {
	{ "refault_anon", "workingset_refault_anon", NULL, NULL },
	{ "refault_file", "workingset_refault_file", "workingset_refault", NULL },
	{ "activate_anon", "workingset_activate_anon", NULL, NULL },
	{ "activate_file", "workingset_activate_file", "workingset_activate", NULL },
	{ "restore_anon", "workingset_restore_anon", NULL, NULL },
	{ "restore_file", "workingset_restore_file", "workingset_restore", NULL },
	{ "pgsteal_file", "pgsteal_file", NULL, NULL },
};

struct sample {
	long long ts;
	int have[NMETRICS];
	long long v[NMETRICS];
};

struct interval {
	long long start, end;
	double dt;			/* seconds */
	int valid[NMETRICS];		/* both samples have it and it did not go down */
	long long d[NMETRICS];
	int rankable;
	double refault_rate;		/* anon + file */
};

struct state {
	const char *source;		/* counter_sample.source: 'vmstat' or 'memcg' */
	const char *scope;		/* counter_sample.scope: '' (the machine) or the memcg */
	struct metric m[NMETRICS];
	struct sample *s;
	int ns;
	struct interval *iv;
	int niv;
	int resets[NMETRICS];
};

/* Return: 1 when @name is in any sample of @S's scope, 0 if not, -1 on error. */
static int counter_exists(struct vms_window *ctx, const struct state *S, const char *name)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT 1 FROM counter_value v JOIN counter_sample s ON s.id = v.sample"
		" WHERE s.source = ?4 AND s.scope = ?5 AND v.name = ?3 LIMIT 1");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, S->source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, S->scope, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : vms_error("%s", sqlite3_errmsg(ctx->sql));
}

static int load(struct vms_window *ctx, struct state *S)
{
	sqlite3_stmt *st;
	int i, rc, alloc = 0;

	memcpy(S->m, metrics_init, sizeof(S->m));
	for (i = 0; i < NMETRICS; i++) {
		rc = counter_exists(ctx, S, S->m[i].name);
		if (rc < 0)
			return -1;
		if (rc) {
			S->m[i].used = S->m[i].name;
			continue;
		}
		if (!S->m[i].legacy)
			continue;
		rc = counter_exists(ctx, S, S->m[i].legacy);
		if (rc < 0)
			return -1;
		if (rc)
			S->m[i].used = S->m[i].legacy;
	}
	st = vms_window_prepare(ctx,
		"SELECT s.ts,"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = ?3),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = ?4),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = ?5),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = ?6),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = ?7),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = ?8),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = ?9)"
		" FROM counter_sample s WHERE s.source = ?10 AND s.scope = ?11 AND s.ts <= ?2"
		" AND s.ts >= COALESCE((SELECT MAX(ts) FROM counter_sample WHERE source = ?10"
		"                       AND scope = ?11 AND ts <= ?1), ?1)"
		" ORDER BY s.ts, s.id");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 10, S->source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 11, S->scope, -1, SQLITE_STATIC);
	for (i = 0; i < NMETRICS; i++)
		if (S->m[i].used)
			sqlite3_bind_text(st, 3 + i, S->m[i].used, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sample *x;

		if (S->ns == alloc) {
			int n = alloc ? 2 * alloc : 256;
			struct sample *s2 = realloc(S->s, n * sizeof(*s2));

			if (!s2) {
				sqlite3_finalize(st);
				return vms_error("out of memory");
			}
			S->s = s2;
			alloc = n;
		}
		x = &S->s[S->ns++];
		x->ts = sqlite3_column_int64(st, 0);
		for (i = 0; i < NMETRICS; i++) {
			x->have[i] = sqlite3_column_type(st, 1 + i) != SQLITE_NULL;
			x->v[i] = sqlite3_column_int64(st, 1 + i);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vms_error("%s", sqlite3_errmsg(ctx->sql));

	if (S->ns < 2)
		return 0;
	S->iv = calloc(S->ns - 1, sizeof(*S->iv));
	if (!S->iv)
		return vms_error("out of memory");
	for (S->niv = 0; S->niv < S->ns - 1; S->niv++) {
		const struct sample *a = &S->s[S->niv], *b = &S->s[S->niv + 1];
		struct interval *v = &S->iv[S->niv];

		v->start = a->ts;
		v->end = b->ts;
		v->dt = (b->ts - a->ts) / 1e9;
		for (i = 0; i < NMETRICS; i++) {
			if (!a->have[i] || !b->have[i] || v->dt <= 0)
				continue;
			v->d[i] = b->v[i] - a->v[i];
			if (v->d[i] < 0) {
				S->resets[i]++;
				continue;
			}
			v->valid[i] = 1;
		}
		v->rankable = v->valid[M_REFAULT_FILE] || v->valid[M_REFAULT_ANON];
		if (v->rankable)
			v->refault_rate = ((v->valid[M_REFAULT_FILE] ? v->d[M_REFAULT_FILE] : 0) +
					   (v->valid[M_REFAULT_ANON] ? v->d[M_REFAULT_ANON] : 0)) / v->dt;
	}
	return 0;
}

static void counters_note(struct table *t, const struct state *S)
{
	struct vms_buf b = { 0 };
	int i;

	for (i = 0; i < NMETRICS; i++)
		vms_buf_addf(&b, "%s%s = %s", i ? "; " : "", S->m[i].label,
			     S->m[i].used ? S->m[i].used : "(not in this kernel's /proc/vmstat)");
	table_note(t, "counters (/proc/vmstat): %s", b.buf ? b.buf : "");
	vms_buf_release(&b);
	if (S->m[M_REFAULT_FILE].used && S->m[M_REFAULT_FILE].used == S->m[M_REFAULT_FILE].legacy)
		table_note(t, "kernel up to 5.8: workingset_refault/_activate/_restore count page-cache "
			   "(file) pages only; anon refaults were not detected before 5.9, so the anon "
			   "columns are unavailable, not zero");
	for (i = 0; i < NMETRICS; i++)
		if (S->resets[i])
			table_note(t, "%s went down in %d interval(s) (a counter reset): those intervals "
				   "are left out for it", S->m[i].used, S->resets[i]);
}

static void rate_cell(struct table *t, const struct interval *v, int m)
{
	if (v->valid[m])
		table_real(t, v->d[m] / v->dt);
	else
		table_null(t);
}

static int intervals_table(struct vms_window *ctx, struct out *o, const struct state *S)
{
	struct table *t = table_new("refaults", "intervals",
				    "Workingset refaults per /proc/vmstat sampling interval");
	int k, m;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "start", "s", 3);
	table_column(t, "end", "s", 3);
	table_column(t, "dt", "s", 3);
	for (m = 0; m < NMETRICS; m++)
		table_column(t, metrics_init[m].label, "/s", 1);
	table_column(t, "refaults_per_reclaimed", NULL, 4);
	for (k = 0; k < S->niv; k++) {
		const struct interval *v = &S->iv[k];

		table_row(t);
		table_real(t, vms_window_rel_s(ctx, v->start));
		table_real(t, vms_window_rel_s(ctx, v->end));
		table_real(t, v->dt);
		for (m = 0; m < NMETRICS; m++)
			rate_cell(t, v, m);
		if (v->valid[M_REFAULT_FILE] && v->valid[M_PGSTEAL_FILE] && v->d[M_PGSTEAL_FILE])
			table_real(t, (double)v->d[M_REFAULT_FILE] / v->d[M_PGSTEAL_FILE]);
		else
			table_null(t);
	}
	table_note(t, "each rate is Δcounter/dt between two consecutive samples, in pages "
		   "per second (the workingset counters count pages); refaults_per_reclaimed = "
		   "Δrefault_file/Δpgsteal_file, empty when nothing was reclaimed");
	counters_note(t, S);
	if (S->ns < 2)
		table_note(t, "%d /proc/vmstat sample(s) in the window (%.3f s to %.3f s): a rate "
			   "needs two", S->ns, vms_window_rel_s(ctx, ctx->from), vms_window_rel_s(ctx, ctx->to));
	out_table(o, t);
	table_free(t);
	return 0;
}

static int totals_table(struct vms_window *ctx, struct out *o, const struct state *S)
{
	int memcg = !strcmp(S->source, "memcg");
	struct table *t = memcg ?
		table_new("refaults", "memcg", "Workingset refaults of the recorded memcg "
			  "(memory.stat deltas) over the window") :
		table_new("refaults", "totals", "Workingset refaults over the window");
	int k, m, missing = 0;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "metric", NULL, 0);
	table_column(t, "counter", NULL, 0);
	table_column(t, "total", NULL, 0);
	table_column(t, "mean", "/s", 1);
	table_column(t, "peak", "/s", 1);
	table_column(t, "peak_at", "s", 3);
	for (m = 0; m < NMETRICS; m++) {
		long long total = 0;
		double span = 0, peak = -1;
		int ipeak = -1, n = 0;

		for (k = 0; k < S->niv; k++) {
			const struct interval *v = &S->iv[k];

			if (!v->valid[m])
				continue;
			n++;
			total += v->d[m];
			span += v->dt;
			if (v->d[m] / v->dt > peak) {
				peak = v->d[m] / v->dt;
				ipeak = k;
			}
		}
		table_row(t);
		table_text(t, S->m[m].label);
		table_text(t, S->m[m].used);
		if (!S->m[m].used && memcg) {
			table_null(t);
			table_null(t);
			table_null(t);
			table_null(t);
			missing++;
			continue;
		}
		if (!n) {
			table_null(t);
			table_null(t);
			table_null(t);
			table_null(t);
			continue;
		}
		table_int(t, total);
		table_real(t, total / span);
		table_real(t, peak);
		if (peak > 0)
			table_real(t, vms_window_rel_s(ctx, S->iv[ipeak].start));
		else
			table_null(t);
	}
	table_note(t, "total: sum of the interval deltas (pages); mean = "
		   "total / the seconds those intervals span; peak: the highest interval rate, "
		   "peak_at: the start of the first interval reaching it (empty when the peak is 0)");
	if (!S->niv)
		table_note(t, "no sampling interval in the window: nothing to total");
	if (memcg) {
		table_note(t, "scope: the memcg %s only (its memory.stat: the refaults of its own "
			   "pages), not the machine of the totals table", S->scope);
		if (missing)
			table_note(t, "%d counter(s) not in this memcg's memory.stat (cgroup v1 has "
				   "workingset_refault_anon/_file but no activate, restore or "
				   "pgsteal_file): empty, not zero", missing);
	} else {
		table_note(t, "scope: the whole machine (/proc/vmstat): every memcg and every "
			   "tenant, DAMON's reclaim included");
	}
	out_table(o, t);
	table_free(t);
	return 0;
}

/* Ratio of two metric totals over the intervals where both are valid. */
static void ratio_row(struct table *t, const struct state *S, const char *label, int num, int den)
{
	long long a = 0, b = 0;
	int k, n = 0;
	char formula[128];

	for (k = 0; k < S->niv; k++)
		if (S->iv[k].valid[num] && S->iv[k].valid[den]) {
			a += S->iv[k].d[num];
			b += S->iv[k].d[den];
			n++;
		}
	snprintf(formula, sizeof(formula), "Δ%s/Δ%s",
		 S->m[num].used ? S->m[num].used : S->m[num].name,
		 S->m[den].used ? S->m[den].used : S->m[den].name);
	table_row(t);
	table_text(t, label);
	table_text(t, formula);
	if (n && b)
		table_real(t, (double)a / b);
	else
		table_null(t);
}

static int ratios_table(struct out *o, const struct state *S)
{
	struct table *t = table_new("refaults", "ratios", "Refault ratios over the window");

	if (!t)
		return vms_error("out of memory");
	table_column(t, "metric", NULL, 0);
	table_column(t, "formula", NULL, 0);
	table_column(t, "value", NULL, 4);
	ratio_row(t, S, "refaults per reclaimed file page", M_REFAULT_FILE, M_PGSTEAL_FILE);
	ratio_row(t, S, "file refaults activated", M_ACTIVATE_FILE, M_REFAULT_FILE);
	ratio_row(t, S, "file refaults restored (thrashing)", M_RESTORE_FILE, M_REFAULT_FILE);
	ratio_row(t, S, "anon refaults activated", M_ACTIVATE_ANON, M_REFAULT_ANON);
	ratio_row(t, S, "anon refaults restored (thrashing)", M_RESTORE_ANON, M_REFAULT_ANON);
	table_note(t, "sums of the deltas over the intervals where both counters are valid; "
		   "empty when the denominator is 0 or a counter is missing");
	table_note(t, "activated: the refault distance was within the workingset, the page went "
		   "straight to the active list; restored: the page was active when evicted");
	if (!S->m[M_PGSTEAL_FILE].used)
		table_note(t, "pgsteal_file (5.8+) is not in this kernel's /proc/vmstat; "
			   "pgsteal_kswapd + pgsteal_direct is no substitute (it includes anon "
			   "and leaves out memcg reclaim)");
	out_table(o, t);
	table_free(t);
	return 0;
}

static int cmp_busy(const void *pa, const void *pb)
{
	const struct interval *a = *(const struct interval *const *)pa;
	const struct interval *b = *(const struct interval *const *)pb;

	if (a->refault_rate != b->refault_rate)
		return a->refault_rate > b->refault_rate ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/*
 * Episodes by kind overlapping [start - LOOKBACK, start) of each of the @n
 * intervals in @top, into kinds[i] and episodes[i]. One query: the episode
 * views are evaluated once (they pair every begin/end event of the run).
 */
static int lookback_episodes(struct vms_window *ctx, const struct interval **top, int n,
			     long long *episodes, struct vms_buf *kinds)
{
	struct vms_buf q = { 0 };
	sqlite3_stmt *st;
	int i, rc;

	vms_buf_addf(&q, "WITH w(k, lo, hi) AS (VALUES ");
	for (i = 0; i < n; i++)
		vms_buf_addf(&q, "%s(%d, %lld, %lld)", i ? ", " : "", i,
			     top[i]->start - LOOKBACK_NS, top[i]->start);
	vms_buf_addf(&q, "), ep AS MATERIALIZED ("
		     " SELECT kind, COALESCE(begin_ts, -9000000000000000000) AS b,"
		     "  COALESCE(end_ts, 9000000000000000000) AS e FROM reclaim_interval"
		     " UNION ALL SELECT 'kswapd', COALESCE(wake_ts, -9000000000000000000),"
		     "  COALESCE(sleep_ts, 9000000000000000000) FROM kswapd_interval)"
		     " SELECT w.k, ep.kind, COUNT(*) FROM w JOIN ep ON ep.b < w.hi AND ep.e >= w.lo"
		     " GROUP BY w.k, ep.kind ORDER BY w.k, ep.kind");
	if (!q.buf)
		return vms_error("out of memory");
	st = vms_window_prepare(ctx, q.buf);
	vms_buf_release(&q);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int k = sqlite3_column_int(st, 0);
		long long c = sqlite3_column_int64(st, 2);

		vms_buf_addf(&kinds[k], "%s%s %lld", episodes[k] ? ", " : "",
			     (const char *)sqlite3_column_text(st, 1), c);
		episodes[k] += c;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s", sqlite3_errmsg(ctx->sql));
}

/*
 * Pages mm_vmscan_lru_shrink_inactive reclaimed in [lo, hi): all, anon, file.
 * Only the rows of the time buckets around [lo, hi) are read (event_bucket).
 */
static int lookback_pages(struct vms_window *ctx, long long lo, long long hi, long long pages[3])
{
	long long seq_lo, seq_hi;
	sqlite3_stmt *st;
	int rc = report_ts_seq_range(ctx, "mm_vmscan_lru_shrink_inactive", lo, hi - 1, &seq_lo, &seq_hi);

	if (rc)
		return rc < 0 ? -1 : 0;	/* 1: no rows there, pages stay 0 */
	st = vms_window_prepare(ctx,
		"SELECT COALESCE(SUM(nr_reclaimed), 0),"
		" COALESCE(SUM(CASE WHEN reclaim_flags & 1 THEN nr_reclaimed ELSE 0 END), 0),"
		" COALESCE(SUM(CASE WHEN reclaim_flags & 2 THEN nr_reclaimed ELSE 0 END), 0)"
		" FROM mm_vmscan_lru_shrink_inactive WHERE seq BETWEEN ?5 AND ?6"
		" AND ts >= ?3 AND ts < ?4");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 3, lo);
	sqlite3_bind_int64(st, 4, hi);
	sqlite3_bind_int64(st, 5, seq_lo);
	sqlite3_bind_int64(st, 6, seq_hi);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		pages[0] = sqlite3_column_int64(st, 0);
		pages[1] = sqlite3_column_int64(st, 1);
		pages[2] = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : vms_error("%s", sqlite3_errmsg(ctx->sql));
}

static int busiest_table(struct vms_window *ctx, struct out *o, const struct state *S)
{
	struct table *t = table_new("refaults", "busiest",
				    "Reclaim in the second before the busiest refault intervals");
	const struct interval **order = NULL;
	struct vms_buf kinds[TOP] = { { 0 } };
	long long trace_start = 0, reclaim_events = 0, episodes[TOP] = { 0 };
	int k, n = 0, partial = 0, rc;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "rank", NULL, 0);
	table_column(t, "start", "s", 3);
	table_column(t, "end", "s", 3);
	table_column(t, "refault_rate", "/s", 1);
	table_column(t, "episodes", NULL, 0);
	table_column(t, "kinds", NULL, 0);
	table_column(t, "reclaimed", "pages", 0);
	table_column(t, "reclaimed_anon", "pages", 0);
	table_column(t, "reclaimed_file", "pages", 0);
	if (S->niv && !(order = malloc(S->niv * sizeof(*order)))) {
		table_free(t);
		return vms_error("out of memory");
	}
	for (k = 0; k < S->niv; k++)
		if (S->iv[k].rankable && S->iv[k].refault_rate > 0)
			order[n++] = &S->iv[k];
	if (n)
		qsort(order, n, sizeof(*order), cmp_busy);
	if (vms_window_int(ctx, "SELECT start_ts FROM run", &trace_start) < 0 ||
	    /* rows counted when the run was finished (event_bucket), not counted again */
	    vms_window_int(ctx, "SELECT COALESCE(SUM(n), 0) FROM event_bucket WHERE tbl IN"
		       " ('mm_vmscan_lru_shrink_inactive', 'mm_vmscan_direct_reclaim_begin',"
		       " 'mm_vmscan_direct_reclaim_end', 'mm_vmscan_memcg_reclaim_begin',"
		       " 'mm_vmscan_memcg_reclaim_end', 'mm_vmscan_memcg_softlimit_reclaim_begin',"
		       " 'mm_vmscan_memcg_softlimit_reclaim_end', 'mm_vmscan_node_reclaim_begin',"
		       " 'mm_vmscan_node_reclaim_end', 'mm_vmscan_kswapd_wake',"
		       " 'mm_vmscan_kswapd_sleep')", &reclaim_events) < 0)
		goto fail;
	if (n > TOP)
		n = TOP;
	if (n && lookback_episodes(ctx, order, n, episodes, kinds))
		goto fail;
	for (k = 0; k < n; k++) {
		const struct interval *v = order[k];
		long long pages[3] = { 0, 0, 0 };

		if (lookback_pages(ctx, v->start - LOOKBACK_NS, v->start, pages))
			goto fail;
		if (reclaim_events && trace_start > v->start - LOOKBACK_NS)
			partial++;
		table_row(t);
		table_int(t, k + 1);
		table_real(t, vms_window_rel_s(ctx, v->start));
		table_real(t, vms_window_rel_s(ctx, v->end));
		table_real(t, v->refault_rate);
		table_int(t, episodes[k]);
		table_text(t, kinds[k].buf ? kinds[k].buf : "");
		table_int(t, pages[0]);
		table_int(t, pages[1]);
		table_int(t, pages[2]);
	}
	table_note(t, "the %d intervals with the highest refault_rate = (Δ%s + Δ%s)/dt (a missing "
		   "counter counts as 0); ties: the earlier first", TOP,
		   S->m[M_REFAULT_ANON].used ? S->m[M_REFAULT_ANON].used : "workingset_refault_anon",
		   S->m[M_REFAULT_FILE].used ? S->m[M_REFAULT_FILE].used : "workingset_refault_file");
	table_note(t, "look-back: the 1 s before the interval's start, [start - 1 s, start). "
		   "episodes: reclaim_interval (direct, memcg, memcg_softlimit, node) and "
		   "kswapd_interval (kswapd) episodes overlapping it, an episode cut by the trace "
		   "counting as open to that side; reclaimed: sum of "
		   "mm_vmscan_lru_shrink_inactive nr_reclaimed in it, anon/file by its flags");
	table_note(t, "refaults are machine-wide (/proc/vmstat); the episodes are every reclaimer's, "
		   "so this shows coincidence in time, not which episode evicted the refaulting pages");
	if (!reclaim_events)
		table_note(t, "the run has no reclaim events (lru_shrink_inactive, reclaim or kswapd "
			   "episodes): episodes and pages are 0 because none were recorded");
	if (partial)
		table_note(t, "%d look-back(s) start before the first event of the trace: their "
			   "counts cover only part of the second", partial);
	if (!n)
		table_note(t, "no interval in the window has refaults");
	out_table(o, t);
	rc = 0;
out:
	for (k = 0; k < TOP; k++)
		vms_buf_release(&kinds[k]);
	free(order);
	table_free(t);
	return rc;
fail:
	rc = -1;
	goto out;
}

/* Without counters: what is missing, and that the trace has no refault event. */
static int unavailable_table(struct vms_window *ctx, struct out *o)
{
	struct table *t = table_new("refaults", "refaults", "Workingset refaults: unavailable");

	(void)ctx;
	if (!t)
		return vms_error("out of memory");
	table_column(t, "status", NULL, 0);
	table_row(t);
	table_text(t, "unavailable: this run has no /proc/vmstat samples");
	table_note(t, "refault, activation and restore rates need counter samples "
		   "(workingset_refault_anon/_file, workingset_activate_anon/_file, "
		   "workingset_restore_anon/_file, pgsteal_file from /proc/vmstat; up to 5.8 "
		   "workingset_refault/_activate/_restore): `vmscope record` samples them; for an "
		   "imported trace, give the counter logs kept beside it with `vmscope import "
		   "--counters` or `vmscope counters add`");
	table_note(t, "the trace cannot stand in: no kernel 4.14-6.18 has a workingset or refault "
		   "tracepoint, so refaults leave no event; the reclaim episodes are in the "
		   "episodes section");
	out_table(o, t);
	table_free(t);
	return 0;
}

/* The totals of the recorded memcg's own counters, when the run sampled them. */
static int memcg_totals(struct vms_window *ctx, struct out *o)
{
	struct state S = { .source = "memcg" };
	char *scope;
	int rc;

	if (report_memcg_scope(ctx, &scope))
		return -1;
	if (!scope)
		return 0;
	S.scope = scope;
	rc = load(ctx, &S);
	if (!rc)
		rc = totals_table(ctx, o, &S);
	free(S.s);
	free(S.iv);
	free(scope);
	return rc;
}

int report_refaults(struct vms_window *ctx, struct out *o)
{
	struct state S = { .source = "vmstat", .scope = "" };
	int rc;

	if (!ctx->has_counters)
		return unavailable_table(ctx, o);
	rc = load(ctx, &S);
	if (!rc)
		rc = intervals_table(ctx, o, &S);
	if (!rc)
		rc = totals_table(ctx, o, &S);
	if (!rc)
		rc = memcg_totals(ctx, o);
	if (!rc)
		rc = ratios_table(o, &S);
	if (!rc)
		rc = busiest_table(ctx, o, &S);
	free(S.s);
	free(S.iv);
	return rc;
}
