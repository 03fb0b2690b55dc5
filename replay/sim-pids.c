// SPDX-License-Identifier: GPL-2.0
/*
 * sim-pids.c - a few pids (the tasks that reclaimed a memcg, the kswapds),
 * read once from the recording and sorted, so that whatif's readers of
 * per-event rows (sim-recording.c, sim-access.c) test each row's pid
 * against them cheaply.
 */
#include <stdlib.h>

#include <sqlite3.h>

#include "vms.h"
#include "vms-window.h"
#include "replay.h"
#include "sim.h"

int whatif_pids_load(struct vms_window *w, struct whatif_pids *set, const char *sql)
{
	sqlite3_stmt *st = vms_window_prepare(w, sql);
	int rc, alloc = 0;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (vms_array_reserve(&set->pid, &alloc, (int)set->n, 16, sizeof(*set->pid))) {
			sqlite3_finalize(st);
			return -1;
		}
		set->pid[set->n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vms_error("reading pids: %s", sqlite3_errmsg(w->sql));
	if (set->n)
		qsort(set->pid, set->n, sizeof(*set->pid), vms_cmp_ll);
	return 0;
}

int whatif_pids_has(const struct whatif_pids *set, long long pid)
{
	return set->n && bsearch(&pid, set->pid, set->n, sizeof(*set->pid), vms_cmp_ll) != NULL;
}
