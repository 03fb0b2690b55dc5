// SPDX-License-Identifier: GPL-2.0
/*
 * report-episodes.c - the 'episodes' section of `vmscope report`: one row per
 * reclaim episode (a direct, memcg, memcg soft-limit or node reclaim call from
 * the view reclaim_interval; a kswapd awake period from kswapd_interval) with
 * what the reclaimer did inside it, then the same episodes aggregated per
 * task and per node. Definitions of every column: docs/report-episodes.md.
 *
 * "Inside an episode" means: an event of the episode's task (for kswapd: of
 * any kswapd pid of that node) strictly between the begin and the end event in
 * (ts, seq) order, the order the views pair in. An episode cut by the start of
 * the trace (no begin) reaches back to the previous episode of the same kind
 * and task (node, for kswapd) or to the start of the trace; one cut by the end
 * (no end) reaches forward to the next begin or to the end of the trace.
 *
 * Percentiles are nearest-rank: the p-th percentile of n values sorted in
 * ascending order is the value of rank ceil(p * n / 100) (1-based), computed
 * in integers in vms_percentile() below; only complete episodes have a duration.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "report.h"

#define TS_MIN "-9223372036854775807"
#define TS_MAX "9223372036854775807"
#define TS_MIN_LL (-9223372036854775807LL)
#define TS_MAX_LL 9223372036854775807LL

/*
 * Every episode, per kind and task (node) in time order, with the CPUs of its
 * begin and end events; load_episodes() adds the bounds of "inside" (lo, hi:
 * exclusive, in (ts, seq) order) and keeps those overlapping the window.
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
	/* SRC_SLAB: the derive pass gives the calls (vms_episodes_slab()) */
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

