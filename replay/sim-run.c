// SPDX-License-Identifier: GPL-2.0
/*
 * sim-run.c - one simulation of a recording (`vmscope whatif`): the
 * lruvec starts as the first counter sample shows it, then demand is
 * replayed interval by interval (between counter samples) and the
 * simulator (sim-lru.c, sim-reclaim.c) reclaims as the knobs and the policy
 * make it.
 *
 * Demand, and what it assumes (cmd-whatif.c stores these as assumptions):
 *  - filemap events recorded: each page-cache insertion of the lruvec's
 *    tasks is an access to that (inode, index), a removal outside reclaim is
 *    a truncation. A page the simulation keeps resident becomes a hit; one it
 *    evicted earlier becomes a refault. With the reads and faults recorded
 *    (sim-access.c) an insertion only brings a page in and they are the
 *    uses; a use through a mapping without a fault leaves no event, but in
 *    a file read in sequence, in rounds (sim-sequential.c), where the pages
 *    between two insertions were used. Other hits of the recording left no
 *    event, so a run that keeps less resident misses at least as often as
 *    predicted (the prediction is a lower bound there).
 *  - counters only: per interval, file pages entering the cache are the
 *    growth of the page cache plus the file pages reclaimed; the recorded
 *    refaults among them re-access earlier pages in the order they were
 *    first inserted (a cyclic scan, like a file read in rounds) and the rest
 *    are new pages. Anon likewise: new anon is the growth of anon plus anon
 *    reclaimed, less the anon refaults, which re-access swapped pages in
 *    order. Where the samples have swap use, the anon the workload freed
 *    (sim-swap.c) frees the oldest anon pages first, resident or swapped:
 *    first the swap slots taken at the start. File frees other than the
 *    filemap events' removals are not modelled.
 *  - the demand of an interval is spread evenly over it; the counters reclaim
 *    sees are flushed at each memory.stat sample (the recorder's read makes
 *    the kernel flush) or, for the node, every 2 s.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "replay.h"
#include "sim.h"

#define FILE_INO 1		/* synthetic inode of pages the recording does not name */
#define SLICES 16		/* an interval's demand is spread over this many steps */
#define NODE_FLUSH_NS 2000000000LL	/* FLUSH_TIME: the periodic rstat flush */
#define DENTRY_BYTES 192	/* sizeof(struct dentry), x86_64: the rest of a file's slab is its inode's */

struct cursor {
	long long next, count;	/* next key to re-access, keys created */
	long long first;	/* the oldest key not freed */
};

static int access_new(struct sim *s, uint64_t ino, struct cursor *c)
{
	return sim_access(s, ino, (uint64_t)c->count++) < 0 ? -1 : 0;
}

static int access_again(struct sim *s, uint64_t ino, struct cursor *c)
{
	if (c->first >= c->count)
		return access_new(s, ino, c);
	if (c->next >= c->count || c->next < c->first)
		c->next = c->first;
	return sim_access(s, ino, (uint64_t)c->next++) < 0 ? -1 : 0;
}

/*
 * What the recording had resident (its insertions and evictions, as a set),
 * for the recorded reads and faults (sim-access.c) and for the
 * sequential-access assumption, which also needs per inode the last page
 * the workload used: between two recorded insertions of a file the
 * workload used the pages in between, which were hits in the recording.
 * For the reads and faults: the pages a fault or fault-around mapped (a
 * fault-around maps only the others), and the last faults on pages not
 * resident, whose insertion follows (mm_filemap_fault fires before the
 * lookup).
 */
#define MAX_INODES SIM_SEQ_FILES
#define PENDING_FAULTS 16
#define PENDING_NS 100000000LL	/* a fault's insertion follows it within this */

struct pending_fault {
	uint64_t ino, index;
	long long ts;
};

