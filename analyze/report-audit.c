// SPDX-License-Identifier: GPL-2.0
/*
 * report-audit.c - the 'audit' section of `vmscope report`: do the trace
 * and /proc/vmstat tell the same story? Totals derived from the trace are
 * set against the vmstat deltas over the same span, with the difference, a
 * tolerance and a status; a disagreement is flagged MISMATCH, never hidden.
 *
 * Span: the vmstat samples bracketing the window (the last sample at or
 * before its start, the first at or after its end; the run's first or last
 * sample when there is none); the trace totals are taken over exactly the
 * time between those two samples.
 *
 * Trace side, from mm_vmscan_lru_shrink_inactive (nr_scanned, nr_reclaimed),
 * each event given to one reclaimer, first match wins:
 *   memcg        inside a memcg or memcg_softlimit begin/end pair of its pid
 *   kswapd       its task's comm starts with "kswapd"
 *   khugepaged   inside a direct or node begin/end pair, comm "khugepaged"
 *   direct       inside a direct or node begin/end pair of its pid
 *   unattributed the rest (begin/end events missing)
 * Counter side (deltas):
 *   kswapd      pgscan_kswapd, pgsteal_kswapd
 *   direct      pgscan_direct, pgsteal_direct
 *   khugepaged  pgscan_khugepaged, pgsteal_khugepaged (6.6+)
 *   memcg       pgscan_anon + pgscan_file - kswapd - direct [- khugepaged - proactive]
 *               (same with pgsteal_*)
 *   all         pgscan_anon + pgscan_file (every reclaimer), pgsteal_anon + pgsteal_file
 *   slab        sum of start.total_scan - end.total_scan against slabs_scanned (objects)
 * Status: ok when |trace - counter| <= max(32 pages or 128 objects, 1% of the
 * larger of the two), MISMATCH otherwise; n/a when one side is unavailable.
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "report.h"

#define TOL_PAGES 32	/* SWAP_CLUSTER_MAX: one isolate batch */
#define TOL_OBJECTS 128	/* SHRINK_BATCH: one shrinker batch */

enum { C_KSWAPD, C_DIRECT, C_KHUGEPAGED, C_MEMCG, C_UNATTRIBUTED, C_N };

struct span {
	long long a, z;		/* vmstat sample ids, 0 when none */
	long long ta, tz;	/* their timestamps: the span audited */
	int a_first;		/* no sample at or before the window start: a is the first */
	int z_last;		/* no sample at or after the window end: z is the last */
	int starts_late;	/* a_first, and events of the window come before a */
	int ends_early;		/* z_last, and events of the window come after z */
};

struct trace_sums {
	long long scanned[C_N], reclaimed[C_N], events[C_N];
	long long all_scanned, all_reclaimed, all_events;
	long long slab_scanned, slab_freed, slab_calls, slab_open;
	long long rp_scanned, rp_reclaimed, rp_events;
	long long lost, lost_rows, lost_unknown_count, lost_unknown_ts;
	long long run_inactive;	/* lru_shrink_inactive events in the whole run */
};

static int step_error(struct vms_window *ctx, sqlite3_stmt *st)
{
	sqlite3_finalize(st);
	return vms_error("%s", sqlite3_errmsg(ctx->sql));
}

static long long sample_id(struct vms_window *ctx, const char *sql, long long ts, long long *out_ts)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, sql);
	long long id = 0;
	int rc;

	if (!st)
		return -1;
	if (sqlite3_bind_parameter_count(st))
		sqlite3_bind_int64(st, 1, ts);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		*out_ts = sqlite3_column_int64(st, 1);
	} else if (rc != SQLITE_DONE) {
		return step_error(ctx, st);
	}
	sqlite3_finalize(st);
	return id;
}

