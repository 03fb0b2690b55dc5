// SPDX-License-Identifier: GPL-2.0
/*
 * report-boost.c - the 'boost' section of `vmscope report`: which kswapd runs
 * were boosted (a zone's watermark_boost set by fragmentation fallbacks,
 * 5.0+), from which evidence, and what they reclaimed: LRU pages and slab
 * objects, against the other kswapd runs. The 2019 boosted-kswapd report
 * (5.0-5.2 skipped shrink_slab() while boosted) is about exactly these runs.
 *
 * A run (kswapd_run: a wake to the node's next wake or sleep) is boosted
 * when the first /proc/zoneinfo sample taken during it shows a boost on its
 * node ('zoneinfo during'), or, with no sample during it, the last sample
 * before its wake shows one and was taken after the node's previous run
 * ended ('zoneinfo before': only the end of a boosted run clears the boost).
 * Boosting fallbacks (kmem:mm_page_alloc_extfrag below the pageblock order
 * that try to claim the block: BOOSTING below) since the previous run's
 * wake (a boost added during that run outlives its end) are counted as
 * supporting evidence; a run with them but no sample to tell is
 * 'fallbacks only'. Rules and caveats:
 * docs/report-boost.md.
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "report.h"

/* pageblock_order on x86_64 (HPAGE_PMD_ORDER): a fallback below it fragments and boosts */
#define PAGEBLOCK_ORDER 9
/*
 * A fallback that boosts on 6.15+ (try_to_claim_block(), gated by
 * should_try_claim_block()): below the pageblock order, for an unmovable or
 * reclaimable allocation, or from a free block of order >= pageblock_order / 2.
 * Before 6.15 every fallback below the pageblock order did.
 */
#define BOOSTING "(f.fallback_order < ?3 AND (f.alloc_migratetype <> 1 OR f.fallback_order >= ?3 / 2))"
/* boosted runs listed one by one, the first ones of the window */
#define RUNS_LISTED 40

enum run_class { BOOSTED_DURING, BOOSTED_BEFORE, FALLBACKS_ONLY, NOT_BOOSTED, N_CLASSES };

static const char *const class_name[N_CLASSES] = {
	"boosted (zoneinfo during)", "boosted (zoneinfo before)", "fallbacks only", "not boosted",
};

struct boost_sample {
	long long nid, ts, boost;
};

struct boost_series {
	struct boost_sample *v;
	int n;
	int no_boosting;	/* the recorded vm.watermark_boost_factor is 0 */
};

struct class_sum {
	long long runs, scanned, reclaimed, slab_calls, slab_freed, ns;
};

static int sql_fail(struct vms_window *ctx)
{
	return vms_error("%s: %s", vms_db_path(ctx->db), sqlite3_errmsg(ctx->sql));
}

/* Node boosts per zoneinfo sample (the zones of one read share a ts), by node and time. */
static int load_boost(struct vms_window *ctx, struct boost_series *s)
{
	sqlite3_stmt *st = vms_window_prepare(ctx,
		"SELECT CAST(substr(s.scope, 5, instr(s.scope, '/') - 5) AS INTEGER) AS nid, s.ts,"
		" SUM(v.value) FROM counter_sample s JOIN counter_value v ON v.sample = s.id"
		" WHERE s.source = 'zoneinfo' AND v.name = 'boost' AND s.scope GLOB 'node[0-9]*/*'"
		" GROUP BY nid, s.ts ORDER BY nid, s.ts");
	int rc, alloc = 0;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (s->n == alloc) {
			struct boost_sample *p;

			alloc = alloc ? 2 * alloc : 256;
			p = realloc(s->v, alloc * sizeof(*p));
			if (!p) {
				sqlite3_finalize(st);
				return vms_error("out of memory");
			}
			s->v = p;
		}
		s->v[s->n].nid = sqlite3_column_int64(st, 0);
		s->v[s->n].ts = sqlite3_column_int64(st, 1);
		s->v[s->n].boost = sqlite3_column_int64(st, 2);
		s->n++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(ctx);
}