struct recorded_cache {
	struct sim *resident;		/* a lruvec without a limit, used as a set */
	struct sim *mapped;		/* the same: mapped by a fault or fault-around */
	struct pending_fault pending[PENDING_FAULTS];	/* a ring, the latest faults on misses */
	int next_pending;
	int accesses;			/* the recorded reads and faults are the uses */
	const struct whatif_rec *whole;	/* the recording (its files mapped for random access) */
	int fill_gaps;			/* --assume access=sequential|protected */
	long long used, missed, faulted_in, unknown, mapped_already;	/* pages of the accesses */
	long long gap_used, gap_missed;	/* pages of the gaps filled */
	uint64_t ino[MAX_INODES];
	long long last[MAX_INODES], max[MAX_INODES];	/* last page used, highest seen */
	int n;
	int protect;			/* the pages so used are protected (--assume access=protected) */
	const struct whatif_rec *rec;	/* its exec-mapped ranges protect the pages they cover */
	long long max_gap;		/* pages: twice the lruvec's limit, or the node's pages */
};

static int cache_slot(struct recorded_cache *c, uint64_t ino)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->ino[i] == ino)
			return i;
	if (c->n == MAX_INODES)
		return -1;	/* more files than tracked: no gap filling for the rest */
	c->ino[c->n] = ino;
	c->last[c->n] = c->max[c->n] = -1;
	return c->n++;
}

/* Is a page used between two insertions one the kernel protects (assumed, or exec-mapped)? */
static int protected_page(const struct recorded_cache *c, uint64_t ino, uint64_t index)
{
	return c->protect || (c->rec && whatif_exec_covered(c->rec, ino, index));
}

/*
 * A use between two insertions: with the reads and faults the page is a
 * mapped one (a touch of its PTE); without them, how it was used is not
 * known and it is taken as folio_mark_accessed() (sim_access()).
 */
static int fill_use(struct sim *s, struct recorded_cache *c, uint64_t ino, uint64_t g)
{
	int protect = protected_page(c, ino, g), ret;

	if (c->accesses)
		ret = sim_access_mapped(s, ino, g, protect);
	else
		ret = protect ? sim_access_protected(s, ino, g) : sim_access(s, ino, g);
	c->gap_used++;
	if (ret > SIM_HIT)
		c->gap_missed++;
	return ret;
}

/* The workload used pages @from..@to of @ino: access those the recording had resident. */
static int fill_gap(struct sim *s, struct recorded_cache *c, uint64_t ino, long long from,
		    long long to)
{
	long long g;

	for (g = from; g <= to; g++)
		if (sim_resident(c->resident, ino, (uint64_t)g) &&
		    /* with the reads and faults, only mapped pages have uses no event shows */
		    (!c->accesses || sim_resident(c->mapped, ino, (uint64_t)g)) &&
		    fill_use(s, c, ino, (uint64_t)g) < 0)
			return -1;
	return 0;
}

static int sequential_use(struct sim *s, struct recorded_cache *c, const struct whatif_filemap *f)
{
	long long first = (long long)f->index, end = first + f->pages - 1;
	int i;

	if (whatif_random_file(c->whole, f->ino) ||
	    (!c->whole->sequential && !whatif_sequential_file(c->whole, f->ino)))
		return 0;	/* (a file mapped for random access is not read in sequence) */
	i = cache_slot(c, f->ino);
	if (i < 0)
		return 0;
	/*
	 * a sequential reader's gap (or a round's wrap) spans what the lruvec
	 * keeps resident and what it re-reads: a gap of more than twice its
	 * pages is taken as a jump (random access) and not filled
	 */
	switch (whatif_seq_step(c->last[i], c->max[i], first)) {
	case WHATIF_STEP_FORWARD:
		if (first > c->last[i] + 1 && first - 1 - c->last[i] <= c->max_gap &&
		    fill_gap(s, c, f->ino, c->last[i] + 1, first - 1))
			return -1;
		break;
	case WHATIF_STEP_BACK:	/* readahead's: the reader is still as far as it was */
		if (end > c->last[i])
			c->last[i] = end;
		return 0;
	case WHATIF_STEP_WRAP:	/* a new round: the rest of the file, then its start */
		if (c->max[i] - c->last[i] + first <= c->max_gap &&
		    (fill_gap(s, c, f->ino, c->last[i] + 1, c->max[i]) ||
		     fill_gap(s, c, f->ino, 0, first - 1)))
			return -1;
		break;
	default:
		break;
	}
	c->last[i] = end;
	if (end > c->max[i])
		c->max[i] = end;
	return 0;
}

/*
 * The events a few ahead of @fm, staged (sim_prefetch()): with many files
 * the simulation's records are too many for the cache, and an access would
 * otherwise wait on each of them in turn.
 */
