// SPDX-License-Identifier: GPL-2.0
/*
 * derive-kswapd.c - the kswapd_run pass of the derive step: one row per
 * kswapd run with its LRU work, its failure flag and its place in the node's
 * streak of failures (schema/920-kswapd.sql defines the rule; report
 * kswapd-failures and plot kswapd both read the rows).
 *
 * How it works: the runs come from the kswapd_wake/_sleep events (few),
 * read in (nid, ts, seq) order, each ending at the next event of its node.
 * One pass over mm_vmscan_lru_shrink_inactive then gives each event to
 * (a) the run of its pid that it falls strictly inside, found by binary
 * search among that pid's runs, and (b) when it reclaimed on a node by
 * another task, to the run of that node whose span from the end of the
 * previous run to its own end holds it (these spans follow each other, so
 * a binary search on the ends finds it): the first such event resets the
 * streak. Last, the streaks are counted per node and the rows written.
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "derive-local.h"

struct krun {
	long long nid, pid, wake_seq, wake_ts, end_seq, end_ts;	/* end NUL: open */
	long long prev_end_ts;		/* end of the node's previous run; NUL for its first */
	int end_sleep;
	long long events, scanned, reclaimed, min_prio;		/* min_prio NUL: none */
	long long reset_ts, reset_seq;	/* NUL: no reset */
};

/* (a_ts, a_seq) < (b_ts, b_seq), an open end (NUL) after everything. */
static int before(long long a_ts, long long a_seq, long long b_ts, long long b_seq)
{
	if (b_ts == NUL)
		return a_ts != NUL;
	if (a_ts == NUL)
		return 0;
	return a_ts < b_ts || (a_ts == b_ts && a_seq < b_seq);
}

static int cmp_by_pid(const void *pa, const void *pb)
{
	const struct krun *a = *(const struct krun *const *)pa, *b = *(const struct krun *const *)pb;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->wake_ts != b->wake_ts)
		return a->wake_ts < b->wake_ts ? -1 : 1;
	return a->wake_seq < b->wake_seq ? -1 : a->wake_seq > b->wake_seq;
}

/* The runs, in (nid, ts, seq) order, with their ends. */
static int load_runs(struct derive *d, struct evs *runs)
{
	sqlite3_stmt *st = dv_prep(d,
		"WITH ev AS ("
		" SELECT nid, seq, ts, pid, 0 AS is_sleep FROM mm_vmscan_kswapd_wake WHERE nid IS NOT NULL"
		" UNION ALL SELECT nid, seq, ts, pid, 1 FROM mm_vmscan_kswapd_sleep WHERE nid IS NOT NULL)"
		" SELECT * FROM (SELECT nid, seq, ts, pid, is_sleep, LEAD(seq) OVER p, LEAD(ts) OVER p,"
		"  LEAD(is_sleep) OVER p FROM ev WINDOW p AS (PARTITION BY nid ORDER BY ts, seq))"
		" WHERE is_sleep = 0 ORDER BY nid, ts, seq");
	struct krun *prev = NULL;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct krun *r = dv_evs_push(runs);

		if (!r) {
			sqlite3_finalize(st);
			return vms_error("out of memory");
		}
		prev = runs->n > 1 ? r - 1 : NULL;
		memset(r, 0, sizeof(*r));
		r->nid = dv_col(st, 0);
		r->wake_seq = dv_col(st, 1);
		r->wake_ts = dv_col(st, 2);
		r->pid = dv_col(st, 3);
		r->end_seq = dv_col(st, 5);
		r->end_ts = dv_col(st, 6);
		r->end_sleep = dv_col(st, 7) == 1;
		r->prev_end_ts = prev && prev->nid == r->nid ? prev->end_ts : NUL;
		r->min_prio = r->reset_ts = r->reset_seq = NUL;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : dv_sql_fail(d, "kswapd runs");
}

/* The run of @by_pid (sorted by pid, then wake) that (@ts, @seq) is strictly inside, or NULL. */
static struct krun *run_of_pid(struct krun **by_pid, size_t n, long long pid, long long ts,
			       long long seq)
{
	size_t a = 0, b = n;

	/* first run of a larger pid, or of @pid waking at or after the event */
	while (a < b) {
		size_t m = a + (b - a) / 2;
		struct krun *r = by_pid[m];

		if (r->pid < pid || (r->pid == pid && before(r->wake_ts, r->wake_seq, ts, seq)))
			a = m + 1;
		else
			b = m;
	}
	if (!a || by_pid[a - 1]->pid != pid)
		return NULL;
	return before(ts, seq, by_pid[a - 1]->end_ts, by_pid[a - 1]->end_seq) ? by_pid[a - 1] : NULL;
}

