// SPDX-License-Identifier: GPL-2.0
/*
 * sim-pinned.c - file pages the recording's reclaim could not free
 * (`vmscope whatif`, model: pinned).
 *
 * A page something else holds a reference on (spliced into a pipe, pinned
 * for I/O) fails __remove_mapping()'s reference count check: reclaim scans
 * it, keeps it on the inactive list, and the tracepoint counts it in
 * nr_scanned under no reason it names (not reclaimed, activated, kept
 * referenced, nor unmap-failed). When most of the recorded file scans end
 * so, the pages behind them are taken as pinned: as many as the smallest
 * inactive file list of the samples while reclaim scanned, times that
 * share; the oldest insertions of the filemap demand that the recording's
 * reclaim did not evict (a truncation may remove them). Below half, the keeps are taken as transient (locked or in-flight
 * pages) and nothing is pinned.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sqlite3.h>

#include "vms.h"
#include "vms-window.h"
#include "replay.h"
#include "sim.h"

#define PINNED_MIN_SCANNED 4096		/* fewer recorded file scans: no conclusion */
#define PINNED_MIN_PERMILLE 500		/* unexplained keeps of the file scans */

/* The recorded inactive file scans of the lruvec: scanned, kept unexplained, first and last ts. */
static int recorded_keeps(struct vms_window *w, const struct whatif_rec *r, long long out[4])
{
	char sql[768];
	sqlite3_stmt *st;
	long long has = 0;
	int i, rc;

	st = vms_window_prepare(w, "SELECT COUNT(*) FROM pragma_table_info('mm_vmscan_lru_shrink_inactive') "
			       "WHERE name IN ('nr_activate1', 'nr_ref_keep', 'nr_unmap_fail')");
	if (!st)
		return -1;
	if (vms_window_step_int(w, st, &has) < 0)
		return -1;
	if (has < 3)
		return 1;	/* an older tracepoint: the reasons are not all there */
	snprintf(sql, sizeof(sql),
		 "SELECT TOTAL(nr_scanned), TOTAL(nr_scanned - nr_reclaimed - nr_activate1 - nr_ref_keep "
		 "- nr_unmap_fail), MIN(ts), MAX(ts) FROM mm_vmscan_lru_shrink_inactive "
		 "WHERE (reclaim_flags & 2) != 0 AND ts BETWEEN ?1 AND ?2 AND %s",
		 whatif_lruvec_reclaimers(r));
	st = vms_window_prepare(w, sql);
	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		for (i = 0; i < 4; i++)
			out[i] = sqlite3_column_int64(st, i);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return vms_error("reading reclaim events: %s", sqlite3_errmsg(w->sql));
	return 0;
}

/* The smallest inactive file list of the samples from @from to @to. */
static long long min_inactive_file(const struct whatif_rec *r, long long from, long long to)
{
	long long m = LLONG_MAX;
	long i;

	for (i = 0; i < r->nsmp; i++)
		if (r->smp[i].ts >= from && r->smp[i].ts <= to && r->smp[i].lru[SIM_INACTIVE_FILE] < m)
			m = r->smp[i].lru[SIM_INACTIVE_FILE];
	return m == LLONG_MAX ? 0 : m;
}

/* Mark as pinned the oldest insertions, @want pages, that reclaim did not evict (truncation may). */
static int mark_oldest_kept(struct whatif_rec *r, long long want)
{
	struct sim_config set = { .reclaimer = VMS_MEMCG, .limit = LLONG_MAX };
	struct sim *removed = sim_new(&set);
	unsigned char *kept = calloc(r->nfm ? r->nfm : 1, 1);
	long k;
	int i, rc = -1;

	if (!removed || !kept) {
		vms_error("out of memory");
		goto out;
	}
	for (k = r->nfm - 1; k >= 0; k--) {
		const struct whatif_filemap *f = &r->fm[k];

		/* walking back: the set holds the pages whose next removal is reclaim's */
		for (i = 0; i < f->pages; i++) {
			if (f->removed == 2) {
				if (sim_access(removed, f->ino, f->index + i) < 0)
					goto out;
			} else if (f->removed) {
				sim_remove(removed, f->ino, f->index + i);
			} else if (i == 0) {
				kept[k] = !sim_resident(removed, f->ino, f->index);
			}
		}
	}
	for (k = 0; k < r->nfm && r->pinned_marked < want; k++)
		if (kept[k] && !r->fm[k].written) {
			r->fm[k].pinned = 1;
			r->pinned_marked += r->fm[k].pages;
		}
	rc = 0;
out:
	sim_free(removed);
	free(kept);
	return rc;
}

int whatif_mark_pinned(struct vms_window *w, struct whatif_rec *r)
{
	long long keeps[4] = { 0, 0, 0, 0 };
	int rc;

	r->pinned_permille = -1;
	if (!r->fm)
		return 0;
	rc = recorded_keeps(w, r, keeps);
	if (rc)
		return rc < 0 ? -1 : 0;
	if (keeps[0] < PINNED_MIN_SCANNED)
		return 0;
	r->pinned_permille = (int)(keeps[1] > 0 ? keeps[1] * 1000 / keeps[0] : 0);
	if (r->pinned_permille < PINNED_MIN_PERMILLE)
		return 0;
	r->pinned_pages = min_inactive_file(r, keeps[2], keeps[3]) * r->pinned_permille / 1000;
	return r->pinned_pages > 0 ? mark_oldest_kept(r, r->pinned_pages) : 0;
}

void whatif_unmark_pinned(struct whatif_rec *r)
{
	long k;

	for (k = 0; k < r->nfm; k++)
		r->fm[k].pinned = 0;
	r->pinned_marked = 0;
	r->pinned_off = 1;
}