struct avail {
	int lru, slab, writes, throttle;	/* 0: the run does not carry the event */
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

/*
 * Whether the run carries @event (stored in @tbl): 2 rows exist, 1 the source
 * lists its format (enabled, none fired), 0 the source lists formats but not
 * this one (not traced), -1 the source has no formats (text): unknown.
 */
static int event_state(struct vms_window *ctx, const char *tbl, const char *event)
{
	char q[256];
	long long v;

	snprintf(q, sizeof(q), "SELECT 1 FROM \"%s\" LIMIT 1", tbl);
	if (vms_window_int(ctx, q, &v) == 0)
		return 2;
	snprintf(q, sizeof(q), "SELECT 1 FROM event_format WHERE name = '%s'", event);
	if (vms_window_int(ctx, q, &v) == 0)
		return 1;
	if (vms_window_int(ctx, "SELECT 1 FROM event_format LIMIT 1", &v) == 0)
		return 0;
	return -1;
}

/*
 * Which columns the run can give (@a), and, when @t is given, the notes that
 * say why one is NULL or why its zeros may mean "not traced".
 */
static void check_avail(struct vms_window *ctx, struct table *t, struct avail *a)
{
	static const struct {
		const char *tbl, *event, *event2, *what;
	} ev[] = {
		{ "mm_vmscan_lru_shrink_inactive", "mm_vmscan_lru_shrink_inactive", NULL,
		  "scanned, reclaimed, efficiency, anon/file scanned" },
		{ "mm_shrink_slab_start", "mm_shrink_slab_start", NULL, "slab planned, scanned, freed" },
		{ "mm_vmscan_write_folio", "mm_vmscan_write_folio", "mm_vmscan_writepage",
		  "writes" },
		{ "mm_vmscan_throttled", "mm_vmscan_throttled", NULL, "throttled" },
		{ "writeback_congest_wait", "writeback_congestion_wait",
		  "writeback_wait_iff_congested", "throttled" },
	};
	int st[5], i;

	for (i = 0; i < 5; i++) {
		st[i] = event_state(ctx, ev[i].tbl, ev[i].event);
		if (ev[i].event2) {
			int s2 = event_state(ctx, ev[i].tbl, ev[i].event2);

			if (s2 > st[i])
				st[i] = s2;
		}
	}
	a->lru = st[0] != 0;
	a->slab = st[1] != 0;
	a->writes = st[2] != 0;
	a->throttle = st[3] != 0 || st[4] != 0;
	if (!t)
		return;
	for (i = 0; i < 3; i++)
		if (!st[i])
			table_note(t, "%s: unavailable (NULL): the trace has no %s%s%s format, so the "
				   "event was not traced", ev[i].what, ev[i].event,
				   ev[i].event2 ? " or " : "", ev[i].event2 ? ev[i].event2 : "");
		else if (st[i] < 0)
			table_note(t, "%s: the run has no %s events; a text trace does not say whether "
				   "the event was enabled, so 0 may mean 'not traced'", ev[i].what,
				   ev[i].event);
	if (!a->throttle)
		table_note(t, "throttled: unavailable (NULL): the trace has no format for "
			   "mm_vmscan_throttled (5.16+) nor for writeback_congestion_wait / "
			   "writeback_wait_iff_congested (up to 5.15), so they were not traced");
	else if (st[3] < 0 && st[4] < 0)
		table_note(t, "throttled: the run has no mm_vmscan_throttled or congestion-wait "
			   "events; a text trace does not say whether they were enabled, so 0 may "
			   "mean 'not traced'");
}

static int load_lost(struct vms_window *ctx, struct lost **out, int *n)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT cpu, ts FROM lost_events"
					  " WHERE count IS NULL OR count > 0");
	struct lost *l = NULL;
	int rc, alloc = 0;

	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == alloc) {
			struct lost *nl = realloc(l, (alloc = alloc ? alloc * 2 : 16) * sizeof(*l));

			if (!nl) {
				free(l);
				sqlite3_finalize(st);
				return vms_error("out of memory");
			}
			l = nl;
		}
		l[*n].cpu = col_ll(st, 0);
		l[*n].ts = col_ll(st, 1);
		(*n)++;
	}
	sqlite3_finalize(st);
	*out = l;
	if (rc != SQLITE_DONE) {
		free(l);
		return vms_error("%s", sqlite3_errmsg(ctx->sql));
	}
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
	if (sp->n == sp->alloc) {
		struct span *ns = realloc(sp->s, (sp->alloc = sp->alloc ? sp->alloc * 2 : 64) *
					  sizeof(*ns));

		if (!ns)
			return vms_error("out of memory");
		sp->s = ns;
	}
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
static int build_spans(struct vms_window *ctx, struct episode *ep, int n, struct spans *sp,
		       long long *lo, long long *hi)
{
	sqlite3_stmt *st;
	int i, rc = 0;

	st = vms_window_prepare(ctx, kswapd_pids_sql);
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
static int fill_sources(struct vms_window *ctx, struct episode *ep, struct spans *sp,
			long long lo, long long hi, unsigned mask)
{
	sqlite3_stmt *st;
	int k, rc = 0;

	for (k = 0; k < NSRC && sp->n && !rc; k++) {
		if (!(mask & (1u << k)) || !source_sql[k])
			continue;
		st = vms_window_prepare(ctx, source_sql[k]);
		if (!st)
			return -1;
		sqlite3_bind_int64(st, 3, lo);
		sqlite3_bind_int64(st, 4, hi);
		while (!rc && (rc = sqlite3_step(st)) == SQLITE_ROW)
			rc = add_row(sp, ep, (enum source)k, st);
		if (rc == SQLITE_DONE)
			rc = 0;
		else if (rc > 0)
			rc = vms_error("%s", sqlite3_errmsg(ctx->sql));
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
	if (*n == *alloc) {
		int want = *alloc ? *alloc * 2 : 64;
		struct episode *ne = realloc(*ep, want * sizeof(**ep));

		if (!ne)
			return NULL;
		*ep = ne;
		*alloc = want;
	}
	memset(&(*ep)[*n], 0, sizeof(**ep));
	return &(*ep)[(*n)++];
}

/* Columns 0..7 of both episode queries: kind, pid, comm, nid, begin/end cpu and ts. */
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
 * The episodes of the window with their bounds, nothing counted yet. The
 * bounds of "inside": the episode's own begin/end, else its neighbours' end
 * (begin) among the episodes of its kind and task (node), else the trace's.
 */
static int load_episodes(struct vms_window *ctx, struct episode **out, int *n)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, episodes_sql);
	struct episode *ep = NULL;
	long long *key = NULL;	/* per episode: gkey, b_seq, e_seq */
	int rc, i, k, alloc = 0;

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
					  : vms_error("%s", sqlite3_errmsg(ctx->sql));
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
	/* the episodes overlapping the window, in report order */
	for (i = k = 0; i < *n; i++) {
		if ((!ep[i].has_b || ep[i].b_ts <= ctx->to) && (!ep[i].has_e || ep[i].e_ts >= ctx->from))
			ep[k++] = ep[i];
		else
			free(ep[i].kind), free(ep[i].comm);
	}
	*n = k;
	qsort(ep, k, sizeof(*ep), cmp_episode);
	*out = ep;
	return 0;
}