/* The run of node @nid whose span [previous end (its wake for the first), end) holds @ts. */
static struct krun *run_of_node(struct krun *v, size_t n, long long nid, long long ts)
{
	size_t a = 0, b = n;
	struct krun *r;

	/* first run of a larger node, or of @nid ending after @ts */
	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (v[m].nid < nid || (v[m].nid == nid && v[m].end_ts != NUL && v[m].end_ts <= ts))
			a = m + 1;
		else
			b = m;
	}
	if (a == n || v[a].nid != nid)
		return NULL;
	r = &v[a];
	return ts >= (r->prev_end_ts != NUL ? r->prev_end_ts : r->wake_ts) ? r : NULL;
}

static int assign_events(struct derive *d, struct krun *v, size_t n, struct krun **by_pid)
{
	sqlite3_stmt *st = dv_prep(d, "SELECT pid, nid, ts, seq, nr_scanned, nr_reclaimed, priority"
				   " FROM mm_vmscan_lru_shrink_inactive");
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long pid = dv_col(st, 0), nid = dv_col(st, 1), ts = dv_col(st, 2);
		long long seq = dv_col(st, 3), reclaimed = dv_col(st, 5), prio = dv_col(st, 6);
		struct krun *r = run_of_pid(by_pid, n, pid, ts, seq);

		if (r) {
			long long scanned = dv_col(st, 4);

			r->events++;
			r->scanned += scanned == NUL ? 0 : scanned;
			r->reclaimed += reclaimed == NUL ? 0 : reclaimed;
			if (prio != NUL && (r->min_prio == NUL || prio < r->min_prio))
				r->min_prio = prio;
		}
		if (nid == NUL || reclaimed == NUL || reclaimed <= 0)
			continue;
		r = run_of_node(v, n, nid, ts);
		if (r && r->pid != pid && (r->reset_ts == NUL || before(ts, seq, r->reset_ts, r->reset_seq))) {
			r->reset_ts = ts;
			r->reset_seq = seq;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : dv_sql_fail(d, "mm_vmscan_lru_shrink_inactive");
}

static int write_runs(struct derive *d, const struct krun *v, size_t n)
{
	sqlite3_stmt *st = dv_prep(d, "INSERT INTO kswapd_run VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
				   " ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
	long long run = 0, streak = 0;
	size_t i;

	if (!st)
		return -1;
	for (i = 0; i < n; i++) {
		const struct krun *r = &v[i];
		int failed = r->reclaimed <= 0;

		if (!i || r->nid != v[i - 1].nid)
			run = streak = 0;
		run++;
		if (r->reset_seq != NUL)
			streak = 0;	/* kswapd_failures was reset before this run counted */
		streak = failed ? streak + 1 : 0;
		dv_bind(st, 1, r->nid);
		dv_bind(st, 2, run);
		dv_bind(st, 3, r->pid);
		dv_bind(st, 4, r->wake_seq);
		dv_bind(st, 5, r->wake_ts);
		dv_bind(st, 6, r->end_seq);
		dv_bind(st, 7, r->end_ts);
		dv_bind(st, 8, r->end_ts == NUL ? NUL : r->end_sleep);
		dv_bind(st, 9, r->events);
		dv_bind(st, 10, r->scanned);
		dv_bind(st, 11, r->reclaimed);
		dv_bind(st, 12, r->min_prio);
		dv_bind(st, 13, r->reset_seq);
		dv_bind(st, 14, failed);
		dv_bind(st, 15, streak);
		if (dv_step_reset(d, st, "kswapd_run")) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return 0;
}

int derive_kswapd_runs(struct derive *d)
{
	struct evs runs = { .size = sizeof(struct krun) };
	struct krun **by_pid = NULL;
	size_t i;
	int rc = -1;

	if (load_runs(d, &runs))
		goto out;
	if (!runs.n)
		return 0;
	by_pid = malloc(runs.n * sizeof(*by_pid));
	if (!by_pid) {
		vms_error("out of memory");
		goto out;
	}
	for (i = 0; i < runs.n; i++)
		by_pid[i] = (struct krun *)runs.v + i;
	qsort(by_pid, runs.n, sizeof(*by_pid), cmp_by_pid);
	rc = assign_events(d, runs.v, runs.n, by_pid) || write_runs(d, runs.v, runs.n) ? -1 : 0;
out:
	free(by_pid);
	free(runs.v);
	return rc;
}
