// SPDX-License-Identifier: GPL-2.0
/*
 * report-summary.c - the 'summary' section of `vmscope report`: what the run
 * is (kernel, source, clock, window), events per type in the window with
 * their rates, lost events, the reclaim sysctls and the counter sources.
 */
#include <string.h>

#include "vms.h"
#include "report.h"

static int run_table(struct vms_window *ctx, struct out *o)
{
	static const char *const cols[] = { "status", "status_detail", "source_kind", "source_path",
					    "kernel_release", "trace_clock", "cpus", "page_size" };
	struct table *t = table_new("summary", "run", "Run");
	sqlite3_stmt *st;
	size_t i;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "item", NULL, 0);
	table_column(t, "value", NULL, 0);
	st = vms_window_prepare(ctx, "SELECT status, status_detail, source_kind, source_path,"
			    " kernel_release, trace_clock, cpus, page_size FROM run");
	if (!st) {
		table_free(t);
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
			table_row(t);
			table_text(t, cols[i]);
			table_text(t, (const char *)sqlite3_column_text(st, (int)i));
		}
	sqlite3_finalize(st);
	table_row(t);
	table_text(t, "window_from_s");
	{
		char buf[32];

		snprintf(buf, sizeof(buf), "%.6f", vms_window_rel_s(ctx, ctx->from));
		table_text(t, buf);
		table_row(t);
		table_text(t, "window_to_s");
		snprintf(buf, sizeof(buf), "%.6f", vms_window_rel_s(ctx, ctx->to));
		table_text(t, buf);
	}
	table_note(t, "times are seconds from the start of the run (first event or counter sample)");
	if (!ctx->has_counters)
		table_note(t, "this run has no /proc/vmstat samples (`vmscope record` samples them; an "
			   "imported trace gets them with import --counters or counters add): "
			   "counter-based sections say what they lack");
	out_table(o, t);
	table_free(t);
	return 0;
}

/*
 * Events per type in the window: the buckets it covers whole from
 * event_bucket, its edges counted in the raw rows of each table that has
 * rows there (report-buckets.c).
 */
static int events_sql(struct vms_window *ctx, struct vms_buf *q)
{
	struct report_split sp;
	sqlite3_stmt *st;
	int i, rc;

	report_split(ctx, ctx->from, ctx->to, &sp);
	vms_buf_addf(q, "SELECT event, SUM(n) AS n FROM (SELECT event, n FROM event_bucket"
		     " WHERE tbl <> 'shrink_slab_call' AND bucket BETWEEN %lld AND %lld",
		     sp.b_lo, sp.b_hi);
	for (i = 0; i < sp.nedge; i++) {
		const struct report_edge *e = &sp.edge[i];

		st = vms_window_prepare(ctx, "SELECT b.tbl, MIN(b.min_seq), MAX(b.max_seq),"
				    " (SELECT COUNT(*) FROM pragma_table_info(b.tbl) WHERE name = 'event')"
				    " FROM event_bucket b WHERE b.tbl <> 'shrink_slab_call'"
				    " AND b.bucket BETWEEN ?3 AND ?4 GROUP BY b.tbl");
		if (!st)
			return -1;
		sqlite3_bind_int64(st, 3, e->b_lo);
		sqlite3_bind_int64(st, 4, e->b_hi);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *tbl = (const char *)sqlite3_column_text(st, 0);
			/* tbl is read from the file: quoted as SQL quotes it */
			char *from = sqlite3_column_int(st, 3) ?
				sqlite3_mprintf(" UNION ALL SELECT event, COUNT(*) FROM \"%w\"", tbl) :
				sqlite3_mprintf(" UNION ALL SELECT %Q, COUNT(*) FROM \"%w\"", tbl, tbl);

			if (!from) {
				sqlite3_finalize(st);
				return vms_error("out of memory");
			}
			vms_buf_add(q, from, strlen(from));
			sqlite3_free(from);
			vms_buf_addf(q, " WHERE seq BETWEEN %lld AND %lld AND ts BETWEEN %lld AND %lld"
				     " GROUP BY 1", sqlite3_column_int64(st, 1),
				     sqlite3_column_int64(st, 2), e->from, e->to);
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return vms_error("%s", sqlite3_errmsg(ctx->sql));
	}
	vms_buf_addf(q, ") GROUP BY event HAVING SUM(n) > 0 ORDER BY n DESC, event");
	return q->buf ? 0 : vms_error("out of memory");
}

