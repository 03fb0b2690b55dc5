// SPDX-License-Identifier: GPL-2.0
/*
 * sim-reclaim.c - reclaim in the simulated lruvec, entered as 6.18 enters
 * it: a memcg charge over the limit calls try_to_free_mem_cgroup_pages()
 * for a charge batch (64 pages, or what the configuration says; up to
 * MAX_RECLAIM_RETRIES times); on a node,
 * an allocation below the low watermark runs kswapd's balance_pgdat() up to
 * the high watermark, and one below the min watermark reclaims directly;
 * a fragmentation fallback (sim_fallback()) boosts the watermarks and wakes
 * kswapd, which reclaims the boost in file-only passes.
 * Each priority step builds a struct vms_pass_input from the simulated
 * state (exact) and asks the policy's hooks, falling back to the baseline's
 * kernel logic (kernel-logic.c) for a hook that is absent or defers, so the
 * replay policies decide here as they do in replay. The lists are then
 * shrunk as shrink_lruvec(), shrink_inactive_list() and
 * shrink_active_list() do, with the 6.2+ anon/file cost.
 *
 * Simplifications (whatif lists them as assumptions): pages are clean (no
 * writeback; reclaim of a file page never waits), every page is treated as
 * mapped by the access that brought it in, but for pages the recording
 * shows written or read (sim_access_unmapped(): reclaimed at first scan) (folio_check_references() of a
 * mapped page: kept once when referenced, activated when referenced again;
 * the kernel reclaims unmapped referenced pages; a use through a mapping sets
 * the young bit only, sim_access_mapped()), exec protection only for
 * pages marked protected (sim-exec.c, or --assume access=protected), slab
 * only as sim-vfs.c models it (a memcg's file dentries and inodes), no MGLRU, kswapd runs to the high watermark at the moment of the
 * allocation that wakes it, and memory.low/min protection is absent.
 */
#include "vms.h"
#include "replay.h"
#include "sim.h"

#define DEF_PRIORITY 12
#define MAX_RECLAIM_RETRIES 16
#define MEMCG_CHARGE_BATCH 64	/* try_charge_memcg() charges, and reclaims, in batches */

static long long lru_total(const struct sim *s)
{
	return s->list[0].size + s->list[1].size + s->list[2].size + s->list[3].size;
}

/* The node's watermark boost: the zones' watermark_boost summed. */
static long long boost_total(const struct sim *s)
{
	long long b = 0;
	int z;

	for (z = 0; z < SIM_MAX_ZONES; z++)
		b += s->zone_boost[z];
	return b;
}

static long long node_free(const struct sim *s)
{
	return s->cfg.node_pages - lru_total(s);
}

static long long swap_free(const struct sim *s)
{
	long long f = s->cfg.swap_pages - s->swap_used;

	return f > 0 ? f : 0;
}

void sim_note_cost(struct sim *s, int file, long long nr_io, long long nr_rotated)
{
	s->cost[file] += nr_io * SIM_SWAP_CLUSTER + nr_rotated;
	if (s->cost[0] + s->cost[1] > lru_total(s) / 4) {
		s->cost[0] /= 2;
		s->cost[1] /= 2;
	}
}

static struct vms_value exact(long long v)
{
	struct vms_value x = { v, VMS_PROV_EXACT, v, v };

	return x;
}

static void pass_input(const struct sim *s, enum vms_reclaimer who, int priority,
		       struct vms_pass_input *in)
{
	long long free_pages;

	*in = (struct vms_pass_input){ 0 };
	in->reclaimer = who;
	in->priority = priority;
	in->inactive_anon = exact(s->list[SIM_INACTIVE_ANON].size);
	in->active_anon = exact(s->list[SIM_ACTIVE_ANON].size);
	in->inactive_file = exact(s->list[SIM_INACTIVE_FILE].size);
	in->active_file = exact(s->list[SIM_ACTIVE_FILE].size);
	if (s->cfg.reclaimer == VMS_MEMCG) {
		free_pages = s->cfg.limit - lru_total(s) - sim_slab_pages(s);
		in->high_wmark = exact(0);
	} else {
		free_pages = node_free(s);
		in->high_wmark = exact(s->cfg.high_wmark + boost_total(s));	/* high_wmark_pages() */
	}
	in->free_pages = exact(free_pages > 0 ? free_pages : 0);
	in->boost = exact(boost_total(s));
	in->boost_reclaim = exact(who == VMS_KSWAPD ? s->boost_reclaim : 0);
	in->swappiness = exact(s->cfg.swappiness);
	in->swap_free = exact(swap_free(s));
	in->refault_file = exact(s->visible_activate[1] - s->snapshot_activate[1]);
	in->refault_anon = exact(s->visible_activate[0] - s->snapshot_activate[0]);
	in->anon_cost = exact(s->cost[0]);
	in->file_cost = exact(s->cost[1]);
}

