// SPDX-License-Identifier: GPL-2.0
/*
 * report-kswapd-failures.c - the 'kswapd-failures' section of `vmscope
 * report`: per node, the episodes in which kswapd gave up on a node
 * (pgdat->kswapd_failures reached MAX_RECLAIM_RETRIES, the node is
 * "hopeless") and the signs that lead to or accompany one. Three detectors,
 * one row kind each (rules and caveats: docs/report-kswapd-failures.md):
 *
 *  node_unreclaimable     /proc/zoneinfo samples: start = first sample with
 *                         node_unreclaimable 1 in any zone of the node, end =
 *                         the first later sample with 0 (NULL: still 1 at the
 *                         last sample). The kernel's own flag: strongest.
 *  zero-reclaim runs      the trace: consecutive kswapd runs (kswapd_wake to
 *                         the node's next wake or sleep) whose kswapd
 *                         lru_shrink_inactive events reclaimed 0 pages;
 *                         >= 16 runs: 'episode', 4-15: 'partial'.
 *  direct without kswapd  /proc/vmstat steps where allocstall_* and
 *                         pgscan_direct rose and pgscan_kswapd did not
 *                         (machine-wide), and direct reclaim calls while the
 *                         node's kswapd was not awake (trace): 'signal'.
 *
 * Episodes are found over the whole run and listed when they overlap the
 * window, with their own start and end (not clipped to the window). Times
 * are seconds from the start of the run.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "report.h"

#define MAX_RECLAIM_RETRIES 16		/* mm/internal.h: kswapd_failures threshold */
#define PARTIAL_STREAK 4		/* shortest streak listed as 'partial' */
#define SILENCE_NS 1000000000LL		/* a gap longer than this is silence */
#define DIRECT_MERGE_NS 1000000000LL	/* direct calls closer than this form one signal */
#define NS_MAX LLONG_MAX

enum detector { DET_UNRECLAIMABLE, DET_ZERO_RUNS, DET_DIRECT };	/* strongest first */
static const char *const det_name[] = { "node_unreclaimable", "zero-reclaim runs",
					"direct without kswapd" };

struct episode {
	int has_node;
	long long node;
	enum detector det;
	const char *status;		/* 'episode', 'partial', 'signal' */
	long long start, end;		/* ns, trace clock */
	int has_end;
	char *evidence;
};

struct episodes {
	struct episode *v;
	int n, alloc;
};

static int sql_fail(struct vms_window *ctx)
{
	return vms_error("%s: %s", vms_db_path(ctx->db), sqlite3_errmsg(ctx->sql));
}

static double sec(long long ns)
{
	return ns / 1e9;
}

/* Takes @ev->buf (freed on failure). */
static int add_episode(struct episodes *e, int has_node, long long node, enum detector det,
		       const char *status, long long start, int has_end, long long end,
		       struct vms_buf *ev)
{
	struct episode *p;

	if (!ev->buf)
		return vms_error("out of memory");
	if (e->n == e->alloc) {
		int n = e->alloc ? 2 * e->alloc : 16;

		p = realloc(e->v, n * sizeof(*p));
		if (!p) {
			vms_buf_release(ev);
			return vms_error("out of memory");
		}
		e->v = p;
		e->alloc = n;
	}
	p = &e->v[e->n++];
	p->has_node = has_node;
	p->node = node;
	p->det = det;
	p->status = status;
	p->start = start;
	p->has_end = has_end;
	p->end = end;
	p->evidence = ev->buf;
	ev->buf = NULL;
	ev->len = ev->alloc = 0;
	return 0;
}

static void episodes_release(struct episodes *e)
{
	int i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].evidence);
	free(e->v);
}

static int cmp_episode(const void *a, const void *b)
{
	const struct episode *x = a, *y = b;

	if (x->has_node != y->has_node)
		return x->has_node ? -1 : 1;	/* machine-wide rows last */
	if (x->has_node && x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (int)x->det - (int)y->det;
}

/* COUNT-style query; Return: the number, or -1 with vms_error set. */
static long long count_of(struct vms_window *ctx, const char *sql)
{
	long long v = 0;
	int rc = vms_window_int(ctx, sql, &v);

	return rc < 0 ? -1 : rc ? 0 : v;
}

/* ------------------------------------------------------------------ */
/* zero-reclaim runs                                                    */

struct streak {
	int active;
	long long nid, pid;
	long long first_ts;
	int runs, empty;
	long long scanned;
	int has_prio, min_prio;
	int last_open;			/* the last zero run has no end event */
	long long last_end_ts, last_end_seq;
	int hopeless_open;		/* run 16 has no end event */
	long long hopeless_ts;		/* end of run 16 */
};

enum streak_break { BRK_RUN, BRK_RESET, BRK_END };

/* kswapd_wake and wakeup_kswapd events, by node and time, for the silence test. */
struct wake {
	long long nid, ts, seq, pid;
	int is_request;			/* wakeup_kswapd, else kswapd_wake */
};

struct wakes {
	int loaded, n;
	struct wake *v;
};

static int load_wakes(struct vms_window *ctx, struct wakes *w)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT nid, ts, seq, pid, 0 FROM mm_vmscan_kswapd_wake WHERE nid IS NOT NULL"
		" UNION ALL SELECT nid, ts, seq, pid, 1 FROM mm_vmscan_wakeup_kswapd WHERE nid IS NOT NULL"
		" ORDER BY 1, 2, 3");
	int rc, alloc = 0;

	w->loaded = 1;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct wake *p;

		if (w->n == alloc) {
			alloc = alloc ? 2 * alloc : 256;
			p = realloc(w->v, alloc * sizeof(*p));
			if (!p) {
				sqlite3_finalize(st);
				return vms_error("out of memory");
			}
			w->v = p;
		}
		p = &w->v[w->n++];
		p->nid = sqlite3_column_int64(st, 0);
		p->ts = sqlite3_column_int64(st, 1);
		p->seq = sqlite3_column_int64(st, 2);
		p->pid = sqlite3_column_int64(st, 3);
		p->is_request = sqlite3_column_int(st, 4);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(ctx);
}

