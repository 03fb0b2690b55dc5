// SPDX-License-Identifier: GPL-2.0
/*
 * sim-exec.c - which recorded page-cache insertions are pages of a file
 * range that the memcg's tasks had mapped executable (table exec_mapping,
 * written by `record -m` from /proc/PID/maps). The simulation protects
 * them as 6.18 protects a VM_EXEC file page: folio_check_references()
 * activates it at its first referenced scan, shrink_active_list() keeps it
 * active while referenced. The ranges are taken as mapped for the whole
 * window (the union over the tasks and the samples); a folio counts as
 * covered when its first page is. Used when asked
 * (--assume exec=protected): on the thrash pairs it gets the anon/file
 * balance right but loses the file sizes (docs/whatif.md).
 */
#include <stdlib.h>
#include <sqlite3.h>

#include "vms.h"
#include "vms-window.h"
#include "replay.h"
#include "sim.h"

struct whatif_exec_range {
	uint64_t ino;		/* the filemap key: i_ino ^ (s_dev << 40) */
	uint64_t first, last;	/* page indexes, inclusive */
};

static int cmp_range(const void *a, const void *b)
{
	const struct whatif_exec_range *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* Merge overlapping and adjacent ranges of one file. Return: the ranges left. */
static long merge_ranges(struct whatif_exec_range *e, long n)
{
	long i, out = 0;

	for (i = 0; i < n; i++) {
		if (out && e[out - 1].ino == e[i].ino && e[i].first <= e[out - 1].last + 1) {
			if (e[i].last > e[out - 1].last)
				e[out - 1].last = e[i].last;
			continue;
		}
		e[out++] = e[i];
	}
	return out;
}

static int covered(const struct whatif_exec_range *e, long n, uint64_t ino, uint64_t index)
{
	long lo = 0, hi = n;

	while (lo < hi) {	/* the first range after (ino, index) */
		long mid = lo + (hi - lo) / 2;

		if (e[mid].ino < ino || (e[mid].ino == ino && e[mid].first <= index))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && e[lo - 1].ino == ino && index <= e[lo - 1].last;
}

static int read_ranges(struct vms_window *w, struct whatif_exec_range **out, long *nout)
{
	sqlite3_stmt *st;
	struct whatif_exec_range *e = NULL;
	int n = 0, alloc = 0, rc;

	st = vms_window_prepare(w, "SELECT s_dev, i_ino, pgoff, pages FROM exec_mapping "
			       "WHERE pages > 0 AND pgoff >= 0");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (vms_array_reserve(&e, &alloc, n, 64, sizeof(*e))) {
			sqlite3_finalize(st);
			free(e);
			return -1;
		}
		e[n].ino = (uint64_t)sqlite3_column_int64(st, 1) ^
			   ((uint64_t)sqlite3_column_int64(st, 0) << 40);
		e[n].first = (uint64_t)sqlite3_column_int64(st, 2);
		e[n].last = e[n].first + (uint64_t)sqlite3_column_int64(st, 3) - 1;
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(e);
		return vms_error("reading exec_mapping: %s", sqlite3_errmsg(w->sql));
	}
	*out = e;
	*nout = n;
	return 0;
}

int whatif_load_exec(struct vms_window *w, struct whatif_rec *r)
{
	struct whatif_exec_range *e = NULL;
	long n = 0, k;

	r->exec_recorded = 0;
	if (!whatif_table_exists(w, "exec_mapping"))
		return 0;
	if (read_ranges(w, &e, &n))
		return -1;
	r->exec_recorded = n > 0;
	if (n)	/* (qsort() of no rows: e is NULL) */
		qsort(e, n, sizeof(*e), cmp_range);
	n = merge_ranges(e, n);
	r->exec = e;
	r->exec_ranges = n;
	for (k = 0; k < n; k++)
		r->exec_pages += (long long)(e[k].last - e[k].first + 1);
	return 0;
}

void whatif_exec_mark(struct whatif_rec *r)
{
	long k;

	r->use_exec = 1;
	for (k = 0; k < r->nfm; k++) {
		struct whatif_filemap *f = &r->fm[k];

		if (!f->removed && !f->written && whatif_exec_covered(r, f->ino, f->index)) {
			f->exec = 1;
			r->exec_marked++;
		}
	}
}

int whatif_exec_covered(const struct whatif_rec *r, uint64_t ino, uint64_t index)
{
	return covered(r->exec, r->exec_ranges, ino, index);
}
