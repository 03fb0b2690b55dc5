// SPDX-License-Identifier: GPL-2.0
/*
 * report-episodes.c - the 'episodes' section of `vmscope report`: one row per
 * reclaim episode (a direct, memcg, memcg soft-limit or node reclaim call from
 * the view reclaim_interval; a kswapd awake period from kswapd_interval) with
 * what the reclaimer did inside it, then the same episodes aggregated per
 * task and per node. Definitions of every column: docs/report-episodes.md.
 *
 * The episodes and what happened inside each are derived once, when the run
 * is finished (lib/derive-episodes.c, table episode); this section reads
 * those overlapping the window and lays them out.
 *
 * Percentiles are nearest-rank: the p-th percentile of n values sorted in
 * ascending order is the value of rank ceil(p * n / 100) (1-based), computed
 * in integers in vms_percentile(); only complete episodes have a duration.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "report.h"

#define NONE (-1LL)	/* "no value" for the fields that cannot be negative */

/* One row of table episode. */
struct episode {
	char *kind, *comm;
	long long pid, nid;		/* nid NONE: unknown */
	long long b_cpu, e_cpu;		/* NONE: no such event */
	int has_b, has_e;
	long long b_ts, e_ts;
	long long dur;			/* ns; NONE when cut */
	long long scanned, reclaimed, anon, file;
	long long min_prio;		/* NONE: no event with a priority */
	long long slab_planned, slab_scanned, slab_freed, writes, throttle_us;
	long long end_rec;		/* nr_reclaimed of the end event; NONE */
	long long wakes;		/* kswapd only; NONE otherwise */
	long long nodes;		/* nodes the LRU events inside scanned */
	char *lost;			/* the 'lost' flag; "" when none */
};

struct avail {
	int lru, slab, writes, throttle;	/* 0: the run does not carry the event */
};

static long long col_ll(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NONE : sqlite3_column_int64(st, i);
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return strdup(s ? s : "");
}

/*
 * Whether the run carries @event (stored in @tbl): 2 rows exist, 1 the source
 * lists its format (enabled, none fired), 0 the source lists formats but not
 * this one (not traced), -1 the source has no formats (text): unknown.
 */
static int event_state(struct vms_window *ctx, const char *tbl, const char *event)
{
	char q[256];
	long long v;

	sqlite3_snprintf(sizeof(q), q, "SELECT 1 FROM \"%w\" LIMIT 1", tbl);
	if (vms_window_int(ctx, q, &v) == 0)
		return 2;
	sqlite3_snprintf(sizeof(q), q, "SELECT 1 FROM event_format WHERE name = %Q", event);
	if (vms_window_int(ctx, q, &v) == 0)
		return 1;
	if (vms_window_int(ctx, "SELECT 1 FROM event_format LIMIT 1", &v) == 0)
		return 0;
	return -1;
}

/*
 * Which columns the run can give (@a), and, when @t is given, the notes that
 * say why one is NULL or why its zeros may mean "not traced".
 */
static void check_avail(struct vms_window *ctx, struct table *t, struct avail *a)
{
	static const struct {
		const char *tbl, *event, *event2, *what;
	} ev[] = {
		{ "mm_vmscan_lru_shrink_inactive", "mm_vmscan_lru_shrink_inactive", NULL,
		  "scanned, reclaimed, efficiency, anon/file scanned" },
		{ "mm_shrink_slab_start", "mm_shrink_slab_start", NULL, "slab planned, scanned, freed" },
		{ "mm_vmscan_write_folio", "mm_vmscan_write_folio", "mm_vmscan_writepage",
		  "writes" },
		{ "mm_vmscan_throttled", "mm_vmscan_throttled", NULL, "throttled" },
		{ "writeback_congest_wait", "writeback_congestion_wait",
		  "writeback_wait_iff_congested", "throttled" },
	};
	int st[5], i;

	for (i = 0; i < 5; i++) {
		st[i] = event_state(ctx, ev[i].tbl, ev[i].event);
		if (ev[i].event2) {
			int s2 = event_state(ctx, ev[i].tbl, ev[i].event2);

			if (s2 > st[i])
				st[i] = s2;
		}
	}
	a->lru = st[0] != 0;
	a->slab = st[1] != 0;
	a->writes = st[2] != 0;
	a->throttle = st[3] != 0 || st[4] != 0;
	if (!t)
		return;
	for (i = 0; i < 3; i++)
		if (!st[i])
			table_note(t, "%s: unavailable (NULL): the trace has no %s%s%s format, so the "
				   "event was not traced", ev[i].what, ev[i].event,
				   ev[i].event2 ? " or " : "", ev[i].event2 ? ev[i].event2 : "");
		else if (st[i] < 0)
			table_note(t, "%s: the run has no %s events; a text trace does not say whether "
				   "the event was enabled, so 0 may mean 'not traced'", ev[i].what,
				   ev[i].event);
	if (!a->throttle)
		table_note(t, "throttled: unavailable (NULL): the trace has no format for "
			   "mm_vmscan_throttled (5.16+) nor for writeback_congestion_wait / "
			   "writeback_wait_iff_congested (up to 5.15), so they were not traced");
	else if (st[3] < 0 && st[4] < 0)
		table_note(t, "throttled: the run has no mm_vmscan_throttled or congestion-wait "
			   "events; a text trace does not say whether they were enabled, so 0 may "
			   "mean 'not traced'");
}

