// SPDX-License-Identifier: GPL-2.0
/*
 * decision-series.c - the counter samples a decision's inputs come from
 * (vmstat, a node's zones, meminfo, a memcg's memory.stat), read once into
 * memory sorted by time, so that decisions.c finds the samples before and
 * after a pass by binary search instead of a query per pass (the queries
 * read every zone sample per pass: the build grew with the square of the
 * recording). Part of replay: read by decisions.c only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "decisions-local.h"

static int name_index(const char *name, const char *const *names, int nnames)
{
	for (int i = 0; name && i < nnames; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

/* A new sample at the end of @out, zeroed. Return: it, or NULL (vms_error set). */
static struct dc_sample *append(struct dc_series *out, size_t *cap)
{
	if (out->n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 64;
		struct dc_sample *s = realloc(out->s, ncap * sizeof(*s));

		if (!s) {
			vms_error("out of memory");
			return NULL;
		}
		out->s = s;
		*cap = ncap;
	}
	memset(&out->s[out->n], 0, sizeof(out->s[0]));
	return &out->s[out->n++];
}

/*
 * Read @st's rows (ts, id, name, value; ordered by ts, id) into @out: one
 * sample per id, or with @by_ts one per time, the values summed.
 */
static int read_rows(sqlite3 *sql, sqlite3_stmt *st, const char *const *names, int nnames,
		     int by_ts, int require, struct dc_series *out)
{
	unsigned int overflow = 0;
	struct dc_sample *cur = NULL;
	size_t cap = 0;
	int r;

	dc_series_release(out);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		long long ts = sqlite3_column_int64(st, 0), id = sqlite3_column_int64(st, 1);
		int i = name_index((const char *)sqlite3_column_text(st, 2), names, nnames);

		if (!cur || (by_ts ? cur->ts != ts : cur->id != id)) {
			if (cur && require && !(cur->have & 1))
				out->n--;
			cur = append(out, &cap);
			if (!cur)
				return -1;
			cur->id = id;
			cur->ts = ts;
			overflow = 0;
		}
		if (i < 0)
			continue;
		if (!by_ts) {
			cur->v[i] = sqlite3_column_int64(st, 3);
			cur->have |= 1u << i;
		} else if (!(overflow & 1u << i)) {
			/* SQL's SUM fails on an overflow: the caller then found nothing */
			if (__builtin_add_overflow(cur->v[i], sqlite3_column_int64(st, 3), &cur->v[i])) {
				overflow |= 1u << i;
				cur->have &= ~(1u << i);
			} else {
				cur->have |= 1u << i;
			}
		}
	}
	if (cur && require && !(cur->have & 1))
		out->n--;
	if (r != SQLITE_DONE)
		return vms_error("cannot read the counter samples: %s", sqlite3_errmsg(sql));
	out->loaded = 1;
	return 0;
}

int dc_series_load(sqlite3 *sql, const char *source, const char *scope,
		   const char *const *names, int nnames, int require, struct dc_series *out)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(sql, "SELECT s.ts, s.id, v.name, v.value FROM counter_sample s"
			       " LEFT JOIN counter_value v ON v.sample = s.id WHERE s.source = ?1"
			       " AND (?2 IS NULL OR s.scope = ?2) ORDER BY s.ts, s.id", -1, &st, NULL))
		return vms_error("cannot read the counter samples: %s", sqlite3_errmsg(sql));
	sqlite3_bind_text(st, 1, source, -1, SQLITE_STATIC);
	if (scope)
		sqlite3_bind_text(st, 2, scope, -1, SQLITE_STATIC);
	rc = read_rows(sql, st, names, nnames, 0, require, out);
	sqlite3_finalize(st);
	return rc;
}

int dc_zone_load(sqlite3 *sql, int nid, const char *const *names, int nnames,
		 struct dc_series *out)
{
	sqlite3_stmt *st = NULL;
	char like[32];
	int rc;

	/* the zones of node N are scoped 'nodeN/ZONE' (the LIKE of the queries this replaces) */
	snprintf(like, sizeof(like), "node%d/%%", nid);
	if (sqlite3_prepare_v2(sql, "SELECT s.ts, s.id, v.name, v.value FROM counter_sample s"
			       " LEFT JOIN counter_value v ON v.sample = s.id"
			       " WHERE s.source = 'zoneinfo' AND s.scope LIKE ?1 ORDER BY s.ts, s.id",
			       -1, &st, NULL))
		return vms_error("cannot read the counter samples: %s", sqlite3_errmsg(sql));
	sqlite3_bind_text(st, 1, like, -1, SQLITE_TRANSIENT);
	rc = read_rows(sql, st, names, nnames, 1, 0, out);
	sqlite3_finalize(st);
	return rc;
}

/* The number of samples at or before @ts. */
static size_t count_upto(const struct dc_series *s, long long ts)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->s[mid].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct dc_sample *dc_at(const struct dc_series *s, long long ts)
{
	size_t k = count_upto(s, ts);

	return k ? &s->s[k - 1] : NULL;
}

const struct dc_sample *dc_after(const struct dc_series *s, long long ts)
{
	size_t k = count_upto(s, ts);

	return k < s->n ? &s->s[k] : NULL;
}

void dc_series_release(struct dc_series *s)
{
	free(s->s);
	s->s = NULL;
	s->n = 0;
	s->loaded = 0;
}
