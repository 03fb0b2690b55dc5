// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-marks.c - which reclaim call a task was inside at a given time:
 * the begin (key ts * 4) and end (ts * 4 + 2) events of memcg calls (group
 * 0: memcg and memcg soft-limit reclaim) and of direct calls (group 1:
 * direct and node reclaim), sorted per group and task. An event at ts is
 * inside a call of a group when the last key of its task below ts * 4 + 1 is
 * a begin, or, with none, when the task's first key is an end (a call cut by
 * the start of the trace). The audit section states the rule
 * (docs/report-audit.md); the derive step and the audit's raw edges use it.
 */
#include <stdio.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "vms.h"

struct mark {
	long long pid, key;
	int g;
};

struct vms_marks {
	struct mark *m;
	size_t n, alloc;
};

static const char *const mark_tables[] = {
	"mm_vmscan_memcg_reclaim_begin", "mm_vmscan_memcg_reclaim_end",
	"mm_vmscan_memcg_softlimit_reclaim_begin", "mm_vmscan_memcg_softlimit_reclaim_end",
	"mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end",
	"mm_vmscan_node_reclaim_begin", "mm_vmscan_node_reclaim_end",
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

/* Append the marks @st returns (pid, ts) for table @i. Return: 0, or -1. */
static int add_marks(struct vms_marks *mk, sqlite3_stmt *st, int i)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (mk->n == mk->alloc) {
			size_t n = mk->alloc ? 2 * mk->alloc : 4096;
			struct mark *p = realloc(mk->m, n * sizeof(*p));

			if (!p)
				return vms_error("out of memory");
			mk->m = p;
			mk->alloc = n;
		}
		mk->m[mk->n].pid = sqlite3_column_int64(st, 0);
		mk->m[mk->n].key = sqlite3_column_int64(st, 1) * 4 + (i % 2 ? 2 : 0);
		mk->m[mk->n++].g = i >= 4;
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

struct vms_marks *vms_marks_load(struct vms_db *db, const long long *pids, size_t npids)
{
	struct vms_marks *mk = calloc(1, sizeof(*mk));
	sqlite3 *sql = vms_db_sql(db);
	size_t i, p;
	char q[200];

	if (!mk) {
		vms_error("out of memory");
		return NULL;
	}
	for (i = 0; i < sizeof(mark_tables) / sizeof(mark_tables[0]); i++) {
		sqlite3_stmt *st;
		int rc = 0;

		/* the (pid, seq) indexes serve one task's marks */
		snprintf(q, sizeof(q), "SELECT pid, ts FROM %s%s", mark_tables[i],
			 pids ? " WHERE pid = ?1" : "");
		if (sqlite3_prepare_v2(sql, q, -1, &st, NULL)) {
			vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(sql));
			goto err;
		}
		for (p = 0; !rc && p < (pids ? npids : 1); p++) {
			if (pids) {
				sqlite3_reset(st);
				sqlite3_bind_int64(st, 1, pids[p]);
			}
			rc = add_marks(mk, st, (int)i);
		}
		sqlite3_finalize(st);
		if (rc) {
			vms_error("%s: reading %s: %s", vms_db_path(db), mark_tables[i],
				  sqlite3_errmsg(sql));
			goto err;
		}
	}
	if (mk->n)	/* qsort() wants a valid pointer, even for no element */
		qsort(mk->m, mk->n, sizeof(*mk->m), cmp_mark);
	return mk;
err:
	vms_marks_free(mk);
	return NULL;
}

/* First index not below (g, pid, key). */
static size_t mark_lower(const struct vms_marks *mk, int g, long long pid, long long key)
{
	struct mark x = { .pid = pid, .key = key, .g = g };
	size_t lo = 0, hi = mk->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_mark(&mk->m[mid], &x) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int vms_marks_inside(const struct vms_marks *mk, int g, long long pid, long long ts)
{
	const struct mark *m = mk->m;
	size_t i = mark_lower(mk, g, pid, ts * 4 + 1);

	if (i > 0 && m[i - 1].g == g && m[i - 1].pid == pid)
		return m[i - 1].key % 4 == 0;
	return i < mk->n && m[i].g == g && m[i].pid == pid && m[i].key % 4 == 2;
}

void vms_marks_free(struct vms_marks *mk)
{
	if (!mk)
		return;
	free(mk->m);
	free(mk);
}
