// SPDX-License-Identifier: GPL-2.0
/*
 * report-throttle.c - the 'throttle' section of `vmscope report`: how long
 * reclaimers slept in reclaim_throttle() (mm_vmscan_throttled, 5.16+) by
 * reason and by task, and, for kernels up to 5.15, in congestion_wait() and
 * wait_iff_congested() (writeback_congestion_wait / _wait_iff_congested, the
 * table writeback_congest_wait). Definitions: docs/report-throttle.md.
 *
 * delay = usec_delayed, the time the task actually slept; timeout =
 * usec_timeout. Percentiles are nearest-rank: the p-th percentile of n
 * values sorted ascending is the value of rank ceil(p * n / 100), 1-based.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "report.h"

#define THROTTLED "mm_vmscan_throttled"

/* One sleep in the window. */
struct sleep {
	char *event, *comm;
	int has_reason;
	long long reason, pid, delayed, timeout;	/* µs */
};

static const char sleeps_sql[] =
	"WITH s AS ("
	" SELECT '" THROTTLED "' AS event, reason, pid, ts, usec_delayed, usec_timeout"
	"  FROM mm_vmscan_throttled WHERE ts BETWEEN ?1 AND ?2"
	" UNION ALL SELECT event, NULL, pid, ts, usec_delayed, usec_timeout"
	"  FROM writeback_congest_wait WHERE ts BETWEEN ?1 AND ?2)"
	" SELECT event, reason, pid,"
	"  (SELECT t.comm FROM task t WHERE t.pid = s.pid AND s.ts BETWEEN t.first_ts AND t.last_ts"
	"   UNION ALL SELECT MIN(t.comm) FROM task t WHERE t.pid = s.pid LIMIT 1),"
	"  COALESCE(usec_delayed, 0), COALESCE(usec_timeout, 0)"
	" FROM s";

struct vocab {
	char *name;
	long long value;
};

static void free_sleeps(struct sleep *s, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(s[i].event);
		free(s[i].comm);
	}
	free(s);
}

static int load_sleeps(struct vms_window *ctx, struct sleep **out, int *n)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, sleeps_sql);
	struct sleep *s = NULL;
	int rc, alloc = 0;

	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *ev = (const char *)sqlite3_column_text(st, 0);
		const char *comm = (const char *)sqlite3_column_text(st, 3);
		struct sleep *x;

		if (vms_array_reserve(&s, &alloc, *n, 64, sizeof(*s))) {
			rc = SQLITE_NOMEM;
			break;
		}
		x = &s[(*n)++];
		x->event = strdup(ev ? ev : "");
		x->comm = strdup(comm ? comm : "");
		if (!x->event || !x->comm) {
			rc = SQLITE_NOMEM;
			break;
		}
		x->has_reason = sqlite3_column_type(st, 1) != SQLITE_NULL;
		x->reason = sqlite3_column_int64(st, 1);
		x->pid = sqlite3_column_int64(st, 2);
		x->delayed = sqlite3_column_int64(st, 4);
		x->timeout = sqlite3_column_int64(st, 5);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free_sleeps(s, *n);
		*n = 0;
		return rc == SQLITE_NOMEM ? vms_error("out of memory")
					  : vms_error("%s", sqlite3_errmsg(ctx->sql));
	}
	*out = s;
	return 0;
}

static int load_vocab(struct vms_window *ctx, struct vocab **out, int *n)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT name, value FROM vocab"
					  " WHERE domain = 'throttle_reason' AND value <> 0 ORDER BY value");
	struct vocab *v = NULL;
	int rc;

	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct vocab *nv = realloc(v, (*n + 1) * sizeof(*v));

		if (!nv || !(nv[*n].name = strdup((const char *)sqlite3_column_text(st, 0)))) {
			v = nv ? nv : v;
			rc = SQLITE_NOMEM;
			break;
		}
		v = nv;
		v[*n].value = sqlite3_column_int64(st, 1);
		(*n)++;
	}
	sqlite3_finalize(st);
	*out = v;
	if (rc != SQLITE_DONE)
		return rc == SQLITE_NOMEM ? vms_error("out of memory")
					  : vms_error("%s", sqlite3_errmsg(ctx->sql));
	return 0;
}

