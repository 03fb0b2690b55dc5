// SPDX-License-Identifier: GPL-2.0
/*
 * report-shrinkers.c - the 'shrinkers' section of `vmscope report`: what
 * each slab shrinker was asked to do and what it did, from the
 * mm_shrink_slab_start/_end pairs (view shrink_slab_interval), and a
 * per-second timeline of the five that freed most (for plotting).
 *
 * One row per shrinker instance: the scan_objects symbol (offset dropped,
 * " [module]" kept), plus the shrinker address `shr` when one symbol has
 * several instances in the window (super_cache_scan: one per superblock).
 * A call belongs to the window when its start event does. Formulas, per
 * instance, over its calls in the window (docs/report-shrinkers.md):
 *   calls          = start events
 *   to scan        = sum of start.total_scan
 *   scanned        = sum of start.total_scan - end.total_scan (complete calls;
 *                    exactly what do_shrink_slab() adds to slabs_scanned)
 *   freed          = sum of end.retval
 *   efficiency %   = 100 * freed / scanned (none when nothing was scanned)
 *   deferred taken = sum of start.nr_objects_to_shrink
 *   deferred left  = sum of end.new_scan
 *   mean items     = mean of start.cache_items
 *   calls pN       = calls at reclaim priority N
 */
#include <string.h>

#include "vms.h"
#include "report.h"

#define TOP_TIMELINE 5

/*
 * The calls of the window, summed per shrinker, name, second, priority and
 * whether the row is an end without a start (orphan), into a temporary
 * table: the buckets the window covers whole from shrink_bucket, its edges
 * from the calls of shrink_slab_call (report-buckets.c). A call belongs to
 * the window when its start does; an end event without a start when it does.
 */
static const char calls_table[] = "temp.report_shrinker_calls";
#define NAME_OF_SHRINK \
	"CASE WHEN instr(shrink, '+') > 1 THEN substr(shrink, 1, instr(shrink, '+') - 1)" \
	" || CASE WHEN instr(shrink, ' [') > 0 THEN substr(shrink, instr(shrink, ' [')) ELSE '' END" \
	" ELSE COALESCE(shrink, '?') END"
static const char calls_create[] =
	"CREATE TEMP TABLE report_shrinker_calls (shr, name, sec, priority, orphan, calls,"
	" to_scan, scanned, freed, def_taken, def_left, items_sum, items_n, open)";
static const char calls_buckets[] =
	"INSERT INTO temp.report_shrinker_calls SELECT shr, " NAME_OF_SHRINK ","
	"  (?5 + bucket * ?6 - ?7) / 1000000000, priority, orphan, calls, to_scan, scanned, freed,"
	"  def_taken, def_left, items_sum, items_n, open"
	" FROM shrink_bucket WHERE bucket BETWEEN ?3 AND ?4";
/* the calls of shrink_slab_call rowids ?3..?4 that start (else end) in ?1..?2 */
static const char calls_edge[] =
	"INSERT INTO temp.report_shrinker_calls SELECT shr, " NAME_OF_SHRINK ","
	"  (ts - ?5) / 1000000000 AS sec, priority, orphan, COUNT(*), SUM(total_scan),"
	"  SUM(CASE WHEN end_ts IS NOT NULL THEN total_scan - left_unscanned END), SUM(freed),"
	"  SUM(nr_objects_to_shrink), SUM(new_scan), SUM(cache_items), COUNT(cache_items),"
	"  SUM(end_ts IS NULL)"
	" FROM (SELECT CASE WHEN s.seq IS NULL THEN e.shr ELSE s.shr END AS shr,"
	"  CASE WHEN s.seq IS NULL THEN e.shrink ELSE s.shrink END AS shrink,"
	"  COALESCE(s.ts, e.ts) AS ts, s.priority AS priority, s.seq IS NULL AS orphan,"
	"  s.total_scan AS total_scan, e.ts AS end_ts, e.total_scan AS left_unscanned,"
	"  e.retval AS freed, s.nr_objects_to_shrink AS nr_objects_to_shrink,"
	"  e.new_scan AS new_scan, s.cache_items AS cache_items"
	" FROM shrink_slab_call c LEFT JOIN mm_shrink_slab_start s ON s.seq = c.start_seq"
	" LEFT JOIN mm_shrink_slab_end e ON e.seq = c.end_seq"
	" WHERE c.rowid BETWEEN ?3 AND ?4)"
	" WHERE ts BETWEEN ?1 AND ?2"
	" GROUP BY shr, shrink, sec, priority, orphan";

