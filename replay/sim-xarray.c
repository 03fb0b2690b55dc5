// SPDX-License-Identifier: GPL-2.0
/*
 * sim-xarray.c - the page cache's xarray nodes in the simulated lruvec, as
 * far as the workingset needs them: each node covers 64 consecutive indexes
 * of a file, and the kernel keeps a node that holds shadow entries only on
 * a list that its shadow shrinker trims (mm/workingset.c,
 * count_shadow_nodes(): at most one such node per 8 pages of the lruvec,
 * LRU pages of the memcg, or present pages of the node; seeks 0, so each
 * call frees half the excess, oldest first). A freed node drops every
 * shadow in it, and a refault there is no longer recognized: for random
 * access to a large file (one shadow per node) this decides how many
 * refaults there are at all. Anon pages (swap cache) are left out: their
 * shadows stay (an assumption whatif states).
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "sim.h"

#define SHRINK_BATCH 128

int32_t sim_xnode_get(struct sim *s, uint64_t ino, uint64_t index)
{
	uint64_t base = index >> SIM_XA_SHIFT;
	int32_t id = sim_index_find(&s->xnode_ix, s->xnode, sizeof(*s->xnode), ino, base);
	struct sim_xnode *n;

	if (id != SIM_NONE)
		return id;
	if (vms_array_reserve(&s->xnode, &s->xalloc, (int)s->nxnode, 256, sizeof(*s->xnode)))
		return SIM_NONE;
	n = &s->xnode[s->nxnode];
	memset(n, 0, sizeof(*n));
	n->ino = ino;
	n->base = base;
	n->prev = n->next = SIM_NONE;
	n->inode = sim_vfs_find(s, ino);
	if (sim_index_add(&s->xnode_ix, s->xnode, sizeof(*s->xnode), (int32_t)s->nxnode))
		return SIM_NONE;
	return (int32_t)s->nxnode++;
}

static void unlist(struct sim *s, int32_t id)
{
	struct sim_xnode *n = &s->xnode[id];

	if (n->prev != SIM_NONE)
		s->xnode[n->prev].next = n->next;
	else
		s->shadow_head = n->next;
	if (n->next != SIM_NONE)
		s->xnode[n->next].prev = n->prev;
	else
		s->shadow_tail = n->prev;
	n->prev = n->next = SIM_NONE;
	n->listed = 0;
	s->shadow_nodes--;
}

/* workingset_update_node(): a node of shadows only goes to the tail of the list */
void sim_xnode_account(struct sim *s, int32_t id, int resident, int shadows)
{
	struct sim_xnode *n = &s->xnode[id];
	int shadow_only;

	n->resident += resident;
	n->shadows += shadows;
	if (n->inode == SIM_NONE)
		n->inode = sim_vfs_find(s, n->ino);	/* its file was made after the node */
	sim_vfs_account(s, n->inode, resident, shadows);
	/* (vfs model) a file's only entry at index 0 sits in the xarray head, not in a node */
	shadow_only = !n->resident && n->shadows > 0 && n->ino != SIM_ANON_INO &&
		      sim_vfs_shadows_in_nodes(s, n->inode);
	if (shadow_only && !n->listed) {
		n->prev = s->shadow_tail;
		n->next = SIM_NONE;
		if (s->shadow_tail != SIM_NONE)
			s->xnode[s->shadow_tail].next = id;
		else
			s->shadow_head = id;
		s->shadow_tail = id;
		n->listed = 1;
		s->shadow_nodes++;
	} else if (!shadow_only && n->listed) {
		unlist(s, id);
	}
}

long long sim_shrink_shadows(struct sim *s, long long pages)
{
	long long max = pages >> (SIM_XA_SHIFT - 3), excess = s->shadow_nodes - max, dropped = 0;
	long long nr = excess / 2;

	if (excess <= 0)
		return 0;
	/* do_shrink_slab() scans in batches of SHRINK_BATCH, deferring less than one */
	s->shadow_deferred += nr;
	if (s->shadow_deferred < SHRINK_BATCH && s->shadow_deferred < excess)
		return 0;
	nr = s->shadow_deferred < excess ? s->shadow_deferred : excess;
	s->shadow_deferred = 0;
	while (nr-- > 0 && s->shadow_head != SIM_NONE) {
		int32_t id = s->shadow_head;
		struct sim_xnode *n = &s->xnode[id];
		uint64_t i, first = n->base << SIM_XA_SHIFT;

		/* shadow_lru_isolate(): every entry of the node goes */
		for (i = 0; i < (1u << SIM_XA_SHIFT) && n->shadows > 0; i++) {
			int32_t slot = sim_slot_find(s, n->ino, first + i);

			if (slot == SIM_NONE || s->page[slot].lru != SIM_NONE || s->page[slot].shadow < 0)
				continue;
			s->page[slot].shadow = -1;
			s->page[slot].workingset = 0;
			n->shadows--;
			sim_vfs_account(s, n->inode, 0, -1);
			dropped++;
		}
		unlist(s, id);
	}
	s->st.shadows_dropped += dropped;
	return dropped;
}