/* Is @p before (@nid, @ts, @seq)? */
static int wake_before(const struct wake *p, long long nid, long long ts, long long seq)
{
	if (p->nid != nid)
		return p->nid < nid;
	if (p->ts != ts)
		return p->ts < ts;
	return p->seq < seq;
}

/*
 * First kswapd_wake or wakeup_kswapd of node @nid at or after (@ts, @seq).
 * Return: the event, or NULL when there is none (or on error: check *err).
 */
static const struct wake *next_wake(struct vms_window *ctx, struct wakes *w, long long nid,
				    long long ts, long long seq, int *err)
{
	int a = 0, b;

	*err = 0;
	if (!w->loaded && load_wakes(ctx, w)) {
		*err = -1;
		return NULL;
	}
	b = w->n;
	while (a < b) {
		int m = a + (b - a) / 2;

		if (wake_before(&w->v[m], nid, ts, seq))
			a = m + 1;
		else
			b = m;
	}
	return a < w->n && w->v[a].nid == nid ? &w->v[a] : NULL;
}

/* First lru_shrink_inactive with nr_reclaimed > 0 on @nid after (@ts, @seq), any task. */
static int next_success(struct vms_window *ctx, long long nid, long long ts, long long seq,
			long long *at, long long *pid, long long *pages)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT ts, pid, nr_reclaimed FROM mm_vmscan_lru_shrink_inactive"
		" WHERE nid = ?3 AND nr_reclaimed > 0 AND ts >= ?4 AND (ts > ?4 OR seq > ?5)"
		" ORDER BY ts, seq LIMIT 1");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 3, nid);
	sqlite3_bind_int64(st, 4, ts);
	sqlite3_bind_int64(st, 5, seq);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*at = sqlite3_column_int64(st, 0);
		*pid = sqlite3_column_int64(st, 1);
		*pages = sqlite3_column_int64(st, 2);
		rc = 1;
	} else {
		rc = rc == SQLITE_DONE ? 0 : sql_fail(ctx);
	}
	sqlite3_finalize(st);
	return rc;
}

static int close_streak(struct vms_window *ctx, struct episodes *eps, struct wakes *w,
			struct streak *s, enum streak_break why, long long brk_pid,
			long long brk_pages)
{
	struct vms_buf ev = { 0 };
	int full = s->runs >= MAX_RECLAIM_RETRIES, has_end = 0, rc;
	long long end = 0, wts = 0, wpid = 0, sts = 0, spid = 0, spages = 0;
	const char *what = "";
	int has_wake = 0, has_succ = 0;

	if (!s->active || s->runs < PARTIAL_STREAK) {
		s->active = 0;
		return 0;
	}
	s->active = 0;
	vms_buf_addf(&ev, "%d kswapd runs (pid %lld) reclaimed 0 pages, %lld pages scanned",
		     s->runs, s->pid, s->scanned);
	if (s->has_prio)
		vms_buf_addf(&ev, ", lowest priority %d", s->min_prio);
	if (s->empty)
		vms_buf_addf(&ev, "; %d run%s in between scanned nothing (not counted)", s->empty,
			     s->empty == 1 ? "" : "s");
	if (full) {
		if (s->hopeless_open)
			vms_buf_addf(&ev, "; run %d was cut by the end of the trace",
				     MAX_RECLAIM_RETRIES);
		else
			vms_buf_addf(&ev, "; hopeless from %.6f s (end of run %d)",
				     vms_window_rel_s(ctx, s->hopeless_ts), MAX_RECLAIM_RETRIES);
		if (s->runs > MAX_RECLAIM_RETRIES)
			vms_buf_addf(&ev, "; %d more zero-reclaim runs after run %d: kswapd_failures "
				     "was reset without a visible cause (MGLRU 6.3-6.11, or slab-only "
				     "progress)", s->runs - MAX_RECLAIM_RETRIES, MAX_RECLAIM_RETRIES);
	} else {
		vms_buf_addf(&ev, "; fewer than %d: not hopeless", MAX_RECLAIM_RETRIES);
	}
	/* what ended a hopeless streak is said with its end, below */
	if (why == BRK_RUN && !full)
		vms_buf_addf(&ev, "; then a kswapd run reclaimed %lld pages", brk_pages);
	else if (why == BRK_RESET && !full)
		vms_buf_addf(&ev, "; then pid %lld reclaimed %lld pages on the node "
			     "(resets kswapd_failures)", brk_pid, brk_pages);
	else if (why == BRK_END && s->last_open)
		vms_buf_addf(&ev, "; the trace ends during the last run");

	if (!s->last_open) {
		const struct wake *nw = next_wake(ctx, w, s->nid, s->last_end_ts, s->last_end_seq, &rc);

		if (rc < 0)
			goto fail;
		if (nw) {
			has_wake = 1;
			wts = nw->ts;
			wpid = nw->pid;
			what = nw->is_request ? "wakeup_kswapd" : "kswapd_wake";
		}
		if (!has_wake)
			vms_buf_addf(&ev, "; then silent: no kswapd_wake or wakeup_kswapd for node %lld "
				     "until the end of the trace (%.3f s)", s->nid,
				     sec(ctx->run_end - s->last_end_ts));
		else if (wts - s->last_end_ts > SILENCE_NS)
			vms_buf_addf(&ev, "; then silent for %.3f s: no kswapd_wake or wakeup_kswapd "
				     "for node %lld until %s (pid %lld) at %.6f s",
				     sec(wts - s->last_end_ts), s->nid, what, wpid,
				     vms_window_rel_s(ctx, wts));
		else
			vms_buf_addf(&ev, "; not silent: %s (pid %lld) %.3f s after the last run", what,
				     wpid, sec(wts - s->last_end_ts));
	}
	if (full && !s->last_open) {
		rc = next_success(ctx, s->nid, s->last_end_ts, s->last_end_seq, &sts, &spid,
				  &spages);
		if (rc < 0)
			goto fail;
		has_succ = rc;
		if (has_succ && (!has_wake || sts < wts)) {
			end = sts;
			has_end = 1;
			vms_buf_addf(&ev, "; ended at %.6f s: pid %lld reclaimed %lld pages on the node",
				     vms_window_rel_s(ctx, sts), spid, spages);
		} else if (has_wake) {
			end = wts;
			has_end = 1;
			vms_buf_addf(&ev, "; ended at %.6f s: %s (pid %lld)", vms_window_rel_s(ctx, wts),
				     what, wpid);
		} else {
			vms_buf_addf(&ev, "; no reset seen before the end of the trace: open");
		}
	} else if (!full && !s->last_open) {
		end = s->last_end_ts;
		has_end = 1;
	}
	return add_episode(eps, 1, s->nid, DET_ZERO_RUNS, full ? "episode" : "partial",
			   s->first_ts, has_end, end, &ev);
fail:
	vms_buf_release(&ev);
	return -1;
}