static const char *cut_of(const struct episode *e)
{
	if (!e->has_b && !e->has_e)
		return "start end";
	return !e->has_b ? "start" : !e->has_e ? "end" : "";
}

static int episodes_table(struct vms_window *ctx, struct out *o, struct episode *ep, int n,
			  const struct avail *a)
{
	struct table *t = table_new("episodes", "episodes", "Reclaim episodes");
	struct avail dummy;
	int i, cut_start = 0, cut_end = 0, lost = 0, multi = 0;

	if (!t)
		return vms_error("out of memory");
	table_column(t, "kind", NULL, 0);
	table_column(t, "pid", NULL, 0);
	table_column(t, "comm", NULL, 0);
	table_column(t, "nid", NULL, 0);
	table_column(t, "cpu", NULL, 0);
	table_column(t, "start", "s", 6);
	table_column(t, "end", "s", 6);
	table_column(t, "duration", "ms", 3);
	table_column(t, "scanned", "pages", 0);
	table_column(t, "reclaimed", "pages", 0);
	table_column(t, "efficiency", "%", 1);
	table_column(t, "anon scanned", "pages", 0);
	table_column(t, "file scanned", "pages", 0);
	table_column(t, "min prio", NULL, 0);
	table_column(t, "slab planned", "objects", 0);
	table_column(t, "slab scanned", "objects", 0);
	table_column(t, "slab freed", "objects", 0);
	table_column(t, "writes", "folios", 0);
	table_column(t, "throttled", "ms", 3);
	table_column(t, "end reclaimed", "pages", 0);
	table_column(t, "re-wakes", NULL, 0);
	table_column(t, "cut", NULL, 0);
	table_column(t, "lost", NULL, 0);
	for (i = 0; i < n; i++) {
		struct episode *e = &ep[i];

		table_row(t);
		table_text(t, e->kind);
		table_int(t, e->pid);
		table_text(t, e->comm);
		if (e->nid == NONE)
			table_null(t);
		else
			table_int(t, e->nid);
		if (e->b_cpu != NONE)
			table_int(t, e->b_cpu);
		else if (e->e_cpu != NONE)
			table_int(t, e->e_cpu);
		else
			table_null(t);
		if (e->has_b)
			table_real(t, vms_window_rel_s(ctx, e->b_ts));
		else
			table_null(t);
		if (e->has_e)
			table_real(t, vms_window_rel_s(ctx, e->e_ts));
		else
			table_null(t);
		if (e->dur != NONE)
			table_real(t, e->dur / 1e6);
		else
			table_null(t);
		if (a->lru) {
			table_int(t, e->scanned);
			table_int(t, e->reclaimed);
			if (e->scanned)
				table_real(t, 100.0 * e->reclaimed / e->scanned);
			else
				table_null(t);
			table_int(t, e->anon);
			table_int(t, e->file);
		} else {
			table_null(t);
			table_null(t);
			table_null(t);
			table_null(t);
			table_null(t);
		}
		if (e->min_prio != NONE)
			table_int(t, e->min_prio);
		else
			table_null(t);
		if (a->slab) {
			table_int(t, e->slab_planned);
			table_int(t, e->slab_scanned);
			table_int(t, e->slab_freed);
		} else {
			table_null(t);
			table_null(t);
			table_null(t);
		}
		if (a->writes)
			table_int(t, e->writes);
		else
			table_null(t);
		if (a->throttle)
			table_real(t, e->throttle_us / 1e3);
		else
			table_null(t);
		if (e->end_rec != NONE)
			table_int(t, e->end_rec);
		else
			table_null(t);
		if (e->wakes != NONE && e->wakes > 0)
			table_int(t, e->wakes - 1);
		else
			table_null(t);
		table_text(t, cut_of(e));
		table_text(t, e->lost);
		cut_start += !e->has_b;
		cut_end += !e->has_e;
		lost += e->lost[0] != 0;
		multi += e->nnids > 1 && strcmp(e->kind, "kswapd") && strcmp(e->kind, "node");
	}
	if (!n) {
		long long v;

		if (vms_window_int(ctx, "SELECT 1 FROM reclaim_interval UNION ALL"
			       " SELECT 1 FROM kswapd_interval LIMIT 1", &v) == 0)
			table_note(t, "no reclaim episode overlaps the window %.6f .. %.6f s (the run has "
				   "episodes outside it)", vms_window_rel_s(ctx, ctx->from),
				   vms_window_rel_s(ctx, ctx->to));
		else
			table_note(t, "the run has no reclaim episodes: no direct/memcg/node reclaim "
				   "begin or end events and no kswapd wake or sleep events");
	} else {
		table_note(t, "%d episodes overlap the window %.6f .. %.6f s; each is reported whole, "
			   "with all the events inside it", n, vms_window_rel_s(ctx, ctx->from),
			   vms_window_rel_s(ctx, ctx->to));
	}
	table_note(t, "start/end: seconds from the start of the run; duration = end - begin; "
		   "kswapd rows are awake periods (first kswapd_wake after a sleep .. kswapd_sleep), "
		   "re-wakes = kswapd_wake events in the period - 1");
	table_note(t, "scanned .. throttled: the events of the episode's task (kswapd: the "
		   "node's kswapd pids) between its begin and end; end reclaimed: the end event's "
		   "own nr_reclaimed (it includes slab pages)");
	if (cut_start || cut_end)
		table_note(t, "cut: %d episodes began before the trace ('start': no begin event; "
			   "start and duration NULL), %d were still running at its end ('end': no "
			   "end event; end and duration NULL)", cut_start, cut_end);
	if (lost)
		table_note(t, "lost: %d episodes may miss events ('inside': a loss noticed inside "
			   "the episode; 'cpuN': an untimed loss on CPU N its begin or end ran on; "
			   "'anywhere': a loss with neither CPU nor time)", lost);
	if (multi)
		table_note(t, "%d direct/memcg episodes scanned more than one node: nid is the node "
			   "with the most pages scanned", multi);
	check_avail(ctx, t, &dummy);
	out_table(o, t);
	table_free(t);
	return 0;
}

