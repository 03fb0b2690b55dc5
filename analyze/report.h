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

#include "vms-table.h"
#include "vms-window.h"

struct report_section {
	const char *name;
	int (*fn)(struct vms_window *ctx, struct out *o);
	const char *summary;
};

extern const struct report_section report_sections[];
extern const int report_nsections;

/* Each section's report_NAME() is declared in report-sections.c, its one list. */

/* --- helpers shared by the sections (report-util.c) --- */

/*
 * Delta of a counter over the window: last sample at or before ctx->to minus
 * the last at or before ctx->from (the first sample when none before).
 * Return: 0 with *delta, 1 when the counter was not sampled, -1 on error.
 */
int report_counter_delta(struct vms_window *ctx, const char *source, const char *scope,
			 const char *name, long long *delta);
/* Seconds between the two samples report_counter_delta() uses (0 when unknown). */
double report_counter_span(struct vms_window *ctx, const char *source);
/*
 * The memcg the run recorded (`record -m`): the scope of its memory.stat
 * samples (the one with most samples). Return: 0 with *scope (caller frees)
 * or NULL when the run has none, -1 on error.
 */
int report_memcg_scope(struct vms_window *ctx, char **scope);

/* --- windows over the derived rollups (report-buckets.c) --- */

/* A piece of a window read from raw rows: ts range and the buckets it touches. */
struct report_edge {
	long long from, to, b_lo, b_hi;
};

/* A window: buckets b_lo..b_hi whole (none when b_lo > b_hi), plus up to two raw edges. */
struct report_split {
	long long b_lo, b_hi;
	int nedge;
	struct report_edge edge[2];
};

/*
 * Set ctx->origin and ctx->bucket_ns from derive_info (after
 * vms_window_open()).
 * Return: 0, or -1 with vms_error set: the run has no derived tables (not
 * finished) or they no longer match it (changed by hand since: the message
 * names `vmscope upgrade --rederive`).
 */
int report_derived(struct vms_window *ctx);
/* Split [from, to] (ns) into whole buckets and raw edges. */
void report_split(const struct vms_window *ctx, long long from, long long to, struct report_split *s);
/* The seq range of @tbl's rows in buckets b_lo..b_hi. Return: 0, 1 when none, -1 on error. */
int report_seq_range(struct vms_window *ctx, const char *tbl, long long b_lo, long long b_hi,
		     long long *lo, long long *hi);
/*
 * The seq range that holds every row of @tbl with from <= ts <= to (and maybe
 * others around them: filter on ts too). Return: 0, 1 when none, -1 on error.
 */
int report_ts_seq_range(struct vms_window *ctx, const char *tbl, long long from, long long to,
			long long *lo, long long *hi);
/*
 * Prepare @sql for the raw rows of @tbl in edge @e: ?1, ?2 the edge's ts
 * range, ?3, ?4 the seq (rowid) range of its buckets. Return: statement, or
 * NULL with *empty set when the edge has no rows of @tbl, or NULL on error.
 */
sqlite3_stmt *report_prepare_edge(struct vms_window *ctx, const char *sql, const char *tbl,
				  const struct report_edge *e, int *empty);

#endif