/*
 * One row per kswapd run: its wake, the node's next wake or sleep (its end),
 * the kswapd pid's lru_shrink_inactive events in between, and the first
 * reclaim success by another task on the node since the previous run ended.
 */
static const char runs_sql[] =
	"WITH ev AS ("
	" SELECT nid, seq, ts, pid, 0 AS is_sleep FROM mm_vmscan_kswapd_wake WHERE nid IS NOT NULL"
	" UNION ALL SELECT nid, seq, ts, pid, 1 FROM mm_vmscan_kswapd_sleep WHERE nid IS NOT NULL"
	"), w AS ("
	" SELECT *, LEAD(ts) OVER p AS end_ts, LEAD(seq) OVER p AS end_seq"
	" FROM ev WINDOW p AS (PARTITION BY nid ORDER BY ts, seq)"
	"), r AS ("
	" SELECT nid, pid, seq, ts, end_ts, end_seq,"
	"  LAG(end_ts) OVER (PARTITION BY nid ORDER BY ts, seq) AS prev_end_ts"
	" FROM w WHERE is_sleep = 0"
	"), a AS ("
	" SELECT r.nid, r.pid, r.seq, r.ts, r.end_ts, r.end_seq, r.prev_end_ts,"
	"  COUNT(s.seq) AS n, COALESCE(SUM(s.nr_scanned), 0) AS scanned,"
	"  COALESCE(SUM(s.nr_reclaimed), 0) AS reclaimed, MIN(s.priority) AS prio"
	" FROM r LEFT JOIN mm_vmscan_lru_shrink_inactive s ON s.pid = r.pid"
	"  AND s.ts >= r.ts AND s.ts <= COALESCE(r.end_ts, 9223372036854775807)"
	"  AND (s.ts > r.ts OR s.seq > r.seq)"
	"  AND (r.end_ts IS NULL OR s.ts < r.end_ts OR s.seq < r.end_seq)"
	" GROUP BY r.seq)"
	" SELECT nid, pid, ts, end_ts, end_seq, n, scanned, reclaimed, prio,"
	"  (SELECT x.seq FROM mm_vmscan_lru_shrink_inactive x"
	"   WHERE x.nid = a.nid AND x.pid <> a.pid AND x.nr_reclaimed > 0"
	"   AND x.ts >= COALESCE(a.prev_end_ts, a.ts)"
	"   AND x.ts < COALESCE(a.end_ts, 9223372036854775807) ORDER BY x.ts, x.seq LIMIT 1)"
	" FROM a ORDER BY nid, ts, seq";

static int reset_details(struct vms_window *ctx, long long seq, long long *pid, long long *pages)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT pid, nr_reclaimed FROM"
					  " mm_vmscan_lru_shrink_inactive WHERE seq = ?3");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 3, seq);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*pid = sqlite3_column_int64(st, 0);
		*pages = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sql_fail(ctx);
}

