// SPDX-License-Identifier: GPL-2.0
/*
 * sim-swap.c - the swap use of a recording and the anon memory its
 * workload freed (`vmscope whatif`, counter demand of anon).
 *
 * The samples carry swap use from the memcg's memory.stat (cgroup v1
 * total_swap, with swap accounting) or, for the node, from meminfo
 * (SwapTotal - SwapFree, read a moment after each vmstat sample). Anon
 * memory the workload unmaps or frees by exiting leaves both resident anon
 * and swap: per interval the pages freed are those of the new anon
 * (sim-run.c: growth of resident anon plus anon reclaimed, less swap-ins)
 * that the change of all anon (resident plus swapped, the swap cache
 * counted once or twice, whichever grew more) does not show. Net per
 * interval: an interval that both allocates and frees shows only the
 * difference.
 */
#include <sqlite3.h>

#include "vms.h"
#include "vms-window.h"
#include "replay.h"
#include "sim.h"

#define MEMINFO_SLACK_NS 50000000LL	/* meminfo is read within this of the vmstat sample
					 * (the query's 50000000 too) */

/* Node: each sample's swap use from the meminfo sample taken with it (within 50 ms). */
static int load_node_swap(struct vms_window *w, struct whatif_rec *r, long long page_size)
{
	sqlite3_stmt *st = vms_window_prepare(w,
		"SELECT s.ts, SUM(CASE v.name WHEN 'SwapTotal' THEN v.value ELSE -v.value END) "
		"FROM counter_sample s JOIN counter_value v ON v.sample = s.id "
		"WHERE s.source = 'meminfo' AND v.name IN ('SwapTotal', 'SwapFree') "
		"AND s.ts BETWEEN ?1 - 50000000 AND ?2 + 50000000 GROUP BY s.id HAVING COUNT(*) = 2 "
		"ORDER BY s.ts");
	long i = 0;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && i < r->nsmp) {
		long long ts = sqlite3_column_int64(st, 0);
		long long kb = sqlite3_column_int64(st, 1);

		while (i < r->nsmp && r->smp[i].ts + MEMINFO_SLACK_NS < ts)
			i++;	/* a vmstat sample without its meminfo: swap use unknown */
		if (i < r->nsmp && ts >= r->smp[i].ts - MEMINFO_SLACK_NS) {
			r->smp[i].swap = kb > 0 ? kb * 1024 / page_size : 0;
			r->swap_samples++;
			i++;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return vms_error("reading meminfo samples: %s", sqlite3_errmsg(w->sql));
	return 0;
}

static long long nonneg(long long v)
{
	return v > 0 ? v : 0;
}

long long whatif_anon_new(const struct whatif_sample *a, const struct whatif_sample *b)
{
	long long anon_in = b->anon - a->anon + b->reclaimed[0] - a->reclaimed[0];

	return nonneg(anon_in - nonneg(b->refault[0] - a->refault[0]));
}

/*
 * All anon at a sample lies between resident + swap - swap cache (a page
 * unmapped in the swap cache on its way out counts in neither) and resident
 * + swap (a mapped page in the swap cache counts twice): the new anon that
 * neither bound's change shows.
 */
long long whatif_anon_unseen(const struct whatif_sample *a, const struct whatif_sample *b)
{
	long long lo_a = a->anon + a->swap - a->swapcached, lo_b = b->anon + b->swap - b->swapcached;
	long long hi_a = a->anon + a->swap, hi_b = b->anon + b->swap;
	long long grew = lo_b - lo_a > hi_b - hi_a ? lo_b - lo_a : hi_b - hi_a;

	return whatif_anon_new(a, b) - grew;
}

void whatif_settle_frees(struct whatif_rec *r)
{
	long i;

	r->anon_freed = 0;
	for (i = 0; i < r->nsmp; i++)
		r->smp[i].freed = 0;
	if (!r->has_swap)
		return;
	for (i = 1; i < r->nsmp; i++) {
		r->smp[i].freed = nonneg(whatif_anon_unseen(&r->smp[i - 1], &r->smp[i]));
		r->anon_freed += r->smp[i].freed;
	}
}

int whatif_load_swap(struct vms_window *w, struct whatif_rec *r, long long page_size)
{
	if (!r->memcg && load_node_swap(w, r, page_size))
		return -1;
	r->has_swap = r->nsmp > 1 && r->swap_samples == r->nsmp;
	whatif_settle_frees(r);
	return 0;
}
