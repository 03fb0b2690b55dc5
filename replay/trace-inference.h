/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-inference.h - the inputs of a reclaim pass that the events alone
 * bound, for a recording with no counters (a trace-cmd .dat or a text trace
 * imported bare), and the test of whether an answer holds for every value
 * those bounds allow. See trace-inference.c.
 */
#ifndef VMS_TRACE_INFERENCE_H
#define VMS_TRACE_INFERENCE_H

#include "vms-policy.h"

struct decision_stream;

/* "No bound from the events": the top of an inferred range, in pages. */
#define TRACE_UNBOUNDED (1LL << 36)

/* What the whole trace shows, read once before the passes are rebuilt. */
struct trace_facts {
	int have_anon;			/* some reclaimer isolated anon pages */
	long long first_anon_ts, last_anon_ts;	/* the first and last such batch */
};

/* The facts of the events in @s (every event, in any order). */
void trace_facts_scan(const struct decision_stream *s, struct trace_facts *f);

/*
 * Fill the list sizes, free swap and (global reclaim) the free pages and
 * high watermark of @in, a pass at @ts whose batches scanned @scanned
 * (inactive/active anon/file), from the events alone: each an inferred
 * range. The other inputs are left as they are.
 */
void trace_infer_inputs(const struct trace_facts *f, long long ts, const long long scanned[4],
			struct vms_pass_input *in);

/*
 * 1 when @ask(@ctx, x) returns @answer at every corner of the box the
 * trace-inferred inputs of @in span (each at its low or high end, all
 * combinations), else 0. @ask is the question put to the policy.
 */
int trace_box_holds(const struct vms_pass_input *in,
		    int (*ask)(void *ctx, const struct vms_pass_input *x), void *ctx, int answer);

#endif
