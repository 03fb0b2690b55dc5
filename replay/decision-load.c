// SPDX-License-Identifier: GPL-2.0
/*
 * decision-load.c - read the decision records back from table decision
 * into memory for the evaluation, in the order the kernel took them (a
 * kswapd run after its passes), with the latent kernel state each pass
 * started from. The latent state is modelled from the recording's own
 * passes (inferred): the 6.2+ anon/file cost (nr_pageout x 32 + rotated per
 * type, halved above a quarter of the lists) and the <= 5.7 reclaim_stat
 * recent_scanned/recent_rotated (halved above a quarter of the type).
 *
 * One plain scan of the table in rowid order: the provenance and range JSON
 * of each row are parsed here in one pass each (not with json_extract() per
 * input), and the records are sorted in C (not by an ORDER BY that makes
 * SQLite sort every wide row, spilling to temporary files on large runs).
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "replay.h"
#include "exact-inputs.h"
#include "replay-summary.h"

/* The keys of decision.provenance and decision.input_range read, in the order of the enums. */
static const char *const prov_keys[] = {
	"lru", "free", "high_wmark", "boost", "swappiness", "swap_free", "refault_file",
	"refault_anon", "swap_total", "boost_reclaim", NULL,
};
enum { P_LRU, P_FREE, P_HIGH, P_BOOST, P_SWAPPINESS, P_SWAP_FREE, P_REF_FILE, P_REF_ANON,
       P_SWAP_TOTAL, P_BOOST_RECLAIM, N_JSON_KEYS };
static const char *const range_keys[] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "free", "high_wmark",
	"boost", "swap_free", "refault_file", "refault_anon", NULL,
};
enum { R_IA, R_AA, R_IF, R_AF, R_FREE, R_HIGH, R_BOOST, R_SWAP_FREE, R_REF_FILE, R_REF_ANON };

/* The values of one row's JSON object, per key: a provenance, or a range [lo, hi]. */
struct row_json {
	int have[N_JSON_KEYS];
	enum vms_prov prov[N_JSON_KEYS];
	long long lo[N_JSON_KEYS], hi[N_JSON_KEYS];
};

static enum vms_prov prov_named(const char *p)
{
	return !strncmp(p, "exact\"", 6) ? VMS_PROV_EXACT : !strncmp(p, "sampled\"", 8) ? VMS_PROV_SAMPLED :
	       !strncmp(p, "inferred\"", 9) ? VMS_PROV_INFERRED : VMS_PROV_UNKNOWN;
}

/* The key at @p (after its opening quote) in @keys, or -1; *end past its closing quote. */
static int key_at(const char *p, const char *const *keys, const char **end)
{
	const char *q = strchr(p, '"');

	*end = NULL;
	if (!q)
		return -1;
	*end = q + 1;
	for (int k = 0; keys[k]; k++)
		if ((size_t)(q - p) == strlen(keys[k]) && !memcmp(p, keys[k], q - p))
			return k;
	return -1;
}

/*
 * Read the flat object @json as decision.provenance ("key":"exact", ...) or
 * decision.input_range ("key":[lo,hi], ...) writes it; keys not in @keys,
 * and values of another shape, are skipped (NULL @json: no key).
 */
static void json_pairs(struct row_json *out, const char *json, const char *const *keys)
{
	const char *p = json;

	while (p && (p = strchr(p, '"'))) {
		const char *end;
		int k = key_at(p + 1, keys, &end);

		if (!end || end[0] != ':')
			return;
		p = end + 1;
		if (k >= 0 && *p == '"') {
			out->have[k] = 1;
			out->prov[k] = prov_named(p + 1);
		} else if (k >= 0 && *p == '[') {
			char *e;

			out->lo[k] = strtoll(p + 1, &e, 10);
			if (*e == ',') {
				out->hi[k] = strtoll(e + 1, &e, 10);
				out->have[k] = *e == ']';
			}
		}
		if (*p == '"')
			p = strchr(p + 1, '"');	/* past the value's closing quote */
		if (p)
			p++;
	}
}

