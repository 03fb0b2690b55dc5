// SPDX-License-Identifier: GPL-2.0
/*
 * decision-json.c - the two JSON texts of each decision record,
 * decision.provenance (input -> 'exact' | 'sampled' | 'inferred' |
 * 'unknown') and decision.input_range (input -> [lo, hi]), written into a
 * caller's buffer by plain appends: the build writes one of each per
 * record, and formatting them with printf was a quarter of its time.
 * The texts are byte for byte what decisions.c printed before.
 */
#include <string.h>

#include "vms-policy.h"
#include "decisions-local.h"

struct json_out {
	char *p, *end;
};

static void put(struct json_out *o, const char *s)
{
	size_t n = strlen(s);

	if (n > (size_t)(o->end - o->p))
		n = o->end - o->p;
	memcpy(o->p, s, n);
	o->p += n;
}

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
	put(o, d);
}

static const char *prov_text(enum vms_prov p)
{
	static const char *const names[] = { "exact", "sampled", "inferred", "unknown" };

	return names[p];
}

size_t decision_provenance_json(char *buf, const struct vms_pass_input *in)
{
	const struct { const char *key; enum vms_prov prov; } v[] = {
		{ "lru", in->inactive_file.prov }, { "free", in->free_pages.prov },
		{ "high_wmark", in->high_wmark.prov }, { "boost", in->boost.prov },
		{ "swappiness", in->swappiness.prov }, { "swap_free", in->swap_free.prov },
		{ "swap_total", in->swap_total.prov }, { "boost_reclaim", in->boost_reclaim.prov },
		{ "refault_file", in->refault_file.prov }, { "refault_anon", in->refault_anon.prov },
	};
	struct json_out o = { buf, buf + DECISION_JSON_MAX - 1 };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		put(&o, i ? ",\"" : "{\"");
		put(&o, v[i].key);
		put(&o, "\":\"");
		put(&o, prov_text(v[i].prov));
		put(&o, "\"");
	}
	put(&o, ",\"priority\":\"exact\",\"outcome\":\"exact\"}");
	*o.p = 0;
	return o.p - buf;
}

size_t decision_range_json(char *buf, const struct vms_pass_input *in)
{
	const struct { const char *key; const struct vms_value *v; } r[] = {
		{ "inactive_anon", &in->inactive_anon }, { "active_anon", &in->active_anon },
		{ "inactive_file", &in->inactive_file }, { "active_file", &in->active_file },
		{ "free", &in->free_pages }, { "high_wmark", &in->high_wmark }, { "boost", &in->boost },
		{ "swap_free", &in->swap_free }, { "refault_file", &in->refault_file },
		{ "refault_anon", &in->refault_anon },
	};
	struct json_out o = { buf, buf + DECISION_JSON_MAX - 1 };

	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		put(&o, i ? ",\"" : "{\"");
		put(&o, r[i].key);
		put(&o, "\":[");
		put_int(&o, r[i].v->lo);
		put(&o, ",");
		put_int(&o, r[i].v->hi);
		put(&o, "]");
	}
	put(&o, "}");
	*o.p = 0;
	return o.p - buf;
}
