// SPDX-License-Identifier: GPL-2.0
/*
 * sim-vfs.c - the dentries and inodes of the simulated lruvec's files, as
 * far as reclaim sees them in 6.18: slab charged with the pages (memcg:
 * against the limit), and the superblock shrinker that each reclaim pass
 * runs after the LRU lists (shrink_node_memcgs(): shrink_lruvec(), then
 * shrink_slab()), which vm.vfs_cache_pressure scales.
 *
 * The kernel logic followed:
 *  - do_shrink_slab(): freeable = super_cache_count() (dentries and inodes
 *    on their LRUs, times vfs_cache_pressure / vfs_cache_pressure_denom);
 *    delta = (freeable >> priority) * 4 / DEFAULT_SEEKS; the scan is the
 *    deferred work >> priority plus delta, at most 2 x freeable, in batches
 *    of SHRINK_BATCH (done only while a whole batch, or all of freeable, is
 *    left: the superblock's batch is 1024); what is not scanned is deferred,
 *    at most 2 x freeable. A reclaim without __GFP_FS (an ext4 write
 *    under a journal handle allocates GFP_NOFS) scans nothing: all of its
 *    work is deferred to the next reclaim that may enter the filesystem.
 *  - super_cache_scan(): the batch split between the dentry and the inode
 *    LRU by their sizes, each part plus one.
 *  - dentry_lru_isolate(): a referenced dentry loses the flag and rotates,
 *    another is freed and puts its inode (iput_final(): onto the inode LRU
 *    if mapping_shrinkable(), which on 64-bit is: no page resident, and no
 *    shadow entry unless the only entry is at index 0, in the xarray head).
 *  - inode_lru_isolate(): an inode no longer shrinkable leaves the LRU; one
 *    with shadows has them cleared (invalidate_mapping_pages() counts each
 *    as pginodesteal) and is freed.
 *
 * Assumptions (whatif states them): which reclaim calls lack __GFP_FS is
 * not known per call: the recorded share of them is spread evenly over the
 * simulated calls (sim-reclaim.c); a file is made when its first page is
 * inserted and its dentry is unused (on the LRU) from then on; inserting a
 * page of a file whose dentry lives marks it referenced, and one whose
 * dentry was pruned makes a new dentry (a lookup); slab is proportional to
 * the live objects (freed objects free their slab pages); other caches
 * (directories, buffer heads, extent status) are not modelled, and neither
 * are metadata accesses that insert no page (stat(2) of a file whose inode
 * was freed reads it back unseen).
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "sim.h"

#define SUPER_BATCH 1024	/* alloc_super(): s_shrink->batch */
#define DEFAULT_SEEKS 2

enum { DLRU, ILRU };

int32_t sim_vfs_find(const struct sim *s, uint64_t ino)
{
	if (!s->cfg.vfs || ino == SIM_ANON_INO)
		return SIM_NONE;
	return sim_index_find(&s->inode_ix, s->inode, sizeof(*s->inode), ino, 0);
}

static void vlist_del(struct sim *s, int which, int32_t id)
{
	struct sim_inode *f = &s->inode[id];
	struct sim_list *l = &s->vlru[which];

	if (f->prev != SIM_NONE)
		s->inode[f->prev].next = f->next;
	else
		l->head = f->next;
	if (f->next != SIM_NONE)
		s->inode[f->next].prev = f->prev;
	else
		l->tail = f->prev;
	f->prev = f->next = SIM_NONE;
	l->size--;
}

/* Add @id at the tail (the newest end; walks start at the head). */
static void vlist_add(struct sim *s, int which, int32_t id)
{
	struct sim_inode *f = &s->inode[id];
	struct sim_list *l = &s->vlru[which];

	f->next = SIM_NONE;
	f->prev = l->tail;
	if (l->tail != SIM_NONE)
		s->inode[l->tail].next = id;
	else
		l->head = id;
	l->tail = id;
	l->size++;
}

static void slab_charged(struct sim *s)
{
	long long pages = sim_slab_pages(s);

	if (pages > s->st.slab_max)
		s->st.slab_max = pages;
}

long long sim_slab_pages(const struct sim *s)
{
	return s->cfg.slab_base + (s->vfs_bytes + 4095) / 4096;
}

/* mapping_shrinkable() of a 64-bit kernel */
static int shrinkable(const struct sim_inode *f)
{
	return !f->resident && (!f->shadows || !f->max_index);
}

int sim_vfs_shadows_in_nodes(const struct sim *s, int32_t id)
{
	return id == SIM_NONE || s->inode[id].max_index > 0;
}

/* A parked inode that became shrinkable goes onto the inode LRU (inode_add_lru()). */
static void maybe_lru(struct sim *s, int32_t id)
{
	struct sim_inode *f = &s->inode[id];

	if (f->state == SIM_VFS_PARKED && shrinkable(f)) {
		f->state = SIM_VFS_INODE_LRU;
		vlist_add(s, ILRU, id);
	} else if (f->state == SIM_VFS_INODE_LRU && !shrinkable(f)) {
		/* inode_lru_isolate() removes it lazily; it is parked at once here */
		vlist_del(s, ILRU, id);
		f->state = SIM_VFS_PARKED;
	}
}

void sim_vfs_account(struct sim *s, int32_t id, long long resident, long long shadows)
{
	if (id == SIM_NONE)
		return;
	s->inode[id].resident += resident;
	s->inode[id].shadows += shadows;
	maybe_lru(s, id);
}