static int detect_zero_runs(struct vms_window *ctx, struct episodes *eps, struct table *t)
{
	struct streak s = { 0 };
	struct wakes w = { 0 };
	struct vms_buf nodes = { 0 };
	long long wakes, shrinks, cur_nid = 0, cur_pid = 0, cur_runs = 0;
	int have_node = 0, rc;
	sqlite3_stmt *st;

	wakes = count_of(ctx, "SELECT COUNT(*) FROM mm_vmscan_kswapd_wake");
	shrinks = count_of(ctx, "SELECT COUNT(*) FROM mm_vmscan_lru_shrink_inactive");
	if (wakes < 0 || shrinks < 0)
		return -1;
	if (!wakes) {
		table_note(t, "zero-reclaim runs: not run: no mm_vmscan_kswapd_wake events in this run");
		return 0;
	}
	if (!shrinks) {
		table_note(t, "zero-reclaim runs: not run: no mm_vmscan_lru_shrink_inactive events "
			   "(not recorded, or MGLRU before 6.8, which does not emit it)");
		return 0;
	}
	st = vms_window_prepare(ctx, runs_sql);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long nid = sqlite3_column_int64(st, 0), pid = sqlite3_column_int64(st, 1);
		long long ts = sqlite3_column_int64(st, 2);
		int open = sqlite3_column_type(st, 3) == SQLITE_NULL;
		long long end_ts = sqlite3_column_int64(st, 3), end_seq = sqlite3_column_int64(st, 4);
		long long n = sqlite3_column_int64(st, 5), scanned = sqlite3_column_int64(st, 6);
		long long reclaimed = sqlite3_column_int64(st, 7);
		int has_prio = sqlite3_column_type(st, 8) != SQLITE_NULL;
		int prio = sqlite3_column_int(st, 8);
		int has_reset = sqlite3_column_type(st, 9) != SQLITE_NULL;

		if (have_node && nid != cur_nid) {
			vms_buf_addf(&nodes, "%snode %lld pid %lld: %lld runs", nodes.len ? ", " : "",
				     cur_nid, cur_pid, cur_runs);
			if (close_streak(ctx, eps, &w, &s, BRK_END, 0, 0))
				goto fail;
		}
		if (!have_node || nid != cur_nid) {
			have_node = 1;
			cur_nid = nid;
			cur_pid = pid;
			cur_runs = 0;
		}
		cur_runs++;
		if (has_reset && s.active) {
			long long rpid = 0, rpages = 0;

			if (reset_details(ctx, sqlite3_column_int64(st, 9), &rpid, &rpages) ||
			    close_streak(ctx, eps, &w, &s, BRK_RESET, rpid, rpages))
				goto fail;
		}
		if (!n) {
			if (s.active)
				s.empty++;
			continue;
		}
		if (reclaimed > 0) {
			if (close_streak(ctx, eps, &w, &s, BRK_RUN, pid, reclaimed))
				goto fail;
			continue;
		}
		if (!s.active) {
			memset(&s, 0, sizeof(s));
			s.active = 1;
			s.nid = nid;
			s.pid = pid;
			s.first_ts = ts;
		}
		s.runs++;
		s.scanned += scanned;
		if (has_prio && (!s.has_prio || prio < s.min_prio)) {
			s.has_prio = 1;
			s.min_prio = prio;
		}
		s.last_open = open;
		s.last_end_ts = end_ts;
		s.last_end_seq = end_seq;
		if (s.runs == MAX_RECLAIM_RETRIES) {
			s.hopeless_open = open;
			s.hopeless_ts = end_ts;
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		sql_fail(ctx);
		goto fail;
	}
	if (have_node)
		vms_buf_addf(&nodes, "%snode %lld pid %lld: %lld runs", nodes.len ? ", " : "", cur_nid,
			     cur_pid, cur_runs);
	if (close_streak(ctx, eps, &w, &s, BRK_END, 0, 0))
		goto fail;
	if (nodes.len)
		table_note(t, "zero-reclaim runs: kswapd runs in the whole trace: %s", nodes.buf);
	if (!count_of(ctx, "SELECT COUNT(*) FROM mm_vmscan_wakeup_kswapd"))
		table_note(t, "zero-reclaim runs: no mm_vmscan_wakeup_kswapd events in this run: "
			   "silence is judged from kswapd_wake alone");
	vms_buf_release(&nodes);
	free(w.v);
	return 0;
fail:
	sqlite3_finalize(st);
	vms_buf_release(&nodes);
	free(w.v);
	return -1;
}

/* ------------------------------------------------------------------ */
/* node_unreclaimable                                                   */

/* "Normal: free 1200 below min 1500 (low 1875, high 2250)" for each populated zone. */
static int zone_state(struct vms_window *ctx, long long nid, long long ts, struct vms_buf *ev)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT substr(s.scope, instr(s.scope, '/') + 1),"
		" MAX(CASE WHEN v.name = 'free' THEN v.value END),"
		" MAX(CASE WHEN v.name = 'min' THEN v.value END),"
		" MAX(CASE WHEN v.name = 'low' THEN v.value END),"
		" MAX(CASE WHEN v.name = 'high' THEN v.value END),"
		" MAX(CASE WHEN v.name = 'managed' THEN v.value END)"
		" FROM counter_sample s JOIN counter_value v ON v.sample = s.id"
		" WHERE s.source = 'zoneinfo' AND s.scope GLOB ('node' || ?3 || '/*') AND s.ts = ?4"
		" GROUP BY s.id ORDER BY s.id");
	int rc, first = 1;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 3, nid);
	sqlite3_bind_int64(st, 4, ts);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *zone = (const char *)sqlite3_column_text(st, 0);
		long long f = sqlite3_column_int64(st, 1), mn = sqlite3_column_int64(st, 2);
		long long lo = sqlite3_column_int64(st, 3), hi = sqlite3_column_int64(st, 4);

		if (sqlite3_column_type(st, 5) != SQLITE_NULL && !sqlite3_column_int64(st, 5))
			continue;	/* empty zone */
		if (sqlite3_column_type(st, 1) == SQLITE_NULL || sqlite3_column_type(st, 2) == SQLITE_NULL ||
		    sqlite3_column_type(st, 3) == SQLITE_NULL || sqlite3_column_type(st, 4) == SQLITE_NULL)
			continue;
		vms_buf_addf(ev, "%s%s: free %lld %s (min %lld, low %lld, high %lld)",
			     first ? "" : ", ", zone ? zone : "?", f,
			     f < mn ? "below min" : f < lo ? "below low" : f < hi ? "below high" :
			     "above high", mn, lo, hi);
		first = 0;
	}
	sqlite3_finalize(st);
	if (first && rc == SQLITE_DONE)
		vms_buf_addf(ev, "no free/min/low/high in that sample");
	return rc == SQLITE_DONE ? 0 : sql_fail(ctx);
}

struct unrecl {
	int active, at_first;
	long long nid, start, last;
	int samples;
};