/* Per-instance sums of the calls, ranked; %s: the per-priority columns. */
static const char calls_cte[] =
	"WITH c AS (SELECT * FROM temp.report_shrinker_calls WHERE orphan = 0),"
	" g0 AS MATERIALIZED (SELECT name, shr,"
	"  SUM(calls) AS calls, SUM(to_scan) AS to_scan, SUM(scanned) AS scanned,"
	"  SUM(freed) AS freed, SUM(def_taken) AS def_taken, SUM(def_left) AS def_left,"
	"  SUM(items_sum) * 1.0 / SUM(items_n) AS items, SUM(open) AS open%s"
	"  FROM c GROUP BY name, shr),"
	" g AS (SELECT *, CASE WHEN (SELECT COUNT(x.shr) FROM g0 x WHERE x.name = g0.name) > 1"
	"  THEN shr END AS inst FROM g0),"
	" r AS MATERIALIZED (SELECT *, ROW_NUMBER() OVER (ORDER BY COALESCE(freed, 0) DESC,"
	"  COALESCE(scanned, 0) DESC, calls DESC, name, shr) AS rk FROM g) ";

/* Fill temp.report_shrinker_calls for the window. */
static int load_calls(struct vms_window *ctx)
{
	struct report_split sp;
	sqlite3_stmt *st;
	int i, rc, empty;

	report_split(ctx, ctx->from, ctx->to, &sp);
	if (!(st = vms_window_prepare(ctx, calls_buckets)))
		return -1;
	sqlite3_bind_int64(st, 3, sp.b_lo);
	sqlite3_bind_int64(st, 4, sp.b_hi);
	sqlite3_bind_int64(st, 5, ctx->origin);
	sqlite3_bind_int64(st, 6, ctx->bucket_ns);
	sqlite3_bind_int64(st, 7, ctx->run_start);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vms_error("%s", sqlite3_errmsg(ctx->sql));
	for (i = 0; i < sp.nedge; i++) {
		st = report_prepare_edge(ctx, calls_edge, "shrink_slab_call", &sp.edge[i], &empty);
		if (!st) {
			if (empty)
				continue;
			return -1;
		}
		sqlite3_bind_int64(st, 5, ctx->run_start);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return vms_error("%s", sqlite3_errmsg(ctx->sql));
	}
	return 0;
}

static int exec_sql(struct vms_window *ctx, const char *sql)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, sql);
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s", sqlite3_errmsg(ctx->sql));
}

/* The reclaim priorities seen in the window, 12 first, NULL (4.14-4.15) last. */
static int priorities(struct vms_window *ctx, int *prio, int *nprio, int max)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT DISTINCT priority FROM temp.report_shrinker_calls WHERE orphan = 0"
		" ORDER BY priority IS NULL, priority DESC");
	int rc;

	*nprio = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *nprio < max)
		prio[(*nprio)++] = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 :
				   sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : vms_error("%s", sqlite3_errmsg(ctx->sql));
}

static void col_or_null(struct table *t, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		table_null(t);
	else
		table_int(t, sqlite3_column_int64(st, i));
}

static void notes_common(struct table *t)
{
	table_note(t, "shrinker: the scan_objects function; instance: the shrinker's address "
		   "(shr), shown when one function has several shrinkers in the window, e.g. "
		   "super_cache_scan has one per superblock");
	table_note(t, "a call is in the window when its start event is; memcg-aware shrinkers "
		   "are called once per memcg and node, and the events carry no memcg id");
}

static int no_events_note(struct vms_window *ctx, struct table *t)
{
	long long n = 0, fmt = 0;

	if (vms_window_int(ctx, "SELECT (SELECT COUNT(*) FROM mm_shrink_slab_start)"
		       " + (SELECT COUNT(*) FROM mm_shrink_slab_end)", &n) < 0 ||
	    vms_window_int(ctx, "SELECT (SELECT COUNT(*) FROM event_format) * 2"
		       " + (SELECT COUNT(*) FROM event_format WHERE name = 'mm_shrink_slab_start')",
		       &fmt) < 0)
		return -1;
	if (n)
		table_note(t, "no shrink_slab call starts in this window (the run has %lld "
			   "shrink_slab events elsewhere)", n);
	else if (fmt && !(fmt & 1))
		table_note(t, "no shrink_slab events: the traced kernel's event formats have no "
			   "vmscan:mm_shrink_slab_start, so no shrinker activity can be shown");
	else
		table_note(t, "no shrink_slab events in this run: vmscan:mm_shrink_slab_start/_end "
			   "were not enabled when it was recorded, or no shrinker reported freeable "
			   "objects (do_shrink_slab() traces only shrinkers whose count_objects() "
			   "returned a non-zero count); see slabs_scanned in the vmstat section");
	return 0;
}