const char *const sim_question_names[SIM_NQ] = {
	"deactivate", "scan_balance", "kswapd_retry", "mapped_once", "shrink_slab",
};

/* A policy's answer @r to question @q: counted, and whether it is used (not deferred or undecidable). */
static int answer_used(struct sim *s, enum sim_question q, int r)
{
	s->st.use.asked[q]++;
	if (r == VMS_UNDECIDABLE)
		s->st.use.undecidable[q]++;
	return r != VMS_DEFER && r != VMS_UNDECIDABLE;
}

static int ask_deactivate(struct sim *s, const struct vms_pass_input *in, int file)
{
	const struct policy_instance *p = s->cfg.policy;

	if (p && p->policy->deactivate) {
		int r = p->policy->deactivate(p->priv, in, file);

		if (answer_used(s, SIM_Q_DEACTIVATE, r))
			return r;
	}
	return file ? kl_deactivate_file(in) : kl_deactivate_anon(in);
}

/*
 * Is a page referenced once since it came in (mapped, referenced by its
 * PTE) activated at an inactive scan (1), or kept once (0: 2.6.34+, the
 * baseline)?
 */
static int ask_mapped_once(struct sim *s, const struct vms_pass_input *in, int file)
{
	const struct policy_instance *p = s->cfg.policy;

	if (p && p->policy->mapped_once) {
		int r = p->policy->mapped_once(p->priv, in, file);

		if (answer_used(s, SIM_Q_MAPPED_ONCE, r))
			return r;
	}
	return 0;	/* 6.18 folio_check_references(): FOLIOREF_KEEP */
}

/*
 * Does this pass call the shrinkers (the shadow shrinker and, with the vfs
 * model, the superblock's)? 6.18 does in every pass; 5.0's boosted kswapd
 * did not.
 */
static int ask_shrink_slab(struct sim *s, const struct vms_pass_input *in)
{
	const struct policy_instance *p = s->cfg.policy;

	if (p && p->policy->shrink_slab) {
		int r = p->policy->shrink_slab(p->priv, in);

		if (answer_used(s, SIM_Q_SHRINK_SLAB, r))
			return r;
	}
	return 1;	/* 6.18 shrink_node_memcgs(): shrink_slab() after every lruvec */
}

static void ask_scan_balance(struct sim *s, const struct vms_pass_input *in_pass,
			     struct vms_scan_decision *d)
{
	const struct policy_instance *p = s->cfg.policy;
	const struct vms_pass_input *in = in_pass;
	struct vms_pass_input retry;

	if (s->no_cache_trim) {	/* the 6.9+ retry sweep of a failed kswapd run */
		retry = *in_pass;
		retry.no_cache_trim_mode = 1;
		in = &retry;
	}

	if (p && p->policy->scan_balance) {
		int r = p->policy->scan_balance(p->priv, in, d);

		if (answer_used(s, SIM_Q_SCAN_BALANCE, r))
			return;
	}
	kl_scan_balance(in, in->anon_cost.v, in->file_cost.v, d);
}

/* shrink_active_list(): a page taken goes to the inactive list, but a referenced protected one */
static void shrink_active(struct sim *s, enum sim_lru lru, long long nr)
{
	int file = lru == SIM_ACTIVE_FILE;
	long long rotated = 0;

	while (nr-- > 0 && s->list[lru].tail != SIM_NONE) {
		int32_t slot = s->list[lru].tail;
		int keep = file && s->page[slot].referenced && s->page[slot].protect;

		sim_list_del(s, slot);
		s->page[slot].referenced = 0;
		if (keep) {	/* a referenced exec-mapped page stays active */
			sim_list_add(s, slot, SIM_ACTIVE_FILE);
			rotated++;
			continue;
		}
		s->page[slot].workingset = 1;
		sim_list_add(s, slot, file ? SIM_INACTIVE_FILE : SIM_INACTIVE_ANON);
		s->st.deactivated[file]++;
	}
	sim_note_cost(s, file, 0, rotated);
}

