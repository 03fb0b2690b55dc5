// SPDX-License-Identifier: GPL-2.0
/*
 * derive-episodes.c - the episode pass of the derive step (lib/derive.c):
 * the reclaim episodes of the whole run (a direct, memcg, memcg soft-limit
 * or node reclaim call from reclaim_interval; a kswapd awake period from
 * kswapd_interval) with what the reclaimer did inside each, written to the
 * table episode, which the episodes section of `vmscope report` reads
 * (docs/report-episodes.md defines every column).
 *
 * "Inside an episode" means: an event of the episode's task (for kswapd: of
 * any kswapd pid of that node) strictly between the begin and the end event in
 * (ts, seq) order, the order the pairings use. An episode cut by the start of
 * the trace (no begin) reaches back to the previous episode of the same kind
 * and task (node, for kswapd) or to the start of the trace; one cut by the end
 * (no end) reaches forward to the next begin or to the end of the trace.
 *
 * How it works (the protocol is in derive-local.h):
 *  - dv_episodes_new() reads the episodes with their bounds and makes one
 *    "span" per (pid, episode), sorted by (pid, kind, start), so that the
 *    episode holding an event is found by binary search;
 *  - the slab and inactive passes, which read those events anyway, hand
 *    each row over (dv_episodes_slab(), dv_episodes_inactive());
 *  - dv_episodes_finish() reads the small sources (active-list, writes,
 *    throttling), flags the episodes that may miss events (lost_events),
 *    and writes the rows in the report's order.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "derive-local.h"

#define TS_MIN_LL (-9223372036854775807LL)
#define TS_MAX_LL 9223372036854775807LL

/*
 * Every episode, per kind and task (node) in time order, with the CPUs of its
 * begin and end events; load_episodes() adds the bounds of "inside" (lo, hi:
 * exclusive, in (ts, seq) order) and puts them in the report's order.
 */
static const char episodes_sql[] =
	"WITH"
	" e0 AS ("
	"  SELECT r.kind AS kind, r.pid AS gkey, r.pid AS pid, r.nid AS nid,"
	"   r.begin_ts AS b_ts, r.begin_seq AS b_seq, r.end_ts AS e_ts, r.end_seq AS e_seq,"
	"   r.duration_ns AS dur, r.nr_reclaimed AS end_rec, NULL AS wakes,"
	"   CASE WHEN r.begin_seq IS NOT NULL THEN r.cpu END AS b_cpu,"
	"   CASE WHEN r.begin_seq IS NULL THEN r.cpu"
	"    WHEN r.kind = 'direct' THEN"
	"     (SELECT x.cpu FROM mm_vmscan_direct_reclaim_end x WHERE x.seq = r.end_seq)"
	"    WHEN r.kind = 'memcg' THEN"
	"     (SELECT x.cpu FROM mm_vmscan_memcg_reclaim_end x WHERE x.seq = r.end_seq)"
	"    WHEN r.kind = 'memcg_softlimit' THEN"
	"     (SELECT x.cpu FROM mm_vmscan_memcg_softlimit_reclaim_end x WHERE x.seq = r.end_seq)"
	"    WHEN r.kind = 'node' THEN"
	"     (SELECT x.cpu FROM mm_vmscan_node_reclaim_end x WHERE x.seq = r.end_seq) END AS e_cpu"
	"  FROM reclaim_interval r"
	"  UNION ALL"
	"  SELECT 'kswapd', k.nid, k.pid, k.nid, k.wake_ts, k.wake_seq, k.sleep_ts, k.sleep_seq,"
	"   k.duration_ns, NULL, k.wakes,"
	"   (SELECT x.cpu FROM mm_vmscan_kswapd_wake x WHERE x.seq = k.wake_seq),"
	"   (SELECT x.cpu FROM mm_vmscan_kswapd_sleep x WHERE x.seq = k.sleep_seq)"
	"  FROM kswapd_interval k)"
	" SELECT kind, pid,"						/* 0, 1 */
	"  (SELECT t.comm FROM task t WHERE t.pid = e0.pid"
	"    AND COALESCE(e0.b_ts, e0.e_ts) BETWEEN t.first_ts AND t.last_ts"
	"   UNION ALL SELECT MIN(t.comm) FROM task t WHERE t.pid = e0.pid LIMIT 1),"	/* 2 */
	"  nid, b_cpu, e_cpu, b_ts, e_ts, b_seq, e_seq,"			/* 3..9 */
	"  dur, end_rec, wakes, gkey"					/* 10..13 */
	" FROM e0 ORDER BY kind, gkey, COALESCE(b_ts, e_ts), COALESCE(b_seq, e_seq)";