static int shrinker_table(struct vms_window *ctx, struct out *o)
{
	struct vms_buf cols = { 0 }, q = { 0 };
	struct table *t = NULL;
	sqlite3_stmt *st = NULL;
	int prio[16], nprio, i, rc = -1;
	long long open = 0, orphans = 0;

	if (priorities(ctx, prio, &nprio, 16))
		return -1;
	for (i = 0; i < nprio; i++) {
		if (prio[i] < 0)
			vms_buf_addf(&cols, ", SUM(CASE WHEN priority IS NULL THEN calls ELSE 0 END)"
				     " AS p_null");
		else
			vms_buf_addf(&cols, ", SUM(CASE WHEN priority = %d THEN calls ELSE 0 END)"
				     " AS p%d", prio[i], prio[i]);
	}
	vms_buf_addf(&q, calls_cte, cols.buf ? cols.buf : "");
	vms_buf_addf(&q, "SELECT name, inst, calls, to_scan, scanned, freed,"
		     " CASE WHEN scanned > 0 THEN 100.0 * freed / scanned END,"
		     " def_taken, def_left, items, open");
	for (i = 0; i < nprio; i++)
		vms_buf_addf(&q, prio[i] < 0 ? ", p_null" : ", p%d", prio[i]);
	vms_buf_addf(&q, " FROM r ORDER BY rk");
	if (!q.buf) {
		vms_error("out of memory");
		goto out;
	}
	st = vms_window_prepare(ctx, q.buf);
	if (!st)
		goto out;
	t = table_new("shrinkers", "shrinkers", "Slab shrinkers (mm_shrink_slab_start/_end), by objects freed");
	if (!t) {
		vms_error("out of memory");
		goto out;
	}
	table_column(t, "shrinker", NULL, 0);
	table_column(t, "instance", NULL, 0);
	table_column(t, "calls", NULL, 0);
	table_column(t, "to scan", "objects", 0);
	table_column(t, "scanned", "objects", 0);
	table_column(t, "freed", "objects", 0);
	table_column(t, "efficiency", "%", 1);
	table_column(t, "deferred taken", "objects", 0);
	table_column(t, "deferred left", "objects", 0);
	table_column(t, "mean cache items", "objects", 1);
	for (i = 0; i < nprio; i++) {
		char name[32];

		if (prio[i] < 0)
			snprintf(name, sizeof(name), "calls p?");
		else
			snprintf(name, sizeof(name), "calls p%d", prio[i]);
		table_column(t, name, NULL, 0);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		table_row(t);
		table_text(t, (const char *)sqlite3_column_text(st, 0));
		table_text(t, (const char *)sqlite3_column_text(st, 1));
		table_int(t, sqlite3_column_int64(st, 2));
		col_or_null(t, st, 3);
		col_or_null(t, st, 4);
		col_or_null(t, st, 5);
		if (sqlite3_column_type(st, 6) == SQLITE_NULL)
			table_null(t);
		else
			table_real(t, sqlite3_column_double(st, 6));
		col_or_null(t, st, 7);
		col_or_null(t, st, 8);
		if (sqlite3_column_type(st, 9) == SQLITE_NULL)
			table_null(t);
		else
			table_real(t, sqlite3_column_double(st, 9));
		open += sqlite3_column_int64(st, 10);
		for (i = 0; i < nprio; i++)
			table_int(t, sqlite3_column_int64(st, 11 + i));
	}
	if (rc != SQLITE_DONE) {
		rc = vms_error("%s", sqlite3_errmsg(ctx->sql));
		goto out;
	}
	rc = -1;
	if (!table_rows(t)) {
		if (no_events_note(ctx, t))
			goto out;
	} else {
		notes_common(t);
		table_note(t, "scanned = start total_scan - end total_scan (what do_shrink_slab() "
			   "adds to /proc/vmstat slabs_scanned); to scan = start total_scan; "
			   "efficiency = 100*freed/scanned, empty when nothing was scanned, and can "
			   "pass 100 (a shrinker may free more objects than it scanned)");
		table_note(t, "deferred taken = sum of nr_objects_to_shrink (the deferred count "
			   "each call took over), deferred left = sum of new_scan (the deferred "
			   "count after it); both are per-call states summed, see docs/report-shrinkers.md");
		if (nprio)
			table_note(t, "calls pN: calls at reclaim priority N (12 = DEF_PRIORITY, lower "
				   "= more pressure)%s", prio[nprio - 1] < 0 ?
				   "; p?: no priority in the event (kernels before 4.16)" : "");
		if (open)
			table_note(t, "%lld calls have no end event (cut by the end of the trace or "
				   "lost): counted in calls and to scan only", open);
	}
	if (vms_window_int(ctx, "SELECT COALESCE(SUM(calls), 0) FROM temp.report_shrinker_calls"
		       " WHERE orphan = 1", &orphans) < 0)
		goto out;
	if (orphans)
		table_note(t, "%lld end events without a start (call begun before the trace or the "
			   "window, or its start lost) are left out", orphans);
	out_table(o, t);
	rc = 0;
out:
	sqlite3_finalize(st);
	table_free(t);
	vms_buf_release(&cols);
	vms_buf_release(&q);
	return rc;
}