#define PREFETCH_STEP 8
static void prefetch_ahead(const struct sim *s, const struct whatif_rec *r, long fm)
{
	int stage;

	for (stage = 0; stage < 3; stage++) {
		long k = fm + (long)(3 - stage) * PREFETCH_STEP;

		if (k < r->nfm)
			sim_prefetch(s, r->fm[k].ino, r->fm[k].index, stage);
	}
}

/* Was there a fault on this page just before (its insertion now follows)? Takes it. */
static int take_pending_fault(struct recorded_cache *c, uint64_t ino, uint64_t index, long long ts)
{
	int k;

	for (k = 0; k < PENDING_FAULTS; k++) {
		struct pending_fault *p = &c->pending[k];

		if (p->ts != LLONG_MIN && p->ino == ino && p->index == index && p->ts <= ts &&
		    ts - p->ts <= PENDING_NS) {
			p->ts = LLONG_MIN;	/* taken */
			return 1;
		}
	}
	return 0;
}

/* A fault that mapped page @g of @ino: the recording's mapping and the use here. */
static int fault_use(struct sim *s, struct recorded_cache *c, uint64_t ino, uint64_t g)
{
	int ret;

	if (!sim_resident(c->mapped, ino, g) && sim_access(c->mapped, ino, g) < 0)
		return -1;
	if (whatif_random_file(c->whole, ino)) {
		/* a mapping without recency: the young PTE does not count */
		if (sim_resident(s, ino, g))
			return SIM_HIT;
		ret = sim_access(s, ino, g);
		if (ret > SIM_HIT) {
			sim_mark_brought_in(s, ino, g);
			sim_mark_mapped(s, ino, g);
		}
		return ret;
	}
	ret = sim_access_mapped(s, ino, g, c->rec && whatif_exec_covered(c->rec, ino, g));
	if (ret == SIM_HIT)
		sim_mark_mapped(s, ino, g);
	return ret;
}

/*
 * Page @g of an insertion. Without the reads and faults the insertion is
 * the use (the page comes in referenced, as mapped). With them it only
 * brings the page in, not referenced and not mapped, as readahead does;
 * the read or fault that follows uses it (a fault that came just before,
 * once the page is in). A page the simulation has resident already is
 * left to that use.
 */
static int inserted_page(struct sim *s, struct recorded_cache *c, const struct whatif_filemap *f,
			 uint64_t g)
{
	int ret;

	if (c && c->accesses && sim_resident(s, f->ino, g))
		ret = SIM_HIT;
	else
		ret = f->pinned ? sim_access_pinned(s, f->ino, g) :
		      f->written ? sim_access_unmapped(s, f->ino, g) :
		      f->exec ? sim_access_protected(s, f->ino, g) : sim_access(s, f->ino, g);
	if (ret < 0 || !c || !c->accesses)
		return ret;
	if (ret != SIM_HIT)
		sim_mark_brought_in(s, f->ino, g);
	if (take_pending_fault(c, f->ino, g, f->ts)) {
		c->faulted_in++;
		if (fault_use(s, c, f->ino, g) < 0)
			return -1;
	}
	return ret;
}

/* A folio inserted (each of its pages accessed), truncated, or evicted as recorded. */
static int filemap_event(struct sim *s, struct recorded_cache *c, const struct whatif_filemap *f)
{
	int i;

	if (c && c->fill_gaps && !f->removed && sequential_use(s, c, f))
		return -1;
	for (i = 0; i < f->pages; i++) {
		uint64_t g = f->index + (uint64_t)i;

		if (c && f->removed) {
			sim_remove(c->resident, f->ino, g);
			if (c->mapped)
				sim_remove(c->mapped, f->ino, g);
		} else if (c && sim_access(c->resident, f->ino, g) < 0) {
			return -1;
		}
		if (f->removed == 1)
			sim_remove(s, f->ino, g);
		else if (!f->removed && inserted_page(s, c, f, g) < 0)
			return -1;
	}
	return 0;
}

/*
 * A recorded read, fault or fault-around (sim-access.c): each page of it
 * the recording had resident is used: a hit there, and here a hit, or, if
 * the simulation evicted the page, a miss that brings it in again. A read
 * leaves a page it brings in unmapped; a fault maps it.
 */