/* Index of the first sample of @nid at or after @ts (s->n when none). */
static int first_at(const struct boost_series *s, long long nid, long long ts)
{
	int lo = 0, hi = s->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct boost_sample *m = &s->v[mid];

		if (m->nid < nid || (m->nid == nid && m->ts < ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The class of a run from the samples around it: @boost is set to the boost
 * the evidence shows (0 when none).
 */
static enum run_class classify(const struct boost_series *s, long long nid, long long wake,
			       int open, long long end, int has_prev, long long prev_end,
			       long long fallbacks, long long *boost)
{
	int i = first_at(s, nid, wake);

	*boost = 0;
	if (s->no_boosting)
		fallbacks = 0;	/* vm.watermark_boost_factor 0: no fallback boosts */
	if (i < s->n && s->v[i].nid == nid && (open || s->v[i].ts <= end)) {
		*boost = s->v[i].boost;
		return s->v[i].boost > 0 ? BOOSTED_DURING : NOT_BOOSTED;
	}
	if (i > 0 && s->v[i - 1].nid == nid && (!has_prev || s->v[i - 1].ts > prev_end)) {
		*boost = s->v[i - 1].boost;
		if (s->v[i - 1].boost > 0)
			return BOOSTED_BEFORE;
		return fallbacks ? FALLBACKS_ONLY : NOT_BOOSTED;
	}
	return fallbacks ? FALLBACKS_ONLY : NOT_BOOSTED;
}

/* The recorded vm.watermark_boost_factor: 0 turns boosting off (a note says so). */
static int boost_factor(struct vms_window *ctx, struct boost_series *s, struct table *t)
{
	long long v;
	int rc = vms_window_int(ctx, "SELECT CAST(value AS INTEGER) FROM sysctl"
				" WHERE name = 'vm.watermark_boost_factor'", &v);

	if (rc < 0)
		return -1;
	if (rc == 0 && v == 0) {
		s->no_boosting = 1;
		table_note(t, "vm.watermark_boost_factor was 0 during the recording: no fallback "
			   "boosts, so none counts as evidence ('fallbacks only' stays empty)");
	}
	return 0;
}

static int table_exists(struct vms_window *ctx, const char *name)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT 1 FROM sqlite_master WHERE name = ?3");
	int found;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

static void columns_runs(struct table *t)
{
	table_column(t, "node", NULL, 0);
	table_column(t, "run", NULL, 0);
	table_column(t, "start", "s", 3);
	table_column(t, "duration", "ms", 1);
	table_column(t, "boost", "pages", 0);
	table_column(t, "evidence", NULL, 0);
	table_column(t, "fallbacks_before", NULL, 0);
	table_column(t, "lru_scanned", "pages", 0);
	table_column(t, "lru_reclaimed", "pages", 0);
	table_column(t, "slab_calls", NULL, 0);
	table_column(t, "slab_freed", "objects", 0);
}

/*
 * Every kswapd run overlapping the window, with the run before it on its
 * node, its fragmenting fallbacks since that run's wake, and its slab work
 * (mm_shrink_slab_end of the kswapd between the wake and the end, by seq).
 */
static const char runs_sql[] =
	"WITH r AS (SELECT nid, run, pid, wake_seq, wake_ts, end_seq, end_ts, nr_scanned,"
	" nr_reclaimed, LAG(end_ts) OVER n AS prev_end, LAG(wake_seq) OVER n AS prev_wake_seq"
	" FROM kswapd_run WINDOW n AS (PARTITION BY nid ORDER BY run))"
	" SELECT nid, run, wake_ts, end_ts, prev_end IS NOT NULL, prev_end,"
	" (SELECT COUNT(*) FROM mm_page_alloc_extfrag f WHERE f.seq < r.wake_seq"
	"  AND f.seq > COALESCE(r.prev_wake_seq, 0) AND " BOOSTING ")," 
	" nr_scanned, nr_reclaimed,"
	" (SELECT COUNT(*) FROM mm_shrink_slab_end e WHERE e.pid = r.pid AND e.seq > r.wake_seq"
	"  AND (r.end_seq IS NULL OR e.seq < r.end_seq)),"
	" (SELECT COALESCE(SUM(e.retval), 0) FROM mm_shrink_slab_end e WHERE e.pid = r.pid"
	"  AND e.seq > r.wake_seq AND (r.end_seq IS NULL OR e.seq < r.end_seq))"
	" FROM r WHERE wake_ts <= ?2 AND (end_ts IS NULL OR end_ts >= ?1) ORDER BY wake_ts, nid";

static int scan_runs(struct vms_window *ctx, const struct boost_series *s, struct table *runs,
		     struct class_sum *sum)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, runs_sql);
	int rc, listed = 0;

	if (!st)
		return -1;
	sqlite3_bind_int(st, 3, PAGEBLOCK_ORDER);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long nid = sqlite3_column_int64(st, 0), wake = sqlite3_column_int64(st, 2);
		int open = sqlite3_column_type(st, 3) == SQLITE_NULL;
		long long end = open ? ctx->run_end : sqlite3_column_int64(st, 3);
		long long fallbacks = sqlite3_column_int64(st, 6), boost;
		enum run_class c = classify(s, nid, wake, open, end, sqlite3_column_int(st, 4),
					    sqlite3_column_int64(st, 5), fallbacks, &boost);
		struct class_sum *p = &sum[c];

		p->runs++;
		p->scanned += sqlite3_column_int64(st, 7);
		p->reclaimed += sqlite3_column_int64(st, 8);
		p->slab_calls += sqlite3_column_int64(st, 9);
		p->slab_freed += sqlite3_column_int64(st, 10);
		p->ns += end - wake;
		if (c > BOOSTED_BEFORE || listed++ >= RUNS_LISTED)
			continue;
		table_row(runs);
		table_int(runs, nid);
		table_int(runs, sqlite3_column_int64(st, 1));
		table_real(runs, vms_window_rel_s(ctx, wake));
		table_real(runs, (end - wake) / 1e6);
		table_int(runs, boost);
		table_text(runs, c == BOOSTED_DURING ? "zoneinfo during" : "zoneinfo before");
		table_int(runs, fallbacks);
		table_int(runs, sqlite3_column_int64(st, 7));
		table_int(runs, sqlite3_column_int64(st, 8));
		table_int(runs, sqlite3_column_int64(st, 9));
		table_int(runs, sqlite3_column_int64(st, 10));
	}
	sqlite3_finalize(st);
	if (listed > RUNS_LISTED)
		table_note(runs, "the first %d of %d boosted runs in the window", RUNS_LISTED, listed);
	return rc == SQLITE_DONE ? 0 : sql_fail(ctx);
}