static int close_unrecl(struct vms_window *ctx, struct episodes *eps, struct unrecl *u,
			int has_end, long long end)
{
	struct vms_buf ev = { 0 };

	if (!u->active)
		return 0;
	u->active = 0;
	vms_buf_addf(&ev, "node_unreclaimable = 1 in %d zoneinfo sample%s", u->samples,
		     u->samples == 1 ? "" : "s");
	if (u->at_first)
		vms_buf_addf(&ev, "; already 1 at the first zoneinfo sample: began earlier");
	vms_buf_addf(&ev, "; at %.6f s: ", vms_window_rel_s(ctx, u->start));
	if (zone_state(ctx, u->nid, u->start, &ev)) {
		vms_buf_release(&ev);
		return -1;
	}
	if (!has_end)
		vms_buf_addf(&ev, "; still 1 at the last sample (%.6f s): open",
			     vms_window_rel_s(ctx, u->last));
	return add_episode(eps, 1, u->nid, DET_UNRECLAIMABLE, "episode", u->start, has_end, end, &ev);
}

static int detect_unreclaimable(struct vms_window *ctx, struct episodes *eps, struct table *t)
{
	struct unrecl u = { 0 };
	long long samples, nid = 0;
	int have_node = 0, rc, node_first = 1;
	sqlite3_stmt *st;

	samples = count_of(ctx, "SELECT COUNT(*) FROM counter_sample WHERE source = 'zoneinfo'");
	if (samples < 0)
		return -1;
	if (!samples) {
		table_note(t, "node_unreclaimable: not run: this run has no /proc/zoneinfo samples "
			   "(imported traces have none; `vmscope record` samples them)");
		return 0;
	}
	st = vms_window_prepare(ctx,
		"SELECT CAST(substr(s.scope, 5) AS INTEGER) AS nid, s.ts, MAX(v.value)"
		" FROM counter_sample s JOIN counter_value v ON v.sample = s.id"
		"  AND v.name = 'node_unreclaimable'"
		" WHERE s.source = 'zoneinfo' AND s.scope GLOB 'node[0-9]*'"
		" GROUP BY 1, 2 ORDER BY 1, 2");
	if (!st)
		return -1;
	samples = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long n = sqlite3_column_int64(st, 0), ts = sqlite3_column_int64(st, 1);
		int flag = sqlite3_column_int64(st, 2) != 0;

		samples++;
		if (have_node && n != nid) {
			if (close_unrecl(ctx, eps, &u, 0, 0))
				goto fail;
			node_first = 1;
		}
		have_node = 1;
		nid = n;
		if (flag) {
			if (!u.active) {
				memset(&u, 0, sizeof(u));
				u.active = 1;
				u.nid = n;
				u.start = ts;
				u.at_first = node_first;
			}
			u.samples++;
			u.last = ts;
		} else if (u.active && close_unrecl(ctx, eps, &u, 1, ts)) {
			goto fail;
		}
		node_first = 0;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		sql_fail(ctx);
		goto fail;
	}
	if (close_unrecl(ctx, eps, &u, 0, 0))
		goto fail;
	if (!samples)
		table_note(t, "node_unreclaimable: not run: the zoneinfo samples have no "
			   "node_unreclaimable line");
	return 0;
fail:
	sqlite3_finalize(st);
	return -1;
}

/* ------------------------------------------------------------------ */
/* direct reclaim without kswapd: /proc/vmstat                          */

struct vgroup {
	int active, steps, has_p;
	long long start, end, da, dd, dk, dp;
};

static int close_vgroup(struct vms_window *ctx, struct episodes *eps, struct vgroup *g, int open)
{
	struct vms_buf ev = { 0 };

	if (!g->active)
		return 0;
	g->active = 0;
	vms_buf_addf(&ev, "%d vmstat step%s (machine-wide /proc/vmstat): allocstall +%lld, "
		     "pgscan_direct +%lld, pgscan_kswapd +%lld", g->steps, g->steps == 1 ? "" : "s",
		     g->da, g->dd, g->dk);
	if (g->has_p)
		vms_buf_addf(&ev, ", pageoutrun +%lld", g->dp);
	if (open)
		vms_buf_addf(&ev, "; still so at the last vmstat sample (%.6f s): open",
			     vms_window_rel_s(ctx, g->end));
	return add_episode(eps, 0, 0, DET_DIRECT, "signal", g->start, !open, g->end, &ev);
}

static int detect_direct_vmstat(struct vms_window *ctx, struct episodes *eps, struct table *t)
{
	static const char *const names[] = { "allocstall_*", "pgscan_direct", "pgscan_kswapd" };
	sqlite3_stmt *st;
	struct vgroup g = { 0 };
	long long prev[4] = { 0 }, prev_ts = 0, samples;
	int prev_ok = 0, prev_p = 0, have_prev = 0, missing[3] = { 0 }, rc, i;

	samples = count_of(ctx, "SELECT COUNT(*) FROM counter_sample WHERE source = 'vmstat'"
			   " AND scope = ''");
	if (samples < 0)
		return -1;
	if (samples < 2) {
		table_note(t, "direct without kswapd (vmstat): not run: this run has %s /proc/vmstat "
			   "samples (imported traces have none; `vmscope record` samples them)",
			   samples ? "only one of the" : "no");
		return 0;
	}
	st = vms_window_prepare(ctx,
		"SELECT s.ts,"
		" (SELECT SUM(value) FROM counter_value WHERE sample = s.id AND name GLOB 'allocstall*'),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'pgscan_direct'),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'pgscan_kswapd'),"
		" (SELECT value FROM counter_value WHERE sample = s.id AND name = 'pageoutrun')"
		" FROM counter_sample s WHERE s.source = 'vmstat' AND s.scope = '' ORDER BY s.ts, s.id");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long ts = sqlite3_column_int64(st, 0), cur[4];
		int ok = 1, has_p = sqlite3_column_type(st, 4) != SQLITE_NULL;

		for (i = 0; i < 3; i++)
			if (sqlite3_column_type(st, i + 1) == SQLITE_NULL) {
				missing[i] = 1;
				ok = 0;
			}
		for (i = 0; i < 4; i++)
			cur[i] = sqlite3_column_int64(st, i + 1);
		if (have_prev && ok && prev_ok) {
			long long da = cur[0] - prev[0], dd = cur[1] - prev[1], dk = cur[2] - prev[2];

			if (da > 0 && dd > 0 && dk == 0) {
				if (!g.active) {
					memset(&g, 0, sizeof(g));
					g.active = 1;
					g.start = prev_ts;
				}
				g.steps++;
				g.da += da;
				g.dd += dd;
				g.dk += dk;
				if (has_p && prev_p) {
					g.dp += cur[3] - prev[3];
					g.has_p = 1;
				}
				g.end = ts;
			} else if (g.active && close_vgroup(ctx, eps, &g, 0)) {
				goto fail;
			}
		} else if (g.active && close_vgroup(ctx, eps, &g, 0)) {
			goto fail;
		}
		memcpy(prev, cur, sizeof(prev));
		prev_ts = ts;
		prev_ok = ok;
		prev_p = has_p;
		have_prev = 1;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		sql_fail(ctx);
		goto fail;
	}
	if (close_vgroup(ctx, eps, &g, 1))
		goto fail;
	for (i = 0; i < 3; i++)
		if (missing[i])
			table_note(t, "direct without kswapd (vmstat): some vmstat samples lack %s: "
				   "the steps next to them are not judged", names[i]);
	return 0;
