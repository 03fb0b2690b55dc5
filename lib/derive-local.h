/* SPDX-License-Identifier: GPL-2.0 */
/*
 * derive-local.h - what the files of the derive step share (lib/derive.c
 * drives it; derive-pairs.c, derive-slab.c, derive-inactive.c and
 * derive-episodes.c are its passes). Not part of the public interface: see vms_derive() in vms.h.
 *
 * A pass reads its events with dv_prep()ed statements, counts its tables'
 * rows per time bucket with dv_agg_get()/dv_agg_add(), and writes its derived
 * rows; errors go through dv_sql_fail() (vms_error set, -1).
 */
#ifndef VMS_DERIVE_LOCAL_H
#define VMS_DERIVE_LOCAL_H

#include <limits.h>
#include <stddef.h>

#include <sqlite3.h>

#include "vms-strmap.h"

struct vms_db;
struct dv_episodes;

#define NUL LLONG_MIN		/* an SQL NULL in the integer fields below */

#define MRU_COLS 16
#define MRU_N 4

struct derive {
	sqlite3 *sql;
	const char *mru[MRU_COLS][MRU_N];	/* dv_intern(): recent values per column */
	struct vms_db *db;
	long long origin, bucket_ns, nbuckets;
	struct strmap strings;	/* interned shr, shrink, gfp_flags; value: a shrink's name */
	struct agg *buckets;	/* event_bucket accumulators, one per (tbl, event) */
	struct dv_episodes *eps;	/* table episode, fed by the slab and inactive passes */
	int nagg, aagg;
};

/* One (tbl, event): rows per bucket. */
struct agg {
	char *tbl, *event;
	/*
	 * The buckets that have rows, hashed by bucket number (open addressing,
	 * n == 0: free): memory follows the rows, not the run's span, which one
	 * outlier timestamp can make years long.
	 */
	struct agg_bucket {
		long long b, n, lo, hi;	/* bucket, rows, min and max seq */
	} *slot;
	size_t size, used;
};

#define SUM_KEYS 5
#define SUM_VALS 10

/* A hash of sums keyed by up to five integers (text keys: interned pointers). */
struct sums {
	struct sum_entry {
		long long key[SUM_KEYS];
		long long v[SUM_VALS];
		unsigned known;		/* bit i: v[i] had a non-NULL value */
		int used;
	} *e;
	size_t size, used;
};

/* A growing array of fixed-size records (size: bytes of one). */
struct evs {
	void *v;
	size_t n, alloc, size;
};

/* Helpers, defined in derive.c (each documented there). */
int dv_sql_fail(struct derive *d, const char *what);
sqlite3_stmt *dv_prep(struct derive *d, const char *sql);
int dv_step_reset(struct derive *d, sqlite3_stmt *st, const char *what);
long long dv_col(sqlite3_stmt *st, int i);
void dv_bind(sqlite3_stmt *st, int i, long long v);
const char *dv_intern(struct derive *d, sqlite3_stmt *st, int i);
long long dv_bucket_of(const struct derive *d, long long ts);
struct agg *dv_agg_get(struct derive *d, const char *tbl, const char *event);
int dv_agg_add(struct derive *d, struct agg *a, long long ts, long long seq);
int dv_agg_write(struct derive *d);
void dv_agg_reset(struct agg *a);
struct sum_entry *dv_sums_get(struct sums *s, const long long *key);
void dv_sum_add(struct sum_entry *e, int i, long long v);
void dv_bind_sum(sqlite3_stmt *st, int col, const struct sum_entry *e, int i);
void dv_bind_text_key(sqlite3_stmt *st, int col, long long k);
void *dv_evs_push(struct evs *e);

/* The passes, in the order vms_derive() runs them. Return: 0, or -1. */
int derive_reclaim(struct derive *d);
int derive_kswapd(struct derive *d);
int derive_kswapd_runs(struct derive *d);	/* derive-kswapd.c */
int derive_slab(struct derive *d, int *resorted);
int derive_inactive(struct derive *d);

/*
 * Table episode (derive-episodes.c), filled while the passes read the
 * events, so that they are read once:
 *  1. dv_episodes_new() after reclaim_interval and kswapd_interval are filled
 *     (NULL with vms_error set on failure);
 *  2. dv_episodes_slab() for each call of shrink_slab_call and
 *     dv_episodes_inactive() for each mm_vmscan_lru_shrink_inactive row
 *     (columns pid, ts, seq, nid, nr_scanned, nr_reclaimed, reclaim_flags,
 *     priority); when the slab pass starts again from a sort, it frees the
 *     episodes and makes new ones first;
 *  3. dv_episodes_finish() reads the small sources and writes the table;
 *  4. dv_episodes_free() (accepts NULL).
 */
struct dv_episodes *dv_episodes_new(struct derive *d);
int dv_episodes_inactive(struct dv_episodes *e, sqlite3_stmt *st);
/* A call: its start (@has_start: ts, seq, total_scan, priority, -1 unknown) and end. */
void dv_episodes_slab(struct dv_episodes *e, long long pid, int has_start, long long start_ts,
		      long long start_seq, long long total, long long prio, int has_end,
		      long long end_ts, long long end_seq, long long freed, long long left);
int dv_episodes_finish(struct dv_episodes *e);
void dv_episodes_free(struct dv_episodes *e);

#endif