/* kswapd pids per node: every pid that emitted a kswapd wake or sleep for it. */
static const char kswapd_pids_sql[] =
	"SELECT nid, pid FROM mm_vmscan_kswapd_wake UNION SELECT nid, pid FROM mm_vmscan_kswapd_sleep";

/*
 * The events counted inside episodes: pid, ts, seq, then the values. Only
 * events between ?3 and ?4 (the outer bounds of all episodes) are read.
 */
enum source { SRC_INACTIVE, SRC_ACTIVE, SRC_SLAB, SRC_WRITE, SRC_THROTTLE, NSRC };

static const char *const source_sql[NSRC] = {
	[SRC_INACTIVE] = "SELECT pid, ts, seq, nid, nr_scanned, nr_reclaimed, reclaim_flags, priority"
		" FROM mm_vmscan_lru_shrink_inactive WHERE ts BETWEEN ?3 AND ?4",
	[SRC_ACTIVE] = "SELECT pid, ts, seq, priority FROM mm_vmscan_lru_shrink_active"
		" WHERE ts BETWEEN ?3 AND ?4 AND priority IS NOT NULL",
	/* SRC_SLAB: the derive pass gives the calls (dv_episodes_slab()) */
	[SRC_WRITE] = "SELECT pid, ts, seq FROM mm_vmscan_write_folio WHERE ts BETWEEN ?3 AND ?4",
	[SRC_THROTTLE] = "SELECT pid, ts, seq, usec_delayed FROM mm_vmscan_throttled"
		" WHERE ts BETWEEN ?3 AND ?4"
		" UNION ALL SELECT pid, ts, seq, usec_delayed FROM writeback_congest_wait"
		" WHERE ts BETWEEN ?3 AND ?4",
};

#define NONE (-1LL)	/* "no value" for the fields that cannot be negative */

struct nid_pages {
	long long nid, scanned;
};

struct episode {
	char *kind, *comm;
	int kind_ix;			/* index in kinds[] */
	long long pid, nid;		/* nid NONE: unknown */
	long long b_cpu, e_cpu;		/* NONE: no such event */
	int has_b, has_e;
	long long b_ts, e_ts;
	long long lo_ts, lo_seq, hi_ts, hi_seq;	/* "inside": lo < (ts, seq) < hi */
	long long dur;			/* ns; NONE when cut */
	long long scanned, reclaimed, anon, file;
	long long min_prio;		/* NONE: no event with a priority */
	long long slab_planned, slab_scanned, slab_freed, writes, throttle_us;
	long long end_rec;		/* nr_reclaimed of the end event; NONE */
	long long wakes;		/* kswapd only; NONE otherwise */
	struct nid_pages *nids;		/* pages scanned per node (LRU events inside) */
	int nnids;
	char lost[96];
};

/* Episode kinds; spans of one kind and pid never overlap. */
static const char *const kinds[] = { "direct", "memcg", "memcg_softlimit", "node", "kswapd" };
#define NKINDS ((int)(sizeof(kinds) / sizeof(kinds[0])))

/* Where one pid's events count for one episode. */
struct span {
	long long pid;
	int kind_ix, ep;
	long long lo_ts, lo_seq, hi_ts, hi_seq;
};

struct lost {
	long long cpu, ts;		/* NONE when the source does not say */
};

static long long col_ll(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NONE : sqlite3_column_int64(st, i);
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return strdup(s ? s : "");
}

