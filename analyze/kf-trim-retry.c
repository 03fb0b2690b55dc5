// SPDX-License-Identifier: GPL-2.0
/*
 * kf-trim-retry.c - the 'cache_trim retry' detector of the kswapd-failures
 * report section: kswapd runs whose priority loop ran to the end without
 * reclaiming a page and then started again from the top. On 6.9+ that is
 * balance_pgdat()'s retry with cache_trim_mode off ("mm, vmscan: retry
 * kswapd's priority loop with cache_trim_mode off on failure"): a failure
 * that earlier kernels counted in kswapd_failures, avoided when the second
 * sweep reclaims. Rows are runs of one node in a row that retried with the
 * same outcome.
 *
 * How it works: the priority of a run's passes is read from kswapd's own
 * mm_vmscan_lru_shrink_inactive and mm_shrink_slab_start events (both carry
 * sc->priority; a sweep that isolated no LRU page still calls the
 * shrinkers). A priority higher than the one before starts a new sweep. A
 * retry is a first sweep whose lowest priority is 1 and whose LRU events
 * reclaimed 0 pages, followed by a second sweep in the same run (a boost
 * restart cannot follow a sweep that reached 1: boosted sweeps stop at 10).
 * Runs come from kswapd_run (schema/920-kswapd.sql). Rules:
 * docs/report-kswapd-failures.md, section 3.4.
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "kf-local.h"

#define RECLAIM_WB_FILE 0x2	/* reclaim_flags: the pass scanned a file list */

struct sweep {
	int marks, lru_events, slab_calls, has_prio, lowest, first_prio;
	long long file_scanned, anon_scanned, reclaimed;
	long long start_ts, end_ts;
};

struct run {
	long long nid, run, pid, wake_ts, wake_seq, end_ts, end_seq;
	int open;
	int nsweeps;			/* sweeps seen (at most 3 are kept) */
	struct sweep sw[3];
	int last_prio;			/* priority of the previous mark; 0: none yet */
};

/* A group of retried runs of one node in a row with the same outcome: one row. */
struct group {
	int active, failed;		/* failed: the second sweeps reclaimed nothing either */
	long long nid, pid, first_run, last_run, start, end;
	int runs, end_open, odd;	/* odd: runs with more than two sweeps */
	long long s1_file, s1_anon, s1_slab, s2_file, s2_anon, s2_reclaimed;
	int s1_file_only, s2_lowest, s2_first;
};

struct state {
	struct group g;
	long long runs, retried, succeeded;
};

static void add_mark(struct run *r, long long ts, int prio, int lru, int file, long long scanned,
		     long long reclaimed)
{
	struct sweep *s;

	if (prio > 0 && r->last_prio > 0 && prio > r->last_prio)
		r->nsweeps++;
	if (!r->nsweeps)
		r->nsweeps = 1;
	if (prio > 0)
		r->last_prio = prio;
	if (r->nsweeps > 3)
		return;		/* counted, not kept */
	s = &r->sw[r->nsweeps - 1];
	if (!s->marks++) {
		s->start_ts = ts;
		s->first_prio = prio;
	}
	s->end_ts = ts;
	if (prio > 0 && (!s->has_prio || prio < s->lowest)) {
		s->has_prio = 1;
		s->lowest = prio;
	}
	if (lru) {
		s->lru_events++;
		s->reclaimed += reclaimed;	/* priority 0: v1 soft-limit reclaim, counted by the kernel too */
		if (file)
			s->file_scanned += scanned;
		else
			s->anon_scanned += scanned;
	} else {
		s->slab_calls++;
	}
}

static int is_retry(const struct run *r)
{
	const struct sweep *a = &r->sw[0];

	return r->nsweeps >= 2 && a->has_prio && a->lowest == 1 && !a->reclaimed;
}