static void emit_classes(struct table *t, const struct class_sum *sum)
{
	int c;

	for (c = 0; c < N_CLASSES; c++) {
		const struct class_sum *p = &sum[c];

		table_row(t);
		table_text(t, class_name[c]);
		table_int(t, p->runs);
		table_real(t, p->ns / 1e9);
		table_int(t, p->scanned);
		table_int(t, p->reclaimed);
		table_int(t, p->slab_calls);
		table_int(t, p->slab_freed);
		if (p->reclaimed > 0)
			table_real(t, (double)p->slab_freed / p->reclaimed);
		else
			table_null(t);
	}
}

/* The evidence the window holds: boost samples and fallbacks, for the notes. */
static int evidence_notes(struct vms_window *ctx, struct table *t, const struct boost_series *s)
{
	long long frag = 0, claim = 0, owner = 0, all = 0, peak = 0;
	int i, samples = 0, boosted = 0;
	sqlite3_stmt *st;

	for (i = 0; i < s->n; i++)
		if (s->v[i].ts >= ctx->from && s->v[i].ts <= ctx->to) {
			samples++;
			boosted += s->v[i].boost > 0;
			if (s->v[i].boost > peak)
				peak = s->v[i].boost;
		}
	st = vms_window_prepare(ctx, "SELECT COUNT(*), COALESCE(SUM(f.fallback_order < ?3), 0),"
				" COALESCE(SUM(" BOOSTING "), 0),"
				" COALESCE(SUM(" BOOSTING " AND f.change_ownership), 0)"
				" FROM mm_page_alloc_extfrag f WHERE f.ts BETWEEN ?1 AND ?2");
	if (!st)
		return -1;
	sqlite3_bind_int(st, 3, PAGEBLOCK_ORDER);
	if (sqlite3_step(st) == SQLITE_ROW) {
		all = sqlite3_column_int64(st, 0);
		frag = sqlite3_column_int64(st, 1);
		claim = sqlite3_column_int64(st, 2);
		owner = sqlite3_column_int64(st, 3);
	}
	sqlite3_finalize(st);
	if (!s->n)
		table_note(t, "no zoneinfo boost samples (zoneinfo prints boost since about 5.15, and only "
			   "`vmscope record` samples it): no run can be shown boosted, only 'fallbacks only'");
	else
		table_note(t, "zoneinfo: node boost > 0 in %d of %d samples in the window, at most %lld "
			   "pages (%lld MiB)", boosted, samples, peak, peak * 4 / 1024);
	if (!all)
		table_note(t, "no kmem:mm_page_alloc_extfrag events in the window (none happened, or "
			   "the event was not recorded: `record -e` without it)");
	else
		table_note(t, "fallbacks (mm_page_alloc_extfrag): %lld, fragmenting (fallback order < "
			   "%d) %lld, of which %lld tried to claim the pageblock (unmovable or reclaimable, "
			   "or order >= %d: the ones that boost on 6.15+; fallbacks_before counts them) and "
			   "%lld changed its owner", all, PAGEBLOCK_ORDER, frag, claim, PAGEBLOCK_ORDER / 2,
			   owner);
	table_note(t, "slab_per_page: slab objects freed per LRU page reclaimed; on 5.0-5.2 a "
		   "boosted kswapd skipped shrink_slab(): its slab_freed would be 0 (vmscope replay "
		   "--policy v5.0-boost-noslab asks the question per run)");
	return 0;
}