static void free_episodes(struct episode *ep, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(ep[i].kind);
		free(ep[i].comm);
		free(ep[i].lost);
	}
	free(ep);
}

/* Groups in kind order (direct < kswapd < memcg < memcg_softlimit < node). */
static int cmp_kind(const struct episode *x, const struct episode *y)
{
	return strcmp(x->kind, y->kind);
}

/* Make room for one more episode. Return: it, zeroed, or NULL when out of memory. */
static struct episode *episode_push(struct episode **ep, int *n, int *alloc)
{
	if (vms_array_reserve(ep, alloc, *n, 64, sizeof(**ep)))
		return NULL;
	memset(&(*ep)[*n], 0, sizeof(**ep));
	return &(*ep)[(*n)++];
}

static const char *cut_of(const struct episode *e)
{
	if (!e->has_b && !e->has_e)
		return "start end";
	return !e->has_b ? "start" : !e->has_e ? "end" : "";
}

static int episodes_table(struct vms_window *ctx, struct out *o, struct episode *ep, int n,
			  const struct avail *a)
{
	struct table *t = table_new("episodes", "episodes", "Reclaim episodes");
	struct avail dummy;
	int i, cut_start = 0, cut_end = 0, lost = 0, multi = 0;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "kind", NULL, 0);
	table_column(t, "pid", NULL, 0);
	table_column(t, "comm", NULL, 0);
	table_column(t, "nid", NULL, 0);
	table_column(t, "cpu", NULL, 0);
	table_column(t, "start", "s", 6);
	table_column(t, "end", "s", 6);
	table_column(t, "duration", "ms", 3);
	table_column(t, "scanned", "pages", 0);
	table_column(t, "reclaimed", "pages", 0);
	table_column(t, "efficiency", "%", 1);
	table_column(t, "anon scanned", "pages", 0);
	table_column(t, "file scanned", "pages", 0);
	table_column(t, "min prio", NULL, 0);
	table_column(t, "slab planned", "objects", 0);
	table_column(t, "slab scanned", "objects", 0);
	table_column(t, "slab freed", "objects", 0);
	table_column(t, "writes", "folios", 0);
	table_column(t, "throttled", "ms", 3);
	table_column(t, "end reclaimed", "pages", 0);
	table_column(t, "re-wakes", NULL, 0);
	table_column(t, "cut", NULL, 0);
	table_column(t, "lost", NULL, 0);
	for (i = 0; i < n; i++) {
		struct episode *e = &ep[i];

		table_row(t);
		table_text(t, e->kind);
		table_int(t, e->pid);
		table_text(t, e->comm);
		if (e->nid == NONE)
			table_null(t);
		else
			table_int(t, e->nid);
		if (e->b_cpu != NONE)
			table_int(t, e->b_cpu);
		else if (e->e_cpu != NONE)
			table_int(t, e->e_cpu);
		else
			table_null(t);
		if (e->has_b)
			table_real(t, vms_window_rel_s(ctx, e->b_ts));
		else
			table_null(t);
		if (e->has_e)
			table_real(t, vms_window_rel_s(ctx, e->e_ts));
		else
			table_null(t);
		if (e->dur != NONE)
			table_real(t, e->dur / 1e6);
		else
			table_null(t);
		if (a->lru) {
			table_int(t, e->scanned);
			table_int(t, e->reclaimed);
			if (e->scanned)
				table_real(t, 100.0 * e->reclaimed / e->scanned);
			else
				table_null(t);
			table_int(t, e->anon);
			table_int(t, e->file);
		} else {
			table_null(t);
			table_null(t);
			table_null(t);
			table_null(t);
			table_null(t);
		}
		if (e->min_prio != NONE)
			table_int(t, e->min_prio);
		else
			table_null(t);
		if (a->slab) {
			table_int(t, e->slab_planned);
			table_int(t, e->slab_scanned);
			table_int(t, e->slab_freed);
		} else {
			table_null(t);
			table_null(t);
			table_null(t);
		}
		if (a->writes)
			table_int(t, e->writes);
		else
			table_null(t);
		if (a->throttle)
			table_real(t, e->throttle_us / 1e3);
		else
			table_null(t);
		if (e->end_rec != NONE)
			table_int(t, e->end_rec);
		else
			table_null(t);
		if (e->wakes != NONE && e->wakes > 0)
			table_int(t, e->wakes - 1);
		else
			table_null(t);
		table_text(t, cut_of(e));
		table_text(t, e->lost);
		cut_start += !e->has_b;
		cut_end += !e->has_e;
		lost += e->lost[0] != 0;
		multi += e->nodes > 1 && strcmp(e->kind, "kswapd") && strcmp(e->kind, "node");
	}
	if (!n) {
		long long v;

		if (vms_window_int(ctx, "SELECT 1 FROM reclaim_interval UNION ALL"
			       " SELECT 1 FROM kswapd_interval LIMIT 1", &v) == 0)
			table_note(t, "no reclaim episode overlaps the window %.6f .. %.6f s (the run has "
				   "episodes outside it)", vms_window_rel_s(ctx, ctx->from),
				   vms_window_rel_s(ctx, ctx->to));
		else
			table_note(t, "the run has no reclaim episodes: no direct/memcg/node reclaim "
				   "begin or end events and no kswapd wake or sleep events");
	} else {
		table_note(t, "%d episodes overlap the window %.6f .. %.6f s; each is reported whole, "
			   "with all the events inside it", n, vms_window_rel_s(ctx, ctx->from),
			   vms_window_rel_s(ctx, ctx->to));
	}
	table_note(t, "start/end: seconds from the start of the run; duration = end - begin; "
		   "kswapd rows are awake periods (first kswapd_wake after a sleep .. kswapd_sleep), "
		   "re-wakes = kswapd_wake events in the period - 1");
	table_note(t, "scanned .. throttled: the events of the episode's task (kswapd: the "
		   "node's kswapd pids) between its begin and end; end reclaimed: the end event's "
		   "own nr_reclaimed (it includes slab pages)");
	if (cut_start || cut_end)
		table_note(t, "cut: %d episodes began before the trace ('start': no begin event; "
			   "start and duration NULL), %d were still running at its end ('end': no "
			   "end event; end and duration NULL)", cut_start, cut_end);
	if (lost)
		table_note(t, "lost: %d episodes may miss events ('inside': a loss noticed inside "
			   "the episode; 'cpuN': an untimed loss on CPU N its begin or end ran on; "
			   "'anywhere': a loss with neither CPU nor time)", lost);
	if (multi)
		table_note(t, "%d direct/memcg episodes scanned more than one node: nid is the node "
			   "with the most pages scanned", multi);
	check_avail(ctx, t, &dummy);
	out_table(o, t);
	table_free(t);
	return 0;
}

