// SPDX-License-Identifier: GPL-2.0
/*
 * strmap.c - open-addressing string hash map (FNV-1a, linear probing,
 * grows at 50% load). See strmap.h.
 */
#include <stdlib.h>
#include <string.h>

#include "vms-strmap.h"

static unsigned long hash_bytes(const char *s, size_t len)
{
	unsigned long h = 1469598103934665603UL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211UL;
	}
	return h;
}

void strmap_init(struct strmap *m)
{
	m->slots = NULL;
	m->size = m->used = 0;
}

void strmap_release(struct strmap *m, void (*free_value)(void *))
{
	size_t i;

	for (i = 0; i < m->size; i++) {
		if (!m->slots[i].key)
			continue;
		free(m->slots[i].key);
		if (free_value)
			free_value(m->slots[i].value);
	}
	free(m->slots);
	strmap_init(m);
}

static struct strmap_entry *probe(const struct strmap *m, const char *key, size_t len,
				  unsigned long h)
{
	size_t i = h & (m->size - 1);

	for (;;) {
		struct strmap_entry *e = &m->slots[i];

		if (!e->key || (e->hash == h && e->len == len && !memcmp(e->key, key, len)))
			return e;
		i = (i + 1) & (m->size - 1);
	}
}

struct strmap_entry *strmap_find(const struct strmap *m, const char *key, size_t len)
{
	struct strmap_entry *e;

	if (!m->size)
		return NULL;
	e = probe(m, key, len, hash_bytes(key, len));
	return e->key ? e : NULL;
}

static int grow(struct strmap *m)
{
	struct strmap old = *m;
	size_t i;

	m->size = old.size ? old.size * 2 : 16;
	m->slots = calloc(m->size, sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return -1;
	}
	for (i = 0; i < old.size; i++)
		if (old.slots[i].key)
			*probe(m, old.slots[i].key, old.slots[i].len, old.slots[i].hash) = old.slots[i];
	free(old.slots);
	return 0;
}

struct strmap_entry *strmap_get(struct strmap *m, const char *key, size_t len)
{
	unsigned long h = hash_bytes(key, len);
	struct strmap_entry *e;

	if ((m->used + 1) * 2 > m->size && grow(m))
		return NULL;
	e = probe(m, key, len, h);
	if (e->key)
		return e;
	e->key = malloc(len + 1);
	if (!e->key)
		return NULL;
	memcpy(e->key, key, len);
	e->key[len] = '\0';
	e->len = len;
	e->hash = h;
	e->value = NULL;
	m->used++;
	return e;
}