/* The two vmstat samples bracketing [ctx->from, ctx->to]. Return: 0, or -1. */
static int find_span(struct vms_window *ctx, struct span *s)
{
	static const char before[] = "SELECT id, ts FROM counter_sample WHERE source = 'vmstat'"
		" AND scope = '' AND ts <= ?1 ORDER BY ts DESC, id DESC LIMIT 1";
	static const char after[] = "SELECT id, ts FROM counter_sample WHERE source = 'vmstat'"
		" AND scope = '' AND ts >= ?1 ORDER BY ts, id LIMIT 1";
	static const char first[] = "SELECT id, ts FROM counter_sample WHERE source = 'vmstat'"
		" AND scope = '' ORDER BY ts, id LIMIT 1";
	static const char last[] = "SELECT id, ts FROM counter_sample WHERE source = 'vmstat'"
		" AND scope = '' ORDER BY ts DESC, id DESC LIMIT 1";
	long long ev = 0;

	memset(s, 0, sizeof(*s));
	s->a = sample_id(ctx, before, ctx->from, &s->ta);
	if (s->a < 0)
		return -1;
	if (!s->a) {
		s->a_first = s->starts_late = 1;
		if ((s->a = sample_id(ctx, first, 0, &s->ta)) < 0)
			return -1;
	}
	s->z = sample_id(ctx, after, ctx->to, &s->tz);
	if (s->z < 0)
		return -1;
	if (!s->z) {
		s->z_last = s->ends_early = 1;
		if ((s->z = sample_id(ctx, last, 0, &s->tz)) < 0)
			return -1;
	}
	/* it matters only when events of the window fall outside the span */
	if (s->starts_late && (vms_window_int(ctx, "SELECT start_ts FROM run", &ev) != 0 ||
			       (ctx->from > ev ? ctx->from : ev) >= s->ta))
		s->starts_late = 0;
	if (s->ends_early && (vms_window_int(ctx, "SELECT end_ts FROM run", &ev) != 0 ||
			      (ctx->to < ev ? ctx->to : ev) <= s->tz))
		s->ends_early = 0;
	return 0;
}

/* Delta of one vmstat counter over the span. Return: 1 and *v, 0 when not sampled, -1. */
static int delta(struct vms_window *ctx, const struct span *s, const char *name, long long *v)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT (SELECT value FROM counter_value WHERE sample = ?2 AND name = ?3)"
		"     - (SELECT value FROM counter_value WHERE sample = ?1 AND name = ?3)");
	int rc = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, s->a);
	sqlite3_bind_int64(st, 2, s->z);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*v = sqlite3_column_int64(st, 0);
		rc = 1;
	}
	sqlite3_finalize(st);
	return rc;
}

static sqlite3_stmt *prepare_span(struct vms_window *ctx, const char *sql, long long from, long long to)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, sql);

	if (st) {
		sqlite3_bind_int64(st, 1, from);
		sqlite3_bind_int64(st, 2, to);
	}
	return st;
}

/*
 * The reclaimer class of each mm_vmscan_lru_shrink_inactive event, summed
 * per class.
 * An event is inside a memcg (m) or direct (d) interval of its pid when
 * the last begin/end event of that kind and pid at or before it is a
 * begin; before the first one (none at or before it: the pid's first
 * is after it), when that first one is an end (an interval cut by the
 * start of the trace). Key ts*4+o orders a begin
 * (o 0), an event (o 1) and an end (o 2) at one ts, so that the
 * interval holds its ends; key % 4 tells a begin from an end.
 * inactive_bucket holds the same class per event (lib/derive.c), summed per
 * bucket; the raw rows of an edge are classed by edge_sums() with the same
 * rule (lib/reclaim-marks.c), reading only the marks of the edge's tasks.
 */
static const char inactive_edge_sql[] =
	"SELECT pid, ts, nr_scanned, nr_reclaimed FROM mm_vmscan_lru_shrink_inactive"
	" WHERE ts BETWEEN ?1 AND ?2 AND seq BETWEEN ?3 AND ?4 ORDER BY pid";

static const char inactive_bucket_sql[] =
	"WITH k AS (SELECT pid, MAX(comm GLOB 'kswapd*') AS ksw, MAX(comm = 'khugepaged') AS khp"
	"  FROM task GROUP BY pid)"
	" SELECT CASE WHEN ev.in_memcg THEN 3 WHEN k.ksw THEN 0 WHEN ev.in_direct AND k.khp THEN 2"
	"  WHEN ev.in_direct THEN 1 ELSE 4 END AS cls,"
	" COALESCE(SUM(ev.nr_scanned), 0), COALESCE(SUM(ev.nr_reclaimed), 0), SUM(ev.events)"
	" FROM inactive_bucket ev LEFT JOIN k ON k.pid = ev.pid"
	" WHERE ev.bucket BETWEEN ?3 AND ?4 GROUP BY cls";

