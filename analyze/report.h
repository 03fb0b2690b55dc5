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
	long long origin, bucket_ns;	/* derive_info: start of bucket 0, bucket width (ns) */
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
 * Make sure the derived tables are there (TEMP ones, derived now, for a
 * database made before them) and set ctx->origin and ctx->bucket_ns.
 * Return: 0, or -1 with vms_error set.
 */
int report_derived(struct report_ctx *ctx);
/* Split [from, to] (ns) into whole buckets and raw edges. */
void report_split(const struct report_ctx *ctx, long long from, long long to, struct report_split *s);
/* The seq range of @tbl's rows in buckets b_lo..b_hi. Return: 0, 1 when none, -1 on error. */
int report_seq_range(struct report_ctx *ctx, const char *tbl, long long b_lo, long long b_hi,
		     long long *lo, long long *hi);
/*
 * The seq range that holds every row of @tbl with from <= ts <= to (and maybe
 * others around them: filter on ts too). Return: 0, 1 when none, -1 on error.
 */
int report_ts_seq_range(struct report_ctx *ctx, const char *tbl, long long from, long long to,
			long long *lo, long long *hi);
/*
 * Prepare @sql for the raw rows of @tbl in edge @e: ?1, ?2 the edge's ts
 * range, ?3, ?4 the seq (rowid) range of its buckets. Return: statement, or
 * NULL with *empty set when the edge has no rows of @tbl, or NULL on error.
 */
sqlite3_stmt *report_prepare_edge(struct report_ctx *ctx, const char *sql, const char *tbl,
				  const struct report_edge *e, int *empty);

#endif