fail:
	sqlite3_finalize(st);
	return -1;
}

/* ------------------------------------------------------------------ */
/* direct reclaim without kswapd: the trace                             */

struct kiv {
	long long nid, start, end;	/* awake from start to end (ns, inclusive) */
};

struct kivs {
	struct kiv *v;
	int n;
};

/* kswapd awake periods from the kswapd_interval view, per node in time order. */
static int load_kivs(struct vms_window *ctx, struct kivs *k)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT nid, wake_ts, sleep_ts FROM kswapd_interval WHERE nid IS NOT NULL"
		" ORDER BY nid, COALESCE(wake_seq, sleep_seq)");
	int rc, alloc = 0;

	k->v = NULL;
	k->n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct kiv *p;
		long long nid = sqlite3_column_int64(st, 0);
		int first = !k->n || k->v[k->n - 1].nid != nid;

		if (k->n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			p = realloc(k->v, alloc * sizeof(*p));
			if (!p) {
				sqlite3_finalize(st);
				return vms_error("out of memory");
			}
			k->v = p;
		}
		p = &k->v[k->n++];
		p->nid = nid;
		p->end = sqlite3_column_type(st, 2) == SQLITE_NULL ? NS_MAX : sqlite3_column_int64(st, 2);
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			p->start = sqlite3_column_int64(st, 1);
		else	/* awake when the trace began, or a sleep whose wake was lost */
			p->start = first ? LLONG_MIN : p->end;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(ctx);
}

/* [lo, hi) of node @nid's periods. */
static void kiv_range(const struct kivs *k, long long nid, int *lo, int *hi)
{
	int a, b, m, bound;

	for (bound = 0; bound < 2; bound++) {	/* first nid >= @nid, then first nid > @nid */
		a = 0;
		b = k->n;
		while (a < b) {
			m = a + (b - a) / 2;
			if (k->v[m].nid < nid || (bound && k->v[m].nid == nid))
				a = m + 1;
			else
				b = m;
		}
		*(bound ? hi : lo) = a;
	}
}

/* Index of the last period in [lo, hi) starting at or before @t, or lo - 1. */
static int kiv_last_start(const struct kivs *k, int lo, int hi, long long t)
{
	int a = lo, b = hi;	/* first index with start > t is in [a, b] */

	while (a < b) {
		int m = a + (b - a) / 2;

		if (k->v[m].start <= t)
			a = m + 1;
		else
			b = m;
	}
	return a - 1;
}

/* Was kswapd of the node in [lo, hi) awake at some time in [b, e]? */
static int kiv_overlaps(const struct kivs *k, int lo, int hi, long long b, long long e)
{
	int i = kiv_last_start(k, lo, hi, e);

	return i >= lo && k->v[i].end >= b;
}

/* Did an awake period of the node in [lo, hi) start in (a, b)? */
static int kiv_starts_between(const struct kivs *k, int lo, int hi, long long a, long long b)
{
	int i = kiv_last_start(k, lo, hi, a) + 1;

	return i < hi && k->v[i].start < b;
}

/* Any node when @has_node is 0. */
static int kswapd_awake(const struct kivs *k, int has_node, long long nid, long long b, long long e)
{
	int lo, hi, i;

	if (has_node) {
		kiv_range(k, nid, &lo, &hi);
		return kiv_overlaps(k, lo, hi, b, e);
	}
	for (i = 0; i < k->n; i = hi) {
		kiv_range(k, k->v[i].nid, &lo, &hi);
		if (kiv_overlaps(k, lo, hi, b, e))
			return 1;
	}
	return 0;
}

static int kswapd_woke_between(const struct kivs *k, int has_node, long long nid, long long a,
			       long long b)
{
	int lo, hi, i;

	if (has_node) {
		kiv_range(k, nid, &lo, &hi);
		return kiv_starts_between(k, lo, hi, a, b);
	}
	for (i = 0; i < k->n; i = hi) {
		kiv_range(k, k->v[i].nid, &lo, &hi);
		if (kiv_starts_between(k, lo, hi, a, b))
			return 1;
	}
	return 0;
}

struct dgroup {
	int active, has_node, open, calls, has_order;
	long long nid, start, end, pages, stall_ns;
	int min_order, max_order;
	long long *pids;
	int npids, apids;
};