static int load_lost(struct derive *d, struct lost **out, int *n)
{
	sqlite3_stmt *st = dv_prep(d, "SELECT cpu, ts FROM lost_events WHERE count IS NULL OR count > 0");
	struct lost *l = NULL;
	int rc, alloc = 0;

	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (vms_array_reserve(&l, &alloc, *n, 16, sizeof(*l))) {
			free(l);
			sqlite3_finalize(st);
			return -1;
		}
		l[*n].cpu = col_ll(st, 0);
		l[*n].ts = col_ll(st, 1);
		(*n)++;
	}
	if (rc != SQLITE_DONE) {
		dv_sql_fail(d, "lost_events");
		sqlite3_finalize(st);
		free(l);
		return -1;
	}
	sqlite3_finalize(st);
	*out = l;
	return 0;
}

/*
 * The 'lost' flag, words in this order: 'inside' when a loss was noticed at a
 * timestamp inside the episode's bounds (lo..hi, whatever its CPU); 'cpuN'
 * when a loss without a timestamp (cpustats, a text LOST line) is on CPU N
 * that the episode's begin or end event ran on; 'anywhere' when a loss has
 * neither CPU nor timestamp.
 */
static void flag_lost(struct episode *e, const struct lost *l, int nl)
{
	int i, inside = 0, anywhere = 0, hit_b = 0, hit_e = 0;
	long long c1 = e->b_cpu, c2 = e->e_cpu;
	size_t n = 0;

	for (i = 0; i < nl; i++) {
		if (l[i].ts != NONE)
			inside |= l[i].ts >= e->lo_ts && l[i].ts <= e->hi_ts;
		else if (l[i].cpu == NONE)
			anywhere = 1;
		else {
			hit_b |= l[i].cpu == e->b_cpu;
			hit_e |= l[i].cpu == e->e_cpu;
		}
	}
	if (!hit_b || (hit_e && c2 < c1)) {	/* list the CPUs ascending, once */
		long long c = c1;
		int h = hit_b;

		c1 = c2;
		hit_b = hit_e;
		c2 = c;
		hit_e = h;
	}
	if (hit_e && c2 == c1)
		hit_e = 0;
	e->lost[0] = '\0';
	if (inside)
		n += snprintf(e->lost + n, sizeof(e->lost) - n, "inside");
	if (hit_b)
		n += snprintf(e->lost + n, sizeof(e->lost) - n, "%scpu%lld", n ? " " : "", c1);
	if (hit_e)
		n += snprintf(e->lost + n, sizeof(e->lost) - n, "%scpu%lld", n ? " " : "", c2);
	if (anywhere)
		snprintf(e->lost + n, sizeof(e->lost) - n, "%sanywhere", n ? " " : "");
}

static void free_episodes(struct episode *ep, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(ep[i].kind);
		free(ep[i].comm);
		free(ep[i].nids);
	}
	free(ep);
}

static int kind_index(const char *kind)
{
	int i;

	for (i = 0; i < NKINDS; i++)
		if (!strcmp(kinds[i], kind))
			return i;
	return NKINDS - 1;
}

/* (ts, seq) order */
static int before(long long ts1, long long seq1, long long ts2, long long seq2)
{
	return ts1 < ts2 || (ts1 == ts2 && seq1 < seq2);
}

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->kind_ix != y->kind_ix)
		return x->kind_ix < y->kind_ix ? -1 : 1;
	if (before(x->lo_ts, x->lo_seq, y->lo_ts, y->lo_seq))
		return -1;
	return before(y->lo_ts, y->lo_seq, x->lo_ts, x->lo_seq);
}

struct spans {
	struct span *s;
	int n, alloc;
	long long cpid;		/* find_span(): the last pid looked up, */
	int clo, chi, cached;	/* its spans s[clo..chi) */
};

static int add_span(struct spans *sp, const struct episode *e, int ep, long long pid)
{
	if (vms_array_reserve(&sp->s, &sp->alloc, sp->n, 64, sizeof(*sp->s)))
		return -1;
	sp->s[sp->n++] = (struct span){ pid, e->kind_ix, ep, e->lo_ts, e->lo_seq, e->hi_ts,
					e->hi_seq };
	return 0;
}

/*
 * The episodes whose span of kind @k holds the event (@pid, @ts, @seq): the
 * last span of (pid, k) starting before the event, if the event is before its end.
 * Return: episode index, or -1.
 */
