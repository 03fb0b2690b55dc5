/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the sections of `vmscope report`. Each section lives in its own
 * file (analyze/report-NAME.c), computes its tables from the database with
 * SQL, and writes them with out_table(). Sections are listed once, in
 * analyze/report-sections.c.
 *
 * A section:
 *  - reads only; never prints except through @o; returns 0 or -1 with
 *    vms_error() set;
 *  - respects the window [ctx->from, ctx->to] (ns on the trace clock);
 *  - says, in a table note, which rows are unavailable and why (no counters
 *    in an imported text trace, an event this kernel lacks), rather than
 *    printing zeros.
 */
#ifndef VMS_ANALYZE_REPORT_H
#define VMS_ANALYZE_REPORT_H

#include <sqlite3.h>

#include "table.h"

struct vms_db;

struct report_ctx {
	struct vms_db *db;
	sqlite3 *sql;
	long long run_start, run_end;	/* first and last event, ns (0 when no events) */
	long long from, to;		/* the window analysed, ns on the trace clock */
	int has_counters;		/* the run has vmstat counter samples */
};

struct report_section {
	const char *name;
	int (*fn)(struct report_ctx *ctx, struct out *o);
	const char *summary;
};

extern const struct report_section report_sections[];
extern const int report_nsections;

int report_summary(struct report_ctx *ctx, struct out *o);
int report_episodes(struct report_ctx *ctx, struct out *o);
int report_vmstat(struct report_ctx *ctx, struct out *o);
int report_ratio(struct report_ctx *ctx, struct out *o);
int report_refaults(struct report_ctx *ctx, struct out *o);
int report_kswapd_failures(struct report_ctx *ctx, struct out *o);
int report_throttle(struct report_ctx *ctx, struct out *o);
int report_shrinkers(struct report_ctx *ctx, struct out *o);
int report_audit(struct report_ctx *ctx, struct out *o);

/* --- helpers shared by the sections (report-util.c) --- */

/*
 * Set ctx->sql, the run's bounds (first and last event or counter sample,
 * whichever is earlier/later), has_counters, and the window [from, to] from
 * seconds after the start (the whole run when not given). ctx->db must be
 * open. Callers check the window against the run themselves.
 */
void report_ctx_window(struct report_ctx *ctx, double from_s, double to_s, int has_from,
		       int has_to);

/* Prepare @sql and bind ?1 = ctx->from, ?2 = ctx->to. Return: statement or NULL (vms_error set). */
sqlite3_stmt *report_prepare(struct report_ctx *ctx, const char *sql);
/* First column of the first row as an integer; Return: 0, 1 when no row/NULL, -1 on error. */
int report_int(struct report_ctx *ctx, const char *sql, long long *out);
/* qsort() comparison of long longs, ascending. */
int report_cmp_ll(const void *a, const void *b);
/* Nearest rank: the value of rank ceil(p * n / 100) of @v (n > 0) sorted ascending. */
long long report_percentile(const long long *v, int n, int p);
/* Seconds from the start of the run for an absolute ns timestamp. */
double report_rel_s(const struct report_ctx *ctx, long long ts);
/*
 * Delta of a counter over the window: last sample at or before ctx->to minus
 * the last at or before ctx->from (the first sample when none before).
 * Return: 0 with *delta, 1 when the counter was not sampled, -1 on error.
 */
int report_counter_delta(struct report_ctx *ctx, const char *source, const char *scope,
			 const char *name, long long *delta);
/* Seconds between the two samples report_counter_delta() uses (0 when unknown). */
double report_counter_span(struct report_ctx *ctx, const char *source);

#endif