static int close_dgroup(struct vms_window *ctx, struct episodes *eps, struct dgroup *g)
{
	struct vms_buf ev = { 0 };
	int i, tasks = 0;

	if (!g->active)
		return 0;
	g->active = 0;
	qsort(g->pids, g->npids, sizeof(*g->pids), vms_cmp_ll);
	for (i = 0; i < g->npids; i++)
		if (!i || g->pids[i] != g->pids[i - 1])
			tasks++;
	vms_buf_addf(&ev, "%d direct reclaim call%s by %d task%s", g->calls, g->calls == 1 ? "" : "s",
		     tasks, tasks == 1 ? "" : "s");
	if (g->has_node)
		vms_buf_addf(&ev, " while kswapd of node %lld was not awake (trace)", g->nid);
	else
		vms_buf_addf(&ev, " that scanned no LRU page (node unknown) while no kswapd was awake "
			     "(trace)");
	vms_buf_addf(&ev, ": %lld pages reclaimed, %.3f ms stalled", g->pages, g->stall_ns / 1e6);
	if (g->has_order) {
		if (g->min_order == g->max_order)
			vms_buf_addf(&ev, ", order %d", g->min_order);
		else
			vms_buf_addf(&ev, ", orders %d-%d", g->min_order, g->max_order);
	}
	if (g->open)
		vms_buf_addf(&ev, "; the last call has no end: open");
	g->npids = 0;
	return add_episode(eps, g->has_node, g->nid, DET_DIRECT, "signal", g->start, !g->open,
			   g->end, &ev);
}

static int detect_direct_trace(struct vms_window *ctx, struct episodes *eps, struct table *t)
{
	struct kivs k = { 0 };
	struct dgroup g = { 0 };
	long long begins, kevents, thp;
	sqlite3_stmt *st = NULL;
	int rc;

	begins = count_of(ctx, "SELECT COUNT(*) FROM mm_vmscan_direct_reclaim_begin");
	kevents = count_of(ctx, "SELECT (SELECT COUNT(*) FROM mm_vmscan_kswapd_wake)"
			   " + (SELECT COUNT(*) FROM mm_vmscan_kswapd_sleep)");
	if (begins < 0 || kevents < 0)
		return -1;
	if (!begins) {
		table_note(t, "direct without kswapd (trace): no mm_vmscan_direct_reclaim_begin events "
			   "in this run (none happened, or the event was not recorded)");
		return 0;
	}
	if (!kevents) {
		table_note(t, "direct without kswapd (trace): not run: no mm_vmscan_kswapd_wake or "
			   "kswapd_sleep events tell when kswapd was awake");
		return 0;
	}
	if (load_kivs(ctx, &k))
		return -1;
	st = vms_window_prepare(ctx,
		"WITH d AS (SELECT pid, begin_seq, begin_ts, end_ts, \"order\" AS ord, gfp_flags,"
		"  nr_reclaimed FROM reclaim_interval WHERE kind = 'direct' AND begin_ts IS NOT NULL)"
		" SELECT s.nid, d.pid, d.begin_ts, d.end_ts, d.ord, d.nr_reclaimed"
		" FROM d LEFT JOIN mm_vmscan_lru_shrink_inactive s ON s.pid = d.pid"
		"  AND s.ts >= d.begin_ts AND s.ts <= COALESCE(d.end_ts, 9223372036854775807)"
		"  AND s.nid IS NOT NULL"
		" WHERE d.gfp_flags IS NULL OR d.gfp_flags NOT GLOB '*GFP_TRANSHUGE*'"
		"  OR d.gfp_flags GLOB '*KSWAPD_RECLAIM*'"
		" GROUP BY d.begin_seq, s.nid"
		" ORDER BY s.nid IS NULL, s.nid, d.begin_ts, d.begin_seq");
	if (!st)
		goto fail;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int has_node = sqlite3_column_type(st, 0) != SQLITE_NULL;
		long long nid = sqlite3_column_int64(st, 0), pid = sqlite3_column_int64(st, 1);
		long long b = sqlite3_column_int64(st, 2);
		int open = sqlite3_column_type(st, 3) == SQLITE_NULL;
		long long e = open ? ctx->run_end : sqlite3_column_int64(st, 3);
		int has_order = sqlite3_column_type(st, 4) != SQLITE_NULL;
		int order = sqlite3_column_int(st, 4);

		if (e < b)
			e = b;
		if (kswapd_awake(&k, has_node, nid, b, e))
			continue;
		if (g.active && (g.has_node != has_node || (has_node && g.nid != nid) ||
				 b - g.end > DIRECT_MERGE_NS ||
				 kswapd_woke_between(&k, has_node, nid, g.end, b)))
			if (close_dgroup(ctx, eps, &g))
				goto fail;
		if (!g.active) {
			g.active = 1;
			g.has_node = has_node;
			g.nid = nid;
			g.start = b;
			g.end = e;
			g.open = 0;
			g.calls = 0;
			g.pages = g.stall_ns = 0;
			g.has_order = 0;
		}
		g.calls++;
		if (e > g.end)
			g.end = e;
		if (open)
			g.open = 1;
		else
			g.stall_ns += e - b;
		g.pages += sqlite3_column_int64(st, 5);
		if (has_order) {
			if (!g.has_order || order < g.min_order)
				g.min_order = order;
			if (!g.has_order || order > g.max_order)
				g.max_order = order;
			g.has_order = 1;
		}
		if (g.npids == g.apids) {
			int n = g.apids ? 2 * g.apids : 16;
			long long *p = realloc(g.pids, n * sizeof(*p));

			if (!p) {
				vms_error("out of memory");
				goto fail;
			}
			g.pids = p;
			g.apids = n;
		}
		g.pids[g.npids++] = pid;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		sql_fail(ctx);
		goto fail;
	}
	if (close_dgroup(ctx, eps, &g))
		goto fail;
	thp = count_of(ctx, "SELECT COUNT(*) FROM mm_vmscan_direct_reclaim_begin"
		       " WHERE gfp_flags GLOB '*GFP_TRANSHUGE*' AND gfp_flags NOT GLOB '*KSWAPD_RECLAIM*'"
		       " AND ts BETWEEN ?1 AND ?2");
	if (thp < 0)
		goto fail;
	if (thp)
		table_note(t, "direct without kswapd (trace): %lld direct reclaim call%s in the window "
			   "with GFP_TRANSHUGE and no __GFP_KSWAPD_RECLAIM left out (THP allocations "
			   "never wake kswapd)", thp, thp == 1 ? "" : "s");
	free(g.pids);
	free(k.v);
	return 0;