/* Whether @pid was named kswapd* (*ksw) or khugepaged (*khp) in the task table. */
static int task_kind(struct vms_window *ctx, long long pid, int *ksw, int *khp)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT MAX(comm GLOB 'kswapd*'),"
					  " MAX(comm = 'khugepaged') FROM task WHERE pid = ?3");

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 3, pid);
	if (sqlite3_step(st) != SQLITE_ROW)
		return step_error(ctx, st);
	*ksw = sqlite3_column_int(st, 0);
	*khp = sqlite3_column_int(st, 1);
	sqlite3_finalize(st);
	return 0;
}

struct edge_row {
	long long pid, ts, scanned, reclaimed;
};

/* The raw mm_vmscan_lru_shrink_inactive rows of edge @e, classed and summed into @t. */
static int edge_sums(struct vms_window *ctx, const struct report_edge *e, struct trace_sums *t)
{
	struct edge_row *rows = NULL;
	struct vms_marks *marks = NULL;
	long long *pids = NULL;
	size_t n = 0, alloc = 0, npids = 0, i;
	int empty = 0, rc = -1, ksw = 0, khp = 0;
	sqlite3_stmt *st = report_prepare_edge(ctx, inactive_edge_sql,
					       "mm_vmscan_lru_shrink_inactive", e, &empty);

	if (!st)
		return empty ? 0 : -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == alloc) {
			struct edge_row *r;

			alloc = alloc ? 2 * alloc : 1024;
			if (!(r = realloc(rows, alloc * sizeof(*r))))
				goto oom;
			rows = r;
		}
		rows[n].pid = sqlite3_column_int64(st, 0);
		rows[n].ts = sqlite3_column_int64(st, 1);
		rows[n].scanned = sqlite3_column_int64(st, 2);	/* NULL counts as 0, as SUM() */
		rows[n].reclaimed = sqlite3_column_int64(st, 3);
		if (!npids || pids[npids - 1] != rows[n].pid) {
			long long *p = realloc(pids, (npids + 1) * sizeof(*p));

			if (!p)
				goto oom;
			pids = p;
			pids[npids++] = rows[n].pid;
		}
		n++;
	}
	if (rc != SQLITE_DONE) {
		rc = step_error(ctx, st);
		st = NULL;
		goto out;
	}
	rc = -1;
	if (n && !(marks = vms_marks_load(ctx->db, pids, npids)))
		goto out;
	for (i = 0; i < n; i++) {
		const struct edge_row *r = &rows[i];
		int m, d, cls;

		/* rows come by pid: one task lookup per task */
		if ((!i || rows[i - 1].pid != r->pid) && task_kind(ctx, r->pid, &ksw, &khp))
			goto out;
		m = vms_marks_inside(marks, 0, r->pid, r->ts);
		d = vms_marks_inside(marks, 1, r->pid, r->ts);
		cls = m ? C_MEMCG : ksw ? C_KSWAPD : d && khp ? C_KHUGEPAGED : d ? C_DIRECT :
		      C_UNATTRIBUTED;
		t->scanned[cls] += r->scanned;
		t->reclaimed[cls] += r->reclaimed;
		t->events[cls]++;
		t->all_scanned += r->scanned;
		t->all_reclaimed += r->reclaimed;
		t->all_events++;
	}
	rc = 0;
	goto out;
oom:
	rc = vms_error("out of memory");
out:
	sqlite3_finalize(st);
	vms_marks_free(marks);
	free(rows);
	free(pids);
	return rc;
}

static int inactive_sums(struct vms_window *ctx, const struct report_edge *e, long long b_lo,
			 long long b_hi, struct trace_sums *t)
{
	sqlite3_stmt *st;
	int rc, c;

	if (e)
		return edge_sums(ctx, e, t);
	if (!(st = vms_window_prepare(ctx, inactive_bucket_sql)))
		return -1;
	sqlite3_bind_int64(st, 3, b_lo);
	sqlite3_bind_int64(st, 4, b_hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		c = sqlite3_column_int(st, 0);
		if (c < 0 || c >= C_N)
			continue;
		t->scanned[c] += sqlite3_column_int64(st, 1);
		t->reclaimed[c] += sqlite3_column_int64(st, 2);
		t->events[c] += sqlite3_column_int64(st, 3);
		t->all_scanned += sqlite3_column_int64(st, 1);
		t->all_reclaimed += sqlite3_column_int64(st, 2);
		t->all_events += sqlite3_column_int64(st, 3);
	}
	if (rc != SQLITE_DONE)
		return step_error(ctx, st);
	sqlite3_finalize(st);
	return 0;
}

