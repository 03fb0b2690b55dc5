// SPDX-License-Identifier: GPL-2.0
/*
 * sim-index.c - the open-addressing index the simulator finds its records
 * by: pages by (inode, index) in sim-lru.c, xarray nodes by (inode, node)
 * in sim-xarray.c. The records live in the caller's array and never move
 * between numbers; each starts with its two 64-bit keys (struct
 * sim_keyed), so the index needs only the array, its stride and its
 * length. Linear probing, at most half full, grown by doubling.
 */
#include <stdlib.h>

#include "vms.h"
#include "sim.h"

static uint64_t key_hash(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL);

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 29);
}

static const struct sim_keyed *keyed(const void *base, size_t stride, int32_t id)
{
	return (const struct sim_keyed *)((const char *)base + (size_t)id * stride);
}

static void put(struct sim_index *ix, uint64_t a, uint64_t b, int32_t id)
{
	uint64_t i = key_hash(a, b) & (ix->size - 1);

	while (ix->slot[i] != SIM_NONE)
		i = (i + 1) & (ix->size - 1);
	ix->slot[i] = id;
}

int32_t sim_index_find(const struct sim_index *ix, const void *base, size_t stride, uint64_t a,
		       uint64_t b)
{
	uint64_t i;

	if (!ix->size)
		return SIM_NONE;
	for (i = key_hash(a, b) & (ix->size - 1); ix->slot[i] != SIM_NONE; i = (i + 1) & (ix->size - 1)) {
		const struct sim_keyed *k = keyed(base, stride, ix->slot[i]);

		if (k->a == a && k->b == b)
			return ix->slot[i];
	}
	return SIM_NONE;
}

int sim_index_add(struct sim_index *ix, const void *base, size_t stride, int32_t id)
{
	const struct sim_keyed *k;
	int32_t n;

	if (2 * ((long long)id + 1) > ix->size) {
		long long size = ix->size ? ix->size * 2 : 1024, i;
		int32_t *slot = malloc(size * sizeof(*slot));

		if (!slot)
			return vms_error("out of memory (simulation index of %d records)", id);
		for (i = 0; i < size; i++)
			slot[i] = SIM_NONE;
		free(ix->slot);
		ix->slot = slot;
		ix->size = size;
		for (n = 0; n < id; n++) {
			k = keyed(base, stride, n);
			put(ix, k->a, k->b, n);
		}
	}
	k = keyed(base, stride, id);
	put(ix, k->a, k->b, id);
	return 0;
}

void sim_index_prefetch(const struct sim_index *ix, const void *base, size_t stride, uint64_t a,
			uint64_t b, int stage)
{
	uint64_t i;

	if (!ix->size)
		return;
	i = key_hash(a, b) & (ix->size - 1);
	if (stage == 0)
		__builtin_prefetch(&ix->slot[i]);
	else if (ix->slot[i] != SIM_NONE)
		__builtin_prefetch(keyed(base, stride, ix->slot[i]));
}

void sim_index_release(struct sim_index *ix)
{
	free(ix->slot);
	ix->slot = NULL;
	ix->size = 0;
}
