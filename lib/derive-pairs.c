// SPDX-License-Identifier: GPL-2.0
/*
 * derive-pairs.c - the reclaim_interval and kswapd_interval passes of the derive step
 * (lib/derive.c): their begin/end events are few, so they are read into
 * memory, sorted per task (node) by (ts, seq) as the views of 006-views.sql
 * order them, and paired in one pass.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "derive-local.h"

/* ---------------------------------------------------------------- reclaim_interval */

struct rec_ev {
	long long pid, ts, seq, cpu, nid, order, nr;
	const char *gfp;
	int kind, is_begin;
};

static const char *const rec_kinds[] = { "direct", "memcg", "memcg_softlimit", "node" };
static const char *const rec_tables[][2] = {
	{ "mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end" },
	{ "mm_vmscan_memcg_reclaim_begin", "mm_vmscan_memcg_reclaim_end" },
	{ "mm_vmscan_memcg_softlimit_reclaim_begin", "mm_vmscan_memcg_softlimit_reclaim_end" },
	{ "mm_vmscan_node_reclaim_begin", "mm_vmscan_node_reclaim_end" },
};

static int cmp_rec(const void *pa, const void *pb)
{
	const struct rec_ev *a = pa, *b = pb;

	if (a->kind != b->kind)
		return a->kind - b->kind;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int load_reclaim(struct derive *d, struct evs *out)
{
	char q[256];
	int k, end;

	for (k = 0; k < 4; k++)
		for (end = 0; end < 2; end++) {
			sqlite3_stmt *st;
			struct agg *a;

			if (end)
				snprintf(q, sizeof(q), "SELECT pid, ts, seq, cpu, NULL, NULL, nr_reclaimed,"
					 " NULL FROM %s", rec_tables[k][1]);
			else
				snprintf(q, sizeof(q), "SELECT pid, ts, seq, cpu, %s, \"order\", NULL,"
					 " gfp_flags FROM %s", k == 3 ? "nid" : "NULL", rec_tables[k][0]);
			st = dv_prep(d, q);
			a = dv_agg_get(d, rec_tables[k][end], rec_tables[k][end]);
			if (!st || !a) {
				sqlite3_finalize(st);
				return st ? vms_error("out of memory") : -1;
			}
			while (sqlite3_step(st) == SQLITE_ROW) {
				struct rec_ev *e = dv_evs_push(out);

				if (!e) {
					sqlite3_finalize(st);
					return vms_error("out of memory");
				}
				e->pid = dv_col(st, 0), e->ts = dv_col(st, 1), e->seq = dv_col(st, 2);
				e->cpu = dv_col(st, 3), e->nid = dv_col(st, 4), e->order = dv_col(st, 5);
				e->nr = dv_col(st, 6);
				e->gfp = dv_intern(d, st, 7);
				e->kind = k;
				e->is_begin = !end;
				if (dv_agg_add(d, a, e->ts, e->seq)) {
					sqlite3_finalize(st);
					return -1;
				}
			}
			if (sqlite3_finalize(st) != SQLITE_OK)
				return dv_sql_fail(d, rec_tables[k][end]);
		}
	return 0;
}

int derive_reclaim(struct derive *d)
{
	struct evs ev = { .size = sizeof(struct rec_ev) };
	sqlite3_stmt *st = NULL;
	struct rec_ev *e;
	size_t i;
	int rc = -1;

	if (load_reclaim(d, &ev))
		goto out;
	e = ev.v;
	if (ev.n)	/* qsort() wants a valid pointer, even for no element */
		qsort(e, ev.n, sizeof(*e), cmp_rec);
	st = dv_prep(d, "INSERT INTO reclaim_interval VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
		  " ?10, ?11, ?12)");
	if (!st)
		goto out;
	for (i = 0; i < ev.n; i++) {
		int same_prev = i > 0 && e[i - 1].kind == e[i].kind && e[i - 1].pid == e[i].pid;
		int same_next = i + 1 < ev.n && e[i + 1].kind == e[i].kind && e[i + 1].pid == e[i].pid;
		const struct rec_ev *x = &e[i], *y = same_next && !e[i + 1].is_begin ? &e[i + 1] : NULL;

		if (!x->is_begin && same_prev && e[i - 1].is_begin)
			continue;	/* the end of the call written with its begin */
		sqlite3_bind_text(st, 1, rec_kinds[x->kind], -1, SQLITE_STATIC);
		dv_bind(st, 2, x->pid);
		dv_bind(st, 3, x->cpu);
		if (x->is_begin) {
			dv_bind(st, 4, x->nid);
			dv_bind(st, 5, x->seq);
			dv_bind(st, 6, x->ts);
			dv_bind(st, 7, y ? y->seq : NUL);
			dv_bind(st, 8, y ? y->ts : NUL);
			dv_bind(st, 9, y ? y->ts - x->ts : NUL);
			dv_bind(st, 10, x->order);
			if (x->gfp)
				sqlite3_bind_text(st, 11, x->gfp, -1, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, 11);
			dv_bind(st, 12, y ? y->nr : NUL);
		} else {	/* an end without its begin */
			for (int c = 4; c <= 11; c++)
				sqlite3_bind_null(st, c);
			dv_bind(st, 7, x->seq);
			dv_bind(st, 8, x->ts);
			dv_bind(st, 12, x->nr);
		}
		if (dv_step_reset(d, st, "reclaim_interval"))
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(ev.v);
	return rc;
}

/* ---------------------------------------------------------------- kswapd_interval */

struct ksw_ev {
	long long nid, ts, seq, pid, order;
	int is_sleep;
};

static int cmp_ksw(const void *pa, const void *pb)
{
	const struct ksw_ev *a = pa, *b = pb;

	if (a->nid != b->nid)
		return a->nid < b->nid ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static long long dv_min_ll(long long a, long long b)
{
	return a == NUL ? b : b == NUL ? a : a < b ? a : b;
}

static long long dv_max_ll(long long a, long long b)
{
	return a == NUL ? b : b == NUL ? a : a > b ? a : b;
}

int derive_kswapd(struct derive *d)
{
	static const char *const tables[] = { "mm_vmscan_kswapd_wake", "mm_vmscan_kswapd_sleep" };
	struct evs ev = { .size = sizeof(struct ksw_ev) };
	sqlite3_stmt *st = NULL;
	struct ksw_ev *e;
	size_t i, g;
	int rc = -1, t;

	for (t = 0; t < 2; t++) {
		struct agg *a = dv_agg_get(d, tables[t], tables[t]);
		char q[160];

		snprintf(q, sizeof(q), "SELECT nid, ts, seq, pid, %s FROM %s",
			 t ? "NULL" : "\"order\"", tables[t]);
		if (!a) {
			vms_error("out of memory");
			goto out;
		}
		if (!(st = dv_prep(d, q)))
			goto out;
		while (sqlite3_step(st) == SQLITE_ROW) {
			struct ksw_ev *x = dv_evs_push(&ev);

			if (!x) {
				vms_error("out of memory");
				goto out;
			}
			x->nid = dv_col(st, 0), x->ts = dv_col(st, 1), x->seq = dv_col(st, 2);
			x->pid = dv_col(st, 3), x->order = dv_col(st, 4);
			x->is_sleep = t;
			if (dv_agg_add(d, a, x->ts, x->seq))
				goto out;
		}
		if (sqlite3_finalize(st) != SQLITE_OK) {
			st = NULL;
			dv_sql_fail(d, tables[t]);
			goto out;
		}
		st = NULL;
	}
	e = ev.v;
	if (ev.n)
		qsort(e, ev.n, sizeof(*e), cmp_ksw);
	if (!(st = dv_prep(d, "INSERT INTO kswapd_interval VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")))
		goto out;
	/* a group: the events of a node after a sleep up to and including the next sleep */
	for (g = 0; g < ev.n; g = i) {
		long long pid = NUL, wseq = NUL, wts = NUL, sseq = NUL, sts = NUL, order = NUL, wakes = 0;

		for (i = g; i < ev.n && e[i].nid == e[g].nid; i++) {
			pid = dv_min_ll(pid, e[i].pid);
			if (e[i].is_sleep) {
				sseq = dv_max_ll(sseq, e[i].seq);
				sts = dv_max_ll(sts, e[i].ts);
				i++;
				break;
			}
			wseq = dv_min_ll(wseq, e[i].seq);
			wts = dv_min_ll(wts, e[i].ts);
			order = dv_max_ll(order, e[i].order);
			wakes++;
		}
		dv_bind(st, 1, e[g].nid);
		dv_bind(st, 2, pid);
		dv_bind(st, 3, wseq);
		dv_bind(st, 4, wts);
		dv_bind(st, 5, sseq);
		dv_bind(st, 6, sts);
		dv_bind(st, 7, sts != NUL && wts != NUL ? sts - wts : NUL);
		dv_bind(st, 8, wakes);
		dv_bind(st, 9, order);
		if (dv_step_reset(d, st, "kswapd_interval"))
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(ev.v);
	return rc;
}