/* Column @col, its provenance (key @pk of @prov) and its range (key @rk of @range, -1 none). */
static void value_in_range(sqlite3_stmt *st, int col, const struct row_json *prov, int pk,
			   const struct row_json *range, int rk, struct vms_value *v)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL) {
		v->v = 0;
		v->prov = VMS_PROV_UNKNOWN;
	} else {
		v->v = sqlite3_column_int64(st, col);
		v->prov = prov->have[pk] ? prov->prov[pk] : VMS_PROV_UNKNOWN;
	}
	v->lo = v->hi = v->v;
	if (rk >= 0 && v->prov != VMS_PROV_UNKNOWN && range->have[rk]) {
		v->lo = range->lo[rk];
		v->hi = range->hi[rk];
	}
}

/* Latent per-node kernel state, before a pass; then the pass adds to it. */
struct latent {
	long long anon_cost, file_cost;			/* 6.2+ lruvec->anon_cost/file_cost */
	long long recent_scanned[2], recent_rotated[2];	/* <= 5.7 reclaim_stat */
	long long run_ts;		/* kswapd run the cache-trim failures below belong to */
	int cache_trim_mode_failed;
};

static void model_range(struct vms_value *v, long long x)
{
	v->v = x;
	v->prov = VMS_PROV_INFERRED;
	v->lo = x / 2;		/* the model's uncertainty, assumed: half to twice */
	v->hi = 2 * x;
}

/* Give the pass the state the kernel had before it; get_scan_count() halves recent_* first. */
static void latent_inputs(struct latent *l, struct decision *d)
{
	long long size[2] = { d->in.inactive_anon.v + d->in.active_anon.v,
			      d->in.inactive_file.v + d->in.active_file.v };

	for (int t = 0; t < 2; t++)
		if (l->recent_scanned[t] > size[t] / 4) {
			l->recent_scanned[t] /= 2;
			l->recent_rotated[t] /= 2;
		}
	model_range(&d->in.anon_cost, l->anon_cost);
	model_range(&d->in.file_cost, l->file_cost);
	for (int t = 0; t < 2; t++) {
		model_range(&d->in.recent_scanned[t], l->recent_scanned[t]);
		model_range(&d->in.recent_rotated[t], l->recent_rotated[t]);
	}
}

/*
 * What the pass adds: 6.18 lru_note_cost_unlock_irq(), cost = nr_io *
 * SWAP_CLUSTER_MAX + nr_rotated (inactive batches: nr_pageout and scanned -
 * reclaimed; active: nr_rotated; workingset restores: nr_io via
 * lru_note_cost_refault()), halved when above a quarter of the LRU
 * pages; 5.2 shrink_{in,}active_list(): recent_scanned += nr_taken,
 * recent_rotated += nr_activate (inactive) or nr_rotated (active).
 */
static void latent_update(struct latent *l, const struct decision *d)
{
	long long cost[2], lrus = d->in.inactive_anon.v + d->in.active_anon.v +
				  d->in.inactive_file.v + d->in.active_file.v;

	for (int t = 0; t < 2; t++) {
		long long kept = d->scanned[2 * t] - d->reclaimed_type[t];

		cost[t] = (d->pageout[t] + d->restored[t]) * 32 + (kept > 0 ? kept : 0) + d->rotated[t];
		l->recent_scanned[t] += d->scanned[2 * t] + d->scanned[2 * t + 1];
		l->recent_rotated[t] += d->activated[t] + d->rotated[t];
	}
	l->anon_cost += cost[0];
	l->file_cost += cost[1];
	if (l->anon_cost + l->file_cost > lrus / 4) {
		l->anon_cost /= 2;
		l->file_cost /= 2;
	}
}

static const char read_sql[] =
	"SELECT id, kind, reclaimer, nid, ts, priority, \"order\", inactive_anon, active_anon,"
	" inactive_file, active_file, free_pages, high_wmark, boost, swappiness, swap_free,"
	" refault_file, refault_anon, sample_age_ms, provenance, scanned_inactive_anon,"
	" scanned_active_anon, scanned_inactive_file, scanned_active_file, reclaimed, slab_calls,"
	" runs_since_success, restarted, episode_ts, sweep, no_cache_trim_mode, force_deactivate,"
	" reclaimed_anon, reclaimed_file, activated_anon, activated_file, rotated_anon, rotated_file,"
	" pageout_anon, pageout_file, swap_total, boost_reclaim, first_sweep_lowest,"
	" first_sweep_reclaimed, first_sweep_slab_freed, retried, restored_anon, restored_file,"
	" input_range, ts_end FROM decision";

