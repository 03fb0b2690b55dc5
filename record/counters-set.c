// SPDX-License-Identifier: GPL-2.0
/*
 * counters-set.c - the in-memory set of counters read from one file (see
 * counters-set.h): samples, values, sysctls and interned names, and the
 * clock names of --counters-clock.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "counters-set.h"

static const char *const clock_names[] = {
	[CLOCK_UNSAID] = "unsaid", [CLOCK_REALTIME_C] = "realtime", [CLOCK_MONO_C] = "mono",
	[CLOCK_BOOT_C] = "boot", [CLOCK_TRACE_C] = "trace",
};

int cset_clock_parse(const char *name)
{
	size_t i;

	for (i = CLOCK_REALTIME_C; i < sizeof(clock_names) / sizeof(*clock_names); i++)
		if (!strcmp(name, clock_names[i]))
			return (int)i;
	return -1;
}

const char *cset_clock_name(enum cset_clock c)
{
	return clock_names[c];
}

void cset_file_init(struct cset_file *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->residual = -1;
	strmap_init(&f->names);
}

void cset_file_release(struct cset_file *f)
{
	int i;

	for (i = 0; i < f->nsysctls; i++) {
		free(f->sysctls[i].name);
		free(f->sysctls[i].value);
	}
	free(f->sysctls);
	free(f->samples);
	free(f->values);
	free(f->format);
	free(f->aligned_by);
	free(f->detail);
	strmap_release(&f->names, NULL);
	memset(f, 0, sizeof(*f));
}

const char *cset_intern(struct cset_file *f, const char *s, size_t len)
{
	struct strmap_entry *e = strmap_get(&f->names, s, len);

	if (!e) {
		vms_error("out of memory");
		return NULL;
	}
	return e->key;
}

int cset_begin(struct cset_file *f, long long ts, const char *source, const char *scope,
	       size_t scope_len, long long line)
{
	struct cset_sample *s;
	const char *sc = cset_intern(f, scope, scope_len);

	if (!sc || vms_array_reserve(&f->samples, &f->samples_alloc, f->nsamples, 256, sizeof(*s)))
		return -1;
	s = &f->samples[f->nsamples];
	s->ts = ts;
	s->source = source;
	s->scope = sc;
	s->line = line;
	return f->nsamples++;
}

int cset_value(struct cset_file *f, int sample, const char *name, size_t len, long long value)
{
	const char *n = cset_intern(f, name, len);
	struct cset_value *v;

	if (!n || vms_array_reserve(&f->values, &f->values_alloc, f->nvalues, 4096, sizeof(*v)))
		return -1;
	v = &f->values[f->nvalues++];
	v->sample = sample;
	v->name = n;
	v->value = value;
	return 0;
}

int cset_sysctl(struct cset_file *f, const char *name, size_t nlen, const char *value, size_t vlen)
{
	struct cset_sysctl *s;

	if (vms_array_reserve(&f->sysctls, &f->sysctls_alloc, f->nsysctls, 64, sizeof(*s)))
		return -1;
	s = &f->sysctls[f->nsysctls];
	s->name = strndup(name, nlen);
	s->value = strndup(value, vlen);
	if (!s->name || !s->value) {
		free(s->name);
		free(s->value);
		return vms_error("out of memory");
	}
	f->nsysctls++;
	return 0;
}

void cset_series(const struct cset_file *f, const char *name, long long *out, long long dflt)
{
	const char *n = NULL;
	struct strmap_entry *e = strmap_find(&f->names, name, strlen(name));
	int i;

	for (i = 0; i < f->nsamples; i++)
		out[i] = dflt;
	if (e)
		n = e->key;
	for (i = 0; n && i < f->nvalues; i++)
		if (f->values[i].name == n)	/* interned: one pointer per name */
			out[f->values[i].sample] = f->values[i].value;
}

/* "SECONDS" or "SECONDS.FRACTION" (at most 9 digits), whole. Return: 0 and *ns, or -1. */
int cset_parse_seconds(const char *s, size_t len, long long *ns)
{
	long long sec = 0, frac = 0;
	size_t i = 0, digits = 0, fdigits = 0;

	for (; i < len && isdigit((unsigned char)s[i]); i++, digits++) {
		sec = sec * 10 + (s[i] - '0');
		if (sec > 9000000000LL)
			return -1;	/* past the year 2255: not a time (and * 1e9 fits) */
	}
	if (!digits)
		return -1;
	if (i < len && s[i] == '.') {
		for (i++; i < len && isdigit((unsigned char)s[i]); i++)
			if (fdigits < 9) {
				frac = frac * 10 + (s[i] - '0');
				fdigits++;
			}
	}
	if (i != len)
		return -1;
	for (; fdigits < 9; fdigits++)
		frac *= 10;
	*ns = sec * 1000000000LL + frac;
	return 0;
}
