// SPDX-License-Identifier: GPL-2.0
/*
 * derive-inactive.c - the inactive_bucket pass of the derive step (lib/derive.c):
 * mm_vmscan_lru_shrink_inactive summed per bucket, task and reclaimer class
 * (the audit section's), and its share of the episodes.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "derive-local.h"

/* ---------------------------------------------------------------- inactive_bucket */

/* A begin (o 0) or end (o 2) of a memcg (g 0) or direct/node (g 1) call: key ts * 4 + o. */
struct mark {
	long long pid, key;
	int g;
};

static int cmp_mark(const void *pa, const void *pb)
{
	const struct mark *a = pa, *b = pb;

	if (a->g != b->g)
		return a->g - b->g;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

/* First index in @m[0..n) not below (g, pid, key). */
static size_t mark_lower(const struct mark *m, size_t n, int g, long long pid, long long key)
{
	struct mark x = { .pid = pid, .key = key, .g = g };
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_mark(&m[mid], &x) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Inside a call of group @g: the last begin/end key below ts * 4 + 1 is a
 * begin; with none, the task's first one is an end (a call cut by the start
 * of the trace). report-audit.c states the rule.
 */
static int inside(const struct mark *m, size_t n, int g, long long pid, long long ts)
{
	size_t i = mark_lower(m, n, g, pid, ts * 4 + 1);

	if (i > 0 && m[i - 1].g == g && m[i - 1].pid == pid)
		return m[i - 1].key % 4 == 0;
	return i < n && m[i].g == g && m[i].pid == pid && m[i].key % 4 == 2;
}

int derive_inactive(struct derive *d)
{
	static const char *const tables[] = {
		"mm_vmscan_memcg_reclaim_begin", "mm_vmscan_memcg_reclaim_end",
		"mm_vmscan_memcg_softlimit_reclaim_begin", "mm_vmscan_memcg_softlimit_reclaim_end",
		"mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end",
		"mm_vmscan_node_reclaim_begin", "mm_vmscan_node_reclaim_end",
	};
	struct evs marks = { .size = sizeof(struct mark) };
	struct agg *a = dv_agg_get(d, "mm_vmscan_lru_shrink_inactive", "mm_vmscan_lru_shrink_inactive");
	struct sums sums = { 0 };
	sqlite3_stmt *st = NULL;
	struct mark *m;
	char q[160];
	size_t i;
	int rc = -1;

	if (!a)
		return vms_error("out of memory");
	for (i = 0; i < 8; i++) {
		snprintf(q, sizeof(q), "SELECT pid, ts FROM %s", tables[i]);
		if (!(st = dv_prep(d, q)))
			goto out;
		while (sqlite3_step(st) == SQLITE_ROW) {
			struct mark *x = dv_evs_push(&marks);

			if (!x) {
				vms_error("out of memory");
				goto out;
			}
			x->pid = sqlite3_column_int64(st, 0);
			x->key = sqlite3_column_int64(st, 1) * 4 + (i % 2 ? 2 : 0);
			x->g = i >= 4;
		}
		sqlite3_finalize(st);
		st = NULL;
	}
	m = marks.v;
	qsort(m, marks.n, sizeof(*m), cmp_mark);

	/* the columns vms_episodes_inactive() reads */
	st = dv_prep(d, "SELECT pid, ts, seq, nid, nr_scanned, nr_reclaimed, reclaim_flags, priority"
		  " FROM mm_vmscan_lru_shrink_inactive");
	if (!st)
		goto out;
	{
		long long last_pid = NUL, last_ts = 0;
		int last_in[2] = { 0, 0 };

		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			long long seq = sqlite3_column_int64(st, 2), ts = sqlite3_column_int64(st, 1);
			long long pid = sqlite3_column_int64(st, 0), sc = dv_col(st, 4), flags = dv_col(st, 6);
			long long key[SUM_KEYS] = { 0 };
			struct sum_entry *e;

			if (dv_agg_add(d, a, ts, seq) || vms_episodes_inactive(d->eps, st))
				goto out;
			/* consecutive events of one task mostly share their class */
			if (pid != last_pid || ts != last_ts) {
				last_in[0] = inside(m, marks.n, 0, pid, ts);
				last_in[1] = inside(m, marks.n, 1, pid, ts);
				last_pid = pid;
				last_ts = ts;
			}
			key[0] = dv_bucket_of(d, ts);
			key[1] = pid;
			key[2] = last_in[0];
			key[3] = last_in[1];
			if (!(e = dv_sums_get(&sums, key))) {
				vms_error("out of memory");
				goto out;
			}
			e->v[0]++;
			dv_sum_add(e, 1, sc);
			dv_sum_add(e, 2, dv_col(st, 5));
			if (flags != NUL && (flags & 1))
				dv_sum_add(e, 3, sc);
			if (flags != NUL && (flags & 2))
				dv_sum_add(e, 4, sc);
		}
	}
	if (rc != SQLITE_DONE) {
		rc = dv_sql_fail(d, "mm_vmscan_lru_shrink_inactive");
		goto out;
	}
	sqlite3_finalize(st);
	st = dv_prep(d, "INSERT INTO inactive_bucket VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
	rc = -1;
	if (!st)
		goto out;
	for (i = 0; i < sums.size; i++) {
		const struct sum_entry *e = &sums.e[i];

		if (!e->used)
			continue;
		for (int k = 0; k < 4; k++)
			sqlite3_bind_int64(st, k + 1, e->key[k]);
		sqlite3_bind_int64(st, 5, e->v[0]);
		for (int k = 1; k <= 4; k++)
			dv_bind_sum(st, 5 + k, e, k);
		if (dv_step_reset(d, st, "inactive_bucket"))
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(marks.v);
	free(sums.e);
	return rc;
}
