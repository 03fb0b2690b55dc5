// SPDX-License-Identifier: GPL-2.0
/*
 * decision-json.c - the two JSON texts of each decision record,
 * decision.provenance (input -> 'exact' | 'sampled' | 'inferred' |
 * 'unknown') and decision.input_range (input -> [lo, hi]), written into a
 * caller's buffer by plain appends: the build writes one of each per
 * record, and formatting them with printf was a quarter of its time.
 * The texts are byte for byte what decisions.c printed before. The lengths
 * of the keys and fixed parts are known when compiled: a strlen() per part
 * was 6% of the build's main thread at 10M events (perf). Writing them was
 * still a fifth of it, and the texts are mostly the same from record to
 * record: each is stored once (table decision_json), the records hold its
 * id, and a record whose values are the last record's is given its id
 * without the text being written again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"

#include "vms-policy.h"
#include "decisions-local.h"

struct json_out {
	char *p, *end;
};

static void put_n(struct json_out *o, const char *s, size_t n)
{
	if (n > (size_t)(o->end - o->p))
		n = o->end - o->p;
	memcpy(o->p, s, n);
	o->p += n;
}

/* A string literal, its length known when compiled (no strlen per text) */
#define put_lit(o, s) put_n(o, s, sizeof(s) - 1)
/* A key of the tables below: the text and its length */
#define KEY(s) s, sizeof(s) - 1

static void put_int(struct json_out *o, long long v)
{
	char digits[24], *d = digits + sizeof(digits);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	*--d = 0;
	do
		*--d = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--d = '-';
	put_n(o, d, digits + sizeof(digits) - 1 - d);
}

static void put_prov(struct json_out *o, enum vms_prov p)
{
	static const struct { const char *s; size_t n; } names[] = {
		{ KEY("exact") }, { KEY("sampled") }, { KEY("inferred") }, { KEY("unknown") },
	};

	put_n(o, names[p].s, names[p].n);
}

size_t decision_provenance_json(char *buf, const struct vms_pass_input *in)
{
	const struct { const char *key; size_t len; enum vms_prov prov; } v[] = {
		{ KEY("lru"), in->inactive_file.prov }, { KEY("free"), in->free_pages.prov },
		{ KEY("high_wmark"), in->high_wmark.prov }, { KEY("boost"), in->boost.prov },
		{ KEY("swappiness"), in->swappiness.prov }, { KEY("swap_free"), in->swap_free.prov },
		{ KEY("swap_total"), in->swap_total.prov },
		{ KEY("boost_reclaim"), in->boost_reclaim.prov },
		{ KEY("refault_file"), in->refault_file.prov },
		{ KEY("refault_anon"), in->refault_anon.prov },
	};
	struct json_out o = { buf, buf + DECISION_JSON_MAX - 1 };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (i)
			put_lit(&o, ",\"");
		else
			put_lit(&o, "{\"");
		put_n(&o, v[i].key, v[i].len);
		put_lit(&o, "\":\"");
		put_prov(&o, v[i].prov);
		put_lit(&o, "\"");
	}
	put_lit(&o, ",\"priority\":\"exact\",\"outcome\":\"exact\"}");
	*o.p = 0;
	return o.p - buf;
}

size_t decision_range_json(char *buf, const struct vms_pass_input *in)
{
	const struct { const char *key; size_t len; const struct vms_value *v; } r[] = {
		{ KEY("inactive_anon"), &in->inactive_anon }, { KEY("active_anon"), &in->active_anon },
		{ KEY("inactive_file"), &in->inactive_file }, { KEY("active_file"), &in->active_file },
		{ KEY("free"), &in->free_pages }, { KEY("high_wmark"), &in->high_wmark },
		{ KEY("boost"), &in->boost }, { KEY("swap_free"), &in->swap_free },
		{ KEY("refault_file"), &in->refault_file }, { KEY("refault_anon"), &in->refault_anon },
	};
	struct json_out o = { buf, buf + DECISION_JSON_MAX - 1 };

	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		if (i)
			put_lit(&o, ",\"");
		else
			put_lit(&o, "{\"");
		put_n(&o, r[i].key, r[i].len);
		put_lit(&o, "\":[");
		put_int(&o, r[i].v->lo);
		put_lit(&o, ",");
		put_int(&o, r[i].v->hi);
		put_lit(&o, "]");
	}
	put_lit(&o, "}");
	*o.p = 0;
	return o.p - buf;
}