static int find_span(struct spans *sp, int k, long long pid, long long ts, long long seq)
{
	const struct span *s;
	int lo, hi;

	if (!sp->cached || sp->cpid != pid) {	/* the pid's spans, by binary search */
		for (lo = 0, hi = sp->n; lo < hi;) {
			int mid = lo + (hi - lo) / 2;

			if (sp->s[mid].pid < pid)
				lo = mid + 1;
			else
				hi = mid;
		}
		sp->clo = lo;
		for (hi = sp->n; lo < hi;) {
			int mid = lo + (hi - lo) / 2;

			if (sp->s[mid].pid <= pid)
				lo = mid + 1;
			else
				hi = mid;
		}
		sp->chi = lo;
		sp->cpid = pid;
		sp->cached = 1;
	}
	lo = sp->clo;
	hi = sp->chi;
	if (lo == hi || k < sp->s[lo].kind_ix || k > sp->s[hi - 1].kind_ix)
		return -1;
	/* first span of the pid not before the event's key */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct span *m = &sp->s[mid];
		int lt = m->kind_ix != k ? m->kind_ix < k : before(m->lo_ts, m->lo_seq, ts, seq);

		if (lt)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == sp->clo)
		return -1;
	s = &sp->s[lo - 1];
	if (s->kind_ix != k || !before(ts, seq, s->hi_ts, s->hi_seq))
		return -1;
	return s->ep;
}

static int add_nid_pages(struct episode *e, long long nid, long long scanned)
{
	struct nid_pages *n;
	int i;

	for (i = 0; i < e->nnids; i++)
		if (e->nids[i].nid == nid) {
			e->nids[i].scanned += scanned;
			return 0;
		}
	n = realloc(e->nids, (e->nnids + 1) * sizeof(*n));
	if (!n)
		return vms_error("out of memory");
	e->nids = n;
	n[e->nnids++] = (struct nid_pages){ nid, scanned };
	return 0;
}

static void min_prio(struct episode *e, sqlite3_stmt *st, int col)
{
	long long p = col_ll(st, col);

	if (sqlite3_column_type(st, col) != SQLITE_NULL && (e->min_prio == NONE || p < e->min_prio))
		e->min_prio = p;
}

/*
 * A do_shrink_slab() call in episode @e: its start (@end 0: planned objects,
 * priority, NONE when unknown) or its end (@end 1: freed, and when the call
 * has its start, planned - left unscanned). NULL values count as 0.
 */
static void slab_add(struct episode *e, int end, long long total, long long prio, long long freed,
		     long long left, int has_start)
{
	if (!end) {
		e->slab_planned += total;
		if (prio != NONE && (e->min_prio == NONE || prio < e->min_prio))
			e->min_prio = prio;
	} else {
		e->slab_freed += freed;
		if (has_start)
			e->slab_scanned += total - left;
	}
}

/* Add one event row of @src to episode @e. */
static int accumulate(struct episode *e, enum source src, sqlite3_stmt *st)
{
	long long v;

	switch (src) {
	case SRC_INACTIVE:
		v = sqlite3_column_int64(st, 4);
		e->scanned += v;
		e->reclaimed += sqlite3_column_int64(st, 5);
		if (sqlite3_column_int64(st, 6) & 1)
			e->anon += v;
		if (sqlite3_column_int64(st, 6) & 2)
			e->file += v;
		min_prio(e, st, 7);
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			return add_nid_pages(e, sqlite3_column_int64(st, 3), v);
		break;
	case SRC_ACTIVE:
		min_prio(e, st, 3);
		break;
	case SRC_WRITE:
		e->writes++;
		break;
	case SRC_THROTTLE:
		e->throttle_us += sqlite3_column_int64(st, 3);
		break;
	default:
		break;
	}
	return 0;
}

/* Read every event source once and add each event to the episodes holding it. */
/*
 * The spans of episodes @ep (sorted for find_span()), and the outer bounds
 * lo, hi of all of them. Return: 0, or -1.
 */