static int access_event(struct sim *s, struct recorded_cache *c, const struct whatif_access *a)
{
	int i, ret;

	for (i = 0; i < a->pages; i++) {
		uint64_t g = a->index + (uint64_t)i;

		if (!sim_resident(c->resident, a->ino, g)) {
			if (a->kind == WHATIF_FAULT) {	/* a miss: its insertion follows */
				struct pending_fault *p = &c->pending[c->next_pending];

				p->ino = a->ino;
				p->index = g;
				p->ts = a->ts;
				c->next_pending = (c->next_pending + 1) % PENDING_FAULTS;
			} else {
				c->unknown++;	/* not read in yet, or another lruvec's page */
			}
			continue;
		}
		if (a->kind == WHATIF_FAULT_AROUND && sim_resident(c->mapped, a->ino, g)) {
			c->mapped_already++;	/* fault-around maps only pages not mapped */
			continue;
		}
		c->used++;
		ret = a->kind == WHATIF_READ ? sim_access_unmapped(s, a->ino, g) : fault_use(s, c, a->ino, g);
		if (ret < 0)
			return -1;
		if (ret != SIM_HIT)
			c->missed++;
	}
	return 0;
}

static int populate(struct sim *s, const struct whatif_sample *a, struct cursor *file,
		    struct cursor *anon)
{
	/* the inactive pages are the older ones: they come first in the cyclic order */
	if (sim_populate(s, SIM_INACTIVE_FILE, FILE_INO, 0, a->lru[SIM_INACTIVE_FILE]) ||
	    sim_populate(s, SIM_ACTIVE_FILE, FILE_INO, a->lru[SIM_INACTIVE_FILE],
			 a->lru[SIM_ACTIVE_FILE]) ||
	    sim_populate(s, SIM_INACTIVE_ANON, SIM_ANON_INO, 0, a->lru[SIM_INACTIVE_ANON]) ||
	    sim_populate(s, SIM_ACTIVE_ANON, SIM_ANON_INO, a->lru[SIM_INACTIVE_ANON],
			 a->lru[SIM_ACTIVE_ANON]))
		return -1;
	file->count = a->lru[SIM_INACTIVE_FILE] + a->lru[SIM_ACTIVE_FILE];
	anon->count = a->lru[SIM_INACTIVE_ANON] + a->lru[SIM_ACTIVE_ANON];
	return 0;
}

static long long nonneg(long long v)
{
	return v > 0 ? v : 0;
}

#define NDEMAND 5	/* file new, file again, anon new, anon again, anon freed */

static void config(const struct whatif_rec *r, const long long knob[K_NKNOBS],
		   struct policy_instance *policy, struct sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->policy = policy;
	cfg->swap_pages = r->swap_pages;
	/* counter demand names made-up pages, not file offsets: no xarray nodes to trim */
	cfg->keep_shadows = !r->fm;
	if (r->memcg) {
		cfg->reclaimer = VMS_MEMCG;
		cfg->limit = knob[K_MEMCG_LIMIT] - r->nonlru;
		cfg->swappiness = (int)(r->cgroup_v1 ? knob[K_MEMCG_SWAPPINESS] : knob[K_VM_SWAPPINESS]);
		cfg->charge_batch = r->charge_batch;
		if (r->vfs) {
			cfg->vfs = 1;
			cfg->vfs_pressure = knob[K_VFS_CACHE_PRESSURE];
			cfg->vfs_denom = r->vfs_denom;
			cfg->dentry_bytes = DENTRY_BYTES;
			cfg->inode_bytes = r->file_bytes > 2 * DENTRY_BYTES ?
					   r->file_bytes - DENTRY_BYTES : DENTRY_BYTES;
			cfg->slab_base = r->smp[0].kmem;
			cfg->nofs_permille = r->nofs_permille;
		}
		return;
	}
	cfg->reclaimer = VMS_KSWAPD;
	cfg->node_pages = r->node_pages;
	cfg->swappiness = (int)knob[K_VM_SWAPPINESS];
	if (knob[K_MIN_FREE_KBYTES] == r->knob[K_MIN_FREE_KBYTES].v &&
	    knob[K_WATERMARK_SCALE] == r->knob[K_WATERMARK_SCALE].v) {
		cfg->min_wmark = r->wmark[0];
		cfg->low_wmark = r->wmark[1];
		cfg->high_wmark = r->wmark[2];
	} else {
		long long wm[3];

		whatif_watermarks(r, knob[K_MIN_FREE_KBYTES], knob[K_WATERMARK_SCALE], wm);
		cfg->min_wmark = wm[0];
		cfg->low_wmark = wm[1];
		cfg->high_wmark = wm[2];
	}
	if (r->fallback_recorded)
		whatif_boost_max(r, knob[K_WATERMARK_BOOST], cfg->high_wmark, cfg->boost_max);
	cfg->reserve = r->reserve;
}

