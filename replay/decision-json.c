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
#include <stddef.h>
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

/*
 * The inputs each text shows, in its order: the key and where the value is
 * in struct vms_pass_input. The texts and the keys that tell whether a
 * record's text is the last record's are both made from these tables.
 */
struct json_input {
	const char *key;
	size_t len;
	size_t at;		/* offsetof the struct vms_value */
};
#define INPUT(key, field) { KEY(key), offsetof(struct vms_pass_input, field) }

/* decision.provenance: input -> its provenance */
static const struct json_input prov_inputs[] = {
	INPUT("lru", inactive_file), INPUT("free", free_pages), INPUT("high_wmark", high_wmark),
	INPUT("boost", boost), INPUT("swappiness", swappiness), INPUT("swap_free", swap_free),
	INPUT("swap_total", swap_total), INPUT("boost_reclaim", boost_reclaim),
	INPUT("refault_file", refault_file), INPUT("refault_anon", refault_anon),
};
#define PROV_INPUTS (sizeof(prov_inputs) / sizeof(prov_inputs[0]))

/* decision.input_range: input -> [lo, hi] */
static const struct json_input range_inputs[] = {
	INPUT("inactive_anon", inactive_anon), INPUT("active_anon", active_anon),
	INPUT("inactive_file", inactive_file), INPUT("active_file", active_file),
	INPUT("free", free_pages), INPUT("high_wmark", high_wmark), INPUT("boost", boost),
	INPUT("swap_free", swap_free), INPUT("refault_file", refault_file),
	INPUT("refault_anon", refault_anon),
};
#define RANGE_INPUTS (sizeof(range_inputs) / sizeof(range_inputs[0]))

_Static_assert(PROV_INPUTS <= DECISION_JSON_INPUTS_MAX && RANGE_INPUTS <= DECISION_JSON_INPUTS_MAX,
	       "more inputs than struct decision_texts keeps: raise DECISION_JSON_INPUTS_MAX");

static const struct vms_value *input_value(const struct vms_pass_input *in,
					   const struct json_input *x)
{
	return (const struct vms_value *)((const char *)in + x->at);
}

size_t decision_provenance_json(char *buf, const struct vms_pass_input *in)
{
	struct json_out o = { buf, buf + DECISION_JSON_MAX - 1 };

	for (size_t i = 0; i < PROV_INPUTS; i++) {
		if (i)
			put_lit(&o, ",\"");
		else
			put_lit(&o, "{\"");
		put_n(&o, prov_inputs[i].key, prov_inputs[i].len);
		put_lit(&o, "\":\"");
		put_prov(&o, input_value(in, &prov_inputs[i])->prov);
		put_lit(&o, "\"");
	}
	put_lit(&o, ",\"priority\":\"exact\",\"outcome\":\"exact\"}");
	*o.p = 0;
	return o.p - buf;
}

size_t decision_range_json(char *buf, const struct vms_pass_input *in)
{
	struct json_out o = { buf, buf + DECISION_JSON_MAX - 1 };

	for (size_t i = 0; i < RANGE_INPUTS; i++) {
		const struct vms_value *v = input_value(in, &range_inputs[i]);

		if (i)
			put_lit(&o, ",\"");
		else
			put_lit(&o, "{\"");
		put_n(&o, range_inputs[i].key, range_inputs[i].len);
		put_lit(&o, "\":[");
		put_int(&o, v->lo);
		put_lit(&o, ",");
		put_int(&o, v->hi);
		put_lit(&o, "]");
	}
	put_lit(&o, "}");
	*o.p = 0;
	return o.p - buf;
}

/* The provenances decision.provenance shows, in its order. */
static void prov_key(const struct vms_pass_input *in, unsigned char *k)
{
	for (size_t i = 0; i < PROV_INPUTS; i++)
		k[i] = input_value(in, &prov_inputs[i])->prov;
}

/* The ranges decision.input_range shows, in its order: lo, hi of each. */
static void range_key(const struct vms_pass_input *in, long long *k)
{
	for (size_t i = 0; i < RANGE_INPUTS; i++) {
		const struct vms_value *v = input_value(in, &range_inputs[i]);

		k[2 * i] = v->lo;
		k[2 * i + 1] = v->hi;
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
	unsigned char key[PROV_INPUTS];

	prov_key(in, key);
	return text_id(t, 0, key, t->prov, sizeof(key), decision_provenance_json, in);
}

long long decision_range_id(struct decision_texts *t, const struct vms_pass_input *in)
{
	long long key[2 * RANGE_INPUTS];

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