static int build_spans(struct derive *d, struct episode *ep, int n, struct spans *sp,
		       long long *lo, long long *hi)
{
	sqlite3_stmt *st;
	int i, rc = 0;

	st = dv_prep(d, kswapd_pids_sql);
	if (!st)
		return -1;
	for (i = 0; i < n && !rc; i++)
		if (strcmp(ep[i].kind, "kswapd"))
			rc = add_span(sp, &ep[i], i, ep[i].pid);
	/* kswapd: the events of every kswapd pid of the episode's node */
	while (!rc && sqlite3_step(st) == SQLITE_ROW)
		for (i = 0; i < n && !rc; i++)
			if (!strcmp(ep[i].kind, "kswapd") && ep[i].nid == col_ll(st, 0))
				rc = add_span(sp, &ep[i], i, sqlite3_column_int64(st, 1));
	sqlite3_finalize(st);
	if (rc)
		return -1;
	if (sp->n)	/* qsort() wants a valid pointer, even for no element */
		qsort(sp->s, sp->n, sizeof(*sp->s), cmp_span);
	for (i = 0; i < sp->n; i++) {
		if (!i || sp->s[i].lo_ts < *lo)
			*lo = sp->s[i].lo_ts;
		if (!i || sp->s[i].hi_ts > *hi)
			*hi = sp->s[i].hi_ts;
	}
	return 0;
}

/* Add one row of source @k (columns as in source_sql[k]) to the episodes holding it. */
static int add_row(struct spans *sp, struct episode *ep, enum source k, sqlite3_stmt *st)
{
	long long pid = sqlite3_column_int64(st, 0), ts = sqlite3_column_int64(st, 1);
	long long seq = sqlite3_column_int64(st, 2);
	int kind, rc = 0;

	for (kind = 0; kind < NKINDS && !rc; kind++) {
		int e = find_span(sp, kind, pid, ts, seq);

		if (e >= 0)
			rc = accumulate(&ep[e], k, st);
	}
	return rc;
}

/* Read the sources in @mask (bit 1 << source) and add their events to the episodes. */
static int fill_sources(struct derive *d, struct episode *ep, struct spans *sp,
			long long lo, long long hi, unsigned mask)
{
	sqlite3_stmt *st;
	int k, rc = 0;

	for (k = 0; k < NSRC && sp->n && !rc; k++) {
		if (!(mask & (1u << k)) || !source_sql[k])
			continue;
		st = dv_prep(d, source_sql[k]);
		if (!st)
			return -1;
		sqlite3_bind_int64(st, 3, lo);
		sqlite3_bind_int64(st, 4, hi);
		while (!rc && (rc = sqlite3_step(st)) == SQLITE_ROW)
			rc = add_row(sp, ep, (enum source)k, st);
		if (rc == SQLITE_DONE)
			rc = 0;
		else if (rc > 0)
			rc = dv_sql_fail(d, "episode sources");
		sqlite3_finalize(st);
	}
	return rc;
}

/* The node of a direct/memcg episode: where it scanned the most (ties: lowest nid). */
static void pick_nid(struct episode *e)
{
	int i, best = -1;

	if (e->nid != NONE)
		return;
	for (i = 0; i < e->nnids; i++)
		if (best < 0 || e->nids[i].scanned > e->nids[best].scanned ||
		    (e->nids[i].scanned == e->nids[best].scanned && e->nids[i].nid < e->nids[best].nid))
			best = i;
	if (best >= 0)
		e->nid = e->nids[best].nid;
}

/* strcmp() order of the kinds, by kind_ix: direct < kswapd < memcg < memcg_softlimit < node */
static int cmp_kind(const struct episode *x, const struct episode *y)
{
	static const int rank[NKINDS] = { 0, 2, 3, 4, 1 };

	return rank[x->kind_ix] - rank[y->kind_ix];
}

/* Make room for one more episode. Return: it, zeroed, or NULL when out of memory. */
static struct episode *episode_push(struct episode **ep, int *n, int *alloc)
{
	if (vms_array_reserve(ep, alloc, *n, 64, sizeof(**ep)))
		return NULL;
	memset(&(*ep)[*n], 0, sizeof(**ep));
	return &(*ep)[(*n)++];
}