static void load_row(sqlite3_stmt *st, struct decision *d)
{
	const char *who = (const char *)sqlite3_column_text(st, 2);
	struct row_json prov = { 0 }, range = { 0 };
	int k;

	json_pairs(&prov, (const char *)sqlite3_column_text(st, 19), prov_keys);
	json_pairs(&range, (const char *)sqlite3_column_text(st, 48), range_keys);

	memset(d, 0, sizeof(*d));
	d->id = sqlite3_column_int64(st, 0);
	d->is_run = !strcmp((const char *)sqlite3_column_text(st, 1), "kswapd_run");
	d->reclaimer_index = reclaimer_index(who);
	d->nid = sqlite3_column_type(st, 3) == SQLITE_NULL ? 0 : sqlite3_column_int(st, 3);
	d->ts = sqlite3_column_int64(st, 4);
	d->in.reclaimer = !strcmp(who, "kswapd") ? VMS_KSWAPD : !strcmp(who, "direct") ? VMS_DIRECT :
			  !strncmp(who, "memcg", 5) ? VMS_MEMCG : VMS_OTHER;
	d->in.priority = sqlite3_column_int(st, 5);
	d->lowest_priority = d->in.priority;
	d->in.order = sqlite3_column_int(st, 6);
	value_in_range(st, 7, &prov, P_LRU, &range, R_IA, &d->in.inactive_anon);
	value_in_range(st, 8, &prov, P_LRU, &range, R_AA, &d->in.active_anon);
	value_in_range(st, 9, &prov, P_LRU, &range, R_IF, &d->in.inactive_file);
	value_in_range(st, 10, &prov, P_LRU, &range, R_AF, &d->in.active_file);
	value_in_range(st, 11, &prov, P_FREE, &range, R_FREE, &d->in.free_pages);
	value_in_range(st, 12, &prov, P_HIGH, &range, R_HIGH, &d->in.high_wmark);
	value_in_range(st, 13, &prov, P_BOOST, &range, R_BOOST, &d->in.boost);
	value_in_range(st, 14, &prov, P_SWAPPINESS, &range, -1, &d->in.swappiness);
	value_in_range(st, 15, &prov, P_SWAP_FREE, &range, R_SWAP_FREE, &d->in.swap_free);
	value_in_range(st, 16, &prov, P_REF_FILE, &range, R_REF_FILE, &d->in.refault_file);
	value_in_range(st, 17, &prov, P_REF_ANON, &range, R_REF_ANON, &d->in.refault_anon);
	value_in_range(st, 40, &prov, P_SWAP_TOTAL, &range, -1, &d->in.swap_total);
	value_in_range(st, 41, &prov, P_BOOST_RECLAIM, &range, -1, &d->in.boost_reclaim);
	if (d->in.swappiness.prov == VMS_PROV_UNKNOWN)
		d->in.swappiness.v = d->in.swappiness.lo = d->in.swappiness.hi = 60;
	if (d->in.swap_total.prov == VMS_PROV_UNKNOWN)	/* older records: free swap bounds it */
		d->in.swap_total.v = d->in.swap_total.lo = d->in.swap_total.hi = d->in.swap_free.v;
	/* no snapshot yet: whether the kernel saw refaults is open */
	if (d->in.refault_file.prov == VMS_PROV_UNKNOWN)
		d->in.refault_file.hi = 1;
	if (d->in.refault_anon.prov == VMS_PROV_UNKNOWN)
		d->in.refault_anon.hi = 1;
	d->in.sample_age_ms = sqlite3_column_double(st, 18);
	for (k = 0; k < 4; k++)
		d->scanned[k] = sqlite3_column_int64(st, 20 + k);
	d->reclaimed = sqlite3_column_int64(st, 24);
	d->slab_calls = sqlite3_column_int64(st, 25);
	d->runs_since_success = sqlite3_column_int(st, 26);
	d->swept_twice = sqlite3_column_int(st, 27);
	d->episode_ts = sqlite3_column_int64(st, 28);
	d->in.sweep = sqlite3_column_int(st, 29);
	d->in.no_cache_trim_mode = sqlite3_column_int(st, 30);
	d->in.force_deactivate = sqlite3_column_int(st, 31);
	for (k = 0; k < 2; k++) {
		d->reclaimed_type[k] = sqlite3_column_int64(st, 32 + k);
		d->activated[k] = sqlite3_column_int64(st, 34 + k);
		d->rotated[k] = sqlite3_column_int64(st, 36 + k);
		d->pageout[k] = sqlite3_column_int64(st, 38 + k);
	}
	d->first_lowest = sqlite3_column_type(st, 42) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 42);
	d->first_reclaimed = sqlite3_column_int64(st, 43);
	d->first_slab_freed = sqlite3_column_int64(st, 44);
	d->retried = sqlite3_column_int(st, 45);
	d->restored[0] = sqlite3_column_int64(st, 46);
	d->restored[1] = sqlite3_column_int64(st, 47);
}