int sim_vfs_use(struct sim *s, int32_t slot)
{
	uint64_t ino = s->page[slot].ino, index = s->page[slot].index;
	int32_t id, node = s->page[slot].node;
	struct sim_inode *f;

	if (!s->cfg.vfs || ino == SIM_ANON_INO)
		return 0;
	/* the page's xarray node knows its file once it was made: no lookup */
	id = s->xnode[node].inode;
	if (id == SIM_NONE)
		id = sim_vfs_find(s, ino);
	if (id == SIM_NONE) {
		if (vms_array_reserve(&s->inode, &s->ialloc, (int)s->ninode, 1024, sizeof(*s->inode)))
			return -1;
		id = (int32_t)s->ninode;
		f = &s->inode[id];
		memset(f, 0, sizeof(*f));
		f->ino = ino;
		f->prev = f->next = SIM_NONE;
		f->slot0 = SIM_NONE;
		f->state = SIM_VFS_FREED;
		if (sim_index_add(&s->inode_ix, s->inode, sizeof(*s->inode), id))
			return -1;
		s->ninode++;
	}
	s->xnode[node].inode = id;
	f = &s->inode[id];
	if (index > f->max_index)
		f->max_index = index;
	if (index == 0)
		f->slot0 = slot;
	switch (f->state) {
	case SIM_VFS_DENTRY:
		f->referenced = 1;
		return 0;
	case SIM_VFS_INODE_LRU:
		vlist_del(s, ILRU, id);
		/* fall through */
	case SIM_VFS_PARKED:
		s->vfs_bytes += s->cfg.dentry_bytes;	/* looked up again: a new dentry */
		break;
	case SIM_VFS_FREED:
		s->vfs_bytes += s->cfg.dentry_bytes + s->cfg.inode_bytes;
		break;
	}
	f->state = SIM_VFS_DENTRY;
	f->referenced = 0;
	vlist_add(s, DLRU, id);
	slab_charged(s);
	return 0;
}

/* prune_dcache_sb(): walk @nr dentries from the oldest. */
static void prune_dentries(struct sim *s, long long nr)
{
	while (nr-- > 0 && s->vlru[DLRU].head != SIM_NONE) {
		int32_t id = s->vlru[DLRU].head;
		struct sim_inode *f = &s->inode[id];

		s->st.vfs_scanned++;
		vlist_del(s, DLRU, id);
		if (f->referenced) {
			f->referenced = 0;
			vlist_add(s, DLRU, id);
			continue;
		}
		s->vfs_bytes -= s->cfg.dentry_bytes;
		s->st.vfs_freed[0]++;
		f->state = SIM_VFS_PARKED;	/* iput(): the inode is unused */
		maybe_lru(s, id);
	}
}

/* The shadow entries of file @id go with it (at index 0 only: shrinkable() says so). */
static void clear_shadows(struct sim *s, int32_t id)
{
	struct sim_inode *f = &s->inode[id];
	uint64_t i;

	for (i = 0; i <= f->max_index && f->shadows > 0; i++) {
		int32_t slot = i == 0 && f->slot0 != SIM_NONE ? f->slot0 : sim_slot_find(s, f->ino, i);
		struct sim_page *p;

		if (slot == SIM_NONE)
			continue;
		p = &s->page[slot];
		if (p->lru != SIM_NONE || p->shadow < 0)
			continue;
		p->shadow = -1;
		p->workingset = 0;
		s->xnode[p->node].shadows--;	/* a head entry: never on the shadow-node list */
		f->shadows--;
		s->st.inodesteal++;
	}
}

/* prune_icache_sb(): walk @nr inodes from the oldest. */
static void prune_inodes(struct sim *s, long long nr)
{
	while (nr-- > 0 && s->vlru[ILRU].head != SIM_NONE) {
		int32_t id = s->vlru[ILRU].head;
		struct sim_inode *f = &s->inode[id];

		s->st.vfs_scanned++;
		vlist_del(s, ILRU, id);
		if (f->shadows)
			clear_shadows(s, id);
		s->vfs_bytes -= s->cfg.inode_bytes;
		s->st.vfs_freed[1]++;
		f->state = SIM_VFS_FREED;
	}
}

long long sim_shrink_vfs(struct sim *s, int priority)
{
	long long before = sim_slab_pages(s), objects, freeable, nr, delta, total, scanned = 0;
	long long next;

	if (!s->cfg.vfs)
		return 0;
	objects = s->vlru[DLRU].size + s->vlru[ILRU].size;
	freeable = s->cfg.vfs_denom > 0 ? objects * s->cfg.vfs_pressure / s->cfg.vfs_denom : 0;
	if (!freeable)
		return 0;
	nr = s->vfs_deferred;
	s->vfs_deferred = 0;
	delta = (freeable >> priority) * 4 / DEFAULT_SEEKS;
	total = (nr >> priority) + delta;
	if (total > 2 * freeable)
		total = 2 * freeable;
	/* super_cache_scan() of a reclaim without __GFP_FS: SHRINK_STOP, all deferred */
	while (!s->nofs && (total >= SUPER_BATCH || total >= freeable)) {
		long long batch = total < SUPER_BATCH ? total : SUPER_BATCH;
		long long d = s->vlru[DLRU].size, i = s->vlru[ILRU].size, all = d + i + 1;

		if (!batch)
			break;
		prune_dentries(s, batch * d / all + 1);
		prune_inodes(s, batch * i / all + 1);
		total -= batch;
		scanned += batch;
	}
	next = nr + delta - scanned;
	if (next < 0)
		next = 0;
	if (next > 2 * freeable)
		next = 2 * freeable;
	s->vfs_deferred = next;
	return before - sim_slab_pages(s);
}

void sim_vfs_release(struct sim *s)
{
	free(s->inode);
	sim_index_release(&s->inode_ix);
}
