// SPDX-License-Identifier: GPL-2.0
/*
 * sim-lru.c - the pages of the simulated lruvec: keys and their slots, the
 * four LRU lists, and the workingset state of mm/workingset.c (6.18): the
 * nonresident age, shadow entries written at eviction, and the refault
 * distance test that decides whether a refaulting page starts active.
 * Reclaim itself (when and what to scan) is sim-reclaim.c.
 *
 * How it works: every key ever seen gets a slot in one array, found through
 * an index (sim-index.c); slots are never freed, so a shadow entry is
 * simply a non-resident slot with shadow >= 0 (the kernel trims shadows
 * under memory pressure; the simulation keeps all of them, an assumption
 * whatif states). Lists are doubly linked through the slots.
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "sim.h"

static int32_t slot_find(const struct sim *s, uint64_t ino, uint64_t index)
{
	return sim_index_find(&s->page_ix, s->page, sizeof(*s->page), ino, index);
}

/* Return: the slot of a new key (not resident, no shadow), or SIM_NONE when out of memory. */
static int32_t slot_new(struct sim *s, uint64_t ino, uint64_t index)
{
	struct sim_page *p;

	if (vms_array_reserve(&s->page, &s->alloc, (int)s->npages, 1024, sizeof(*s->page)))
		return SIM_NONE;
	p = &s->page[s->npages];
	memset(p, 0, sizeof(*p));
	p->node = sim_xnode_get(s, ino, index);
	if (p->node == SIM_NONE)
		return SIM_NONE;
	p->ino = ino;
	p->index = index;
	p->shadow = -1;
	p->prev = p->next = SIM_NONE;
	p->lru = SIM_NONE;
	if (sim_index_add(&s->page_ix, s->page, sizeof(*s->page), (int32_t)s->npages))
		return SIM_NONE;
	return (int32_t)s->npages++;
}

void sim_list_del(struct sim *s, int32_t slot)
{
	struct sim_page *p = &s->page[slot];
	struct sim_list *l = &s->list[p->lru];

	if (p->prev != SIM_NONE)
		s->page[p->prev].next = p->next;
	else
		l->head = p->next;
	if (p->next != SIM_NONE)
		s->page[p->next].prev = p->prev;
	else
		l->tail = p->prev;
	l->size--;
	p->prev = p->next = SIM_NONE;
	p->lru = SIM_NONE;
}

void sim_list_add(struct sim *s, int32_t slot, enum sim_lru lru)
{
	struct sim_page *p = &s->page[slot];
	struct sim_list *l = &s->list[lru];

	p->lru = lru;
	p->prev = SIM_NONE;
	p->next = l->head;
	if (l->head != SIM_NONE)
		s->page[l->head].prev = slot;
	else
		l->tail = slot;
	l->head = slot;
	l->size++;
}

int32_t sim_slot_find(const struct sim *s, uint64_t ino, uint64_t index)
{
	return slot_find(s, ino, index);
}

void sim_evict(struct sim *s, int32_t slot)
{
	struct sim_page *p = &s->page[slot];

	sim_list_del(s, slot);
	sim_xnode_account(s, p->node, -1, 1);
	/* workingset_eviction(): age first, then remember the age */
	s->nonresident_age++;
	p->shadow = s->nonresident_age;
	p->referenced = 0;
}

struct sim *sim_new(const struct sim_config *cfg)
{
	struct sim *s = calloc(1, sizeof(*s));
	int i;