/* Slab calls starting in the span: shrink_bucket for whole buckets, @e's raw rows. */
static int slab_sums(struct vms_window *ctx, const struct report_edge *e, long long b_lo,
		     long long b_hi, struct trace_sums *t)
{
	sqlite3_stmt *st;
	int empty = 0;

	if (e) {
		st = report_prepare_edge(ctx,
			"SELECT COALESCE(SUM(s.total_scan - e.total_scan), 0), COALESCE(SUM(e.retval), 0),"
			" COUNT(*), COALESCE(SUM(e.seq IS NULL), 0)"
			" FROM shrink_slab_call c JOIN mm_shrink_slab_start s ON s.seq = c.start_seq"
			" LEFT JOIN mm_shrink_slab_end e ON e.seq = c.end_seq"
			" WHERE c.rowid BETWEEN ?3 AND ?4 AND s.ts BETWEEN ?1 AND ?2",
			"shrink_slab_call", e, &empty);
	} else if ((st = vms_window_prepare(ctx,
			"SELECT COALESCE(SUM(scanned), 0), COALESCE(SUM(freed), 0),"
			" COALESCE(SUM(calls), 0), COALESCE(SUM(open), 0)"
			" FROM shrink_bucket WHERE orphan = 0 AND bucket BETWEEN ?3 AND ?4"))) {
		sqlite3_bind_int64(st, 3, b_lo);
		sqlite3_bind_int64(st, 4, b_hi);
	}
	if (!st)
		return empty ? 0 : -1;
	if (sqlite3_step(st) != SQLITE_ROW)
		return step_error(ctx, st);
	t->slab_scanned += sqlite3_column_int64(st, 0);
	t->slab_freed += sqlite3_column_int64(st, 1);
	t->slab_calls += sqlite3_column_int64(st, 2);
	t->slab_open += sqlite3_column_int64(st, 3);
	sqlite3_finalize(st);
	return 0;
}

static int load_trace(struct vms_window *ctx, long long from, long long to, struct trace_sums *t)
{
	struct report_split sp;
	sqlite3_stmt *st;
	int i;

	memset(t, 0, sizeof(*t));
	report_split(ctx, from, to, &sp);
	if (inactive_sums(ctx, NULL, sp.b_lo, sp.b_hi, t) || slab_sums(ctx, NULL, sp.b_lo, sp.b_hi, t))
		return -1;
	for (i = 0; i < sp.nedge; i++)
		if (inactive_sums(ctx, &sp.edge[i], 0, 0, t) || slab_sums(ctx, &sp.edge[i], 0, 0, t))
			return -1;

	st = prepare_span(ctx,
		"SELECT COALESCE(SUM(nr_scanned), 0), COALESCE(SUM(nr_reclaimed), 0), COUNT(*)"
		" FROM mm_vmscan_reclaim_pages WHERE ts BETWEEN ?1 AND ?2", from, to);
	if (!st)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW)
		return step_error(ctx, st);
	t->rp_scanned = sqlite3_column_int64(st, 0);
	t->rp_reclaimed = sqlite3_column_int64(st, 1);
	t->rp_events = sqlite3_column_int64(st, 2);
	sqlite3_finalize(st);

	/* a loss without a time stamp may have happened anywhere: counted in every span */
	st = prepare_span(ctx,
		"SELECT COALESCE(SUM(count), 0), COUNT(*), COALESCE(SUM(count IS NULL), 0),"
		" COALESCE(SUM(ts IS NULL), 0)"
		" FROM lost_events WHERE ts BETWEEN ?1 AND ?2 OR ts IS NULL", from, to);
	if (!st)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW)
		return step_error(ctx, st);
	t->lost = sqlite3_column_int64(st, 0);
	t->lost_rows = sqlite3_column_int64(st, 1);
	t->lost_unknown_count = sqlite3_column_int64(st, 2);
	t->lost_unknown_ts = sqlite3_column_int64(st, 3);
	sqlite3_finalize(st);

	return vms_window_int(ctx, "SELECT COALESCE(SUM(n), 0) FROM event_bucket"
			  " WHERE tbl = 'mm_vmscan_lru_shrink_inactive'", &t->run_inactive) < 0 ? -1 : 0;
}