/* shrink_inactive_list() on @nr pages from the tail. Return: pages reclaimed. */
static long long shrink_inactive(struct sim *s, enum sim_lru lru, long long nr)
{
	int file = lru == SIM_INACTIVE_FILE;
	long long scanned = 0, reclaimed = 0, pageout = 0;

	while (nr-- > 0 && s->list[lru].tail != SIM_NONE) {
		int32_t slot = s->list[lru].tail;
		struct sim_page *p = &s->page[slot];

		scanned++;
		if (file && p->pinned) {
			/* another reference holds it: __remove_mapping() fails, keep_locked */
			sim_list_del(s, slot);
			p->referenced = p->kept = 0;
			sim_list_add(s, slot, lru);
			continue;
		}
		if (file && p->unmapped && !p->protect) {
			/* not mapped: referenced or not, reclaimed (FOLIOREF_RECLAIM_CLEAN) */
			sim_evict(s, slot);
			reclaimed++;
			continue;
		}
		if (p->referenced && !p->kept && !(file && p->protect) && s->activate_once[file]) {
			/* referenced once, activated (<= 2.6.33; anon 2.6.34 to 5.x) */
			sim_list_del(s, slot);
			p->referenced = 0;
			sim_list_add(s, slot, file ? SIM_ACTIVE_FILE : SIM_ACTIVE_ANON);
			s->st.activated_once[file]++;
			continue;
		}
		if (p->referenced && !p->kept && !(file && p->protect)) {
			/* folio_check_references() of a mapped page: referenced once, keep it */
			sim_list_del(s, slot);
			p->referenced = 0;
			p->kept = 1;
			sim_list_add(s, slot, lru);
			continue;
		}
		if (p->referenced || (!file && !swap_free(s))) {
			/* referenced again since it was kept, exec-mapped (protected: at its first
			 * referenced scan, which the condition above let through), or anon with
			 * no swap slot: activate */
			sim_list_del(s, slot);
			p->referenced = p->kept = 0;
			sim_list_add(s, slot, file ? SIM_ACTIVE_FILE : SIM_ACTIVE_ANON);
			continue;
		}
		if (!file) {
			s->swap_used++;
			s->st.swapout++;
			pageout++;
		}
		sim_evict(s, slot);
		reclaimed++;
	}
	s->st.scanned[file] += scanned;
	s->st.reclaimed[file] += reclaimed;
	sim_note_cost(s, file, pageout, scanned - reclaimed);
	return reclaimed;
}

/* One priority step: get_scan_count() through the policy, then shrink_lruvec(). */
static long long shrink_lruvec(struct sim *s, enum vms_reclaimer who, int priority,
			       long long nr_to_reclaim)
{
	struct vms_scan_decision d;
	struct vms_pass_input in;
	long long nr[SIM_NR_LRU], reclaimed = 0, slab = 0;
	unsigned long long den;
	int may_deact[2], may_shrink, lru;

	s->st.passes++;
	pass_input(s, who, priority, &in);
	may_shrink = ask_shrink_slab(s, &in);
	/* shrink_slab() of the pass: the shadow shrinker, against the lruvec's pages */
	if (may_shrink && !s->cfg.keep_shadows)
		sim_shrink_shadows(s, s->cfg.reclaimer == VMS_MEMCG ? lru_total(s) : s->cfg.node_pages);
	may_deact[0] = ask_deactivate(s, &in, 0);
	may_deact[1] = ask_deactivate(s, &in, 1);
	s->activate_once[0] = ask_mapped_once(s, &in, 0);
	s->activate_once[1] = ask_mapped_once(s, &in, 1);
	ask_scan_balance(s, &in, &d);
	s->last_in = in;
	den = d.fraction_anon + d.fraction_file;
	for (lru = 0; lru < SIM_NR_LRU; lru++) {
		int file = lru >= SIM_INACTIVE_FILE;
		long long size = s->list[lru].size >> priority;

		switch (d.balance) {
		case VMS_SCAN_FILE:
			nr[lru] = file ? size : 0;
			break;
		case VMS_SCAN_ANON:
			nr[lru] = file ? 0 : size;
			break;
		case VMS_SCAN_FRACT:
			nr[lru] = den ? (long long)((unsigned long long)size *
						    (file ? d.fraction_file : d.fraction_anon) / den) : 0;
			break;
		default:
			nr[lru] = size;
		}
	}
	while (nr[SIM_INACTIVE_ANON] || nr[SIM_ACTIVE_FILE] || nr[SIM_INACTIVE_FILE]) {
		for (lru = 0; lru < SIM_NR_LRU; lru++) {
			long long n = nr[lru] < SIM_SWAP_CLUSTER ? nr[lru] : SIM_SWAP_CLUSTER;
			int file = lru >= SIM_INACTIVE_FILE;

			if (!n)
				continue;
			nr[lru] -= n;
			if (lru == SIM_ACTIVE_ANON || lru == SIM_ACTIVE_FILE) {
				if (may_deact[file])
					shrink_active(s, lru, n);
			} else {
				reclaimed += shrink_inactive(s, lru, n);
			}
		}
		/* the kernel scales the other lists down here; the simulation stops */
		if (reclaimed >= nr_to_reclaim)
			break;
	}
	/* the tail of shrink_lruvec(): age anon when it can be reclaimed */
	if (swap_free(s) && kl_inactive_is_low(s->list[SIM_INACTIVE_ANON].size,
					       s->list[SIM_ACTIVE_ANON].size))
		shrink_active(s, SIM_ACTIVE_ANON, SIM_SWAP_CLUSTER);
	/*
	 * shrink_slab() after the lists: slab freed counts towards the
	 * reclaim target only for root (node) reclaim (flush_reclaim_state())
	 */
	if (may_shrink)
		slab = sim_shrink_vfs(s, priority);
	return reclaimed + (s->cfg.reclaimer == VMS_MEMCG ? 0 : slab);
}

