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

#include <sqlite3.h>

struct decision_stream;

/* "No bound from the events": the top of an inferred range, in pages. */
#define TRACE_UNBOUNDED (1LL << 36)

/* One LRU batch of a task: the pages its list had to hold at least, and the point value. */
struct trace_batch {
	long long ts;
	long long lo, v;
	int pid;
	int lru;			/* inactive/active anon/file: 0..3 */
};

/* What the whole trace shows, read once before the passes are rebuilt. */
struct trace_facts {
	int have_anon;			/* some reclaimer isolated anon pages */
	long long first_anon_ts, last_anon_ts;	/* the first and last such batch */
	int requested;			/* batches from mm_vmscan_lru_isolate nr_requested */
	struct trace_batch *batch;	/* by (pid, ts) */
	size_t n;
	int last_pid;			/* the task of the previous pass asked about, and its end */
	long long last_end;
};

/*
 * Read the facts of the trace in database @sql (@path names it in errors)
 * whose reclaim events are @s. Return: 0, or -1 (vms_error set).
 */
int trace_facts_load(sqlite3 *sql, const char *path, const struct decision_stream *s,
		     struct trace_facts *f);
void trace_facts_release(struct trace_facts *f);

/*
 * Fill the list sizes, free swap and (global reclaim) the free pages and
 * high watermark of @in, a pass of task @pid from @ts to @ts_end, from the
 * events alone: each an inferred range. The other inputs are left as they
 * are. The passes of a task must come in time order.
 */
void trace_infer_inputs(struct trace_facts *f, int pid, long long ts, long long ts_end,
			struct vms_pass_input *in);

/*
 * 1 when @ask(@ctx, x) returns @answer at every corner of the box the
 * trace-inferred inputs of @in span (each at its low or high end, all
 * combinations), else 0. @ask is the question put to the policy.
 */
int trace_box_holds(const struct vms_pass_input *in,
		    int (*ask)(void *ctx, const struct vms_pass_input *x), void *ctx, int answer);

#endif
