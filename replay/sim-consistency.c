// SPDX-License-Identifier: GPL-2.0
/*
 * sim-consistency.c - the self-consistency of a whatif simulation: does
 * the baseline (the recording simulated with its own knobs) reproduce what
 * was recorded, within 10%, for refault_file, reclaimed_file and
 * reclaimed_anon? Where it does not, say why, from what the recording
 * shows: which lruvec, which demand, inodes and slab reclaimed, the
 * direction of the miss. The verdicts are rows of the assumptions
 * (whatif_assumption), item "self-consistency: METRIC", firmness
 * "measured": a baseline outside 10% is a model error the whatif column
 * carries too.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vms.h"
#include "replay.h"
#include "sim.h"

#define CONSISTENT_PCT 10.0

/* Why the baseline of @m is off by @err % (not within CONSISTENT_PCT). */
static const char *why(const struct whatif_rec *r, int demand_counters, int m, double err)
{
	if (!r->memcg)
		return "node reclaim of a machine shared with other work: the refaults and the page "
		       "cache recorded are machine-wide counters, other tasks' demand is not in the "
		       "recording";
	if (r->reclaimers > 1 && m != M_REFAULT_FILE)
		return "several tasks entered memcg reclaim and the events do not say in which "
		       "memcg: another memcg's reclaim (and page-cache demand) counted as this one's";
	if (m == M_RECLAIMED_FILE && r->vfs && r->inodesteal > 0.05 * r->recorded[M_RECLAIMED_FILE])
		return "the inode shrinker was busy (pginodesteal grew): the vfs model frees other "
		       "dentries and inodes than the kernel (which also reads inodes back for "
		       "stat(2), unseen) and so leaves other room for pages; dirty pages, which "
		       "memcg reclaim activates, are clean in the model";
	if (m == M_RECLAIMED_FILE && r->inodesteal > 0.05 * r->recorded[M_RECLAIMED_FILE])
		return "the inode shrinker was busy (pginodesteal grew): slab shares the memcg's "
		       "limit with the pages, but its kernel memory was not recorded (cgroup v1 "
		       "memory.kmem.usage_in_bytes), so the vfs model is off and the room outside "
		       "the LRU lists is held constant";
	if (m == M_RECLAIMED_ANON && err < 0)
		return "less anon reclaimed than recorded: the kernel kept referenced exec-mapped "
		       "file pages on the active list and its file cost grew with their rotations, "
		       "which tips the anon/file balance; without --assume exec=protected the model has "
		       "no exec protection";
	if (m == M_RECLAIMED_ANON)
		return "more anon reclaimed than recorded: the simulated file lists hold fewer "
		       "referenced pages than the kernel's (mapped-page references are modeled only "
		       "for pages the demand names)";
	if (demand_counters)
		return "counter demand: file re-accesses walk the earlier pages in first-insertion "
		       "order at the speed of the recorded misses (hits are invisible), so the "
		       "simulated cache holds pages the recording re-read; record filemap events";
	if (err < 0 && !r->sequential && r->nacc && !r->acc_off)
		return "accesses through a mapping that hit in the recording left no event (reads "
		       "and faults do): pages the recording kept mapped and used again are not used "
		       "again in the simulation, which then misses less; --assume access=sequential "
		       "adds them for sequential use";
	if (err < 0 && !r->sequential)
		return "accesses that hit in the recording left no event: pages the recording kept "
		       "resident and used again are never used again in the simulation, which then "
		       "misses less; --assume access=sequential adds them for sequential reads";
	if (err < 0)
		return "fewer misses than recorded although sequential access was assumed: the "
		       "kernel's readahead read more than the demand shows";
	return "more misses than recorded: the kernel kept pages the simulation evicts "
	       "(exec-mapped pages on the active list, readahead of its own)";
}

int whatif_consistency(const struct whatif_rec *r, int demand_counters, const double *base,
		       struct whatif_assumption *a, int max)
{
	static const int metrics[] = { M_REFAULT_FILE, M_RECLAIMED_FILE, M_RECLAIMED_ANON };
	int n = 0;
	size_t i;

	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]) && n < max; i++) {
		int m = metrics[i];
		double rec = r->recorded[m], err = whatif_change_pct(rec, base[m]);

		snprintf(a[n].item, sizeof(a[n].item), "self-consistency: %s", whatif_metric_names[m]);
		if (!r->has_recorded[m]) {
			snprintf(a[n].value, sizeof(a[n].value), "not recorded");
		} else if (isnan(err) && base[m] <= SIM_SWAP_CLUSTER) {
			snprintf(a[n].value, sizeof(a[n].value), "within 10%%: 0 recorded, %.0f simulated%s",
				 base[m], base[m] ? " (less than a reclaim batch of 32 pages)" : "");
		} else if (isnan(err)) {
			snprintf(a[n].value, sizeof(a[n].value), "0 recorded, %.0f simulated: %s",
				 base[m], why(r, demand_counters, m, 1));
		} else if (fabs(err) <= CONSISTENT_PCT) {
			snprintf(a[n].value, sizeof(a[n].value), "within 10%%: baseline %+.1f%% of recorded",
				 err);
		} else {
			snprintf(a[n].value, sizeof(a[n].value), "off: baseline %+.1f%% of recorded: %s",
				 err, why(r, demand_counters, m, err));
		}
		/* with counter demand each recorded refault is re-enacted: 0% proves little */
		if (demand_counters && m == M_REFAULT_FILE && r->has_recorded[m] && !isnan(err) &&
		    fabs(err) <= CONSISTENT_PCT)
			snprintf(a[n].value + strlen(a[n].value), sizeof(a[n].value) - strlen(a[n].value),
				 " (by construction with counter demand: each recorded refault is "
				 "re-enacted while the simulated cache holds no more than the recorded one)");
		a[n].source = "baseline against recorded";
		a[n].firmness = "measured";
		n++;
	}
	return n;
}