static void free_vocab(struct vocab *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* The reason's name(s) from vocab ('|'-joined bits; bits vocab lacks in hex). */
static void reason_name(const struct vocab *v, int nv, long long reason, char *buf, size_t len)
{
	long long left = reason;
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nv; i++)
		if ((reason & v[i].value) == v[i].value) {
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? "|" : "", v[i].name);
			left &= ~v[i].value;
		}
	if (left || !reason)
		snprintf(buf + n, n < len ? len - n : 0, "%s0x%llx", n ? "|" : "", left);
}

/* Grouping: sleeps that compare equal under the key are one row. */
static int by_reason(const struct sleep *a, const struct sleep *b)
{
	int c = strcmp(a->event, b->event);

	if (c)
		return c;
	if (a->has_reason != b->has_reason)
		return a->has_reason - b->has_reason;
	return a->reason < b->reason ? -1 : a->reason > b->reason;
}

static int by_task(const struct sleep *a, const struct sleep *b)
{
	int c = strcmp(a->event, b->event);

	if (c)
		return c;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return strcmp(a->comm, b->comm);
}

static int (*group_key)(const struct sleep *, const struct sleep *);

static int cmp_ptr(const void *a, const void *b)
{
	return group_key(*(const struct sleep *const *)a, *(const struct sleep *const *)b);
}

struct group {
	const struct sleep *first;
	int n, full;
	long long total, max_timeout;
	long long *delays;	/* sorted */
	long long reasons;	/* OR of the reasons (by task) */
};

/* Return: number of groups, -1 when out of memory. */
static int make_groups(struct sleep *s, int n, int (*key)(const struct sleep *, const struct sleep *),
		       struct group **out)
{
	const struct sleep **p = malloc((n ? n : 1) * sizeof(*p));
	struct group *g = calloc(n ? n : 1, sizeof(*g));
	long long *d = malloc((n ? n : 1) * sizeof(*d));
	int i, ng = 0, used = 0;

	if (!p || !g || !d) {
		free(p);
		free(g);
		free(d);
		return -1;
	}
	for (i = 0; i < n; i++)
		p[i] = &s[i];
	group_key = key;
	qsort(p, n, sizeof(*p), cmp_ptr);
	for (i = 0; i < n; i++) {
		struct group *cur;

		if (!ng || key(g[ng - 1].first, p[i])) {
			cur = &g[ng++];
			cur->first = p[i];
			cur->delays = d + used;
		}
		cur = &g[ng - 1];
		cur->delays[cur->n++] = p[i]->delayed;
		used++;
		cur->total += p[i]->delayed;
		cur->full += p[i]->timeout > 0 && p[i]->delayed >= p[i]->timeout;
		if (p[i]->timeout > cur->max_timeout)
			cur->max_timeout = p[i]->timeout;
		if (p[i]->has_reason)
			cur->reasons |= p[i]->reason;
	}
	for (i = 0; i < ng; i++)
		qsort(g[i].delays, g[i].n, sizeof(long long), vms_cmp_ll);
	free(p);
	if (!ng)
		free(d);
	*out = g;
	return ng;
}

static void free_groups(struct group *g, int ng)
{
	long long *block = NULL;	/* one block for all groups: the lowest delays */
	int i;

	/* the callers sort the groups, so g[0] need not hold the block's start */
	for (i = 0; i < ng; i++)
		if (!block || g[i].delays < block)
			block = g[i].delays;
	free(block);
	free(g);
}

static int cmp_group_total(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	int c = strcmp(x->first->event, y->first->event);

	if (c)
		return c;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->first->pid < y->first->pid ? -1 : x->first->pid > y->first->pid;
}

static void delay_columns(struct table *t)
{
	table_column(t, "events", NULL, 0);
	table_column(t, "total delay", "ms", 3);
	table_column(t, "p50", "ms", 3);
	table_column(t, "p90", "ms", 3);
	table_column(t, "p99", "ms", 3);
	table_column(t, "max", "ms", 3);
	table_column(t, "timeout", "ms", 3);
	table_column(t, "full timeouts", NULL, 0);
}