	if (!s) {
		vms_error("out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	for (i = 0; i < SIM_NR_LRU; i++)
		s->list[i].head = s->list[i].tail = SIM_NONE;
	for (i = 0; i < 2; i++)
		s->vlru[i].head = s->vlru[i].tail = SIM_NONE;
	s->shadow_head = s->shadow_tail = SIM_NONE;
	return s;
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	free(s->page);
	sim_index_release(&s->page_ix);
	free(s->xnode);
	sim_index_release(&s->xnode_ix);
	sim_vfs_release(s);
	free(s);
}

int sim_populate(struct sim *s, enum sim_lru lru, uint64_t ino, uint64_t first_index, long long n)
{
	long long i;

	for (i = 0; i < n; i++) {
		int32_t slot = slot_find(s, ino, first_index + i);

		if (slot == SIM_NONE)
			slot = slot_new(s, ino, first_index + i);
		if (slot == SIM_NONE)
			return -1;
		if (s->page[slot].lru != SIM_NONE)
			continue;
		s->page[slot].workingset = lru == SIM_ACTIVE_ANON || lru == SIM_ACTIVE_FILE;
		sim_xnode_account(s, s->page[slot].node, 1, s->page[slot].shadow >= 0 ? -1 : 0);
		s->page[slot].shadow = -1;
		sim_list_add(s, slot, lru);
	}
	return 0;
}

/*
 * workingset_test_recent() of 6.18: the refault distance against the
 * workingset size; anon lists count only when anon can be reclaimed (swap).
 */
static int refault_is_recent(const struct sim *s, const struct sim_page *p, int file)
{
	long long distance = s->nonresident_age - p->shadow;
	long long ws = s->list[SIM_ACTIVE_FILE].size;

	if (!file)
		ws += s->list[SIM_INACTIVE_FILE].size;
	if (s->cfg.swap_pages - s->swap_used > 0) {
		ws += s->list[SIM_ACTIVE_ANON].size;
		if (file)
			ws += s->list[SIM_INACTIVE_ANON].size;
	}
	return distance <= ws;
}

/* folio_mark_accessed(): a second access activates an inactive page */
static void mark_accessed(struct sim *s, int32_t slot)
{
	struct sim_page *p = &s->page[slot];
	int file = p->ino != SIM_ANON_INO;

	if (p->lru == SIM_ACTIVE_ANON || p->lru == SIM_ACTIVE_FILE || !p->referenced) {
		p->referenced = 1;
		return;
	}
	sim_list_del(s, slot);
	sim_list_add(s, slot, file ? SIM_ACTIVE_FILE : SIM_ACTIVE_ANON);
	p->referenced = 0;
	s->nonresident_age++;	/* workingset_activation() */
}

void sim_prefetch(const struct sim *s, uint64_t ino, uint64_t index, int stage)
{
	int32_t slot, node;

	if (stage < 2) {
		sim_index_prefetch(&s->page_ix, s->page, sizeof(*s->page), ino, index, stage);
		return;
	}
	slot = slot_find(s, ino, index);
	if (slot == SIM_NONE)
		return;
	node = s->page[slot].node;
	__builtin_prefetch(&s->xnode[node]);
	if (s->xnode[node].inode != SIM_NONE)
		__builtin_prefetch(&s->inode[s->xnode[node].inode]);
}

int sim_access(struct sim *s, uint64_t ino, uint64_t index)
{
	int file = ino != SIM_ANON_INO, ret;
	int32_t slot = slot_find(s, ino, index);
	struct sim_page *p;

	if (slot != SIM_NONE && s->page[slot].lru != SIM_NONE) {
		s->st.hits[file]++;
		mark_accessed(s, slot);
		return SIM_HIT;
	}
	if (slot == SIM_NONE) {
		slot = slot_new(s, ino, index);
		if (slot == SIM_NONE)
			return -1;
	}
	/* the charge comes first (mem_cgroup_charge, or the allocation), then the shadow */
	sim_charge(s);
	/*
	 * the file's dentry and inode (vfs model): made before its page but
	 * in use (open) until the page is in, so made here, after the charge
	 * whose reclaim could otherwise free them
	 */
	if (file && sim_vfs_use(s, slot))
		return -1;
	p = &s->page[slot];
	sim_xnode_account(s, p->node, 1, p->shadow >= 0 ? -1 : 0);
	if (!file && p->shadow >= 0 && s->swap_used > 0)
		s->swap_used--;	/* swapped in: its swap slot is freed (swap cache dropped) */
	/* the access that brought it in leaves it referenced (a fault maps it young) */
	p->referenced = 1;
	p->kept = 0;
	p->unmapped = 0;
	p->pinned = 0;
	if (p->shadow < 0) {
		s->st.cold[file]++;
		p->workingset = 0;
		sim_list_add(s, slot, file ? SIM_INACTIVE_FILE : SIM_INACTIVE_ANON);
		return SIM_COLD;
	}
	s->st.refault[file]++;
	ret = SIM_REFAULT;
	if (refault_is_recent(s, p, file)) {
		s->nonresident_age++;
		s->st.activate[file]++;
		sim_list_add(s, slot, file ? SIM_ACTIVE_FILE : SIM_ACTIVE_ANON);
		ret = SIM_REFAULT_ACTIVE;
		if (p->workingset) {
			s->st.restore[file]++;
			sim_note_cost(s, file, 1, 0);	/* lru_note_cost_refault() */
		}
	} else {
		sim_list_add(s, slot, file ? SIM_INACTIVE_FILE : SIM_INACTIVE_ANON);
		p->workingset = 0;
	}
	p->shadow = -1;
	return ret;
}

/* The page of a file key just accessed (access result @ret), or NULL: anon, or the access failed. */
static struct sim_page *accessed_file_page(struct sim *s, uint64_t ino, uint64_t index, int ret)
{
	int32_t slot;

	if (ret < 0 || ino == SIM_ANON_INO || (slot = slot_find(s, ino, index)) == SIM_NONE)
		return NULL;
	return &s->page[slot];
}

int sim_access_protected(struct sim *s, uint64_t ino, uint64_t index)
{
	int ret = sim_access(s, ino, index);
	struct sim_page *p = accessed_file_page(s, ino, index, ret);

	if (p)
		p->protect = 1;
	return ret;
}

int sim_access_mapped(struct sim *s, uint64_t ino, uint64_t index, int protect)
{
	int32_t slot = slot_find(s, ino, index);
	struct sim_page *p;

	if (slot == SIM_NONE || s->page[slot].lru == SIM_NONE)
		return protect ? sim_access_protected(s, ino, index) : sim_access(s, ino, index);
	p = &s->page[slot];
	s->st.hits[ino != SIM_ANON_INO]++;
	p->referenced = 1;	/* young */
	p->unmapped = 0;
	if (protect)
		p->protect = 1;
	return SIM_HIT;
}

int sim_access_unmapped(struct sim *s, uint64_t ino, uint64_t index)
{
	int ret = sim_access(s, ino, index);
	struct sim_page *p = accessed_file_page(s, ino, index, ret);

	if (p && ret > SIM_HIT)	/* brought in by the write or read, not a hit on a mapped page */
		p->unmapped = 1;
	return ret;
}

void sim_mark_brought_in(struct sim *s, uint64_t ino, uint64_t index)
{
	int32_t slot = slot_find(s, ino, index);

	if (slot != SIM_NONE && s->page[slot].lru != SIM_NONE) {
		s->page[slot].referenced = 0;
		s->page[slot].unmapped = 1;
	}
}

void sim_mark_mapped(struct sim *s, uint64_t ino, uint64_t index)
{
	int32_t slot = slot_find(s, ino, index);

	if (slot != SIM_NONE && s->page[slot].lru != SIM_NONE)
		s->page[slot].unmapped = 0;
}

int sim_access_pinned(struct sim *s, uint64_t ino, uint64_t index)
{
	int ret = sim_access(s, ino, index);
	struct sim_page *p = accessed_file_page(s, ino, index, ret);

	if (p)
		p->pinned = 1;
	return ret;
}

void sim_remove(struct sim *s, uint64_t ino, uint64_t index)
{
	int32_t slot = slot_find(s, ino, index);

	if (slot == SIM_NONE)
		return;
	if (s->page[slot].lru != SIM_NONE) {
		sim_list_del(s, slot);
		sim_xnode_account(s, s->page[slot].node, -1, 0);
	} else if (s->page[slot].shadow >= 0) {
		sim_xnode_account(s, s->page[slot].node, 0, -1);
		if (ino == SIM_ANON_INO && s->swap_used > 0)
			s->swap_used--;
	}
	s->page[slot].shadow = -1;
	s->page[slot].workingset = 0;
	s->page[slot].pinned = 0;
}

void sim_flush(struct sim *s)
{
	s->visible_activate[0] = s->st.activate[0];
	s->visible_activate[1] = s->st.activate[1];
}

int sim_resident(const struct sim *s, uint64_t ino, uint64_t index)
{
	int32_t slot = slot_find(s, ino, index);

	return slot != SIM_NONE && s->page[slot].lru != SIM_NONE;
}

long long sim_lru_size(const struct sim *s, enum sim_lru lru)
{
	return s->list[lru].size;
}

long long sim_swap_used(const struct sim *s)
{
	return s->swap_used;
}

void sim_hold_swap(struct sim *s, long long pages)
{
	s->swap_used += pages;
	if (s->swap_used < 0)
		s->swap_used = 0;
}

const struct sim_stats *sim_stats(const struct sim *s)
{
	return &s->st;
}