struct audit {
	struct table *t;
	const struct trace_sums *tr;
	int compared, mismatches, unavailable;
	char mismatch_list[512];
};

static long long absll(long long v)
{
	return v < 0 ? -v : v;
}

/*
 * One comparison row. @have_counter: 0 when the counter side is unavailable,
 * -1 for a trace-only row (no counter exists for it).
 */
static void row(struct audit *a, const char *quantity, const char *who, long long trace,
		int have_counter, long long counter, const char *formula, long long abs_tol)
{
	struct table *t = a->t;
	long long diff = trace - counter, big, tol;

	table_row(t);
	table_text(t, quantity);
	table_text(t, who);
	table_int(t, trace);
	if (have_counter > 0)
		table_int(t, counter);
	else
		table_null(t);
	table_text(t, formula);
	if (have_counter <= 0) {
		table_null(t);
		table_null(t);
		table_null(t);
		table_int(t, a->tr->lost);
		table_text(t, "n/a");
		if (!have_counter)
			a->unavailable++;
		return;
	}
	big = absll(trace) > absll(counter) ? absll(trace) : absll(counter);
	tol = (big + 99) / 100;
	if (tol < abs_tol)
		tol = abs_tol;
	table_int(t, diff);
	if (counter)
		table_real(t, 100.0 * diff / counter);
	else
		table_null(t);
	table_int(t, tol);
	table_int(t, a->tr->lost);
	a->compared++;
	if (absll(diff) <= tol) {
		table_text(t, "ok");
		return;
	}
	table_text(t, "MISMATCH");
	a->mismatches++;
	if (strlen(a->mismatch_list) + strlen(quantity) + strlen(who) + 8 < sizeof(a->mismatch_list))
		snprintf(a->mismatch_list + strlen(a->mismatch_list),
			 sizeof(a->mismatch_list) - strlen(a->mismatch_list), "%s%s (%s)",
			 a->mismatch_list[0] ? ", " : "", quantity, who);
}

/* Counter deltas the rows need; have_* say whether this kernel has them. */
struct counters {
	int have;		/* a usable span: two different samples */
	long long scan_k, scan_d, scan_h, scan_p, scan_a, scan_f;
	long long steal_k, steal_d, steal_h, steal_p, steal_a, steal_f, slabs;
	int h_scan_k, h_scan_d, h_scan_h, h_scan_p, h_scan_a, h_scan_f;
	int h_steal_k, h_steal_d, h_steal_h, h_steal_p, h_steal_a, h_steal_f, h_slabs;
};

static int load_counters(struct vms_window *ctx, const struct span *s, struct counters *c)
{
	struct {
		const char *name;
		long long *v;
		int *have;
	} want[] = {
		{ "pgscan_kswapd", &c->scan_k, &c->h_scan_k },
		{ "pgscan_direct", &c->scan_d, &c->h_scan_d },
		{ "pgscan_khugepaged", &c->scan_h, &c->h_scan_h },
		{ "pgscan_proactive", &c->scan_p, &c->h_scan_p },
		{ "pgscan_anon", &c->scan_a, &c->h_scan_a },
		{ "pgscan_file", &c->scan_f, &c->h_scan_f },
		{ "pgsteal_kswapd", &c->steal_k, &c->h_steal_k },
		{ "pgsteal_direct", &c->steal_d, &c->h_steal_d },
		{ "pgsteal_khugepaged", &c->steal_h, &c->h_steal_h },
		{ "pgsteal_proactive", &c->steal_p, &c->h_steal_p },
		{ "pgsteal_anon", &c->steal_a, &c->h_steal_a },
		{ "pgsteal_file", &c->steal_f, &c->h_steal_f },
		{ "slabs_scanned", &c->slabs, &c->h_slabs },
	};
	size_t i;
	int rc;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		*want[i].v = 0;
		*want[i].have = 0;
		if (!c->have)
			continue;
		rc = delta(ctx, s, want[i].name, want[i].v);
		if (rc < 0)
			return -1;
		*want[i].have = rc;
	}
	return 0;
}