static void delay_cells(struct table *t, const struct group *g)
{
	table_int(t, g->n);
	table_real(t, g->total / 1e3);
	table_real(t, vms_percentile(g->delays, g->n, 50) / 1e3);
	table_real(t, vms_percentile(g->delays, g->n, 90) / 1e3);
	table_real(t, vms_percentile(g->delays, g->n, 99) / 1e3);
	table_real(t, g->delays[g->n - 1] / 1e3);
	table_real(t, g->max_timeout / 1e3);
	table_int(t, g->full);
}

static void delay_notes(struct table *t)
{
	table_note(t, "delay = usec_delayed (how long the task slept; the kernel measures it in "
		   "jiffies), timeout = the largest usec_timeout of the row's sleeps; full timeouts = "
		   "sleeps with delay >= timeout (nothing woke the task before its timeout)");
	table_note(t, "p50/p90/p99: nearest-rank percentiles of the delays (the value of rank "
		   "ceil(p*n/100) among the n delays sorted ascending)");
}

/* Kernel release as major * 1000 + minor; 0 when unknown. */
static int kernel_version(struct vms_window *ctx, char *rel, size_t len)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT kernel_release FROM run");
	int maj = 0, min = 0;

	rel[0] = '\0';
	if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(rel, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (sscanf(rel, "%d.%d", &maj, &min) != 2)
		return 0;
	return maj * 1000 + min;
}

static long long count_of(struct vms_window *ctx, const char *sql)
{
	long long v = 0;

	return vms_window_int(ctx, sql, &v) == 0 ? v : 0;
}

/* Say why there are no rows: not in the window, never fired, not traced, or no such event. */
static void absence_notes(struct vms_window *ctx, struct table *t, int n_thr, int n_cw)
{
	char rel[128];
	int kv = kernel_version(ctx, rel, sizeof(rel));
	long long thr_all = count_of(ctx, "SELECT COUNT(*) FROM mm_vmscan_throttled");
	long long cw_all = count_of(ctx, "SELECT COUNT(*) FROM writeback_congest_wait");
	long long fmt_any = count_of(ctx, "SELECT COUNT(*) FROM event_format");
	long long fmt_thr = count_of(ctx, "SELECT COUNT(*) FROM event_format WHERE name = '"
				     THROTTLED "'");
	long long fmt_cw = count_of(ctx, "SELECT COUNT(*) FROM event_format WHERE name IN"
				    " ('writeback_congestion_wait', 'writeback_wait_iff_congested')");
	const char *kname = *rel ? rel : "unknown";

	if (!n_thr && !n_cw)
		table_note(t, "no reclaim throttling in the window %.6f .. %.6f s",
			   vms_window_rel_s(ctx, ctx->from), vms_window_rel_s(ctx, ctx->to));
	if (!n_thr) {
		if (thr_all)
			table_note(t, "%s: %lld events in the run, none in the window", THROTTLED, thr_all);
		else if (fmt_thr)
			table_note(t, "%s was traced (its format is in the trace) and never fired: no "
				   "reclaimer was throttled", THROTTLED);
		else if (kv && kv < 5016)
			table_note(t, "this kernel (%s) has no %s (added in 5.16): reclaim waited in "
				   "congestion_wait()/wait_iff_congested() instead", kname, THROTTLED);
		else if (fmt_any)
			table_note(t, "the trace has no %s format: the event was not enabled when "
				   "tracing (kernel %s; the event exists on 5.16+)", THROTTLED, kname);
		else
			table_note(t, "no %s events; a text trace does not say which events were "
				   "enabled (kernel %s; the event exists on 5.16+)", THROTTLED, kname);
	}
	/* the congestion waits matter up to 5.15, or when the kernel is unknown */
	if (!n_cw && (!kv || kv < 5016) && !(n_thr || thr_all || fmt_thr)) {
		if (cw_all)
			table_note(t, "writeback_congest_wait: %lld events in the run, none in the "
				   "window", cw_all);
		else if (fmt_cw)
			table_note(t, "writeback_congestion_wait / writeback_wait_iff_congested were "
				   "traced and never fired");
		else if (fmt_any)
			table_note(t, "the trace has no writeback_congestion_wait / "
				   "writeback_wait_iff_congested format: not enabled when tracing "
				   "(they exist up to 5.15)");
		else
			table_note(t, "no writeback_congestion_wait / writeback_wait_iff_congested events "
				   "either (they exist up to 5.15)");
	}
}