/* Where a record comes in the kernel's order: a run at its end (after its passes), else its start; then id. */
struct order_key {
	long long ts, id;
	long index;
};

static int by_order(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Put @all in the order of @keys (sorted), in place: one cycle of moves per permutation cycle. */
static void permute(struct decision *all, struct order_key *keys, long n)
{
	struct decision tmp;

	/* keys[i].index: where the record that belongs at i is now; -1 once placed */
	for (long i = 0; i < n; i++) {
		long at = i, from;

		if (keys[i].index < 0 || keys[i].index == i) {
			keys[i].index = -1;
			continue;
		}
		tmp = all[i];
		while ((from = keys[at].index) != i) {
			all[at] = all[from];
			keys[at].index = -1;
			at = from;
		}
		all[at] = tmp;
		keys[at].index = -1;
	}
}

/* Give each record, in order, the latent state of its node and its exact sizes. */
static void model_latent(struct decision *all, long n, struct exact_view *exact)
{
	struct latent lat[64];

	memset(lat, 0, sizeof(lat));
	for (long i = 0; i < n; i++) {
		struct decision *d = &all[i];
		struct latent *l = &lat[d->nid >= 0 && d->nid < 64 ? d->nid : 0];

		exact_view_sizes(exact, d->id, &d->in, d->restored);	/* exact list sizes, restores */
		/* the state the kernel had before this pass; then this pass adds to it */
		latent_inputs(l, d);
		if (d->is_run) {
			/* runs come after their passes: the first sweep's cache-trim failures */
			d->cache_trim_mode_failed = l->run_ts == d->ts && l->cache_trim_mode_failed;
			l->run_ts = -1;
			continue;
		}
		if (d->in.reclaimer == VMS_KSWAPD && d->in.sweep == 0) {
			/* 6.18 shrink_node(): nothing reclaimed while cache_trim_mode was on */
			if (l->run_ts != d->episode_ts) {
				l->run_ts = d->episode_ts;
				l->cache_trim_mode_failed = 0;
			}
			if (d->in.inactive_file.prov != VMS_PROV_UNKNOWN && kl_cache_trim_mode(&d->in) &&
			    d->reclaimed == 0)
				l->cache_trim_mode_failed = 1;
		}
		latent_update(l, d);
	}
}

int decisions_load(struct vms_db *db, struct decision **out, long *n)
{
	sqlite3 *sql = vms_db_sql(db);
	struct decision *all = NULL;
	struct order_key *keys = NULL;
	struct exact_view *exact = NULL;
	sqlite3_stmt *st = NULL;
	long alloc = 0, used = 0;
	int r;

	if (exact_view_open(sql, &exact))
		return -1;
	if (sqlite3_prepare_v2(sql, read_sql, -1, &st, NULL))
		goto sql_err;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		struct decision *d;

		if (used == alloc) {
			long na = alloc ? alloc * 2 : 1024;
			struct decision *nd = realloc(all, na * sizeof(*nd));
			struct order_key *nk = nd ? realloc(keys, na * sizeof(*nk)) : NULL;

			if (nd)
				all = nd;
			if (!nk) {
				vms_error("out of memory");
				goto err;
			}
			keys = nk;
			alloc = na;
		}
		d = &all[used];
		load_row(st, d);
		keys[used].ts = d->is_run ? sqlite3_column_int64(st, 49) : d->ts;
		keys[used].id = d->id;
		keys[used].index = used;
		used++;
	}
	if (r != SQLITE_DONE)
		goto sql_err;
	sqlite3_finalize(st);
	st = NULL;
	qsort(keys, used, sizeof(*keys), by_order);
	permute(all, keys, used);
	free(keys);
	model_latent(all, used, exact);
	exact_view_free(exact);
	*out = all;
	*n = used;
	return 0;
sql_err:
	vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(sql));
err:
	sqlite3_finalize(st);
	exact_view_free(exact);
	free(keys);
	free(all);
	return -1;
}