/* snapshot_refaults(): the activations reclaim saw, for the next cycle's comparison */
static void snapshot_refaults(struct sim *s)
{
	s->snapshot_activate[0] = s->visible_activate[0];
	s->snapshot_activate[1] = s->visible_activate[1];
}

/* do_try_to_free_pages(): priorities 12 -> 0 until @nr_to_reclaim. Return: reclaimed. */
static long long try_to_free(struct sim *s, enum vms_reclaimer who, long long nr_to_reclaim)
{
	long long reclaimed = 0;
	int priority;

	s->st.episodes++;
	/* the recorded share of calls without __GFP_FS, spread evenly */
	s->nofs_credit += s->cfg.nofs_permille;
	s->nofs = s->nofs_credit >= 1000;
	if (s->nofs)
		s->nofs_credit -= 1000;
	for (priority = DEF_PRIORITY; priority >= 0; priority--) {
		reclaimed += shrink_lruvec(s, who, priority, nr_to_reclaim - reclaimed);
		if (reclaimed >= nr_to_reclaim)
			break;
	}
	snapshot_refaults(s);
	s->nofs = 0;
	return reclaimed;
}

/* A kswapd run that reclaimed nothing: restart without cache_trim_mode (6.9+)? */
static int ask_kswapd_retry(struct sim *s)
{
	const struct policy_instance *p = s->cfg.policy;
	struct vms_kswapd_run run = { 0 };

	run.lowest_priority = 1;
	run.runs_since_success = s->kswapd_failures;
	/* the simulated run reclaimed nothing: a cache-trim pass of it failed */
	run.cache_trim_mode_failed = kl_cache_trim_mode(&s->last_in);
	run.last_pass = s->last_in;
	if (p && p->policy->kswapd_retry) {
		int r = p->policy->kswapd_retry(p->priv, &run);

		if (answer_used(s, SIM_Q_KSWAPD_RETRY, r))
			return r;
	}
	return run.cache_trim_mode_failed;	/* the baseline, v6.18 */
}

/*
 * pgdat_balanced() at order 0, on the node's sums: free memory at the high
 * watermark, its boost and the lower zones' reserves for the top zone
 */
static int node_balanced(const struct sim *s)
{
	return node_free(s) >= s->cfg.high_wmark + boost_total(s) + s->cfg.reserve;
}

/*
 * balance_pgdat(): reclaim until free memory reaches the high watermark
 * (and its boost). A run that begins with a boost on a balanced node
 * reclaims the boost in boosted passes (file only, no writeback, priority
 * not below DEF_PRIORITY - 2); on an unbalanced one it drops boosting and
 * reclaims to the boosted watermark. Either way the boost it began with is
 * taken off at its end.
 */