fail:
	sqlite3_finalize(st);
	free(g.pids);
	free(k.v);
	return -1;
}

/* ------------------------------------------------------------------ */

/* What the kernel version changes (docs/report-kswapd-failures.md, "Kernel versions"). */
static void kernel_notes(struct vms_window *ctx, struct table *t)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT (SELECT kernel_release FROM run),"
					  " (SELECT value FROM sysctl WHERE name = 'lru_gen.enabled')");
	char rel[64] = "", lru[32] = "";
	int major = 0, minor = 0, mglru = -1;	/* -1: not known */

	if (st && sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			snprintf(rel, sizeof(rel), "%s", (const char *)sqlite3_column_text(st, 0));
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			snprintf(lru, sizeof(lru), "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	if (*lru)
		mglru = strtol(lru, NULL, 0) != 0;
	if (!*rel || sscanf(rel, "%d.%d", &major, &minor) != 2) {
		table_note(t, "kernel release unknown (a text trace imported without --kernel): on "
			   "MGLRU kernels 6.3-6.11 nodes never become hopeless, and 6.18 resets "
			   "kswapd_failures from the page free path without an event (see "
			   "docs/report-kswapd-failures.md)");
		return;
	}
	if (mglru != 0 && (major == 6 && minor >= 1 && minor <= 7))
		table_note(t, "kernel %s: MGLRU%s emits no lru_shrink_inactive before 6.8, so "
			   "zero-reclaim runs cannot be seen", rel, mglru == 1 ? " (enabled)" :
			   ", if enabled,");
	if (mglru != 0 && major == 6 && minor >= 3 && minor <= 11)
		table_note(t, "kernel %s: with MGLRU%s, kswapd_failures is reset on every kswapd pass "
			   "(fixed in 6.12, backported to some stables): nodes never become hopeless "
			   "and kswapd spins instead; long zero-reclaim streaks without silence are the "
			   "symptom", rel, mglru == 1 ? " enabled" : " (if enabled)");
	if (major > 6 || (major == 6 && minor >= 18))
		table_note(t, "kernel %s: freeing pages above a zone's high watermark on a node with a "
			   "fallback memory node resets kswapd_failures with no event: an episode can "
			   "end without a trace sign; only node_unreclaimable shows it", rel);
}

static void emit(struct vms_window *ctx, struct table *t, struct episodes *e)
{
	int i, shown = 0, machine_wide = 0;

	qsort(e->v, e->n, sizeof(*e->v), cmp_episode);
	for (i = 0; i < e->n; i++) {
		const struct episode *p = &e->v[i];

		if (p->start > ctx->to || (p->has_end && p->end < ctx->from))
			continue;
		table_row(t);
		if (p->has_node)
			table_int(t, p->node);
		else
			table_null(t);
		table_text(t, det_name[p->det]);
		table_text(t, p->status);
		table_real(t, vms_window_rel_s(ctx, p->start));
		if (p->has_end) {
			table_real(t, vms_window_rel_s(ctx, p->end));
			table_real(t, sec(p->end - p->start));
		} else {
			table_null(t);
			table_null(t);
		}
		table_text(t, p->evidence);
		shown++;
		machine_wide += !p->has_node;
	}
	if (!shown)
		table_note(t, "no failure episode or signal in the window from the detectors that ran");
	if (machine_wide)
		table_note(t, "node empty: machine-wide (/proc/vmstat has no per-node allocstall or "
			   "pgscan), or direct reclaim that scanned no LRU page (no event names the node)");
}

int report_kswapd_failures(struct vms_window *ctx, struct out *o)
{
	struct table *t = table_new("kswapd-failures", "episodes",
				    "kswapd failure episodes per node");
	struct episodes e = { 0 };
	int rc;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "node", NULL, 0);
	table_column(t, "detector", NULL, 0);
	table_column(t, "status", NULL, 0);
	table_column(t, "start", "s", 6);
	table_column(t, "end", "s", 6);
	table_column(t, "duration", "s", 6);
	table_column(t, "evidence", NULL, 0);
	table_note(t, "status: 'episode' = the node was hopeless (node_unreclaimable, or >= %d "
		   "consecutive zero-reclaim kswapd runs); 'partial' = %d-%d such runs; 'signal' = "
		   "direct reclaim without kswapd; no end (-) = still so at the end of the data",
		   MAX_RECLAIM_RETRIES, PARTIAL_STREAK, MAX_RECLAIM_RETRIES - 1);
	table_note(t, "episodes are found over the whole run and listed when they overlap the "
		   "window; times are seconds from the start of the run; rules in "
		   "docs/report-kswapd-failures.md");
	rc = detect_unreclaimable(ctx, &e, t);
	if (!rc)
		rc = detect_zero_runs(ctx, &e, t);
	if (!rc)
		rc = detect_direct_vmstat(ctx, &e, t);
	if (!rc)
		rc = detect_direct_trace(ctx, &e, t);
	if (!rc) {
		kernel_notes(ctx, t);
		emit(ctx, t, &e);
		out_table(o, t);
	}
	episodes_release(&e);
	table_free(t);
	return rc;
}