/* Node: the pages the LRU lists and free memory shared at sample @a (the rest follows the recording). */
static long long node_avail(const struct whatif_sample *a)
{
	return a->free + a->lru[0] + a->lru[1] + a->lru[2] + a->lru[3];
}

/* Free the oldest anon page: a swap slot held from the start, else the oldest key. */
static void free_anon(struct sim *s, struct cursor *anon, long long *held)
{
	if (*held > 0) {
		(*held)--;
		sim_hold_swap(s, -1);
	} else if (anon->first < anon->count) {
		sim_remove(s, SIM_ANON_INO, (uint64_t)anon->first++);
	}
}

/* The demand of one interval from counters: file cold/again, anon new/again/freed. */
static void interval_demand(const struct whatif_rec *r, const struct whatif_sample *a,
			    const struct whatif_sample *b, long long n[NDEMAND])
{
	long long file_in = b->file - a->file + b->reclaimed[1] - a->reclaimed[1];
	long long rf = nonneg(b->refault[1] - a->refault[1]), ra = nonneg(b->refault[0] - a->refault[0]);

	if (r->fm) {
		n[0] = n[1] = 0;	/* file demand comes from the filemap events */
	} else {
		n[1] = rf;
		n[0] = nonneg(file_in - rf);
	}
	n[3] = ra;
	n[2] = whatif_anon_new(a, b);
	n[4] = b->freed;
}

int whatif_simulate(const struct whatif_rec *r, const long long knob[K_NKNOBS],
		    struct policy_instance *policy, double out[M_NMETRICS],
		    struct whatif_point **series, long *npoints, struct sim_stats *stats)
{
	struct cursor file = { 0, 0, 0 }, anon = { 0, 0, 0 };
	struct whatif_point *pts = calloc(r->nsmp, sizeof(*pts));
	const struct sim_stats *st;
	long long last_flush = r->smp[0].ts;
	struct recorded_cache *rc_cache = NULL;
	struct sim_config cfg;
	struct sim *s = NULL;
	long long held = 0;	/* swap slots taken at the start, by pages the simulation lacks */
	long i, fm = 0, fb = 0, ac = 0;
	int use_acc = r->fm && r->nacc && !r->acc_off;
	int rc = -1;