static int reason_table(struct vms_window *ctx, struct out *o, struct sleep *s, int n,
			const struct vocab *v, int nv)
{
	struct table *t = table_new("throttle", "by-reason", "Reclaim throttling by reason");
	struct group *g;
	int ng, i, n_thr = 0, n_cw = 0;
	char name[256];

	if (!t)
		return vms_error("out of memory");
	ng = make_groups(s, n, by_reason, &g);
	if (ng < 0) {
		table_free(t);
		return vms_error("out of memory");
	}
	table_column(t, "event", NULL, 0);
	table_column(t, "reason", NULL, 0);
	delay_columns(t);
	for (i = 0; i < ng; i++) {
		table_row(t);
		table_text(t, g[i].first->event);
		if (g[i].first->has_reason) {
			reason_name(v, nv, g[i].first->reason, name, sizeof(name));
			table_text(t, name);
		} else {
			table_null(t);
		}
		delay_cells(t, &g[i]);
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(s[i].event, THROTTLED))
			n_thr++;
		else
			n_cw++;
	}
	if (n)
		delay_notes(t);
	if (n_thr)
		table_note(t, "reason: mm_vmscan_throttled.reason decoded with vocab "
			   "'throttle_reason' (WRITEBACK: too many pages under writeback; ISOLATED: "
			   "too many isolated pages; NOPROGRESS: direct reclaim without progress; "
			   "CONGESTED: node or memcg flagged congested)");
	if (n_cw)
		table_note(t, "rows of writeback_congestion_wait / writeback_wait_iff_congested (up to "
			   "5.15) have no reason (NULL)");
	absence_notes(ctx, t, n_thr, n_cw);
	out_table(o, t);
	table_free(t);
	free_groups(g, ng);
	return 0;
}

static int task_table(struct out *o, struct sleep *s, int n, const struct vocab *v, int nv)
{
	struct table *t = table_new("throttle", "by-task", "Reclaim throttling by task");
	struct group *g;
	int ng, i;
	char name[256];

	if (!t)
		return vms_error("out of memory");
	ng = make_groups(s, n, by_task, &g);
	if (ng < 0) {
		table_free(t);
		return vms_error("out of memory");
	}
	qsort(g, ng, sizeof(*g), cmp_group_total);
	table_column(t, "event", NULL, 0);
	table_column(t, "pid", NULL, 0);
	table_column(t, "comm", NULL, 0);
	delay_columns(t);
	table_column(t, "reasons", NULL, 0);
	for (i = 0; i < ng; i++) {
		table_row(t);
		table_text(t, g[i].first->event);
		table_int(t, g[i].first->pid);
		table_text(t, g[i].first->comm);
		delay_cells(t, &g[i]);
		if (strcmp(g[i].first->event, THROTTLED)) {
			table_null(t);
		} else {
			reason_name(v, nv, g[i].reasons, name, sizeof(name));
			table_text(t, name);
		}
	}
	if (n) {
		delay_notes(t);
		table_note(t, "rows sorted by event, then total delay (largest first); reasons: every "
			   "reason the task was throttled for");
	} else {
		table_note(t, "no throttling in the window (see the by-reason table)");
	}
	out_table(o, t);
	table_free(t);
	free_groups(g, ng);
	return 0;
}

int report_throttle(struct vms_window *ctx, struct out *o)
{
	struct sleep *s = NULL;
	struct vocab *v = NULL;
	int n = 0, nv = 0, rc;

	if (load_sleeps(ctx, &s, &n))
		return -1;
	if (load_vocab(ctx, &v, &nv)) {
		free_sleeps(s, n);
		free_vocab(v, nv);
		return -1;
	}
	rc = reason_table(ctx, o, s, n, v, nv);
	if (!rc)
		rc = task_table(o, s, n, v, nv);
	free_sleeps(s, n);
	free_vocab(v, nv);
	return rc;
}
