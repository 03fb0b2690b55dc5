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

int derive_inactive(struct derive *d)
{
	struct agg *a = dv_agg_get(d, "mm_vmscan_lru_shrink_inactive", "mm_vmscan_lru_shrink_inactive");
	struct vms_marks *m = NULL;
	struct sums sums = { 0 };
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc = -1;

	if (!a)
		return vms_error("out of memory");
	if (!(m = vms_marks_load(d->db, NULL, 0)))
		goto out;

	/* the columns dv_episodes_inactive() reads */
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

			if (dv_agg_add(d, a, ts, seq) || dv_episodes_inactive(d->eps, st))
				goto out;
			/* consecutive events of one task mostly share their class */
			if (pid != last_pid || ts != last_ts) {
				last_in[0] = vms_marks_inside(m, 0, pid, ts);
				last_in[1] = vms_marks_inside(m, 1, pid, ts);
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
	vms_marks_free(m);
	free(sums.e);
	return rc;
}