static int timeline_table(struct vms_window *ctx, struct out *o)
{
	struct vms_buf q = { 0 };
	struct table *t = NULL;
	sqlite3_stmt *st = NULL;
	int rc = -1;

	vms_buf_addf(&q, calls_cte, "");
	vms_buf_addf(&q, "SELECT c.sec AS sec, r.rk, r.name, r.inst,"
		     " SUM(c.calls), SUM(c.to_scan), SUM(c.scanned), SUM(c.freed)"
		     " FROM c JOIN r ON r.name = c.name AND r.shr IS c.shr AND r.rk <= %d"
		     " GROUP BY sec, r.rk ORDER BY sec, r.rk", TOP_TIMELINE);
	if (!q.buf) {
		vms_error("out of memory");
		goto out;
	}
	st = vms_window_prepare(ctx, q.buf);
	if (!st)
		goto out;
	t = table_new("shrinkers", "timeline", "Top shrinkers per second (for plotting)");
	if (!t) {
		vms_error("out of memory");
		goto out;
	}
	table_column(t, "second", "s", 0);
	table_column(t, "rank", NULL, 0);
	table_column(t, "shrinker", NULL, 0);
	table_column(t, "instance", NULL, 0);
	table_column(t, "calls", NULL, 0);
	table_column(t, "to scan", "objects", 0);
	table_column(t, "scanned", "objects", 0);
	table_column(t, "freed", "objects", 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		table_row(t);
		table_int(t, sqlite3_column_int64(st, 0));
		table_int(t, sqlite3_column_int64(st, 1));
		table_text(t, (const char *)sqlite3_column_text(st, 2));
		table_text(t, (const char *)sqlite3_column_text(st, 3));
		table_int(t, sqlite3_column_int64(st, 4));
		col_or_null(t, st, 5);
		col_or_null(t, st, 6);
		col_or_null(t, st, 7);
	}
	if (rc != SQLITE_DONE) {
		rc = vms_error("%s", sqlite3_errmsg(ctx->sql));
		goto out;
	}
	if (table_rows(t))
		table_note(t, "the %d shrinkers that freed most (rank as in the table above); second "
			   "= whole seconds from the start of the run to the call's start; seconds "
			   "in which a shrinker made no call have no row (read them as 0)",
			   TOP_TIMELINE);
	else
		table_note(t, "no shrink_slab calls in the window");
	out_table(o, t);
	rc = 0;
out:
	sqlite3_finalize(st);
	table_free(t);
	vms_buf_release(&q);
	return rc;
}

int report_shrinkers(struct vms_window *ctx, struct out *o)
{
	char drop[80];
	int rc;

	snprintf(drop, sizeof(drop), "DROP TABLE IF EXISTS %s", calls_table);
	if (exec_sql(ctx, drop) || exec_sql(ctx, calls_create) || load_calls(ctx))
		return -1;
	rc = shrinker_table(ctx, o) || timeline_table(ctx, o) ? -1 : 0;
	if (exec_sql(ctx, drop))
		rc = -1;
	return rc;
}