/* memcg = anon + file - kswapd - direct [- khugepaged] [- proactive]; Return: have. */
static int memcg_counter(int ha, long long a, int hf, long long f, int hk, long long k, int hd,
			 long long d, int hh, long long h, int hp, long long p, const char *pfx,
			 long long *out, char *formula, size_t len)
{
	if (!(ha && hf && hk && hd)) {
		snprintf(formula, len, "%s_anon+%s_file-%s_kswapd-%s_direct", pfx, pfx, pfx, pfx);
		return 0;
	}
	*out = a + f - k - d - (hh ? h : 0) - (hp ? p : 0);
	snprintf(formula, len, "%s_anon+%s_file-%s_kswapd-%s_direct%s%s%s%s%s%s", pfx, pfx, pfx,
		 pfx, hh ? "-" : "", hh ? pfx : "", hh ? "_khugepaged" : "", hp ? "-" : "",
		 hp ? pfx : "", hp ? "_proactive" : "");
	return 1;
}

static void add_rows(struct audit *a, const struct counters *c)
{
	const struct trace_sums *tr = a->tr;
	char f[160];
	long long v = 0;
	int h;

#define HAVE(x) (c->have && (x))
	row(a, "pages scanned", "kswapd", tr->scanned[C_KSWAPD], HAVE(c->h_scan_k), c->scan_k,
	    "pgscan_kswapd", TOL_PAGES);
	row(a, "pages reclaimed", "kswapd", tr->reclaimed[C_KSWAPD], HAVE(c->h_steal_k), c->steal_k,
	    "pgsteal_kswapd", TOL_PAGES);
	row(a, "pages scanned", "direct", tr->scanned[C_DIRECT], HAVE(c->h_scan_d), c->scan_d,
	    "pgscan_direct", TOL_PAGES);
	row(a, "pages reclaimed", "direct", tr->reclaimed[C_DIRECT], HAVE(c->h_steal_d), c->steal_d,
	    "pgsteal_direct", TOL_PAGES);
	row(a, "pages scanned", "khugepaged", tr->scanned[C_KHUGEPAGED], HAVE(c->h_scan_h),
	    c->scan_h, "pgscan_khugepaged", TOL_PAGES);
	row(a, "pages reclaimed", "khugepaged", tr->reclaimed[C_KHUGEPAGED], HAVE(c->h_steal_h),
	    c->steal_h, "pgsteal_khugepaged", TOL_PAGES);
	h = memcg_counter(c->h_scan_a, c->scan_a, c->h_scan_f, c->scan_f, c->h_scan_k, c->scan_k,
			  c->h_scan_d, c->scan_d, c->h_scan_h, c->scan_h, c->h_scan_p, c->scan_p,
			  "pgscan", &v, f, sizeof(f));
	row(a, "pages scanned", "memcg", tr->scanned[C_MEMCG], HAVE(h), v, f, TOL_PAGES);
	h = memcg_counter(c->h_steal_a, c->steal_a, c->h_steal_f, c->steal_f, c->h_steal_k,
			  c->steal_k, c->h_steal_d, c->steal_d, c->h_steal_h, c->steal_h,
			  c->h_steal_p, c->steal_p, "pgsteal", &v, f, sizeof(f));
	row(a, "pages reclaimed", "memcg", tr->reclaimed[C_MEMCG], HAVE(h), v, f, TOL_PAGES);
	row(a, "pages scanned", "unattributed", tr->scanned[C_UNATTRIBUTED], -1, 0,
	    "(trace only)", TOL_PAGES);
	row(a, "pages reclaimed", "unattributed", tr->reclaimed[C_UNATTRIBUTED], -1, 0,
	    "(trace only)", TOL_PAGES);
	row(a, "pages scanned", "all reclaimers", tr->all_scanned, HAVE(c->h_scan_a && c->h_scan_f),
	    c->scan_a + c->scan_f, "pgscan_anon+pgscan_file", TOL_PAGES);
	row(a, "pages reclaimed", "all reclaimers", tr->all_reclaimed,
	    HAVE(c->h_steal_a && c->h_steal_f), c->steal_a + c->steal_f,
	    "pgsteal_anon+pgsteal_file", TOL_PAGES);
	row(a, "slab objects scanned", "shrinkers", tr->slab_scanned, HAVE(c->h_slabs), c->slabs,
	    "slabs_scanned", TOL_OBJECTS);
	row(a, "slab objects freed", "shrinkers", tr->slab_freed, -1, 0, "(trace only)",
	    TOL_OBJECTS);
	row(a, "pages scanned", "MADV_PAGEOUT/DAMON", tr->rp_scanned, -1, 0, "(trace only)",
	    TOL_PAGES);
	row(a, "pages reclaimed", "MADV_PAGEOUT/DAMON", tr->rp_reclaimed, -1, 0, "(trace only)",
	    TOL_PAGES);
#undef HAVE
}