static int events_table(struct vms_window *ctx, struct out *o)
{
	struct vms_buf q = { 0 };
	sqlite3_stmt *st;
	struct table *t;
	double span = (ctx->to - ctx->from) / 1e9;
	int rc;

	if (events_sql(ctx, &q)) {
		vms_buf_release(&q);
		return -1;
	}
	st = vms_window_prepare(ctx, q.buf);
	vms_buf_release(&q);
	if (!st)
		return -1;
	t = table_new("summary", "events", "Events per type in the window");
	if (!t) {
		sqlite3_finalize(st);
		return vms_error("out of memory");
	}
	table_column(t, "event", NULL, 0);
	table_column(t, "count", NULL, 0);
	table_column(t, "rate", "1/s", 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		table_row(t);
		table_text(t, (const char *)sqlite3_column_text(st, 0));
		table_int(t, sqlite3_column_int64(st, 1));
		if (span > 0)
			table_real(t, sqlite3_column_int64(st, 1) / span);
		else
			table_null(t);
	}
	sqlite3_finalize(st);
	out_table(o, t);
	table_free(t);
	return rc == SQLITE_DONE ? 0 : vms_error("%s", sqlite3_errmsg(ctx->sql));
}

static int simple_table(struct vms_window *ctx, struct out *o, const char *name, const char *title,
			const char *sql, const char *const *cols, int ncols, const char *empty)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, sql);
	struct table *t;
	int i, rc;

	if (!st)
		return -1;
	t = table_new("summary", name, title);
	if (!t) {
		sqlite3_finalize(st);
		return vms_error("out of memory");
	}
	for (i = 0; i < ncols; i++)
		table_column(t, cols[i], NULL, 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		table_row(t);
		for (i = 0; i < ncols; i++) {
			if (sqlite3_column_type(st, i) == SQLITE_NULL)
				table_null(t);
			else if (sqlite3_column_type(st, i) == SQLITE_INTEGER)
				table_int(t, sqlite3_column_int64(st, i));
			else
				table_text(t, (const char *)sqlite3_column_text(st, i));
		}
	}
	sqlite3_finalize(st);
	if (!table_rows(t) && empty)
		table_note(t, "%s", empty);
	out_table(o, t);
	table_free(t);
	return rc == SQLITE_DONE ? 0 : vms_error("%s", sqlite3_errmsg(ctx->sql));
}

int report_summary(struct vms_window *ctx, struct out *o)
{
	static const char *const lost_cols[] = { "cpu", "events", "source" };
	static const char *const sysctl_cols[] = { "name", "value" };
	static const char *const counter_cols[] = { "source", "scope", "samples" };

	if (run_table(ctx, o) || events_table(ctx, o))
		return -1;
	if (simple_table(ctx, o, "lost", "Lost events (whole run)",
			 "SELECT cpu, SUM(count), source FROM lost_events GROUP BY cpu, source"
			 " ORDER BY cpu, source", lost_cols, 3,
			 "no lost events reported by the source"))
		return -1;
	if (simple_table(ctx, o, "sysctls", "Reclaim sysctls", "SELECT name, value FROM sysctl"
			 " ORDER BY name", sysctl_cols, 2,
			 "not recorded (a trace does not carry them: import --sysctl NAME=VALUE or a "
			 "`sysctl -a` file given to --counters)"))
		return -1;
	return simple_table(ctx, o, "counters", "Counter samples in the window",
			    "SELECT source, scope, COUNT(*) FROM counter_sample WHERE ts BETWEEN ?1 AND ?2"
			    " GROUP BY source, scope ORDER BY source, scope", counter_cols, 3,
			    "no counter samples");
}
