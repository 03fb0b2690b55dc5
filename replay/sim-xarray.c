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

static uint64_t node_hash(uint64_t ino, uint64_t base)
{
	uint64_t h = ino * 0xd6e8feb86659fd93ULL ^ (base + 0x9e3779b97f4a7c15ULL);

	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ULL;
	return h ^ (h >> 32);
}

static int xhash_grow(struct sim *s)
{
	long long size = s->xhash_size ? s->xhash_size * 2 : 256, i;
	int32_t *h = malloc(size * sizeof(*h));

	if (!h)
		return vms_error("out of memory (simulation of %lld xarray nodes)", s->nxnode);
	for (i = 0; i < size; i++)
		h[i] = SIM_NONE;
	for (i = 0; i < s->nxnode; i++) {
		uint64_t b = node_hash(s->xnode[i].ino, s->xnode[i].base) & (size - 1);

		while (h[b] != SIM_NONE)
			b = (b + 1) & (size - 1);
		h[b] = (int32_t)i;
	}
	free(s->xhash);
	s->xhash = h;
	s->xhash_size = size;
	return 0;
}

int32_t sim_xnode_get(struct sim *s, uint64_t ino, uint64_t index)
{
	uint64_t base = index >> SIM_XA_SHIFT, b;
	struct sim_xnode *n;

	if (s->xhash_size) {
		for (b = node_hash(ino, base) & (s->xhash_size - 1); s->xhash[b] != SIM_NONE;
		     b = (b + 1) & (s->xhash_size - 1)) {
			n = &s->xnode[s->xhash[b]];
			if (n->ino == ino && n->base == base)
				return s->xhash[b];
		}
	}
	if (s->nxnode >= INT32_MAX - 1) {
		vms_error("the simulation holds at most %d xarray nodes", INT32_MAX - 1);
		return SIM_NONE;
	}
	if (2 * (s->nxnode + 1) > s->xhash_size && xhash_grow(s))
		return SIM_NONE;
	if (s->nxnode == s->xalloc) {
		long long alloc = s->xalloc ? s->xalloc * 2 : 256;
		struct sim_xnode *nn = realloc(s->xnode, alloc * sizeof(*nn));

		if (!nn) {
			vms_error("out of memory (simulation of %lld xarray nodes)", s->nxnode);
			return SIM_NONE;
		}
		s->xnode = nn;
		s->xalloc = alloc;
	}
	n = &s->xnode[s->nxnode];
	memset(n, 0, sizeof(*n));
	n->ino = ino;
	n->base = base;
	n->prev = n->next = SIM_NONE;
	for (b = node_hash(ino, base) & (s->xhash_size - 1); s->xhash[b] != SIM_NONE;
	     b = (b + 1) & (s->xhash_size - 1))
		;
	s->xhash[b] = (int32_t)s->nxnode;
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
	shadow_only = !n->resident && n->shadows > 0 && n->ino != SIM_ANON_INO;
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
			dropped++;
		}
		unlist(s, id);
	}
	s->st.shadows_dropped += dropped;
	return dropped;
}