int report_boost(struct vms_window *ctx, struct out *o)
{
	struct table *t = table_new("boost", "runs", "kswapd runs by watermark boost"),
		     *runs = table_new("boost", "boosted", "Boosted kswapd runs");
	struct class_sum sum[N_CLASSES];
	struct boost_series s = { 0 };
	int have, rc = -1;

	memset(sum, 0, sizeof(sum));
	if (!t || !runs) {
		vms_error("out of memory");
		goto out;
	}
	table_column(t, "class", NULL, 0);
	table_column(t, "runs", NULL, 0);
	table_column(t, "time", "s", 3);
	table_column(t, "lru_scanned", "pages", 0);
	table_column(t, "lru_reclaimed", "pages", 0);
	table_column(t, "slab_calls", NULL, 0);
	table_column(t, "slab_freed", "objects", 0);
	table_column(t, "slab_per_page", NULL, 2);
	columns_runs(runs);
	have = table_exists(ctx, "kswapd_run");
	if (have < 0)
		goto out;
	if (!have) {
		table_note(t, "no kswapd_run table: the database predates it (`vmscope upgrade` adds it)");
		out_table(o, t);
		rc = 0;
		goto out;
	}
	if (load_boost(ctx, &s) || boost_factor(ctx, &s, t) || scan_runs(ctx, &s, runs, sum))
		goto out;
	emit_classes(t, sum);
	if (evidence_notes(ctx, t, &s))
		goto out;
	table_note(t, "boosted: the first zoneinfo sample during the run shows a boost on its node "
		   "(during), or, with none during it, the last one before the wake, taken after the "
		   "node's previous run ended (before); fallbacks only: boosting fallbacks since the "
		   "previous run's wake and no sample to tell (docs/report-boost.md)");
	if (!table_rows(runs))
		table_note(runs, "no boosted kswapd run in the window");
	out_table(o, t);
	out_table(o, runs);
	rc = 0;
out:
	free(s.v);
	table_free(t);
	table_free(runs);
	return rc;
}