/*
 * Counters read from a file (counter_source, schema 009) were put on the
 * trace clock by an offset: say which, since the span's edges are only as
 * good as it (an automatic one within about a sampling interval).
 */
static void note_counter_file(struct vms_window *ctx, struct table *t, const struct span *s)
{
	sqlite3_stmt *st;

	if (!s->a || sqlite3_prepare_v2(ctx->sql, "SELECT path, aligned_by, detail FROM"
					" counter_source WHERE ?1 BETWEEN first_sample AND last_sample",
					-1, &st, NULL)) {
		/* an older database: no counter_source, nothing to say */
		return;
	}
	sqlite3_bind_int64(st, 1, s->a);
	if (sqlite3_step(st) == SQLITE_ROW)
		table_note(t, "the vmstat samples come from '%s' (aligned to the trace clock, %s: %s); "
			   "the span's edges are as exact as that offset",
			   (const char *)sqlite3_column_text(st, 0),
			   (const char *)sqlite3_column_text(st, 1),
			   (const char *)sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
}

static void add_notes(struct vms_window *ctx, struct audit *a, const struct span *s,
		      const struct counters *c)
{
	struct table *t = a->t;
	const struct trace_sums *tr = a->tr;

	if (!ctx->has_counters)
		table_note(t, "no /proc/vmstat samples in this run (imported traces carry none; "
			   "`vmscope record` samples them, `vmscope import --counters` and `vmscope "
			   "counters add` read them from files): nothing to audit against, the trace "
			   "totals over the window are shown alone");
	else if (!c->have)
		table_note(t, "only one vmstat sample brackets the window (at %.3f s): no counter "
			   "delta to audit against, the trace totals over the window are shown alone",
			   vms_window_rel_s(ctx, s->ta));
	else
		table_note(t, "span audited: counters are the deltas between the vmstat samples at "
			   "%.6f s (%s) and %.6f s (%s), for the window %.6f..%.6f s; trace totals "
			   "are over the same span", vms_window_rel_s(ctx, s->ta),
			   s->a_first ? "the run's first sample, none is at or before the window "
			   "start" : "the last at or before the window start",
			   vms_window_rel_s(ctx, s->tz),
			   s->z_last ? "the run's last sample, none is at or after the window end" :
			   "the first at or after the window end",
			   vms_window_rel_s(ctx, ctx->from), vms_window_rel_s(ctx, ctx->to));
	if (c->have)
		note_counter_file(ctx, t, s);
	if (c->have && s->starts_late)
		table_note(t, "no vmstat sample at or before the window start: the span starts at "
			   "the first sample, and events of the window before it (%.6f s) are left "
			   "out", vms_window_rel_s(ctx, s->ta));
	if (c->have && s->ends_early)
		table_note(t, "no vmstat sample at or after the window end: the span ends at the "
			   "last sample, and events of the window after it (%.6f s) are left out",
			   vms_window_rel_s(ctx, s->tz));
	table_note(t, "status: ok when |trace - counter| <= tolerance = max(%d pages (%d objects "
		   "for slab), 1%% of the larger of the two), MISMATCH otherwise, n/a when a side "
		   "is missing; difference = trace - counter, %% of the counter", TOL_PAGES,
		   TOL_OBJECTS);
	table_note(t, "trace and counter can differ at the span's edges (pgscan_* is counted "
		   "when a batch is isolated, the trace event when the batch is done; a sample "
		   "taken while tracing was off counts reclaim the trace cannot have), when "
		   "events were not enabled or begin/end events are missing (pages move to "
		   "'unattributed'), and when events were lost");
	table_note(t, "reclaimers: memcg = lru_shrink_inactive inside a memcg (or v1 soft "
		   "limit) reclaim begin/end pair of its pid; kswapd = comm kswapd*; direct = "
		   "inside a direct or node reclaim pair; khugepaged = the same for comm khugepaged; "
		   "pgscan/pgsteal_kswapd|direct count global reclaim only, pgscan/pgsteal_anon+"
		   "file every reclaimer, so their difference is memcg limit reclaim");
	table_note(t, "slab: slabs_scanned counts objects scanned (not slabs), compared with "
		   "the trace's scanned = start total_scan - end total_scan; objects freed "
		   "(retval) have no counter");
	table_note(t, "MADV_PAGEOUT/DAMON (mm_vmscan_reclaim_pages) is not in pgscan/pgsteal_"
		   "kswapd|direct; whether pgscan/pgsteal_anon|file count it is not settled here "
		   "(reclaim_pages() calls shrink_folio_list() directly, pgscan_anon/file are "
		   "counted in shrink_inactive_list(): probably not), so it is shown, not compared");
	if (tr->lost_rows)
		table_note(t, "lost events: %lld%s in the span%s: the trace totals are short by "
			   "whatever those events held", tr->lost,
			   tr->lost_unknown_count ? " or more (some losses have no count)" : "",
			   tr->lost_unknown_ts ? " (losses without a time stamp are counted in "
			   "every span)" : "");
	else
		table_note(t, "lost events: none reported in the span");
	if (tr->scanned[C_UNATTRIBUTED])
		table_note(t, "%lld pages scanned by %lld events could not be given to a "
			   "reclaimer (no enclosing begin/end pair: begin/end events not enabled or "
			   "lost, or a kswapd the trace does not name): the per-reclaimer rows are short by them while "
			   "'all reclaimers' still counts them",
			   tr->scanned[C_UNATTRIBUTED], tr->events[C_UNATTRIBUTED]);
	if (!tr->run_inactive)
		table_note(t, "no mm_vmscan_lru_shrink_inactive events in this run (not enabled, "
			   "or no reclaim): page rows are 0 from the trace side");
	if (tr->slab_open)
		table_note(t, "%lld shrinker calls have no end event: their scanning is not counted",
			   tr->slab_open);
	if (a->unavailable)
		table_note(t, "%d rows have no counter on this kernel (n/a): pgscan_anon/file are "
			   "5.8+, pgscan_khugepaged 6.6+", a->unavailable);
	if (a->mismatches)
		table_note(t, "%d of %d comparisons MISMATCH: %s%s", a->mismatches, a->compared,
			   a->mismatch_list, tr->lost ? "; lost events can explain a trace short of "
			   "the counter" : "");
	else if (a->compared)
		table_note(t, "all %d comparisons within tolerance", a->compared);
}

int report_audit(struct vms_window *ctx, struct out *o)
{
	struct trace_sums tr;
	struct counters c = { 0 };
	struct audit a = { 0 };
	struct span s = { 0 };
	long long from = ctx->from, to = ctx->to;

	if (ctx->has_counters) {
		if (find_span(ctx, &s))
			return -1;
		c.have = s.a && s.z && s.a != s.z && s.tz > s.ta;
		if (c.have) {
			from = s.ta;
			to = s.tz;
		}
	}
	if (load_trace(ctx, from, to, &tr) || load_counters(ctx, &s, &c))
		return -1;
	a.tr = &tr;
	a.t = table_new("audit", "audit", "Audit: trace totals against /proc/vmstat deltas");
	if (!a.t)
		return vms_error("out of memory");
	table_column(a.t, "quantity", NULL, 0);
	table_column(a.t, "reclaimer", NULL, 0);
	table_column(a.t, "trace", NULL, 0);
	table_column(a.t, "counter", NULL, 0);
	table_column(a.t, "counter formula", NULL, 0);
	table_column(a.t, "difference", NULL, 0);
	table_column(a.t, "relative difference", "%", 2);
	table_column(a.t, "tolerance", NULL, 0);
	table_column(a.t, "lost events", NULL, 0);
	table_column(a.t, "status", NULL, 0);
	add_rows(&a, &c);
	add_notes(ctx, &a, &s, &c);
	out_table(o, a.t);
	table_free(a.t);
	return 0;
}
