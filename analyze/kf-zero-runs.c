// SPDX-License-Identifier: GPL-2.0
/*
 * kf-zero-runs.c - the 'zero-reclaim runs' detector of the kswapd-failures
 * report section: the streaks of consecutive kswapd runs of a node that
 * reclaimed nothing, as the derive step numbered them in kswapd_run
 * (schema/920-kswapd.sql; `vmscope plot DB kswapd` draws the same ones).
 * >= 16 runs (the node became hopeless): 'episode'; 4-15: 'partial'. This
 * file adds what ended each streak and the silence after it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "vms-kswapd.h"
#include "kf-local.h"

#define SILENCE_NS 1000000000LL		/* a gap longer than this is silence */

static double sec(long long ns)
{
	return ns / 1e9;
}

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
	return rc == SQLITE_DONE ? 0 : kf_sql_fail(ctx);
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
		rc = rc == SQLITE_DONE ? 0 : kf_sql_fail(ctx);
	}
	sqlite3_finalize(st);
	return rc;
}

static int close_streak(struct vms_window *ctx, struct kf_episodes *eps, struct wakes *w,
			struct streak *s, enum streak_break why, long long brk_pid,
			long long brk_pages)
{
	struct vms_buf ev = { 0 };
	int full = s->runs >= VMS_KSWAPD_HOPELESS_RUNS, has_end = 0, rc;
	long long end = 0, wts = 0, wpid = 0, sts = 0, spid = 0, spages = 0;
	const char *what = "";
	int has_wake = 0, has_succ = 0;

	if (!s->active || s->runs < VMS_KSWAPD_PARTIAL_RUNS) {
		s->active = 0;
		return 0;
	}
	s->active = 0;
	vms_buf_addf(&ev, "%d kswapd runs (pid %lld) reclaimed 0 pages, %lld pages scanned",
		     s->runs, s->pid, s->scanned);
	if (s->has_prio)
		vms_buf_addf(&ev, ", lowest priority %d", s->min_prio);
	if (s->empty)
		vms_buf_addf(&ev, "; %d of them with no lru_shrink_inactive event (nothing isolated)",
			     s->empty);
	if (full) {
		if (s->hopeless_open)
			vms_buf_addf(&ev, "; run %d was cut by the end of the trace",
				     VMS_KSWAPD_HOPELESS_RUNS);
		else
			vms_buf_addf(&ev, "; hopeless from %.6f s (end of run %d)",
				     vms_window_rel_s(ctx, s->hopeless_ts), VMS_KSWAPD_HOPELESS_RUNS);
		if (s->runs > VMS_KSWAPD_HOPELESS_RUNS)
			vms_buf_addf(&ev, "; %d more zero-reclaim runs after run %d: kswapd_failures "
				     "was reset without a visible cause (MGLRU 6.3-6.11, or slab-only "
				     "progress)", s->runs - VMS_KSWAPD_HOPELESS_RUNS, VMS_KSWAPD_HOPELESS_RUNS);
	} else {
		vms_buf_addf(&ev, "; fewer than %d: not hopeless", VMS_KSWAPD_HOPELESS_RUNS);
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
	return kf_add(eps, 1, s->nid, KF_ZERO_RUNS, full ? "episode" : "partial",
			   s->first_ts, has_end, end, &ev);
fail:
	vms_buf_release(&ev);
	return -1;
}

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
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : kf_sql_fail(ctx);
}

/* The runs of the whole trace, from kswapd_run (schema/920-kswapd.sql), per node in time order. */
static const char runs_sql[] =
	"SELECT nid, pid, wake_ts, end_ts, end_seq, lru_events, nr_scanned, nr_reclaimed,"
	" min_priority, reset_seq, failed, streak FROM kswapd_run ORDER BY nid, run";

static int detect_zero_runs(struct vms_window *ctx, struct kf_episodes *eps, struct table *t)
{
	struct streak s = { 0 };
	struct wakes w = { 0 };
	struct vms_buf nodes = { 0 };
	long long wakes, shrinks, cur_nid = 0, cur_pid = 0, cur_runs = 0;
	int have_node = 0, rc;
	sqlite3_stmt *st;

	wakes = kf_count(ctx, "SELECT COUNT(*) FROM mm_vmscan_kswapd_wake");
	shrinks = kf_count(ctx, "SELECT COUNT(*) FROM mm_vmscan_lru_shrink_inactive");
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
		int failed = sqlite3_column_int(st, 10), streak = sqlite3_column_int(st, 11);

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
		if (!failed) {
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
		s.empty += !n;
		s.scanned += scanned;
		if (has_prio && (!s.has_prio || prio < s.min_prio)) {
			s.has_prio = 1;
			s.min_prio = prio;
		}
		s.last_open = open;
		s.last_end_ts = end_ts;
		s.last_end_seq = end_seq;
		if (streak == VMS_KSWAPD_HOPELESS_RUNS) {
			s.hopeless_open = open;
			s.hopeless_ts = end_ts;
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		kf_sql_fail(ctx);
		goto fail;
	}
	if (have_node)
		vms_buf_addf(&nodes, "%snode %lld pid %lld: %lld runs", nodes.len ? ", " : "", cur_nid,
			     cur_pid, cur_runs);
	if (close_streak(ctx, eps, &w, &s, BRK_END, 0, 0))
		goto fail;
	if (nodes.len)
		table_note(t, "zero-reclaim runs: kswapd runs in the whole trace: %s", nodes.buf);
	if (!kf_count(ctx, "SELECT COUNT(*) FROM mm_vmscan_wakeup_kswapd"))
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

const struct kf_detector kf_detector_zero_runs = {
	.name = "zero-reclaim runs",
	.detect = detect_zero_runs,
};