/* --- aggregates ------------------------------------------------------- */

struct group {
	const struct episode *first;
	int episodes, complete, cut;
	long long total_ns, scanned, reclaimed;
	long long *dur;			/* complete episodes' durations, sorted */
};

static int cmp_task(const void *a, const void *b)
{
	const struct episode *x = *(const struct episode *const *)a;
	const struct episode *y = *(const struct episode *const *)b;
	int c = cmp_kind(x, y);

	if (c)
		return c;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

static int cmp_node(const void *a, const void *b)
{
	const struct episode *x = *(const struct episode *const *)a;
	const struct episode *y = *(const struct episode *const *)b;
	int c = cmp_kind(x, y);

	if (c)
		return c;
	return x->nid < y->nid ? -1 : x->nid > y->nid;	/* NONE (-1) first */
}

static int cmp_group_total(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	int c = strcmp(x->first->kind, y->first->kind);

	if (c)
		return c;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return x->first->pid < y->first->pid ? -1 : x->first->pid > y->first->pid;
}

/*
 * Group @ep by @cmp (sorted by it first) into *@out.
 * Return: number of groups, or -1 when out of memory.
 */
static int make_groups(struct episode *ep, int n, int (*cmp)(const void *, const void *),
		       struct group **out)
{
	const struct episode **p = malloc((n ? n : 1) * sizeof(*p));
	struct group *g = calloc(n ? n : 1, sizeof(*g));
	int i, ng = 0;

	if (!p || !g) {
		free(p);
		free(g);
		return -1;
	}
	for (i = 0; i < n; i++)
		p[i] = &ep[i];
	qsort(p, n, sizeof(*p), cmp);
	for (i = 0; i < n; i++) {
		const struct episode *e = p[i];
		struct group *cur;

		if (!ng || cmp(&g[ng - 1].first, &p[i])) {
			cur = &g[ng++];
			cur->first = e;
			cur->dur = malloc(n * sizeof(long long));
			if (!cur->dur)
				goto oom;
		}
		cur = &g[ng - 1];
		cur->episodes++;
		if (e->dur != NONE) {
			cur->dur[cur->complete++] = e->dur;
			cur->total_ns += e->dur;
		} else {
			cur->cut++;
		}
		cur->scanned += e->scanned;
		cur->reclaimed += e->reclaimed;
	}
	for (i = 0; i < ng; i++)
		qsort(g[i].dur, g[i].complete, sizeof(long long), vms_cmp_ll);
	free(p);
	*out = g;
	return ng;
oom:
	for (i = 0; i < ng; i++)
		free(g[i].dur);
	free(g);
	free(p);
	return -1;
}

static void free_groups(struct group *g, int ng)
{
	int i;

	for (i = 0; i < ng; i++)
		free(g[i].dur);
	free(g);
}

static void group_cells(struct table *t, const struct group *g, const struct avail *a)
{
	static const int ps[] = { 50, 90, 99 };
	int k;

	table_int(t, g->episodes);
	table_int(t, g->complete);
	table_int(t, g->cut);
	table_real(t, g->total_ns / 1e6);
	for (k = 0; k < 3; k++)
		if (g->complete)
			table_real(t, vms_percentile(g->dur, g->complete, ps[k]) / 1e6);
		else
			table_null(t);
	if (g->complete)
		table_real(t, g->dur[g->complete - 1] / 1e6);
	else
		table_null(t);
	if (a->lru) {
		table_int(t, g->scanned);
		table_int(t, g->reclaimed);
	} else {
		table_null(t);
		table_null(t);
	}
}

static void group_columns(struct table *t)
{
	table_column(t, "episodes", NULL, 0);
	table_column(t, "complete", NULL, 0);
	table_column(t, "cut", NULL, 0);
	table_column(t, "total", "ms", 3);
	table_column(t, "p50", "ms", 3);
	table_column(t, "p90", "ms", 3);
	table_column(t, "p99", "ms", 3);
	table_column(t, "max", "ms", 3);
	table_column(t, "scanned", "pages", 0);
	table_column(t, "reclaimed", "pages", 0);
}

static void group_notes(struct table *t)
{
	table_note(t, "p50/p90/p99: nearest-rank percentiles of the durations of the complete "
		   "episodes (the value of rank ceil(p*n/100) among the n durations sorted "
		   "ascending); total and max over complete episodes too; cut episodes are counted "
		   "in 'episodes' and 'cut' only, but their pages are in the page sums");
}

static int per_task_table(struct out *o, struct episode *ep, int n, const struct avail *a,
			  int listed)
{
	struct table *t = table_new("episodes", "per-task", "Reclaim episodes per kind and task");
	struct group *g;
	int ng, i;

	if (!t)
		return vms_error("out of memory");
	ng = make_groups(ep, n, cmp_task, &g);
	if (ng < 0) {
		table_free(t);
		return vms_error("out of memory");
	}
	qsort(g, ng, sizeof(*g), cmp_group_total);
	table_column(t, "kind", NULL, 0);
	table_column(t, "pid", NULL, 0);
	table_column(t, "comm", NULL, 0);
	group_columns(t);
	for (i = 0; i < ng; i++) {
		table_row(t);
		table_text(t, g[i].first->kind);
		table_int(t, g[i].first->pid);
		table_text(t, g[i].first->comm);
		group_cells(t, &g[i], a);
	}
	group_notes(t);
	table_note(t, "rows sorted by kind, then total duration (largest first); a kswapd row is "
		   "the node's kswapd thread");
	if (!listed)
		table_note(t, "the %d episodes one per row: vmscope report DB episodes --table episodes "
			   "(CSV and JSON always hold them)", n);
	out_table(o, t);
	table_free(t);
	free_groups(g, ng);
	return 0;
}

static int per_node_table(struct out *o, struct episode *ep, int n, const struct avail *a)
{
	struct table *t = table_new("episodes", "per-node", "Reclaim episodes per kind and node");
	struct group *g;
	int ng, i;

	if (!t)
		return vms_error("out of memory");
	ng = make_groups(ep, n, cmp_node, &g);
	if (ng < 0) {
		table_free(t);
		return vms_error("out of memory");
	}
	table_column(t, "kind", NULL, 0);
	table_column(t, "nid", NULL, 0);
	group_columns(t);
	for (i = 0; i < ng; i++) {
		table_row(t);
		table_text(t, g[i].first->kind);
		if (g[i].first->nid == NONE)
			table_null(t);
		else
			table_int(t, g[i].first->nid);
		group_cells(t, &g[i], a);
	}
	group_notes(t);
	table_note(t, "nid: kswapd and node reclaim name their node; a direct or memcg episode "
		   "takes the node of the mm_vmscan_lru_shrink_inactive events inside it (the one "
		   "with the most pages scanned), NULL when it has none");
	out_table(o, t);
	table_free(t);
	free_groups(g, ng);
	return 0;
}

/*
 * One row per episode is long (thousands of rows, 22 columns): text shows it
 * only when asked for with --table episodes; CSV and JSON, read by programs,
 * always hold it.
 */
static int list_asked(const struct out *o)
{
	const char *only = out_only_name(o);

	return out_format_of(o) != OUT_TEXT || (only && !strcmp(only, "episodes"));
}

/* The stored episodes overlapping the window, in the section's order. */
static int load_stored(struct vms_window *ctx, struct episode **out, int *n)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT kind, pid, comm, nid, begin_cpu, end_cpu, begin_ts, end_ts, duration_ns,"
		" scanned, reclaimed, anon, file, min_priority, slab_planned, slab_scanned,"
		" slab_freed, writes, throttle_us, end_reclaimed, wakes, nodes, lost"
		" FROM episode WHERE (begin_ts IS NULL OR begin_ts <= ?2)"
		" AND (end_ts IS NULL OR end_ts >= ?1) ORDER BY rowid");
	struct episode *ep = NULL;
	int rc, alloc = 0;

	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct episode *e = episode_push(&ep, n, &alloc);

		if (!e || !(e->kind = col_dup(st, 0)) || !(e->comm = col_dup(st, 2)) ||
		    !(e->lost = col_dup(st, 22))) {
			rc = SQLITE_NOMEM;
			break;
		}
		e->pid = sqlite3_column_int64(st, 1);
		e->nid = col_ll(st, 3);
		e->b_cpu = col_ll(st, 4);
		e->e_cpu = col_ll(st, 5);
		e->has_b = sqlite3_column_type(st, 6) != SQLITE_NULL;
		e->has_e = sqlite3_column_type(st, 7) != SQLITE_NULL;
		e->b_ts = sqlite3_column_int64(st, 6);
		e->e_ts = sqlite3_column_int64(st, 7);
		e->dur = col_ll(st, 8);
		e->scanned = sqlite3_column_int64(st, 9);
		e->reclaimed = sqlite3_column_int64(st, 10);
		e->anon = sqlite3_column_int64(st, 11);
		e->file = sqlite3_column_int64(st, 12);
		e->min_prio = col_ll(st, 13);
		e->slab_planned = sqlite3_column_int64(st, 14);
		e->slab_scanned = sqlite3_column_int64(st, 15);
		e->slab_freed = sqlite3_column_int64(st, 16);
		e->writes = sqlite3_column_int64(st, 17);
		e->throttle_us = sqlite3_column_int64(st, 18);
		e->end_rec = col_ll(st, 19);
		e->wakes = col_ll(st, 20);
		e->nodes = sqlite3_column_int64(st, 21);
	}
	if (rc != SQLITE_DONE) {
		if (rc == SQLITE_NOMEM)
			vms_error("out of memory");
		else
			vms_error("%s: episode: %s", vms_db_path(ctx->db), sqlite3_errmsg(ctx->sql));
		sqlite3_finalize(st);
		free_episodes(ep, *n);
		*n = 0;
		return -1;
	}
	sqlite3_finalize(st);
	*out = ep;
	return 0;
}

int report_episodes(struct vms_window *ctx, struct out *o)
{
	struct episode *ep = NULL;
	struct avail a;
	int n, rc, listed;

	if (load_stored(ctx, &ep, &n))
		return -1;
	check_avail(ctx, NULL, &a);
	listed = !n || list_asked(o);
	rc = listed ? episodes_table(ctx, o, ep, n, &a) : 0;
	if (!rc)
		rc = per_task_table(o, ep, n, &a, listed);
	if (!rc)
		rc = per_node_table(o, ep, n, &a);
	free_episodes(ep, n);
	return rc;
}
