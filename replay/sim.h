/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - the forward simulation of reclaim behind `vmscope whatif`
 * (replay/sim-*.c): one reclaimed lruvec (a memcg, or a node) with the four
 * LRU lists, its limit or watermarks, swap space and the workingset state,
 * driven by demand (page accesses) and reclaiming as the kernel enters
 * reclaim, each pass decided by a replay policy (vms-policy.h hooks).
 * Layers: sim-lru.c (pages, lists, workingset) and sim-reclaim.c (reclaim)
 * are the simulator and know nothing of databases; sim-recording.c reads
 * what a recording gives a simulation, sim-run.c drives one simulation of a
 * recording; replay/cmd-whatif.c is the command on top.
 *
 * Invariants:
 *  - A page is a key (ino, index); anon pages use ino SIM_ANON_INO. A key is
 *    resident (on one LRU list) or not; a non-resident key may carry a shadow
 *    entry (the lruvec's nonresident age at its eviction), kept forever.
 *  - Counters in struct sim_stats only grow.
 *
 * Protocol:
 *  1. sim_new() with a struct sim_config (limit or watermarks, swap, policy).
 *  2. sim_populate() for the pages resident when the recording starts.
 *  3. For each demand event in time order: sim_access() (a page is used: a
 *     hit, or a miss that charges and may reclaim first), sim_remove() (a
 *     page truncated or freed), sim_flush() (the kernel's counter flush, after
 *     which reclaim sees the refaults counted so far).
 *  4. sim_stats(), sim_lru_size(); sim_free().
 */
#ifndef VMS_SIM_H
#define VMS_SIM_H

#include <stdint.h>

#include "vms-policy.h"

struct policy_instance;

#define SIM_ANON_INO UINT64_MAX	/* the key space of anon pages */
#define SIM_SWAP_CLUSTER 32	/* SWAP_CLUSTER_MAX */
#define SIM_MAX_ZONES 8
#define SIM_PAGEBLOCK 512	/* pageblock_nr_pages (x86-64: order 9) */

enum sim_lru { SIM_INACTIVE_ANON, SIM_ACTIVE_ANON, SIM_INACTIVE_FILE, SIM_ACTIVE_FILE, SIM_NR_LRU };

/* What an access found. */
enum sim_access {
	SIM_HIT,		/* resident */
	SIM_COLD,		/* never seen (or removed): first use */
	SIM_REFAULT,		/* shadow found, distance too long: inserted inactive */
	SIM_REFAULT_ACTIVE,	/* shadow found within the workingset size: activated */
};

struct sim_config {
	enum vms_reclaimer reclaimer;	/* VMS_MEMCG: the limit; otherwise node watermarks */
	long long limit;		/* VMS_MEMCG: pages the LRU lists may hold */
	long long node_pages;		/* node: pages the LRU lists and free memory share */
	long long min_wmark, low_wmark, high_wmark;	/* node: pages (sum over zones) */
	long long reserve;		/* node: pages the lower zones keep back (lowmem_reserve):
					 * added to the watermarks in the checks, not to kswapd's target */
	long long swap_pages;		/* swap space for this lruvec (0: none) */
	int swappiness;			/* 0..200 */
	long long charge_batch;		/* pages a memcg reclaim call asks for (0: 64, MEMCG_CHARGE_BATCH) */
	struct policy_instance *policy;	/* NULL: the baseline v6.18 for every hook */
	int keep_shadows;		/* no shadow shrinker (keys that are not file offsets) */
	/*
	 * The vfs model (sim-vfs.c), 0: off: each file inode the demand
	 * names is a dentry and an inode in slab, charged with the pages
	 * (memcg: against the limit), and each reclaim pass runs the
	 * superblock shrinker at vfs_pressure / vfs_denom.
	 */
	int vfs;
	long long vfs_pressure, vfs_denom;	/* vm.vfs_cache_pressure, _denom */
	long long dentry_bytes, inode_bytes;	/* slab per object */
	long long slab_base;		/* pages of slab at the start (not modelled objects) */
	int nofs_permille;		/* memcg reclaim calls without __GFP_FS, per 1000 */
	/*
	 * node: watermark boosting (boost_watermark()): a fallback in zone z
	 * raises that zone's boost by a pageblock, up to boost_max[z] pages
	 * (0: not boosted: vm.watermark_boost_factor 0, or a small zone)
	 */
	long long boost_max[SIM_MAX_ZONES];
};

/*
 * The questions a simulation puts to a policy (struct vms_policy's hooks),
 * and how often the policy answered undecidable there: the baseline's
 * (v6.18) answer was used instead.
 */
enum sim_question { SIM_Q_DEACTIVATE, SIM_Q_SCAN_BALANCE, SIM_Q_KSWAPD_RETRY, SIM_Q_MAPPED_ONCE,
		    SIM_Q_SHRINK_SLAB, SIM_NQ };
extern const char *const sim_question_names[SIM_NQ];
struct sim_policy_use {
	long long asked[SIM_NQ], undecidable[SIM_NQ];
};

struct sim_stats {
	long long refault[2];		/* [file]: shadow entries found (workingset_refault_*) */
	long long activate[2];		/* refaults within the distance (workingset_activate_*) */
	long long restore[2];		/* refaults of pages that were active (workingset_restore_*) */
	long long hits[2], cold[2];	/* accesses that found the page resident / never seen */
	long long scanned[2], reclaimed[2];	/* inactive pages scanned, reclaimed (by type) */
	long long deactivated[2];	/* active pages moved to the inactive list */
	long long swapout;		/* anon pages written to swap */
	long long episodes;		/* reclaim calls (memcg charge, direct) and kswapd runs */
	long long passes;		/* priority steps */
	long long kswapd_failures;	/* kswapd runs that reclaimed nothing */
	long long kswapd_retries;	/* failed runs the policy restarted without cache_trim_mode */
	long long boosts;		/* fallbacks that raised a zone's watermark boost */
	long long boosted_runs;		/* kswapd runs that began with a boost */
	long long boost_reclaimed;	/* pages they reclaimed in boosted (file-only) passes */
	long long over_limit;		/* charges that found nothing to reclaim (OOM in the kernel),
					 * and those after it that skipped reclaim (sim-reclaim.c) */
	long long shadows_dropped;	/* shadow entries freed by the shadow shrinker */
	long long activated_once[2];	/* referenced once at an inactive scan, activated (mapped_once) */
	long long vfs_freed[2];		/* the vfs model: [0] dentries, [1] inodes freed by the shrinker */
	long long vfs_scanned;		/* objects its shrinker scanned */
	long long inodesteal;		/* shadow entries cleared with their inodes (pginodesteal) */
	long long slab_max;		/* the most slab pages charged */
	/* the recorded reads and faults (sim-run.c, sim-access.c), in pages */
	long long access_used;		/* used pages the recording had resident: hits, or misses here */
	long long access_missed;	/* of those, not resident here: brought in again */
	long long access_faulted_in;	/* pages a fault missed, used once their insertion came */
	long long access_unknown;	/* not in the recording's cache as its events show it: left out */
	long long access_mapped;	/* in a fault-around window but mapped already: left out */
	long long gap_used;		/* pages access=sequential filled in: used, hits in the recording */
	long long gap_missed;		/* of those, not resident here: brought in again */
	struct sim_policy_use use;	/* how the policy's answers were used */
};

struct sim;

/* Return: a simulation (caller frees with sim_free()), or NULL with vms_error set. */
struct sim *sim_new(const struct sim_config *cfg);
void sim_free(struct sim *s);
/*
 * Put @n pages of keys (@ino, @first_index ...) resident on @lru, without
 * charging or counting (the state the recording starts in). Return: 0 or -1.
 */
int sim_populate(struct sim *s, enum sim_lru lru, uint64_t ino, uint64_t first_index, long long n);
/*
 * The workload uses page (@ino, @index): a hit marks it accessed
 * (folio_mark_accessed), a miss charges a page (reclaiming first when over
 * the limit or below the watermark) and inserts it, activated when its
 * shadow's refault distance is within the workingset size.
 * Return: enum sim_access, or -1 (out of memory, vms_error set).
 */
int sim_access(struct sim *s, uint64_t ino, uint64_t index);
/*
 * Page (@ino, @index) is accessed soon: bring what its access reads into
 * the cache, in three stages called in order a few accesses apart (the
 * index, the page, its xarray node and file). Only a hint.
 */
void sim_prefetch(const struct sim *s, uint64_t ino, uint64_t index, int stage);
/*
 * sim_access() of a page the recording kept resident while the workload used
 * it (a hit there): the page is marked as one the kernel protects (as it
 * does exec-mapped pages: activated at its first referenced scan, kept on the
 * active list when referenced). Return: as sim_access().
 */
int sim_access_protected(struct sim *s, uint64_t ino, uint64_t index);
/*
 * The workload touches page (@ino, @index) through a mapping (a fault, a
 * fault-around, a use the recording shows none of): a hit only sets the
 * PTE's young bit, which reclaim reads (folio_referenced()); unlike
 * sim_access() it does not activate the page (no folio_mark_accessed() on
 * a mapped access). A miss is sim_access(), or sim_access_protected() when
 * @protect, which a hit also marks. Return: as sim_access().
 */
int sim_access_mapped(struct sim *s, uint64_t ino, uint64_t index, int protect);
/*
 * sim_access() that does not map the page: write(2) (the recording dirtied
 * it) or read(2) (mm_filemap_get_pages). A page it brings in is not
 * mapped, so folio_check_references() reclaims it at its first inactive
 * scan though referenced (FOLIOREF_RECLAIM_CLEAN; it is taken as clean); a
 * hit leaves a mapped page mapped. Return: as sim_access().
 */
int sim_access_unmapped(struct sim *s, uint64_t ino, uint64_t index);
/* A page just brought in by an insertion, not used yet: not referenced, not mapped. */
void sim_mark_brought_in(struct sim *s, uint64_t ino, uint64_t index);
/* A resident page is mapped now (a fault on it, its fault-around). */
void sim_mark_mapped(struct sim *s, uint64_t ino, uint64_t index);
/*
 * sim_access() of a page something else holds a reference on (a pipe, a
 * pinned buffer): an inactive scan cannot free it (__remove_mapping()'s
 * reference count check fails) and puts it back on the inactive list.
 * Return: as sim_access().
 */
int sim_access_pinned(struct sim *s, uint64_t ino, uint64_t index);
/*
 * An allocation fell back to another migratetype's pageblock in zone
 * @zone (node reclaim, mm_page_alloc_extfrag): the zone's watermarks are
 * boosted (cfg.boost_max) and kswapd is woken at the next allocation.
 */
void sim_fallback(struct sim *s, int zone);
/*
 * Node reclaim: the LRU lists and free memory now share @pages (memory
 * outside the LRU lists changed by the difference). Reclaim waits for the
 * next charge, as the kernel's waits for the next allocation.
 */
void sim_set_node_pages(struct sim *s, long long pages);
/* Page (@ino, @index) is truncated or freed: off its list, no shadow. */
void sim_remove(struct sim *s, uint64_t ino, uint64_t index);
/* The kernel flushed its counters: reclaim now sees the activations counted so far. */
void sim_flush(struct sim *s);
/* Is (@ino, @index) resident? */
int sim_resident(const struct sim *s, uint64_t ino, uint64_t index);
long long sim_lru_size(const struct sim *s, enum sim_lru lru);
/* Pages of swap in use. */
long long sim_swap_used(const struct sim *s);
/* @pages swap slots taken (freed, if negative) by pages the simulation does not hold. */
void sim_hold_swap(struct sim *s, long long pages);
/* Pages of slab charged (the vfs model; its slab_base otherwise). */
long long sim_slab_pages(const struct sim *s);
/* Return: the counters; must *not* be freed. */
const struct sim_stats *sim_stats(const struct sim *s);

/* --- internal to replay/sim-*.c: the state of one simulated lruvec --- */

#define SIM_NONE (-1)

/* sim-index.c: records found by two 64-bit keys, which each record starts with */
struct sim_keyed {
	uint64_t a, b;
};

struct sim_index {
	int32_t *slot;			/* record numbers, SIM_NONE empty */
	long long size;			/* a power of two */
};

/* Record @id of the array @base (records of @stride bytes) by its keys, or SIM_NONE. */
int32_t sim_index_find(const struct sim_index *ix, const void *base, size_t stride, uint64_t a,
		       uint64_t b);
/* Index record @id (records 0..@id-1 are indexed). Return: 0 or -1 (vms_error set). */
int sim_index_add(struct sim_index *ix, const void *base, size_t stride, int32_t id);
/*
 * Hints that key (@a, @b) is looked up soon: where its search starts
 * (stage 0), then the record found there (stage 1, once the start is in
 * the cache). Either may miss; neither changes anything.
 */
void sim_index_prefetch(const struct sim_index *ix, const void *base, size_t stride, uint64_t a,
			uint64_t b, int stage);
void sim_index_release(struct sim_index *ix);

struct sim_page {
	uint64_t ino, index;		/* the key (first: struct sim_keyed) */
	int64_t shadow;			/* nonresident age at eviction; -1: no shadow */
	int32_t prev, next;		/* LRU list links (slot numbers), SIM_NONE at the ends */
	int8_t lru;			/* enum sim_lru, or SIM_NONE when not resident */
	uint8_t referenced;		/* used since it was last scanned (young pte / PG_referenced) */
	uint8_t workingset;		/* PG_workingset: was active (kept in the shadow too) */
	uint8_t kept;			/* kept once by an inactive scan for being referenced */
	uint8_t protect;		/* the kernel protected it (kept resident while used) */
	uint8_t unmapped;		/* brought in by a write or read, not mapped (sim_access_unmapped()) */
	uint8_t pinned;			/* held by another reference: reclaim keeps it (sim_access_pinned()) */
	int32_t node;			/* its xarray node (struct sim_xnode) */
};

/*
 * A node of the page cache's xarray: 64 consecutive indexes of one inode
 * (anon: of the swap space), with how many of its pages are resident and
 * how many are shadow entries. A node holding shadows only is on the
 * shadow-node list (oldest first), which the shadow shrinker trims.
 */
#define SIM_XA_SHIFT 6			/* XA_CHUNK_SHIFT */

struct sim_xnode {
	uint64_t ino, base;		/* the key: base = index >> SIM_XA_SHIFT (first: struct sim_keyed) */
	int32_t resident, shadows;
	int32_t prev, next;		/* on the shadow-node list, else SIM_NONE (and not listed) */
	int32_t inode;			/* its struct sim_inode (vfs model), else SIM_NONE */
	int8_t listed;
};

/*
 * The vfs model's file: a dentry and an inode (sim-vfs.c). While the
 * dentry lives it is on the dentry LRU and pins the inode; once it is
 * pruned the inode is on the inode LRU when the kernel's
 * mapping_shrinkable() would say so (no page resident, and no shadow
 * but one at index 0, which the xarray keeps in its head), else parked
 * until it is.
 */
enum sim_vfs_state { SIM_VFS_FREED, SIM_VFS_DENTRY, SIM_VFS_PARKED, SIM_VFS_INODE_LRU };

struct sim_inode {
	uint64_t ino, zero;		/* the key (first: struct sim_keyed) */
	long long resident, shadows;	/* pages of its cache */
	uint64_t max_index;		/* the highest index it ever had */
	int32_t slot0;			/* the page slot of index 0, or SIM_NONE */
	int32_t prev, next;		/* on the dentry or the inode LRU (head: the oldest) */
	int8_t state;			/* enum sim_vfs_state */
	uint8_t referenced;		/* DCACHE_REFERENCED: used again since the last scan */
};

struct sim_list {
	int32_t head, tail;		/* head: most recently added; reclaim takes the tail */
	long long size;
};

struct sim {
	struct sim_config cfg;
	struct sim_page *page;		/* slots; a key keeps its slot for ever */
	long long npages;
	int alloc;			/* slots allocated (vms_array_reserve) */
	struct sim_index page_ix;	/* pages by (ino, index) */
	struct sim_xnode *xnode;	/* xarray nodes; a node keeps its number for ever */
	long long nxnode;
	int xalloc;
	struct sim_index xnode_ix;	/* xarray nodes by (ino, base) */
	int32_t shadow_head, shadow_tail;	/* shadow-only nodes: head the oldest */
	long long shadow_nodes;		/* on that list */
	long long shadow_deferred;	/* shadow shrinker work deferred (less than a batch) */
	struct sim_list list[SIM_NR_LRU];
	long long swap_used;
	int64_t nonresident_age;	/* lruvec->nonresident_age (evictions + activations) */
	long long visible_activate[2];	/* activations as of the last counter flush */
	long long snapshot_activate[2];	/* lruvec->refaults[]: at the end of the last reclaim */
	long long cost[2];		/* lruvec->anon_cost, file_cost */
	int kswapd_failures;		/* node: consecutive failed kswapd runs */
	long long oom_skip, oom_backoff;	/* charges left to skip reclaim after an OOM, and the next skip */
	int no_cache_trim;		/* kswapd's retry sweep (6.9+ sc->no_cache_trim_mode) */
	int activate_once[2];		/* this pass: a page referenced once is activated (mapped_once) */
	struct vms_pass_input last_in;	/* inputs of the last pass, for kswapd_retry */
	long long zone_boost[SIM_MAX_ZONES];	/* node: zone->watermark_boost */
	int boost_wake;			/* ZONE_BOOSTED_WATERMARK: wake kswapd at the next allocation */
	long long boost_reclaim;	/* balance_pgdat()'s nr_boost_reclaim in the running pass */
	struct sim_inode *inode;	/* the vfs model's files; a file keeps its number */
	long long ninode;
	int ialloc;
	struct sim_index inode_ix;	/* files by (ino, 0) */
	struct sim_list vlru[2];	/* [0] dentry LRU, [1] inode LRU (head: the oldest) */
	long long vfs_bytes;		/* slab of the live dentries and inodes */
	long long vfs_deferred;		/* the superblock shrinker's deferred work */
	int nofs;			/* this reclaim call lacks __GFP_FS: no fs shrinking */
	int nofs_credit;		/* spreads the nofs share over the calls (per 1000) */
	struct sim_stats st;
};

/* sim-xarray.c, for sim-lru.c */
/* The node of (@ino, @index), made when new. Return: its number, or SIM_NONE (vms_error set). */
int32_t sim_xnode_get(struct sim *s, uint64_t ino, uint64_t index);
/* Node @id gains (or loses, negative) @resident pages and @shadows shadow entries. */
void sim_xnode_account(struct sim *s, int32_t id, int resident, int shadows);

/* sim-lru.c, for sim-xarray.c: the slot of a key, or SIM_NONE */
int32_t sim_slot_find(const struct sim *s, uint64_t ino, uint64_t index);

/* sim-vfs.c, for sim-lru.c and sim-xarray.c */
/*
 * The file of the page in @slot, about to be charged: made, or its dentry
 * used again; its xarray node learns the file's number. Return: 0 or -1.
 */
int sim_vfs_use(struct sim *s, int32_t slot);
/* The number of file @ino in the vfs model, or SIM_NONE. */
int32_t sim_vfs_find(const struct sim *s, uint64_t ino);
/* File @id gained (negative: lost) @resident pages and @shadows shadow entries. */
void sim_vfs_account(struct sim *s, int32_t id, long long resident, long long shadows);
/* Can the shadow shrinker see file @id's shadows (not in the xarray's head)? */
int sim_vfs_shadows_in_nodes(const struct sim *s, int32_t id);
void sim_vfs_release(struct sim *s);
/* sim-vfs.c, for sim-reclaim.c: super_cache_scan() of a pass at @priority. Return: slab pages freed. */
long long sim_shrink_vfs(struct sim *s, int priority);

/* sim-lru.c, for sim-reclaim.c */
void sim_list_del(struct sim *s, int32_t slot);
void sim_list_add(struct sim *s, int32_t slot, enum sim_lru lru);
/* Evict @slot (resident): off its list, shadow = the aged nonresident counter. */
void sim_evict(struct sim *s, int32_t slot);
/*
 * The shadow shrinker (mm/workingset.c, seeks 0: half the excess per call):
 * shadow-only nodes beyond one per 8 pages of @pages are freed, oldest first,
 * with every shadow entry in them. Return: shadow entries dropped.
 */
long long sim_shrink_shadows(struct sim *s, long long pages);

/* sim-reclaim.c, for sim-lru.c */
/* Make room for one page about to be charged (memcg limit, or watermarks). Return: 0. */
int sim_charge(struct sim *s);
/* 6.2+ lru_note_cost(): @nr_io pages of IO, @nr_rotated pages put back. */
void sim_note_cost(struct sim *s, int file, long long nr_io, long long nr_rotated);

/* --- sim-recording.c: what a recording gives a simulation --- */

struct vms_window;

/* The knobs whatif can change (--set) or be told (--assume). */
enum whatif_knob {
	K_VM_SWAPPINESS, K_MEMCG_SWAPPINESS, K_MEMCG_LIMIT, K_WATERMARK_SCALE, K_WATERMARK_BOOST,
	K_VFS_CACHE_PRESSURE, K_MIN_FREE_KBYTES, K_NKNOBS
};

/* The outcome metrics, in the order of the outcome table. */
enum whatif_metric {
	M_REFAULT_FILE, M_REFAULT_ANON, M_RECLAIMED_FILE, M_RECLAIMED_ANON, M_SWAPOUT,
	M_EPISODES, M_SECONDS, M_KSWAPD_FAILURES, M_NMETRICS
};

extern const char *const whatif_knob_names[K_NKNOBS];
extern const char *const whatif_metric_names[M_NMETRICS];

struct whatif_value {
	long long v;
	int known;
	const char *source;		/* static text: where the value comes from */
};

/* One counter sample of the lruvec, and the recorded reclaim up to it. */
struct whatif_sample {
	long long ts;			/* ns */
	long long lru[SIM_NR_LRU];	/* pages */
	long long file, anon;		/* pages charged: page cache, anon (rss) */
	long long refault[2];		/* cumulative workingset_refault_anon/_file */
	long long reclaimed[2];		/* recorded reclaim (events) up to ts, cumulative */
	long long kmem;			/* memcg: kernel memory charged (v1 kmem, v2 slab), pages */
	long long free;			/* node: free pages (vmstat nr_free_pages) */
	long long swap, swapcached;	/* swap slots in use, pages in the swap cache (sim-swap.c) */
	long long freed;		/* anon the workload freed, at the end of the interval to here */
};

/* A page-cache insertion or removal of the lruvec's tasks (filemap events). */
#define SIM_SEQ_FILES 64		/* files followed for their sequence, at most */

struct whatif_filemap {
	long long ts;
	uint64_t ino, index;		/* the first page of the folio */
	int pages;			/* of the folio (1 << order) */
	int8_t removed;			/* 0 inserted, 1 deleted outside reclaim (truncation),
					 * 2 evicted by the recording's reclaim (the simulation
					 * decides its own evictions; kept to know what was resident) */
	int8_t pinned;			/* a page reclaim cannot free (sim-pinned.c) */
	int8_t written;			/* inserted by a write: the recording dirtied it within 1 s
					 * (writeback_dirty_folio), so it is not mapped */
	int8_t exec;			/* a page of a range mapped executable (sim-exec.c) */
};

/*
 * A use of pages already in the page cache, which no insertion shows
 * (sim-access.c): a read(2), a fault on a file mapping, its fault-around.
 */
enum whatif_access_kind {
	WHATIF_READ,			/* mm_filemap_get_pages: read, not mapped */
	WHATIF_FAULT,			/* mm_filemap_fault: the faulting page, mapped */
	WHATIF_FAULT_AROUND,		/* mm_filemap_map_pages: the window; its pages not mapped yet */
	WHATIF_NACCESS
};

struct whatif_access {
	long long ts;
	uint64_t ino, index;		/* key as in whatif_filemap; the first page */
	int pages;
	int8_t kind;			/* enum whatif_access_kind */
};

/* A few pids, sorted (sim-pids.c). */
struct whatif_pids {
	long long *pid;
	long n;
};

/* A fallback of the allocator that boosted a zone's watermarks (mm_page_alloc_extfrag). */
struct whatif_fallback {
	long long ts;
	int zone;			/* index into whatif_rec's zones */
};

struct whatif_rec {
	int memcg;			/* the lruvec is the sampled memcg; 0: the node */
	int cgroup_v1;			/* memory.stat has total_* (v1: memcg swappiness applies) */
	long long from, to;		/* ns */
	struct whatif_value knob[K_NKNOBS];
	struct whatif_sample *smp;	/* in time order */
	long nsmp;
	struct whatif_filemap *fm;	/* in time order; NULL when not recorded */
	long nfm;
	long fm_others;			/* memcg: insertions of tasks not the memcg's (left out) */
	long long swap_pages;		/* SwapTotal */
	long long limit_pages;		/* memcg: hierarchical_memory_limit */
	int unlimited;			/* memcg: memory.stat says it has no limit (v1) */
	long long reclaimers;		/* memcg: tasks that entered memcg reclaim in the window */
	long long max_lru;		/* memcg: the largest LRU total of the samples */
	long long nonlru;		/* pages charged outside the LRU lists (assumed constant):
					 * the recorded limit minus max_lru (set by the caller) */
	long long node_pages;		/* node: LRU + free pages at the start (later samples: their
					 * own free + LRU, memory outside the LRU following the
					 * recording) */
	long long wmark[3];		/* node: recorded min, low, high (sum over zones, boost excluded) */
	long long managed[8];		/* node: managed pages per zone, for recomputed watermarks */
	long long zone_high[8];		/* node: each zone's high watermark (boost excluded) */
	long long reserve;		/* node: the lower zones' lowmem_reserve for the highest zone */
	long long zone_start[8], zone_spanned[8];	/* node: each zone's pfn range */
	int nzones;
	/* node: the fallbacks that boost (sim-fallback.c), when the event was recorded */
	int fallback_recorded;		/* kmem:mm_page_alloc_extfrag was recorded */
	struct whatif_fallback *fallback;	/* in time order */
	long nfallback;
	long long fallback_events;	/* all extfrag events of the window (claims of whole blocks too) */
	double recorded[M_NMETRICS];
	int has_recorded[M_NMETRICS];
	double ns_per_scanned;		/* recorded reclaim time per page scanned */
	long long charge_batch;		/* memcg: recorded pages reclaimed per reclaim call (at least 64) */
	int sequential;			/* assume file access is sequential between recorded insertions */
	int protect;			/* and the pages so used as protected (exec-mapped) */
	long long inodesteal;		/* growth of vmstat pginodesteal (machine-wide) */
	/*
	 * The vfs model (sim-vfs.c), for a memcg whose kernel memory was
	 * sampled and whose files the filemap events name: vfs is 1 when it
	 * can run, else vfs_why says what is missing.
	 */
	int has_kmem;			/* the samples have kmem */
	int vfs;
	const char *vfs_why;		/* static text */
	long long vfs_denom;		/* vm.vfs_cache_pressure_denom (100 if not recorded) */
	long long file_bytes;		/* slab per file: kmem growth over files made, before reclaim */
	long long calib_files;		/* files made in that calibration interval */
	int nofs_permille;		/* memcg reclaim calls without __GFP_FS, per 1000 */
	long long max_lru_kmem;		/* the largest LRU total + kmem of the samples */
	long written;			/* insertions marked written (writeback_dirty_folio) */
	int exec_recorded;		/* the exec_mapping table has rows */
	struct whatif_exec_range *exec;	/* sorted by (ino, first), merged */
	long exec_ranges;		/* exec-mapped file ranges (merged) */
	long long exec_pages;		/* pages they span */
	long exec_marked;		/* insertions marked exec */
	int use_exec;			/* --assume exec=protected: whatif_exec_mark() ran */
	long long scanned_recorded;
	int has_swap;			/* every sample has its swap use (sim-swap.c) */
	long swap_samples;		/* samples that had it, while loading */
	long long anon_freed;		/* anon pages the workload freed (sum of the intervals) */
	int pinned_permille;		/* recorded file scans kept for no traced reason; -1 unknown */
	long long pinned_pages;		/* pages taken as pinned (sim-pinned.c) */
	long long pinned_marked;	/* pages of the insertions marked pinned */
	int pinned_off;			/* --assume pinned=none: the marks taken off */
	/* the reads and faults of the lruvec's tasks (sim-access.c); NULL when not recorded */
	struct whatif_access *acc;	/* in time order */
	long nacc;
	int acc_recorded;		/* at least one of the three tables is in the database */
	long long acc_events[WHATIF_NACCESS];	/* events read, per kind (continuations not counted) */
	long long acc_pages[WHATIF_NACCESS];	/* pages they name */
	long long acc_batches;		/* reads' later batches (each a use of its own pages) */
	long long acc_skipped;		/* empty or impossible ranges */
	int acc_off;			/* --assume access=insertions: the accesses not read (the
					 * caller sets it before whatif_rec_load(), which keeps it) */
	uint64_t *random_ino;		/* files mapped for random access (no recency), sorted */
	long nrandom;
	int random_alloc;
	long long random_faults;	/* their faults that brought in their page alone */
	/* the files read in sequence, in rounds (sim-sequential.c): their gaps are filled */
	uint64_t seq_ino[SIM_SEQ_FILES];
	int nseq;
	int seq_off;			/* --assume access=recorded: none taken as such */
	long long seq_wraps, seq_insertions;	/* of those files */
};

/*
 * Read what a simulation of the window of @w needs: the lruvec (the memcg
 * sampled by record -m, else node 0), its counter samples, filemap events
 * if recorded, the recorded knobs and outcome. Return: 0, or -1 with
 * vms_error set (a failed query, or no counter samples in the window).
 */
int whatif_rec_load(struct vms_window *w, struct whatif_rec *r);
/* The same without the demand: samples, knobs and the recorded outcome (of a rerun). */
int whatif_rec_load_outcome(struct vms_window *w, struct whatif_rec *r);

/* SQL condition on an event's pid: a task reclaiming the simulated lruvec (sim-recording.c). */
const char *whatif_lruvec_reclaimers(const struct whatif_rec *r);
/* sim-pinned.c: mark the filemap demand's pinned pages (model: pinned); 0 or -1 with vms_error. */
int whatif_mark_pinned(struct vms_window *w, struct whatif_rec *r);
/* Take the marks off again (--assume pinned=none). */
void whatif_unmark_pinned(struct whatif_rec *r);
/* sim-pids.c: the pids a query returns, sorted; 0 or -1 with vms_error set. */
int whatif_pids_load(struct vms_window *w, struct whatif_pids *set, const char *sql);
int whatif_pids_has(const struct whatif_pids *set, long long pid);
/*
 * sim-access.c: the reads and faults of the window (r->acc) by the tasks
 * in @tasks (NULL: all, the node's), after the filemap demand is loaded.
 * Return: 0, or -1 with vms_error set.
 */
int whatif_load_accesses(struct vms_window *w, struct whatif_rec *r, const struct whatif_pids *tasks);
/* Is file key @ino mapped for random access, its young PTEs ignored by reclaim? */
int whatif_random_file(const struct whatif_rec *r, uint64_t ino);
/*
 * sim-sequential.c: an insertion at @first of a file whose reader had got
 * to @last, @max the furthest seen (-1, -1: its first): forward, a step
 * back that readahead makes, or a new round.
 */
enum whatif_step { WHATIF_STEP_FIRST, WHATIF_STEP_FORWARD, WHATIF_STEP_BACK, WHATIF_STEP_WRAP };
enum whatif_step whatif_seq_step(long long last, long long max, long long first);
/* The files of the filemap demand read in sequence, in rounds (r->seq_ino), with the accesses loaded. */
void whatif_find_sequential_files(struct whatif_rec *r);
/* Is file key @ino one of them? */
int whatif_sequential_file(const struct whatif_rec *r, uint64_t ino);
/* sim-swap.c: swap use of the samples (has_swap, anon_freed); 0 or -1 with vms_error set. */
int whatif_load_swap(struct vms_window *w, struct whatif_rec *r, long long page_size);
/* Anon pages new between samples @a and @b (counter demand). */
long long whatif_anon_new(const struct whatif_sample *a, const struct whatif_sample *b);
/* New anon that the change of all anon does not show (negative: it shows more). */
long long whatif_anon_unseen(const struct whatif_sample *a, const struct whatif_sample *b);
/* Each sample's freed and r->anon_freed from the samples (0 without swap use). */
void whatif_settle_frees(struct whatif_rec *r);
void whatif_rec_release(struct whatif_rec *r);
/* Does the database of @w have a table or view @name? (0 also when the query fails) */
int whatif_table_exists(struct vms_window *w, const char *name);
/*
 * Read the file ranges the recording's exec_mapping table names (merged,
 * into r->exec). Without any (an import, a recording without -m or an
 * older one) r->exec_recorded stays 0. Return: 0 or -1 with vms_error set.
 */
int whatif_load_exec(struct vms_window *w, struct whatif_rec *r);
/* Mark the insertions of @r those ranges cover (f->exec), count them, set r->use_exec. */
void whatif_exec_mark(struct whatif_rec *r);
/* Whether page @index of file key @ino is in an exec-mapped range of @r. */
int whatif_exec_covered(const struct whatif_rec *r, uint64_t ino, uint64_t index);
/*
 * --- sim-fallback.c: the fragmentation fallbacks that boost watermarks ---
 * Read the window's mm_page_alloc_extfrag events that boost_watermark()
 * follows (r->fallback, each with its zone by pfn); node recordings only.
 * Without the event r->fallback_recorded stays 0. Return: 0 or -1.
 */
int whatif_load_fallbacks(struct vms_window *w, struct whatif_rec *r);
/*
 * Each zone's boost_watermark() ceiling for vm.watermark_boost_factor
 * @factor, with the zones' high watermarks scaled to sum to @high (the
 * simulated one): out[z] pages, 0 where the zone is not boosted.
 */
void whatif_boost_max(const struct whatif_rec *r, long long factor, long long high,
		      long long out[SIM_MAX_ZONES]);

/*
 * Kernel watermarks (__setup_per_zone_wmarks) summed over the zones of @r
 * for @min_free_kbytes and @scale_factor: out[0..2] = min, low, high.
 */
void whatif_watermarks(const struct whatif_rec *r, long long min_free_kbytes,
		       long long scale_factor, long long out[3]);

/* --- sim-run.c: one simulation of a recording --- */

/* One point of the time series: at each counter sample of the recording. */
struct whatif_point {
	long long ts;
	long long refault_file, reclaimed_file, reclaimed_anon;	/* cumulative */
	long long lru[SIM_NR_LRU];
};

/*
 * Simulate the window of @r with the knobs @knob (values, all known) and
 * @policy (NULL: baseline). @out gets the metrics; *@series (caller frees)
 * one point per sample; @stats (unless NULL) the simulation's counters,
 * with how the policy was asked.
 * Return: 0, or -1 with vms_error set.
 */
int whatif_simulate(const struct whatif_rec *r, const long long knob[K_NKNOBS],
		    struct policy_instance *policy, double out[M_NMETRICS],
		    struct whatif_point **series, long *npoints, struct sim_stats *stats);

/* --- sim-store.c: the results into the tables of 930-whatif.sql --- */

struct vms_db;

/* One assumption of a simulation, as stored and printed. */
struct whatif_assumption {
	char item[64], value[512];
	const char *source, *firmness;	/* static text */
};

/*
 * sim-access.c: the assumption rows of the recorded reads and faults, and
 * of the files taken as mapped for random access (none for a recording
 * without filemap demand), at most @max. Return: rows written.
 */
int whatif_access_assumption(const struct whatif_rec *r, const struct sim_stats *base,
			     const struct sim_stats *wi, struct whatif_assumption *a, int max);

/*
 * --- sim-consistency.c: does the baseline reproduce the recording? ---
 * For refault_file, reclaimed_file, reclaimed_anon: within 10%, or off and
 * why, as assumption rows ("self-consistency: METRIC") in @a (at most @max).
 * Return: rows written.
 */
int whatif_consistency(const struct whatif_rec *r, int demand_counters, const double *base,
		       struct whatif_assumption *a, int max);

/* 100 * (whatif - recorded) / recorded; NAN when recorded is 0. */
double whatif_change_pct(double recorded, double whatif);
/*
 * Replace the rows of @scenario in outcome, whatif_series and
 * whatif_assumption (the tables must exist; the caller holds a transaction).
 * @bs, @ws: the baseline and whatif series, @np points each (point 0 is the
 * start and is not stored). Return: 0, or -1 with vms_error set.
 */
int whatif_store(struct vms_db *db, const char *scenario, const struct whatif_rec *r,
		 const double *base, const double *wi, const struct whatif_point *bs,
		 const struct whatif_point *ws, long np, const struct whatif_assumption *a, int na);

#endif