static void kswapd_run(struct sim *s)
{
	long long reclaimed = 0, nr_boost = 0, began[SIM_MAX_ZONES];
	int priority, z;

	s->st.episodes++;
	for (z = 0; z < SIM_MAX_ZONES; z++) {
		began[z] = s->zone_boost[z];
		nr_boost += began[z];
	}
	if (nr_boost)
		s->st.boosted_runs++;
	for (;;) {
		priority = DEF_PRIORITY;
		while (priority >= 1) {
			long long to_reclaim = s->cfg.high_wmark + boost_total(s), r;
			int raise = 1, balanced = node_balanced(s);

			if (!balanced && nr_boost) {
				nr_boost = 0;	/* imbalanced: ignore boosting, restart */
				priority = DEF_PRIORITY;
				continue;
			}
			if (!nr_boost && balanced)
				break;
			if (nr_boost && priority == DEF_PRIORITY - 2)
				raise = 0;	/* boosting stops short of writeback's priorities */
			if (to_reclaim < SIM_SWAP_CLUSTER)
				to_reclaim = SIM_SWAP_CLUSTER;
			s->boost_reclaim = nr_boost;
			r = shrink_lruvec(s, VMS_KSWAPD, priority, to_reclaim);
			s->boost_reclaim = 0;
			reclaimed += r;
			if (nr_boost)
				s->st.boost_reclaimed += r;
			if (r >= to_reclaim)
				raise = 0;	/* kswapd_shrink_node() met its target */
			nr_boost -= nr_boost < r ? nr_boost : r;
			if (nr_boost && !r)
				break;		/* no progress for a boost */
			if (raise || !r)
				priority--;
		}
		if (reclaimed || priority >= 1 || s->no_cache_trim || !s->st.passes ||
		    !ask_kswapd_retry(s))
			break;
		s->st.kswapd_retries++;
		s->no_cache_trim = 1;
	}
	s->no_cache_trim = 0;
	for (z = 0; z < SIM_MAX_ZONES; z++)
		s->zone_boost[z] -= s->zone_boost[z] < began[z] ? s->zone_boost[z] : began[z];
	snapshot_refaults(s);
	if (reclaimed) {
		s->kswapd_failures = 0;
	} else {
		s->kswapd_failures++;
		s->st.kswapd_failures++;
	}
}

void sim_set_node_pages(struct sim *s, long long pages)
{
	if (s->cfg.reclaimer != VMS_MEMCG && pages > 0)
		s->cfg.node_pages = pages;
}

void sim_fallback(struct sim *s, int zone)
{
	long long b;

	if (zone < 0 || zone >= SIM_MAX_ZONES || !s->cfg.boost_max[zone])
		return;
	b = s->zone_boost[zone] + SIM_PAGEBLOCK;
	s->zone_boost[zone] = b < s->cfg.boost_max[zone] ? b : s->cfg.boost_max[zone];
	s->st.boosts++;
	s->boost_wake = 1;
}

/*
 * A charge no reclaim made room for (the kernel would OOM-kill, which the
 * simulation cannot): counted, and the next charges skip reclaim, twice as
 * many after each such charge (up to OOM_SKIP_MAX), until reclaim frees
 * again. Without it, every charge of a full lruvec whose pages reclaim
 * cannot free would rescan them all, 16 times.
 */
#define OOM_SKIP_MAX 65536

static void out_of_memory(struct sim *s)
{
	s->st.over_limit++;
	s->oom_backoff = s->oom_backoff ? s->oom_backoff * 2 : 1;
	if (s->oom_backoff > OOM_SKIP_MAX)
		s->oom_backoff = OOM_SKIP_MAX;
	s->oom_skip = s->oom_backoff;
}

/* Still out of memory from an earlier charge: skip reclaim (counted). */
static int oom_skipped(struct sim *s)
{
	if (s->oom_skip <= 0)
		return 0;
	s->oom_skip--;
	s->st.over_limit++;
	return 1;
}

int sim_charge(struct sim *s)
{
	int retries = MAX_RECLAIM_RETRIES;

	if (s->cfg.reclaimer == VMS_MEMCG) {
		long long batch = s->cfg.charge_batch > 0 ? s->cfg.charge_batch : MEMCG_CHARGE_BATCH;

		if (lru_total(s) + sim_slab_pages(s) + 1 > s->cfg.limit && oom_skipped(s))
			return 0;
		while (lru_total(s) + sim_slab_pages(s) + 1 > s->cfg.limit) {
			if (try_to_free(s, VMS_MEMCG, batch)) {
				s->oom_backoff = 0;
			} else if (--retries <= 0) {
				out_of_memory(s);
				break;
			}
		}
		return 0;
	}
	/* wakeup_kswapd(): below the low watermark, or a boost (even on a balanced node) */
	if ((s->boost_wake ||
	     node_free(s) - 1 < s->cfg.low_wmark + boost_total(s) + s->cfg.reserve) &&
	    s->kswapd_failures < MAX_RECLAIM_RETRIES)
		kswapd_run(s);
	s->boost_wake = 0;
	if (node_free(s) - 1 < s->cfg.min_wmark + boost_total(s) + s->cfg.reserve && oom_skipped(s))
		return 0;
	while (node_free(s) - 1 < s->cfg.min_wmark + boost_total(s) + s->cfg.reserve) {
		if (try_to_free(s, VMS_DIRECT, SIM_SWAP_CLUSTER)) {
			s->kswapd_failures = 0;
			s->oom_backoff = 0;
		} else if (--retries <= 0) {
			out_of_memory(s);
			break;
		}
	}
	return 0;
}
