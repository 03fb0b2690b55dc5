// SPDX-License-Identifier: GPL-2.0
/*
 * decision-load.c - the decision records the evaluation reads, made from
 * the rows the build stores in table decision (decisions.c keeps each row
 * it inserts, so nothing is read back from the table), in the order the
 * kernel took them (a kswapd run after its passes), with the latent kernel
 * state each pass started from. The latent state is modelled from the recording's own
 * passes (inferred): the 6.2+ anon/file cost (nr_pageout x 32 + rotated per
 * type, halved above a quarter of the lists) and the <= 5.7 reclaim_stat
 * recent_scanned/recent_rotated (halved above a quarter of the type).
 *
 * A record takes each value from its row (NULL: unknown) and its
 * provenance and range from the inputs the row's JSON texts were written
 * from (decision-json.c), as reading the row back would give them: before,
 * the table was read back with twenty json_extract() per row and an ORDER
 * BY that made SQLite sort every wide row (in temporary files at 10M
 * events); the records are sorted in C.
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "replay.h"
#include "exact-inputs.h"
#include "replay-summary.h"
#include "decisions-local.h"

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

/*
 * Column @col of @r with provenance @prov (what decision.provenance says of
 * it) and, with @range, the range decision.input_range gives it.
 */
static void value_in_range(const struct dc_row *r, int col, enum vms_prov prov,
			   const struct vms_value *range, struct vms_value *v)
{
	if (r->type[col] == SQLITE_NULL) {
		v->v = 0;
		v->prov = VMS_PROV_UNKNOWN;
	} else {
		v->v = r->i[col];
		v->prov = prov;
	}
	v->lo = v->hi = v->v;
	if (range && v->prov != VMS_PROV_UNKNOWN) {
		v->lo = range->lo;
		v->hi = range->hi;
	}
}

/* Integer column @col of @r, @null when it is NULL (as sqlite3_column_int64() reads it: 0). */
static long long int_col(const struct dc_row *r, int col, long long null)
{
	return r->type[col] == SQLITE_NULL ? null : r->i[col];
}