/* --- aggregates ------------------------------------------------------- */

struct group {
	const struct episode *first;
	int episodes, complete, cut;
	long long total_ns, scanned, reclaimed;
	long long *dur;			/* complete episodes' durations, sorted */
};

static int cmp_task(const void *a, const void *b)
{
	const struct episode *x = *(const struct episode *const *)a;
	const struct episode *y = *(const struct episode *const *)b;
	int c = cmp_kind(x, y);

	if (c)
		return c;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

static int cmp_node(const void *a, const void *b)
{
	const struct episode *x = *(const struct episode *const *)a;
	const struct episode *y = *(const struct episode *const *)b;
	int c = cmp_kind(x, y);

	if (c)
		return c;
	return x->nid < y->nid ? -1 : x->nid > y->nid;	/* NONE (-1) first */
}

static int cmp_group_total(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	int c = strcmp(x->first->kind, y->first->kind);

	if (c)
		return c;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return x->first->pid < y->first->pid ? -1 : x->first->pid > y->first->pid;
}

/*
 * Group @ep by @cmp (sorted by it first) into *@out.
 * Return: number of groups, or -1 when out of memory.
 */
static int make_groups(struct episode *ep, int n, int (*cmp)(const void *, const void *),
		       struct group **out)
{
	const struct episode **p = malloc((n ? n : 1) * sizeof(*p));
	struct group *g = calloc(n ? n : 1, sizeof(*g));
	int i, ng = 0;

	if (!p || !g) {
		free(p);
		free(g);
		return -1;
	}
	for (i = 0; i < n; i++)
		p[i] = &ep[i];
	qsort(p, n, sizeof(*p), cmp);
	for (i = 0; i < n; i++) {
		const struct episode *e = p[i];
		struct group *cur;

		if (!ng || cmp(&g[ng - 1].first, &p[i])) {
			cur = &g[ng++];
			cur->first = e;
			cur->dur = malloc(n * sizeof(long long));
			if (!cur->dur)
				goto oom;
		}
		cur = &g[ng - 1];
		cur->episodes++;
		if (e->dur != NONE) {
			cur->dur[cur->complete++] = e->dur;
			cur->total_ns += e->dur;
		} else {
			cur->cut++;
		}
		cur->scanned += e->scanned;
		cur->reclaimed += e->reclaimed;
	}
	for (i = 0; i < ng; i++)
		qsort(g[i].dur, g[i].complete, sizeof(long long), vms_cmp_ll);
	free(p);
	*out = g;
	return ng;
oom:
	for (i = 0; i < ng; i++)
		free(g[i].dur);
	free(g);
	free(p);
	return -1;
}

static void free_groups(struct group *g, int ng)
{
	int i;

	for (i = 0; i < ng; i++)
		free(g[i].dur);
	free(g);
}

static void group_cells(struct table *t, const struct group *g, const struct avail *a)
{
	static const int ps[] = { 50, 90, 99 };
	int k;

	table_int(t, g->episodes);
	table_int(t, g->complete);
	table_int(t, g->cut);
	table_real(t, g->total_ns / 1e6);
	for (k = 0; k < 3; k++)
		if (g->complete)
			table_real(t, vms_percentile(g->dur, g->complete, ps[k]) / 1e6);
		else
			table_null(t);
	if (g->complete)
		table_real(t, g->dur[g->complete - 1] / 1e6);
	else
		table_null(t);
	if (a->lru) {
		table_int(t, g->scanned);
		table_int(t, g->reclaimed);
	} else {
		table_null(t);
		table_null(t);
	}
}

static void group_columns(struct table *t)
{
	table_column(t, "episodes", NULL, 0);
	table_column(t, "complete", NULL, 0);
	table_column(t, "cut", NULL, 0);
	table_column(t, "total", "ms", 3);
	table_column(t, "p50", "ms", 3);
	table_column(t, "p90", "ms", 3);
	table_column(t, "p99", "ms", 3);
	table_column(t, "max", "ms", 3);
	table_column(t, "scanned", "pages", 0);
	table_column(t, "reclaimed", "pages", 0);
}

static void group_notes(struct table *t)
{
	table_note(t, "p50/p90/p99: nearest-rank percentiles of the durations of the complete "
		   "episodes (the value of rank ceil(p*n/100) among the n durations sorted "
		   "ascending); total and max over complete episodes too; cut episodes are counted "
		   "in 'episodes' and 'cut' only, but their pages are in the page sums");
}

static int per_task_table(struct out *o, struct episode *ep, int n, const struct avail *a)
{
	struct table *t = table_new("episodes", "per-task", "Reclaim episodes per kind and task");
	struct group *g;
	int ng, i;

	if (!t)
		return vms_error("out of memory");
	ng = make_groups(ep, n, cmp_task, &g);
	if (ng < 0) {
		table_free(t);
		return vms_error("out of memory");
	}
	qsort(g, ng, sizeof(*g), cmp_group_total);
	table_column(t, "kind", NULL, 0);
	table_column(t, "pid", NULL, 0);
	table_column(t, "comm", NULL, 0);
	group_columns(t);
	for (i = 0; i < ng; i++) {
		table_row(t);
		table_text(t, g[i].first->kind);
		table_int(t, g[i].first->pid);
		table_text(t, g[i].first->comm);
		group_cells(t, &g[i], a);
	}
	group_notes(t);
	table_note(t, "rows sorted by kind, then total duration (largest first); a kswapd row is "
		   "the node's kswapd thread");
	out_table(o, t);
	table_free(t);
	free_groups(g, ng);
	return 0;
}

static int per_node_table(struct out *o, struct episode *ep, int n, const struct avail *a)
{
	struct table *t = table_new("episodes", "per-node", "Reclaim episodes per kind and node");
	struct group *g;
	int ng, i;

	if (!t)
		return vms_error("out of memory");
	ng = make_groups(ep, n, cmp_node, &g);
	if (ng < 0) {
		table_free(t);
		return vms_error("out of memory");
	}
	table_column(t, "kind", NULL, 0);
	table_column(t, "nid", NULL, 0);
	group_columns(t);
	for (i = 0; i < ng; i++) {
		table_row(t);
		table_text(t, g[i].first->kind);
		if (g[i].first->nid == NONE)
			table_null(t);
		else
			table_int(t, g[i].first->nid);
		group_cells(t, &g[i], a);
	}
	group_notes(t);
	table_note(t, "nid: kswapd and node reclaim name their node; a direct or memcg episode "
		   "takes the node of the mm_vmscan_lru_shrink_inactive events inside it (the one "
		   "with the most pages scanned), NULL when it has none");
	out_table(o, t);
	table_free(t);
	free_groups(g, ng);
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

struct vms_episodes {
	struct vms_window ctx;
	struct episode *ep;
	int n;
	struct spans sp;
	long long lo, hi;		/* outer bounds of all spans */
};

void vms_episodes_free(struct vms_episodes *e)
{
	if (!e)
		return;
	free_episodes(e->ep, e->n);
	free(e->sp.s);
	free(e);
}

struct vms_episodes *vms_episodes_new(struct vms_db *db)
{
	struct vms_episodes *e = calloc(1, sizeof(*e));

	if (!e) {
		vms_error("out of memory");
		return NULL;
	}
	e->ctx.db = db;
	e->ctx.sql = vms_db_sql(db);
	e->ctx.from = LLONG_MIN;
	e->ctx.to = LLONG_MAX;
	if (load_episodes(&e->ctx, &e->ep, &e->n) ||
	    build_spans(&e->ctx, e->ep, e->n, &e->sp, &e->lo, &e->hi)) {
		vms_episodes_free(e);
		return NULL;
	}
	return e;
}

int vms_episodes_inactive(struct vms_episodes *e, sqlite3_stmt *st)
{
	return add_row(&e->sp, e->ep, SRC_INACTIVE, st);
}

int vms_episodes_slab(struct vms_episodes *e, long long pid, int has_start, long long start_ts,
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
	return 0;
}

int vms_episodes_finish(struct vms_episodes *e)
{
	sqlite3_stmt *st;
	int i, rc;

	if (fill_sources(&e->ctx, e->ep, &e->sp, e->lo, e->hi,
			 1u << SRC_ACTIVE | 1u << SRC_WRITE | 1u << SRC_THROTTLE))
		return -1;
	st = vms_window_prepare(&e->ctx, "INSERT INTO episode VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
			    " ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)");
	if (!st)
		return -1;
	for (rc = 0, i = 0; i < e->n && !rc; i++) {
		const struct episode *x = &e->ep[i];

		pick_nid(&e->ep[i]);
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
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = vms_error("%s: episode: %s", vms_db_path(e->ctx.db),
				       sqlite3_errmsg(e->ctx.sql));
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The stored episodes overlapping the window, in the section's order. */
static int load_stored(struct vms_window *ctx, struct episode **out, int *n)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT kind, pid, comm, nid, begin_cpu, end_cpu, begin_ts, end_ts, inside_lo_ts,"
		" inside_hi_ts, duration_ns, scanned, reclaimed, anon, file, min_priority, slab_planned,"
		" slab_scanned, slab_freed, writes, throttle_us, end_reclaimed, wakes"
		" FROM episode WHERE (begin_ts IS NULL OR begin_ts <= ?2)"
		" AND (end_ts IS NULL OR end_ts >= ?1) ORDER BY rowid");
	struct episode *ep = NULL;
	struct lost *lost = NULL;
	int rc, i, alloc = 0, nlost = 0;

	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct episode *e = episode_push(&ep, n, &alloc);

		if (!e || episode_read(e, st)) {
			rc = SQLITE_NOMEM;
			break;
		}
		e->lo_ts = sqlite3_column_int64(st, 8);
		e->hi_ts = sqlite3_column_int64(st, 9);
		e->dur = col_ll(st, 10);
		e->scanned = sqlite3_column_int64(st, 11);
		e->reclaimed = sqlite3_column_int64(st, 12);
		e->anon = sqlite3_column_int64(st, 13);
		e->file = sqlite3_column_int64(st, 14);
		e->min_prio = col_ll(st, 15);
		e->slab_planned = sqlite3_column_int64(st, 16);
		e->slab_scanned = sqlite3_column_int64(st, 17);
		e->slab_freed = sqlite3_column_int64(st, 18);
		e->writes = sqlite3_column_int64(st, 19);
		e->throttle_us = sqlite3_column_int64(st, 20);
		e->end_rec = col_ll(st, 21);
		e->wakes = col_ll(st, 22);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free_episodes(ep, *n);
		*n = 0;
		return rc == SQLITE_NOMEM ? vms_error("out of memory")
					  : vms_error("%s", sqlite3_errmsg(ctx->sql));
	}
	/* losses are read now: lost_events is small, and tests add to it */
	if (load_lost(ctx, &lost, &nlost)) {
		free_episodes(ep, *n);
		*n = 0;
		return -1;
	}
	for (i = 0; i < *n; i++)
		flag_lost(&ep[i], lost, nlost);
	free(lost);
	*out = ep;
	return 0;
}

int report_episodes(struct vms_window *ctx, struct out *o)
{
	struct episode *ep = NULL;
	struct avail a;
	int n, rc;

	if (load_stored(ctx, &ep, &n))
		return -1;
	check_avail(ctx, NULL, &a);
	rc = episodes_table(ctx, o, ep, n, &a);
	if (!rc)
		rc = per_task_table(o, ep, n, &a);
	if (!rc)
		rc = per_node_table(o, ep, n, &a);
	free_episodes(ep, n);
	return rc;
}
