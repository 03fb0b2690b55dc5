/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strmap.h - a small open-addressing hash map from byte strings to a
 * pointer-sized value, for the hot lookups of the importers (event name to
 * table, event counts, tasks). Keys are copied; values are the caller's.
 */
#ifndef VMS_STRMAP_H
#define VMS_STRMAP_H

#include <stddef.h>

struct strmap_entry {
	char *key;		/* NUL-terminated copy; NULL for an empty slot */
	size_t len;
	unsigned long hash;
	void *value;
};

struct strmap {
	struct strmap_entry *slots;
	size_t size;		/* power of two */
	size_t used;
};

void strmap_init(struct strmap *m);
/* Free the keys; values are freed by the caller with @free_value (may be NULL). */
void strmap_release(struct strmap *m, void (*free_value)(void *));
/* Return: the entry for @key, or NULL. */
struct strmap_entry *strmap_find(const struct strmap *m, const char *key, size_t len);
/* Return: the entry for @key, created with a NULL value if new; NULL when out of memory. */
struct strmap_entry *strmap_get(struct strmap *m, const char *key, size_t len);

#endif