static int close_group(struct kf_episodes *eps, struct group *g)
{
	struct vms_buf ev = { 0 };

	if (!g->active)
		return 0;
	g->active = 0;
	vms_buf_addf(&ev, "%d kswapd run%s (pid %lld", g->runs, g->runs == 1 ? "" : "s", g->pid);
	if (g->runs == 1)
		vms_buf_addf(&ev, ", run %lld", g->first_run);
	else
		vms_buf_addf(&ev, ", runs %lld-%lld", g->first_run, g->last_run);
	vms_buf_addf(&ev, ") went to priority 1 reclaiming 0 pages, then restarted the priority loop "
		     "(the 6.9+ cache_trim_mode retry): first sweep%s %lld file and %lld anon pages "
		     "scanned, %lld shrinker calls%s; second sweep%s from priority %d: %lld file and "
		     "%lld anon pages scanned, %lld reclaimed, lowest priority %d", g->runs == 1 ? "" : "s",
		     g->s1_file, g->s1_anon, g->s1_slab,
		     g->s1_file_only ? ", file only (cache_trim_mode)" : "", g->runs == 1 ? "" : "s",
		     g->s2_first, g->s2_file, g->s2_anon, g->s2_reclaimed, g->s2_lowest);
	if (g->failed)
		vms_buf_addf(&ev, "; the second sweep%s reclaimed nothing either: each run counted a "
			     "kswapd failure%s", g->runs == 1 ? "" : "s",
			     g->s2_anon ? "" : " (no anon scanned: no swap, or anon not reclaimable)");
	else
		vms_buf_addf(&ev, "; the retry reclaimed: no kswapd failure counted (before 6.9 each of "
			     "these runs counted one)");
	if (g->odd)
		vms_buf_addf(&ev, "; %d run%s with more than two sweeps (lost or missing kswapd_wake "
			     "events?)", g->odd, g->odd == 1 ? "" : "s");
	return kf_add(eps, 1, g->nid, KF_TRIM_RETRY, "retry", g->start, !g->end_open, g->end, &ev);
}

/* Judge a finished run: add it to the current group, or close that and start one. */
static int finish_run(struct kf_episodes *eps, struct state *st, struct run *r)
{
	struct group *g = &st->g;
	const struct sweep *b = &r->sw[1];
	int failed;

	st->runs++;
	if (!is_retry(r)) {
		/* a run on the same node that did not retry ends the group */
		if (g->active && g->nid == r->nid)
			return close_group(eps, g);
		return 0;
	}
	st->retried++;
	failed = !b->reclaimed && (r->nsweeps < 3 || !r->sw[2].reclaimed);
	st->succeeded += !failed;
	if (g->active && (g->nid != r->nid || g->failed != failed) && close_group(eps, g))
		return -1;
	if (!g->active) {
		memset(g, 0, sizeof(*g));
		g->active = 1;
		g->failed = failed;
		g->nid = r->nid;
		g->pid = r->pid;
		g->first_run = r->run;
		g->start = r->sw[0].start_ts;
		g->s1_file_only = 1;
		g->s2_first = b->first_prio;
		g->s2_lowest = b->has_prio ? b->lowest : 0;
	}
	g->runs++;
	g->last_run = r->run;
	g->end = r->open ? 0 : r->end_ts;
	g->end_open = r->open;
	g->odd += r->nsweeps > 2;
	g->s1_file += r->sw[0].file_scanned;
	g->s1_anon += r->sw[0].anon_scanned;
	g->s1_slab += r->sw[0].slab_calls;
	g->s1_file_only &= !r->sw[0].anon_scanned;
	g->s2_file += b->file_scanned;
	g->s2_anon += b->anon_scanned;
	g->s2_reclaimed += b->reclaimed;
	if (b->first_prio > g->s2_first)
		g->s2_first = b->first_prio;
	if (b->has_prio && (!g->s2_lowest || b->lowest < g->s2_lowest))
		g->s2_lowest = b->lowest;
	return 0;
}

static int load_runs(struct vms_window *ctx, struct run **out, int *n)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT nid, run, pid, wake_ts, wake_seq, end_ts,"
					      " end_seq FROM kswapd_run ORDER BY pid, wake_ts, wake_seq");
	struct run *v = NULL, *p;
	int rc, alloc = 0;

	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			p = realloc(v, alloc * sizeof(*v));
			if (!p) {
				free(v);
				sqlite3_finalize(st);
				return vms_error("out of memory");
			}
			v = p;
		}
		p = &v[(*n)++];
		memset(p, 0, sizeof(*p));
		p->nid = sqlite3_column_int64(st, 0);
		p->run = sqlite3_column_int64(st, 1);
		p->pid = sqlite3_column_int64(st, 2);
		p->wake_ts = sqlite3_column_int64(st, 3);
		p->wake_seq = sqlite3_column_int64(st, 4);
		p->open = sqlite3_column_type(st, 5) == SQLITE_NULL;
		p->end_ts = sqlite3_column_int64(st, 5);
		p->end_seq = sqlite3_column_int64(st, 6);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(v);
		return kf_sql_fail(ctx);
	}
	*out = v;
	return 0;
}