/* Columns 0..7 of episodes_sql: kind, pid, comm, nid, begin/end cpu and ts. */
static int episode_read(struct episode *e, sqlite3_stmt *st)
{
	e->kind = col_dup(st, 0);
	e->comm = col_dup(st, 2);
	if (!e->kind || !e->comm)
		return SQLITE_NOMEM;
	e->kind_ix = kind_index(e->kind);
	e->pid = sqlite3_column_int64(st, 1);
	e->nid = col_ll(st, 3);
	e->b_cpu = col_ll(st, 4);
	e->e_cpu = col_ll(st, 5);
	e->has_b = sqlite3_column_type(st, 6) != SQLITE_NULL;
	e->has_e = sqlite3_column_type(st, 7) != SQLITE_NULL;
	e->b_ts = sqlite3_column_int64(st, 6);
	e->e_ts = sqlite3_column_int64(st, 7);
	return 0;
}

/* Report order: by begin (end when cut), then kind and pid. */
static int cmp_episode(const void *pa, const void *pb)
{
	const struct episode *x = pa, *y = pb;
	long long xt = x->has_b ? x->b_ts : x->e_ts, yt = y->has_b ? y->b_ts : y->e_ts;
	long long xs = x->has_b ? x->lo_seq : x->hi_seq, ys = y->has_b ? y->lo_seq : y->hi_seq;
	int c;

	if (xt != yt)
		return xt < yt ? -1 : 1;
	if (xs != ys)
		return xs < ys ? -1 : 1;
	if ((c = cmp_kind(x, y)))
		return c;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/*
 * The episodes of the run with their bounds, nothing counted yet. The
 * bounds of "inside": the episode's own begin/end, else its neighbours' end
 * (begin) among the episodes of its kind and task (node), else the trace's.
 */
static int load_episodes(struct derive *d, struct episode **out, int *n)
{
	sqlite3_stmt *st = dv_prep(d, episodes_sql);
	struct episode *ep = NULL;
	long long *key = NULL;	/* per episode: gkey, b_seq, e_seq */
	int rc, i, alloc = 0;

	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct episode *e = episode_push(&ep, n, &alloc);
		long long *nk = e ? realloc(key, alloc * 3 * sizeof(*key)) : NULL;

		if (!nk || (key = nk, rc = episode_read(e, st))) {
			rc = SQLITE_NOMEM;
			break;
		}
		key[3 * (*n - 1) + 1] = sqlite3_column_int64(st, 8);
		key[3 * (*n - 1) + 2] = sqlite3_column_int64(st, 9);
		e->dur = col_ll(st, 10);
		e->end_rec = col_ll(st, 11);
		e->wakes = col_ll(st, 12);
		key[3 * (*n - 1)] = col_ll(st, 13);
		e->min_prio = NONE;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free_episodes(ep, *n);
		free(key);
		*n = 0;
		return rc == SQLITE_NOMEM ? vms_error("out of memory")
					  : dv_sql_fail(d, "episodes");
	}
	for (i = 0; i < *n; i++) {
		struct episode *e = &ep[i];
		int prev = i > 0 && ep[i - 1].kind_ix == e->kind_ix && key[3 * (i - 1)] == key[3 * i];
		int next = i + 1 < *n && ep[i + 1].kind_ix == e->kind_ix && key[3 * (i + 1)] == key[3 * i];

		e->lo_ts = e->has_b ? e->b_ts : prev && ep[i - 1].has_e ? ep[i - 1].e_ts : TS_MIN_LL;
		e->lo_seq = e->has_b ? key[3 * i + 1] : prev && ep[i - 1].has_e ? key[3 * (i - 1) + 2]
										 : TS_MIN_LL;
		e->hi_ts = e->has_e ? e->e_ts : next && ep[i + 1].has_b ? ep[i + 1].b_ts : TS_MAX_LL;
		e->hi_seq = e->has_e ? key[3 * i + 2] : next && ep[i + 1].has_b ? key[3 * (i + 1) + 1]
										: TS_MAX_LL;
	}
	free(key);
	/* in the report's order, which the rows of the table keep */
	if (*n)
		qsort(ep, *n, sizeof(*ep), cmp_episode);
	*out = ep;
	return 0;
}

/* ---------------------------------------------------------------- derived once */

