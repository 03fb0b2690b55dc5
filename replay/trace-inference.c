// SPDX-License-Identifier: GPL-2.0
/*
 * trace-inference.c - what the events alone say of a reclaim pass's inputs,
 * for a recording with no counters (a trace-cmd .dat or text trace imported
 * without the logs kept beside it). Part of replay: decisions.c calls it
 * when a pass has no counter sample, evaluate.c asks whether an answer holds
 * for every value the events allow.
 *
 * The bounds, each an inferred range:
 * - a list's size is at least what the pass's batches asked of it
 *   (mm_vmscan_lru_isolate nr_requested) shifted up by the priority:
 *   get_scan_count() targets at most lruvec_lru_size() >> priority pages of
 *   a list and shrink_lruvec() takes each batch's request off the target.
 *   Without isolate records only what a batch scanned is known, which a
 *   large folio pushes past the request by up to 511 pages: the bound is
 *   then 1 page a batch (or the scan less 511), the point value the scan.
 *   Nothing in the events bounds a list from above.
 * - free swap: anon pages were isolated between the trace's first and last
 *   anon batch, so there was swap to reclaim into (at least 1 page); outside
 *   that span, or in a trace without anon reclaim, anything from none.
 * - global reclaim's free pages and high watermark: no bound at all.
 * The point value of each range is its low end, except the lists without
 * isolate records (above) and free swap outside the anon span, which is 1
 * when the trace shows anon reclaim at other times (swap was configured)
 * and 0 otherwise.
 *
 * An answer is decided by the trace alone when the policy gives it at every
 * corner of the box these ranges span, together with the refault inputs
 * (unknown: none or some since the last cycle) and the active lists.
 */
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "replay.h"
#include "decisions-local.h"
#include "trace-inference.h"

static int read_fail(sqlite3 *sql, const char *path)
{
	return vms_error("%s: cannot read the LRU batches: %s", path, sqlite3_errmsg(sql));
}

static int by_task_time(const void *a, const void *b)
{
	const struct trace_batch *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/*
 * Append the rows of @query (pid, ts, lru, pages) to f->batch: with
 * @requested, pages is nr_requested, what the batch took off the target;
 * else it is what the batch scanned or took, which a large folio can push
 * past the request by up to 511 pages (the request was at least 1).
 */
static int read_batches(sqlite3 *sql, const char *path, const char *query, int requested,
			struct trace_facts *f)
{
	sqlite3_stmt *st = NULL;
	size_t cap = f->n;
	int rc;

	if (sqlite3_prepare_v2(sql, query, -1, &st, NULL))
		return sqlite3_errcode(sql) == SQLITE_ERROR ? 0 : read_fail(sql, path);	/* no table */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct trace_batch *b;
		long long pages = sqlite3_column_int64(st, 3);

		if (pages <= 0 || sqlite3_column_type(st, 2) == SQLITE_NULL)
			continue;
		if (f->n == cap) {
			size_t nc = cap ? 2 * cap : 4096;
			struct trace_batch *nb = realloc(f->batch, nc * sizeof(*nb));

			if (!nb) {
				sqlite3_finalize(st);
				return vms_error("out of memory");
			}
			f->batch = nb;
			cap = nc;
		}
		b = &f->batch[f->n++];
		b->pid = sqlite3_column_int(st, 0);
		b->ts = sqlite3_column_int64(st, 1);
		b->lru = sqlite3_column_int(st, 2) & 3;
		b->v = pages;
		b->lo = requested ? pages : pages > 512 ? pages - 511 : 1;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : read_fail(sql, path);
}

int trace_facts_load(sqlite3 *sql, const char *path, const struct decision_stream *s,
		     struct trace_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->last_pid = -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct stream_event *e = &s->ev[i];

		/* an inactive or active batch of the anon lists (no RECLAIM_WB_FILE) */
		if ((e->k != 'N' && e->k != 'A') || (e->a & 2) || e->b <= 0)
			continue;
		if (!f->have_anon || e->ts < f->first_anon_ts)
			f->first_anon_ts = e->ts;
		if (!f->have_anon || e->ts > f->last_anon_ts)
			f->last_anon_ts = e->ts;
		f->have_anon = 1;
	}
	if (read_batches(sql, path, "SELECT pid, ts, lru, nr_requested FROM mm_vmscan_lru_isolate"
			 " WHERE lru BETWEEN 0 AND 3", 1, f))
		return -1;
	f->requested = f->n > 0;
	if (!f->requested &&
	    (read_batches(sql, path, "SELECT pid, ts, (reclaim_flags & 2), nr_scanned"
			  " FROM mm_vmscan_lru_shrink_inactive", 0, f) ||
	     read_batches(sql, path, "SELECT pid, ts, 1 + (reclaim_flags & 2), nr_taken"
			  " FROM mm_vmscan_lru_shrink_active", 0, f)))
		return -1;
	qsort(f->batch, f->n, sizeof(*f->batch), by_task_time);
	return 0;
}

