// SPDX-License-Identifier: GPL-2.0
/*
 * trace-inference.c - what the events alone say of a reclaim pass's inputs,
 * for a recording with no counters (a trace-cmd .dat or text trace imported
 * without the logs kept beside it). Part of replay: decisions.c calls it
 * when a pass has no counter sample, evaluate.c asks whether an answer holds
 * for every value the events allow.
 *
 * The bounds, each an inferred range:
 * - a list's size is at least what the pass scanned from it shifted up by
 *   the priority: get_scan_count() targets at most lruvec_lru_size() >>
 *   priority pages of a list and shrink_lruvec() scans no more than the
 *   target (with order-0 folios; a large folio can overshoot a 32-page
 *   batch by its size). Nothing in the events bounds it from above.
 * - free swap: anon pages were isolated between the trace's first and last
 *   anon batch, so there was swap to reclaim into (at least 1 page); outside
 *   that span, or in a trace without anon reclaim, anything from none.
 * - global reclaim's free pages and high watermark: no bound at all.
 * The point value of each range is its low end, except free swap outside the
 * anon span, which is 1 when the trace shows anon reclaim at other times
 * (swap was configured) and 0 otherwise.
 *
 * An answer is decided by the trace alone when the policy gives it at every
 * corner of the box these ranges span, together with the refault inputs
 * (unknown: none or some since the last cycle) and the active lists.
 */
#include "replay.h"
#include "decisions-local.h"
#include "trace-inference.h"

void trace_facts_scan(const struct decision_stream *s, struct trace_facts *f)
{
	f->have_anon = 0;
	f->first_anon_ts = f->last_anon_ts = 0;
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
}

static void set_range(struct vms_value *v, long long value, long long lo, long long hi)
{
	v->v = value;
	v->lo = lo;
	v->hi = hi;
	v->prov = VMS_PROV_INFERRED;
}

/* @scanned << @priority, or TRACE_UNBOUNDED when that is larger */
static long long scanned_up(long long scanned, int priority)
{
	if (priority < 0 || priority > 30 || scanned <= 0)
		return scanned > 0 ? scanned : 0;
	return scanned > (TRACE_UNBOUNDED >> priority) ? TRACE_UNBOUNDED : scanned << priority;
}

void trace_infer_inputs(const struct trace_facts *f, long long ts, const long long scanned[4],
			struct vms_pass_input *in)
{
	struct vms_value *lru[4] = { &in->inactive_anon, &in->active_anon, &in->inactive_file,
				     &in->active_file };
	int in_span = f->have_anon && ts >= f->first_anon_ts && ts <= f->last_anon_ts;

	for (int i = 0; i < 4; i++) {
		long long lo = scanned_up(scanned[i], in->priority);

		set_range(lru[i], lo, lo, TRACE_UNBOUNDED);
	}
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