static void bind_none(sqlite3_stmt *st, int i, long long v)
{
	if (v == NONE)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

struct dv_episodes {
	struct derive *d;
	struct episode *ep;
	int n;
	struct spans sp;
	long long lo, hi;		/* outer bounds of all spans */
};

void dv_episodes_free(struct dv_episodes *e)
{
	if (!e)
		return;
	free_episodes(e->ep, e->n);
	free(e->sp.s);
	free(e);
}

struct dv_episodes *dv_episodes_new(struct derive *d)
{
	struct dv_episodes *e = calloc(1, sizeof(*e));

	if (!e) {
		vms_error("out of memory");
		return NULL;
	}
	e->d = d;
	if (load_episodes(d, &e->ep, &e->n) || build_spans(d, e->ep, e->n, &e->sp, &e->lo, &e->hi)) {
		dv_episodes_free(e);
		return NULL;
	}
	return e;
}

int dv_episodes_inactive(struct dv_episodes *e, sqlite3_stmt *st)
{
	return add_row(&e->sp, e->ep, SRC_INACTIVE, st);
}

void dv_episodes_slab(struct dv_episodes *e, long long pid, int has_start, long long start_ts,
		      long long start_seq, long long total, long long prio, int has_end,
		      long long end_ts, long long end_seq, long long freed, long long left)
{
	int kind, i;

	for (kind = 0; kind < NKINDS; kind++) {
		if (has_start && (i = find_span(&e->sp, kind, pid, start_ts, start_seq)) >= 0)
			slab_add(&e->ep[i], 0, total, prio, 0, 0, 1);
		if (has_end && (i = find_span(&e->sp, kind, pid, end_ts, end_seq)) >= 0)
			slab_add(&e->ep[i], 1, total, NONE, freed, left, has_start);
	}
}

/* Count the small sources, flag the losses and write the rows. Return: 0, or -1. */
int dv_episodes_finish(struct dv_episodes *e)
{
	struct lost *lost = NULL;
	sqlite3_stmt *st;
	int i, rc, nlost;

	if (fill_sources(e->d, e->ep, &e->sp, e->lo, e->hi,
			 1u << SRC_ACTIVE | 1u << SRC_WRITE | 1u << SRC_THROTTLE) ||
	    load_lost(e->d, &lost, &nlost))
		return -1;
	st = dv_prep(e->d, "INSERT INTO episode VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
		     " ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)");
	if (!st) {
		free(lost);
		return -1;
	}
	for (rc = 0, i = 0; i < e->n && !rc; i++) {
		struct episode *x = &e->ep[i];

		pick_nid(x);
		flag_lost(x, lost, nlost);
		sqlite3_bind_text(st, 1, x->kind, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, x->pid);
		sqlite3_bind_text(st, 3, x->comm, -1, SQLITE_STATIC);
		bind_none(st, 4, x->nid);
		bind_none(st, 5, x->b_cpu);
		bind_none(st, 6, x->e_cpu);
		if (x->has_b)
			sqlite3_bind_int64(st, 7, x->b_ts);
		else
			sqlite3_bind_null(st, 7);
		if (x->has_e)
			sqlite3_bind_int64(st, 8, x->e_ts);
		else
			sqlite3_bind_null(st, 8);
		sqlite3_bind_int64(st, 9, x->lo_ts);
		sqlite3_bind_int64(st, 10, x->hi_ts);
		bind_none(st, 11, x->dur);
		sqlite3_bind_int64(st, 12, x->scanned);
		sqlite3_bind_int64(st, 13, x->reclaimed);
		sqlite3_bind_int64(st, 14, x->anon);
		sqlite3_bind_int64(st, 15, x->file);
		bind_none(st, 16, x->min_prio);
		sqlite3_bind_int64(st, 17, x->slab_planned);
		sqlite3_bind_int64(st, 18, x->slab_scanned);
		sqlite3_bind_int64(st, 19, x->slab_freed);
		sqlite3_bind_int64(st, 20, x->writes);
		sqlite3_bind_int64(st, 21, x->throttle_us);
		bind_none(st, 22, x->end_rec);
		bind_none(st, 23, x->wakes);
		sqlite3_bind_int(st, 24, x->nnids);
		sqlite3_bind_text(st, 25, x->lost, -1, SQLITE_STATIC);
		rc = dv_step_reset(e->d, st, "episode");
	}
	sqlite3_finalize(st);
	free(lost);
	return rc;
}