static int before(long long a_ts, long long a_seq, long long b_ts, long long b_seq)
{
	return a_ts < b_ts || (a_ts == b_ts && a_seq < b_seq);
}

/* kswapd's passes, in (pid, ts, seq) order: LRU batches and shrinker calls with their priority. */
static const char marks_sql[] =
	"SELECT pid, ts, seq, priority, 1, (reclaim_flags & ?3) != 0, nr_scanned, nr_reclaimed"
	" FROM mm_vmscan_lru_shrink_inactive WHERE pid IN (SELECT pid FROM kswapd_pid)"
	"  AND priority IS NOT NULL"
	" UNION ALL SELECT pid, ts, seq, priority, 0, 0, 0, 0 FROM mm_shrink_slab_start"
	" WHERE pid IN (SELECT pid FROM kswapd_pid) AND priority IS NOT NULL"
	" ORDER BY 1, 2, 3";

/* Sort runs back into (nid, run) order for the groups. */
static int cmp_node_run(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	if (x->nid != y->nid)
		return x->nid < y->nid ? -1 : 1;
	return x->run < y->run ? -1 : x->run > y->run;
}

static int detect_trim_retry(struct vms_window *ctx, struct kf_episodes *eps, struct table *t)
{
	struct state s = { 0 };
	struct run *runs = NULL;
	sqlite3_stmt *st = NULL;
	int n = 0, i = 0, rc;

	if (kf_count(ctx, "SELECT COUNT(*) FROM mm_vmscan_kswapd_wake") <= 0) {
		table_note(t, "cache_trim retry: not run: no mm_vmscan_kswapd_wake events in this run");
		return 0;
	}
	if (load_runs(ctx, &runs, &n))
		return -1;
	st = vms_window_prepare(ctx, marks_sql);
	if (!st)
		goto fail;
	sqlite3_bind_int(st, 3, RECLAIM_WB_FILE);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long pid = sqlite3_column_int64(st, 0), ts = sqlite3_column_int64(st, 1);
		long long seq = sqlite3_column_int64(st, 2);
		struct run *r;

		/* the first run of this pid that does not end before the mark */
		while (i < n && (runs[i].pid < pid || (runs[i].pid == pid && !runs[i].open &&
			!before(ts, seq, runs[i].end_ts, runs[i].end_seq))))
			i++;
		if (i == n)
			break;
		r = &runs[i];
		if (r->pid != pid || !before(r->wake_ts, r->wake_seq, ts, seq))
			continue;	/* between runs, or before the first */
		add_mark(r, ts, sqlite3_column_int(st, 3), sqlite3_column_int(st, 4),
			 sqlite3_column_int(st, 5), sqlite3_column_int64(st, 6),
			 sqlite3_column_int64(st, 7));
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		kf_sql_fail(ctx);
		goto fail;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (n)
		qsort(runs, n, sizeof(*runs), cmp_node_run);
	for (i = 0; i < n; i++)
		if (finish_run(eps, &s, &runs[i]))
			goto fail;
	if (close_group(eps, &s.g))
		goto fail;
	if (!kf_count(ctx, "SELECT COUNT(*) FROM mm_shrink_slab_start"))
		table_note(t, "cache_trim retry: no mm_shrink_slab_start events: a sweep that isolated no "
			   "LRU page leaves no sign, so retries after such sweeps are not seen");
	table_note(t, "cache_trim retry: %lld of %lld kswapd runs restarted their priority loop after a "
		   "sweep that reached priority 1 and reclaimed 0 LRU pages; %lld of them reclaimed in "
		   "the retry", s.retried, s.runs, s.succeeded);
	free(runs);
	return 0;
fail:
	sqlite3_finalize(st);
	free(runs);
	return -1;
}

const struct kf_detector kf_detector_trim_retry = {
	.name = "cache_trim retry",
	.detect = detect_trim_retry,
};
