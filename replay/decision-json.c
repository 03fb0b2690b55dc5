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
 * still a fifth of it, and consecutive records mostly have the same texts:
 * the _memo() variants copy the last text when its values are the same.
 */
#include <string.h>

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

/* Text @t of @m into @buf when @m has it for @key (@size bytes), else -1. */
static long copied(struct decision_json_memo *m, int t, const void *key, const void *kept,
		   size_t size, char *buf)
{
	if (!m->have[t] || memcmp(key, kept, size))
		return -1;
	memcpy(buf, m->text[t], m->len[t] + 1);
	return (long)m->len[t];
}

static size_t keep(struct decision_json_memo *m, int t, const char *buf, size_t len)
{
	memcpy(m->text[t], buf, len + 1);
	m->len[t] = len;
	m->have[t] = 1;
	return len;
}

size_t decision_provenance_json_memo(struct decision_json_memo *m, char *buf,
				     const struct vms_pass_input *in)
{
	unsigned char key[DECISION_JSON_INPUTS];
	long n;

	prov_key(in, key);
	n = copied(m, 0, key, m->prov, sizeof(key), buf);
	if (n >= 0)
		return n;
	memcpy(m->prov, key, sizeof(key));
	return keep(m, 0, buf, decision_provenance_json(buf, in));
}

size_t decision_range_json_memo(struct decision_json_memo *m, char *buf,
				const struct vms_pass_input *in)
{
	long long key[2 * DECISION_JSON_INPUTS];
	long n;

	range_key(in, key);
	n = copied(m, 1, key, m->range, sizeof(key), buf);
	if (n >= 0)
		return n;
	memcpy(m->range, key, sizeof(key));
	return keep(m, 1, buf, decision_range_json(buf, in));
}