void dc_decision_of_row(const struct dc_row *r, long long id, struct decision *d)
{
	const struct vms_pass_input *in = r->in;	/* what the JSON texts were written from */
	const char *who = r->text[DC_RECLAIMER];
	enum vms_prov lru = in->inactive_file.prov;	/* decision.provenance's "lru" */
	int k;

	memset(d, 0, sizeof(*d));
	d->id = id;
	d->is_run = !strcmp(r->text[DC_KIND], "kswapd_run");
	d->reclaimer_index = reclaimer_index(who);
	d->nid = (int)int_col(r, DC_NID, 0);
	d->ts = int_col(r, DC_TS, 0);
	d->in.reclaimer = !strcmp(who, "kswapd") ? VMS_KSWAPD : !strcmp(who, "direct") ? VMS_DIRECT :
			  !strncmp(who, "memcg", 5) ? VMS_MEMCG : VMS_OTHER;
	d->in.priority = (int)int_col(r, DC_PRIORITY, 0);
	d->lowest_priority = d->in.priority;
	d->in.order = (int)int_col(r, DC_ORDER, 0);
	value_in_range(r, DC_INACTIVE_ANON, lru, &in->inactive_anon, &d->in.inactive_anon);
	value_in_range(r, DC_ACTIVE_ANON, lru, &in->active_anon, &d->in.active_anon);
	value_in_range(r, DC_INACTIVE_FILE, lru, &in->inactive_file, &d->in.inactive_file);
	value_in_range(r, DC_ACTIVE_FILE, lru, &in->active_file, &d->in.active_file);
	value_in_range(r, DC_FREE_PAGES, in->free_pages.prov, &in->free_pages, &d->in.free_pages);
	value_in_range(r, DC_HIGH_WMARK, in->high_wmark.prov, &in->high_wmark, &d->in.high_wmark);
	value_in_range(r, DC_BOOST, in->boost.prov, &in->boost, &d->in.boost);
	value_in_range(r, DC_SWAPPINESS, in->swappiness.prov, NULL, &d->in.swappiness);
	value_in_range(r, DC_SWAP_FREE, in->swap_free.prov, &in->swap_free, &d->in.swap_free);
	value_in_range(r, DC_REFAULT_FILE, in->refault_file.prov, &in->refault_file,
		       &d->in.refault_file);
	value_in_range(r, DC_REFAULT_ANON, in->refault_anon.prov, &in->refault_anon,
		       &d->in.refault_anon);
	value_in_range(r, DC_SWAP_TOTAL, in->swap_total.prov, NULL, &d->in.swap_total);
	value_in_range(r, DC_BOOST_RECLAIM, in->boost_reclaim.prov, NULL, &d->in.boost_reclaim);
	if (d->in.swappiness.prov == VMS_PROV_UNKNOWN)
		d->in.swappiness.v = d->in.swappiness.lo = d->in.swappiness.hi = 60;
	if (d->in.swap_total.prov == VMS_PROV_UNKNOWN)	/* older records: free swap bounds it */
		d->in.swap_total.v = d->in.swap_total.lo = d->in.swap_total.hi = d->in.swap_free.v;
	/* no snapshot yet: whether the kernel saw refaults is open */
	if (d->in.refault_file.prov == VMS_PROV_UNKNOWN)
		d->in.refault_file.hi = 1;
	if (d->in.refault_anon.prov == VMS_PROV_UNKNOWN)
		d->in.refault_anon.hi = 1;
	d->in.sample_age_ms = r->type[DC_SAMPLE_AGE_MS] == SQLITE_NULL ? 0 :
			      r->type[DC_SAMPLE_AGE_MS] == SQLITE_FLOAT ? r->f[DC_SAMPLE_AGE_MS] :
			      (double)r->i[DC_SAMPLE_AGE_MS];
	for (k = 0; k < 4; k++)
		d->scanned[k] = int_col(r, DC_SCANNED + k, 0);
	d->reclaimed = int_col(r, DC_RECLAIMED, 0);
	d->slab_calls = int_col(r, DC_SLAB_CALLS, 0);
	d->runs_since_success = (int)int_col(r, DC_RUNS_SINCE_SUCCESS, 0);
	d->swept_twice = (int)int_col(r, DC_RESTARTED, 0);
	d->episode_ts = int_col(r, DC_EPISODE_TS, 0);
	d->in.sweep = (int)int_col(r, DC_SWEEP, 0);
	d->in.no_cache_trim_mode = (int)int_col(r, DC_NO_CACHE_TRIM_MODE, 0);
	d->in.force_deactivate = (int)int_col(r, DC_FORCE_DEACTIVATE, 0);
	for (k = 0; k < 2; k++) {
		d->reclaimed_type[k] = int_col(r, DC_RECLAIMED_TYPE + k, 0);
		d->activated[k] = int_col(r, DC_ACTIVATED + k, 0);
		d->rotated[k] = int_col(r, DC_ROTATED + k, 0);
		d->pageout[k] = int_col(r, DC_PAGEOUT + k, 0);
		d->restored[k] = int_col(r, DC_RESTORED + k, 0);
		d->ref_keep[k] = int_col(r, DC_REF_KEEP + k, 0);
	}
	d->first_lowest = (int)int_col(r, DC_FIRST_SWEEP_LOWEST, -1);
	d->first_reclaimed = int_col(r, DC_FIRST_SWEEP_RECLAIMED, 0);
	d->first_slab_freed = int_col(r, DC_FIRST_SWEEP_SLAB_FREED, 0);
	d->retried = (int)int_col(r, DC_RETRIED, 0);
	d->order_ts = d->is_run ? int_col(r, DC_TS_END, 0) : d->ts;
	d->from_trace = r->type[DC_LRU_SCOPE] == SQLITE_TEXT && !strcmp(r->text[DC_LRU_SCOPE], "trace");
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

int decisions_order(struct vms_db *db, struct decision *all, long n)
{
	struct order_key *keys = malloc((n > 0 ? n : 1) * sizeof(*keys));
	struct exact_view *exact = NULL;

	if (!keys)
		return vms_error("out of memory");
	for (long i = 0; i < n; i++) {
		keys[i].ts = all[i].order_ts;
		keys[i].id = all[i].id;
		keys[i].index = i;
	}
	qsort(keys, n, sizeof(*keys), by_order);
	permute(all, keys, n);
	free(keys);
	if (exact_view_open(vms_db_sql(db), &exact))
		return -1;
	model_latent(all, n, exact);
	exact_view_free(exact);
	return 0;
}
