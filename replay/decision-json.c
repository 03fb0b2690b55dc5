// SPDX-License-Identifier: GPL-2.0
/*
 * decision-json.c - the two JSON texts of each decision record,
 * decision.provenance (input -> 'exact' | 'sampled' | 'inferred' |
 * 'unknown') and decision.input_range (input -> [lo, hi]), written into a
 * caller's buffer by plain appends: the build writes one of each per
 * record, and formatting them with printf was a quarter of its time.
 * The texts are byte for byte what decisions.c printed before. The lengths
 * of the keys and fixed parts are known when compiled: a strlen() per part
 * was 6% of the build's main thread at 10M events (perf).
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