/* The provenances decision.provenance shows, in its order. */
static void prov_key(const struct vms_pass_input *in, unsigned char *k)
{
	const unsigned char v[DECISION_JSON_INPUTS] = {
		in->inactive_file.prov, in->free_pages.prov, in->high_wmark.prov, in->boost.prov,
		in->swappiness.prov, in->swap_free.prov, in->swap_total.prov,
		in->boost_reclaim.prov, in->refault_file.prov, in->refault_anon.prov,
	};

	memcpy(k, v, sizeof(v));
}

/* The ranges decision.input_range shows, in its order: lo, hi of each. */
static void range_key(const struct vms_pass_input *in, long long *k)
{
	const struct vms_value *v[DECISION_JSON_INPUTS] = {
		&in->inactive_anon, &in->active_anon, &in->inactive_file, &in->active_file,
		&in->free_pages, &in->high_wmark, &in->boost, &in->swap_free, &in->refault_file,
		&in->refault_anon,
	};

	for (int i = 0; i < DECISION_JSON_INPUTS; i++) {
		k[2 * i] = v[i]->lo;
		k[2 * i + 1] = v[i]->hi;
	}
}

void decision_texts_init(struct decision_texts *t)
{
	memset(t, 0, sizeof(*t));
	strmap_init(&t->ids);
}

void decision_texts_release(struct decision_texts *t)
{
	strmap_release(&t->ids, NULL);
	free(t->text);
	free(t->len);
	memset(t, 0, sizeof(*t));
}

/* The id of the text in t->scratch (@len bytes), a new one when first seen. Return: it, or -1. */
static long long id_of(struct decision_texts *t, size_t len)
{
	struct strmap_entry *e = strmap_get(&t->ids, t->scratch, len);

	if (!e)
		return -1;
	if (e->value)
		return (long long)(uintptr_t)e->value;
	if (t->n == t->alloc) {
		long long na = t->alloc ? 2 * t->alloc : 64;
		const char **nt = realloc(t->text, na * sizeof(*nt));
		size_t *nl = nt ? realloc(t->len, na * sizeof(*nl)) : NULL;

		if (nt)
			t->text = nt;
		if (!nl)
			return -1;
		t->len = nl;
		t->alloc = na;
	}
	t->text[t->n] = e->key;	/* the map's copy: it does not move when the map grows */
	t->len[t->n] = len;
	e->value = (void *)(uintptr_t)++t->n;
	return t->n;
}

/*
 * The id of text @kind (0 provenance, 1 input_range) of @in, whose values
 * are @key (@size bytes; the last record's in @kept): the last id when they
 * are the same, else made by @make. Return: the id, or -1 out of memory.
 */
static long long text_id(struct decision_texts *t, int kind, const void *key, void *kept,
			 size_t size, size_t (*make)(char *, const struct vms_pass_input *),
			 const struct vms_pass_input *in)
{
	long long id;

	if (t->have[kind] && !memcmp(key, kept, size))
		return t->last_id[kind];
	id = id_of(t, make(t->scratch, in));
	if (id < 0)
		return -1;
	memcpy(kept, key, size);
	t->have[kind] = 1;
	return t->last_id[kind] = id;
}

long long decision_provenance_id(struct decision_texts *t, const struct vms_pass_input *in)
{
	unsigned char key[DECISION_JSON_INPUTS];

	prov_key(in, key);
	return text_id(t, 0, key, t->prov, sizeof(key), decision_provenance_json, in);
}

long long decision_range_id(struct decision_texts *t, const struct vms_pass_input *in)
{
	long long key[2 * DECISION_JSON_INPUTS];

	range_key(in, key);
	return text_id(t, 1, key, t->range, sizeof(key), decision_range_json, in);
}

int decision_texts_store(struct decision_texts *t, sqlite3 *sql, const char *path)
{
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(sql, "INSERT INTO decision_json (id, json) VALUES (?, ?)", -1, &st,
			       NULL))
		return vms_error("%s: cannot store the decisions' texts: %s", path, sqlite3_errmsg(sql));
	for (long long i = 0; i < t->n && rc == SQLITE_DONE; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, i + 1);
		sqlite3_bind_text(st, 2, t->text[i], (int)t->len[i], SQLITE_STATIC);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s: cannot store the decisions' texts: %s", path,
						 sqlite3_errmsg(sql));
}
