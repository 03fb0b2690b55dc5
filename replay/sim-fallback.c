// SPDX-License-Identifier: GPL-2.0
/*
 * sim-fallback.c - what a node recording gives the simulation of
 * watermark boosting (vm.watermark_boost_factor): the allocator's
 * fragmentation fallbacks that boost a zone, and each zone's ceiling.
 *
 * In 6.18 try_to_claim_block() calls boost_watermark() before it tries to
 * claim a pageblock of another migratetype smaller than a pageblock, and
 * mm_page_alloc_extfrag fires when the claim succeeds, or when
 * __rmqueue_steal() takes a single page after claims failed. So an event
 * boosted when its fallback order is below pageblock_order and it is a
 * claim, or a steal that claims were tried before: of an unmovable or
 * reclaimable allocation (claims are tried at every order), or at half a
 * pageblock's order or more (a claim of that free block was tried first),
 * and not a later steal of the same rmqueue_bulk() (which steals on
 * without claiming: taken as a steal on the same CPU within 20 us of a
 * steal). A claim that fails at several orders boosts once per order and
 * leaves one event; compaction_capture() leaves one without a boost: the
 * count is an estimate either way. Events outside node 0's zones are not
 * counted.
 */
#include <stdlib.h>

#include "vms.h"
#include "vms-window.h"
#include "replay.h"
#include "sim.h"

/*
 * The zone whose pfn range holds @pfn; -1 outside all of them (another
 * node). Without the ranges (zoneinfo lacked them): the one with the most
 * managed pages.
 */
static int zone_of(const struct whatif_rec *r, long long pfn)
{
	int z, best = 0, ranges = 0;

	for (z = 0; z < r->nzones; z++) {
		if (r->zone_spanned[z] <= 0)
			continue;
		ranges = 1;
		if (pfn >= r->zone_start[z] && pfn < r->zone_start[z] + r->zone_spanned[z])
			return z;
	}
	if (ranges)
		return -1;
	for (z = 1; z < r->nzones; z++)
		if (r->managed[z] > r->managed[best])
			best = z;
	return best;
}

/* Was kmem:mm_page_alloc_extfrag recorded (its format stored, or events of it)? 1, 0, or -1. */
static int recorded(struct vms_window *w)
{
	long long yes = 0;

	if (vms_window_int(w, "SELECT EXISTS (SELECT 1 FROM event_format WHERE name = "
			   "'mm_page_alloc_extfrag') OR EXISTS (SELECT 1 FROM mm_page_alloc_extfrag)",
			   &yes) < 0)
		return -1;
	return yes > 0;
}

int whatif_load_fallbacks(struct vms_window *w, struct whatif_rec *r)
{
	/*
	 * 9: pageblock_order (x86-64, 4 KiB pages); 1: MIGRATE_MOVABLE; 4:
	 * pageblock_order / 2; 20000 ns: a steal that close after a steal on
	 * the same CPU is taken as the same rmqueue_bulk()
	 */
	static const char sql[] =
		"SELECT ts, pfn, fallback_order < 9 AND (change_ownership OR "
		"((alloc_migratetype <> 1 OR fallback_order >= 4) AND NOT COALESCE(prev_steal AND "
		"ts - prev_ts < 20000, 0))) FROM (SELECT seq, ts, pfn, fallback_order, change_ownership, "
		"alloc_migratetype, LAG(ts) OVER w AS prev_ts, LAG(change_ownership = 0) OVER w AS "
		"prev_steal FROM mm_page_alloc_extfrag WHERE ts BETWEEN ?1 AND ?2 "
		"WINDOW w AS (PARTITION BY cpu ORDER BY ts, seq)) ORDER BY ts, seq";
	sqlite3_stmt *st;
	int alloc = 0;
	int rc, yes;

	if (r->memcg || !whatif_table_exists(w, "mm_page_alloc_extfrag"))
		return 0;
	yes = recorded(w);
	if (yes <= 0)
		return yes;
	st = vms_window_prepare(w, sql);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct whatif_fallback *f;
		int zone;

		r->fallback_events++;
		if (!sqlite3_column_int(st, 2))
			continue;
		zone = zone_of(r, sqlite3_column_int64(st, 1));
		if (zone < 0)
			continue;	/* another node's */
		if (vms_array_reserve(&r->fallback, &alloc, (int)r->nfallback, 256,
				      sizeof(*r->fallback))) {
			sqlite3_finalize(st);
			return -1;
		}
		f = &r->fallback[r->nfallback++];
		f->ts = sqlite3_column_int64(st, 0);
		f->zone = zone;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vms_error("reading mm_page_alloc_extfrag: %s", sqlite3_errmsg(w->sql));
	r->fallback_recorded = 1;
	return 0;
}

void whatif_boost_max(const struct whatif_rec *r, long long factor, long long high,
		      long long out[SIM_MAX_ZONES])
{
	long long sum = 0, m;
	int z;

	for (z = 0; z < SIM_MAX_ZONES; z++)
		out[z] = 0;
	for (z = 0; z < r->nzones; z++)
		sum += r->zone_high[z];
	for (z = 0; z < r->nzones && z < SIM_MAX_ZONES && factor > 0 && sum > 0; z++) {
		/* boost_watermark(): not in zones smaller than four pageblocks */
		if (SIM_PAGEBLOCK * 4 > r->managed[z])
			continue;
		m = r->zone_high[z] * high / sum * factor / 10000;	/* mult_frac(high, factor, 10000) */
		if (m > 0)
			out[z] = m > SIM_PAGEBLOCK ? m : SIM_PAGEBLOCK;
	}
}