void trace_facts_release(struct trace_facts *f)
{
	free(f->batch);
	f->batch = NULL;
	f->n = 0;
}

static void set_range(struct vms_value *v, long long value, long long lo, long long hi)
{
	v->v = value;
	v->lo = lo;
	v->hi = hi;
	v->prov = VMS_PROV_INFERRED;
}

/* @pages << @priority, or TRACE_UNBOUNDED when that is larger */
static long long shifted_up(long long pages, int priority)
{
	if (priority < 0 || priority > 30)
		return pages;
	return pages > (TRACE_UNBOUNDED >> priority) ? TRACE_UNBOUNDED : pages << priority;
}

/* The first batch of @pid after @after, or f->n. */
static size_t first_batch(const struct trace_facts *f, int pid, long long after)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct trace_batch *b = &f->batch[mid];

		if (b->pid < pid || (b->pid == pid && b->ts <= after))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void trace_infer_inputs(struct trace_facts *f, int pid, long long ts, long long ts_end,
			struct vms_pass_input *in)
{
	struct vms_value *lru[4] = { &in->inactive_anon, &in->active_anon, &in->inactive_file,
				     &in->active_file };
	long long lo[4] = { 0 }, v[4] = { 0 };
	long long after = f->last_pid == pid ? f->last_end : -1;
	int in_span = f->have_anon && ts >= f->first_anon_ts && ts <= f->last_anon_ts;

	/* the batches since the task's previous pass, up to this one's last event */
	for (size_t i = first_batch(f, pid, after); i < f->n; i++) {
		const struct trace_batch *b = &f->batch[i];

		if (b->pid != pid || b->ts > ts_end)
			break;
		lo[b->lru] += b->lo;
		v[b->lru] += b->v;
	}
	f->last_pid = pid;
	f->last_end = ts_end;
	for (int i = 0; i < 4; i++)
		set_range(lru[i], shifted_up(v[i], in->priority), shifted_up(lo[i], in->priority),
			  TRACE_UNBOUNDED);
	if (in_span)
		set_range(&in->swap_free, 1, 1, TRACE_UNBOUNDED);
	else
		set_range(&in->swap_free, f->have_anon, 0, TRACE_UNBOUNDED);
	set_range(&in->swap_total, in->swap_free.v, in->swap_free.v, in->swap_free.v);
	if (in->reclaimer != VMS_MEMCG) {
		set_range(&in->free_pages, 0, 0, TRACE_UNBOUNDED);
		set_range(&in->high_wmark, 0, 0, TRACE_UNBOUNDED);
	}
}

/* The inputs a box spans: those the events leave open. */
static const size_t box_inputs[] = {
	offsetof(struct vms_pass_input, refault_file), offsetof(struct vms_pass_input, refault_anon),
	offsetof(struct vms_pass_input, active_file), offsetof(struct vms_pass_input, active_anon),
	offsetof(struct vms_pass_input, swap_free), offsetof(struct vms_pass_input, inactive_file),
	offsetof(struct vms_pass_input, inactive_anon), offsetof(struct vms_pass_input, free_pages),
	offsetof(struct vms_pass_input, high_wmark),
};
#define N_BOX (sizeof(box_inputs) / sizeof(box_inputs[0]))

static struct vms_value *box_input(struct vms_pass_input *in, size_t i)
{
	return (struct vms_value *)((char *)in + box_inputs[i]);
}

int trace_box_holds(const struct vms_pass_input *in,
		    int (*ask)(void *ctx, const struct vms_pass_input *x), void *ctx, int answer)
{
	struct vms_pass_input x = *in;
	struct vms_value *open[N_BOX];
	size_t n = 0;

	for (size_t i = 0; i < N_BOX; i++) {
		struct vms_value *v = box_input(&x, i);

		if (v->lo != v->hi)
			open[n++] = v;
	}
	/*
	 * Every combination of ends; the refaults and active lists come first,
	 * as they flip most answers, so a soft answer is found in a few asks.
	 */
	for (unsigned long corner = 0; corner < (1UL << n); corner++) {
		for (size_t i = 0; i < n; i++)
			open[i]->v = corner & (1UL << i) ? open[i]->hi : open[i]->lo;
		x.swap_total.v = x.swap_free.v;
		if (ask(ctx, &x) != answer)
			return 0;
	}
	return 1;
}