	*series = NULL;
	*npoints = 0;
	config(r, knob, policy, &cfg);
	if (!pts) {
		vms_error("out of memory");
		goto out;
	}
	s = sim_new(&cfg);
	if (!s || populate(s, &r->smp[0], &file, &anon))
		goto out;
	if (r->has_swap) {
		held = nonneg(r->smp[0].swap - r->smp[0].swapcached);
		sim_hold_swap(s, held);
	}
	if (r->fm && (r->sequential || r->nseq || use_acc)) {
		struct sim_config set = { .reclaimer = VMS_MEMCG, .limit = LLONG_MAX };

		rc_cache = calloc(1, sizeof(*rc_cache));
		if (!rc_cache || !(rc_cache->resident = sim_new(&set)) ||
		    (use_acc && !(rc_cache->mapped = sim_new(&set)))) {
			vms_error("out of memory");
			goto out;
		}
		rc_cache->fill_gaps = r->sequential || r->nseq;
		rc_cache->accesses = use_acc;
		for (i = 0; i < PENDING_FAULTS; i++)
			rc_cache->pending[i].ts = LLONG_MIN;	/* empty */
		rc_cache->whole = r;
		rc_cache->protect = r->protect;
		rc_cache->rec = r->use_exec ? r : NULL;
		rc_cache->max_gap = 2 * (cfg.reclaimer == VMS_MEMCG ? cfg.limit : cfg.node_pages);
	}
	st = sim_stats(s);
	while (fm < r->nfm && r->fm[fm].ts <= r->smp[0].ts)
		fm++;
	while (fb < r->nfallback && r->fallback[fb].ts <= r->smp[0].ts)
		fb++;
	while (use_acc && ac < r->nacc && r->acc[ac].ts <= r->smp[0].ts)
		ac++;
	for (i = 1; i < r->nsmp; i++) {
		const struct whatif_sample *a = &r->smp[i - 1], *b = &r->smp[i];
		long long n[NDEMAND], done[NDEMAND] = { 0, 0, 0, 0, 0 };
		int sl, k;

		interval_demand(r, a, b, n);
		for (sl = 1; sl <= SLICES; sl++) {
			long long until = a->ts + (b->ts - a->ts) * sl / SLICES;

			if (!r->memcg && a->free && b->free)
				sim_set_node_pages(s, node_avail(a) + (node_avail(b) - node_avail(a)) *
						      sl / SLICES);
			for (; fb < r->nfallback && r->fallback[fb].ts <= until; fb++)
				sim_fallback(s, r->fallback[fb].zone);
			for (;;) {	/* the insertions and removals, and the accesses, in time order */
				int f_due = fm < r->nfm && r->fm[fm].ts <= until;
				int a_due = use_acc && ac < r->nacc && r->acc[ac].ts <= until;

				if (f_due && (!a_due || r->fm[fm].ts <= r->acc[ac].ts)) {
					prefetch_ahead(s, r, fm);
					if (filemap_event(s, rc_cache, &r->fm[fm++]))
						goto out;
				} else if (a_due) {
					if (access_event(s, rc_cache, &r->acc[ac++]))
						goto out;
				} else {
					break;
				}
			}
			for (k = 0; k < 4; k++) {
				long long upto = n[k] * sl / SLICES;

				for (; done[k] < upto; done[k]++) {
					int e = k == 0 ? access_new(s, FILE_INO, &file) :
						k == 1 ? access_again(s, FILE_INO, &file) :
						k == 2 ? access_new(s, SIM_ANON_INO, &anon) :
							 access_again(s, SIM_ANON_INO, &anon);

					if (e)
						goto out;
				}
			}
		}
		/* the frees last: net of the interval, they may be its allocations' (an exit) */
		for (; done[4] < n[4]; done[4]++)
			free_anon(s, &anon, &held);
		if (r->memcg || b->ts - last_flush >= NODE_FLUSH_NS) {
			sim_flush(s);
			last_flush = b->ts;
		}
		pts[i].ts = b->ts;
		pts[i].refault_file = st->refault[1];
		pts[i].reclaimed_file = st->reclaimed[1];
		pts[i].reclaimed_anon = st->reclaimed[0];
		for (k = 0; k < SIM_NR_LRU; k++)
			pts[i].lru[k] = sim_lru_size(s, k);
	}
	pts[0].ts = r->smp[0].ts;
	for (i = 0; i < SIM_NR_LRU; i++)
		pts[0].lru[i] = r->smp[0].lru[i];
	out[M_REFAULT_FILE] = st->refault[1];
	out[M_REFAULT_ANON] = st->refault[0];
	out[M_RECLAIMED_FILE] = st->reclaimed[1];
	out[M_RECLAIMED_ANON] = st->reclaimed[0];
	out[M_SWAPOUT] = st->swapout;
	out[M_EPISODES] = st->episodes;
	out[M_SECONDS] = (st->scanned[0] + st->scanned[1]) * r->ns_per_scanned / 1e9;
	out[M_KSWAPD_FAILURES] = st->kswapd_failures;
	if (stats) {
		*stats = *st;
		if (rc_cache) {
			stats->access_used = rc_cache->used;
			stats->access_missed = rc_cache->missed;
			stats->access_faulted_in = rc_cache->faulted_in;
			stats->access_unknown = rc_cache->unknown;
			stats->access_mapped = rc_cache->mapped_already;
			stats->gap_used = rc_cache->gap_used;
			stats->gap_missed = rc_cache->gap_missed;
		}
	}
	*series = pts;
	*npoints = r->nsmp;
	pts = NULL;
	rc = 0;
out:
	if (rc_cache) {
		sim_free(rc_cache->resident);
		sim_free(rc_cache->mapped);
	}
	free(rc_cache);
	free(pts);
	sim_free(s);
	return rc;
}
