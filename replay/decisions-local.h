/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decisions-local.h - what decisions.c reads, in memory: the reclaim events
 * of the run in the order the decisions are rebuilt in (decision-stream.c),
 * and the counter samples as series sorted by time (decision-series.c), so
 * that the build is one pass with no per-pass query.
 *
 * Protocol: decision_stream_read() once, then decision_stream_next() until
 * NULL, then decision_stream_release(). A series is loaded once with
 * dc_series_load() or dc_zone_load() and looked up with dc_at()/dc_after()
 * any number of times, in any order.
 */
#ifndef VMS_DECISIONS_LOCAL_H
#define VMS_DECISIONS_LOCAL_H

#include <stddef.h>
#include <string.h>

#include <sqlite3.h>

#include "vms-strmap.h"

/* --- decision-stream.c --- */

/*
 * One reclaim event, reduced to what the decisions need. Kinds: 'N' an
 * inactive-list batch, 'A' an active-list batch, 'S'/'E' a shrinker call's
 * start/end, 'P' a page written out by reclaim, 'W'/'Z' kswapd wake/sleep,
 * 'B'/'F' a reclaim episode's begin/end.
 */
struct stream_event {
	long long ts;
	long long b;		/* N: nr_scanned; A: nr_taken; E: the shrinker's return value */
	long long c;		/* N: nr_reclaimed */
	long long d, e;		/* N: activations anon, file (or d: the <= 5.1 total); A: nr_referenced */
	long long keep;		/* N: nr_ref_keep (pages kept inactive by their references) */
	int pid;
	int prio;		/* priority (B, W: the order); -1 when NULL */
	int nid;		/* -1 when NULL */
	char k;			/* the kind */
	unsigned char a;	/* reclaim_flags & 3 (N, A, P); the episode kind (B, F) */
	unsigned char per_type;	/* N: d and e are per type (5.2+) */
};

struct decision_stream {
	struct stream_event *ev;	/* in table order, then rowid */
	unsigned int *order;		/* indexes into ev, by (pid, ts) */
	size_t n, next;
};

/*
 * Read the reclaim events of the run, ordered by pid, then time; events of
 * one task at the same time in the order of the tables in
 * decision-stream.c, then rowid (the order of SQL's ORDER BY pid, ts over
 * their UNION ALL). Return: 0, or -1 (vms_error set).
 */
int decision_stream_read(sqlite3 *sql, const char *path, struct decision_stream *s);
/* The next event, or NULL at the end. Must not be freed. */
const struct stream_event *decision_stream_next(struct decision_stream *s);
void decision_stream_release(struct decision_stream *s);

/* --- decision-series.c --- */

#define DC_MAX_NAMES 16

/* One counter sample: the values of the names asked for (bit i of have: names[i] read). */
struct dc_sample {
	long long id, ts;
	long long v[DC_MAX_NAMES];
	unsigned int have;
};

/* Samples sorted by (ts, id). */
struct dc_series {
	struct dc_sample *s;
	size_t n;
	int loaded;
};

/*
 * The samples of @source (and of @scope, exactly, unless NULL) with the
 * values of @names; with @require, only the samples that have names[0].
 * Return: 0, or -1 (vms_error set).
 */
int dc_series_load(sqlite3 *sql, const char *source, const char *scope,
		   const char *const *names, int nnames, int require, struct dc_series *out);
/*
 * The zoneinfo samples of node @nid, one per time: the sums of @names over
 * the node's zones read at that time (as SQL SUM: no bit when none was
 * read, or when the sum overflows). Return: 0, or -1 (vms_error set).
 */
int dc_zone_load(sqlite3 *sql, int nid, const char *const *names, int nnames,
		 struct dc_series *out);
/* The last sample at or before @ts (of equal times, the last id), or NULL. */
const struct dc_sample *dc_at(const struct dc_series *s, long long ts);
/* The first sample after @ts (of equal times, the first id), or NULL. */
const struct dc_sample *dc_after(const struct dc_series *s, long long ts);
void dc_series_release(struct dc_series *s);

/* --- decision-json.c --- */

struct vms_pass_input;
/* Room for either JSON text of a record, its NUL included. */
#define DECISION_JSON_MAX 1024
/* decision.provenance and decision.input_range of @in into @buf. Return: the length. */
size_t decision_provenance_json(char *buf, const struct vms_pass_input *in);
size_t decision_range_json(char *buf, const struct vms_pass_input *in);
/* At most this many inputs in either text (the tables of decision-json.c) */
#define DECISION_JSON_INPUTS_MAX 16
/*
 * The texts of the records, each once (table decision_json): records get
 * the id of theirs. The last text of each kind is remembered with the
 * values it was made from, as the next record's is mostly the same (the
 * passes of one sample interval): then it is neither written nor looked up.
 */
struct decision_texts {
	struct strmap ids;		/* text -> id */
	const char **text;		/* by id - 1: the map's copies */
	size_t *len;
	long long n, alloc;
	int have[2];			/* last[]: 0 provenance, 1 input_range */
	long long last_id[2];
	unsigned char prov[DECISION_JSON_INPUTS_MAX];	/* enum vms_prov: the last provenance's */
	long long range[2 * DECISION_JSON_INPUTS_MAX];	/* lo, hi: the last input_range's */
	char scratch[DECISION_JSON_MAX];
};
void decision_texts_init(struct decision_texts *t);
void decision_texts_release(struct decision_texts *t);
/* The id of decision.provenance or decision.input_range of @in. Return: the id, or -1 out of memory. */
long long decision_provenance_id(struct decision_texts *t, const struct vms_pass_input *in);
long long decision_range_id(struct decision_texts *t, const struct vms_pass_input *in);
/* Insert the texts into decision_json (emptied by the caller). Return: 0 or -1 (vms_error set). */
int decision_texts_store(struct decision_texts *t, sqlite3 *sql, const char *path);

/* --- decision-row.c --- */

/* The INSERT's parameters of table decision, 1 to DC_COLUMNS, in the INSERT's order. */
enum {
	DC_KIND = 1, DC_RECLAIMER, DC_PID, DC_NID, DC_EPISODE_TS, DC_TS, DC_TS_END, DC_PRIORITY,
	DC_ORDER, DC_INACTIVE_ANON, DC_ACTIVE_ANON, DC_INACTIVE_FILE, DC_ACTIVE_FILE, DC_LRU_SCOPE,
	DC_FREE_PAGES, DC_HIGH_WMARK, DC_BOOST, DC_SWAPPINESS, DC_SWAP_FREE, DC_REFAULT_FILE,
	DC_REFAULT_ANON, DC_SAMPLE_AGE_MS, DC_PROVENANCE, DC_SCANNED, /* 4: inactive/active anon/file */
	DC_RECLAIMED = DC_SCANNED + 4, DC_SLAB_CALLS, DC_SLAB_FREED, DC_RUNS_SINCE_SUCCESS,
	DC_RESTARTED, DC_SWEEP, DC_NO_CACHE_TRIM_MODE, DC_FORCE_DEACTIVATE,
	DC_RECLAIMED_TYPE,	/* 2 each, anon then file: reclaimed, activated, rotated, pageout, restored */
	DC_ACTIVATED = DC_RECLAIMED_TYPE + 2, DC_ROTATED = DC_ACTIVATED + 2,
	DC_PAGEOUT = DC_ROTATED + 2, DC_RESTORED = DC_PAGEOUT + 2,
	DC_SWAP_TOTAL = DC_RESTORED + 2, DC_BOOST_RECLAIM, DC_INPUT_RANGE, DC_FIRST_SWEEP_LOWEST,
	DC_FIRST_SWEEP_RECLAIMED, DC_FIRST_SWEEP_SLAB_FREED, DC_RETRIED,
	DC_REF_KEEP,		/* 2: anon, file */
	DC_COLUMNS = DC_REF_KEEP + 1
};

/* One row: per column its SQLite type (SQLITE_NULL when not set) and value. */
struct dc_row {
	unsigned char type[DC_COLUMNS + 1];
	long long i[DC_COLUMNS + 1];
	double f[DC_COLUMNS + 1];
	const char *text[DC_COLUMNS + 1];	/* must live until the row is bound and read */
	int len[DC_COLUMNS + 1];
	const struct vms_pass_input *in;	/* the inputs DC_PROVENANCE and DC_INPUT_RANGE describe */
};

/*
 * Setting a column: inline, as the build sets some 50 per record (a call
 * each was 6% of its thread at 10M events).
 */
/* Every column NULL. */
static inline void dc_row_clear(struct dc_row *r)
{
	memset(r->type, SQLITE_NULL, sizeof(r->type));
}

static inline void dc_row_int(struct dc_row *r, int col, long long v)
{
	r->type[col] = SQLITE_INTEGER;
	r->i[col] = v;
}

static inline void dc_row_double(struct dc_row *r, int col, double v)
{
	r->type[col] = SQLITE_FLOAT;
	r->f[col] = v;
}

/* @len < 0: up to the NUL. */
static inline void dc_row_text(struct dc_row *r, int col, const char *s, int len)
{
	r->type[col] = SQLITE_TEXT;
	r->text[col] = s;
	r->len[col] = len < 0 ? (int)strlen(s) : len;
}
/* Bind every column of @r to the INSERT @st (texts not copied: keep them until it is stepped). */
void dc_row_bind(const struct dc_row *r, sqlite3_stmt *st);
/* The same, as parameters @base + 1 to @base + DC_COLUMNS (a row of a multi-row INSERT). */
void dc_row_bind_at(const struct dc_row *r, sqlite3_stmt *st, int base);
/* --- decision-writer.c --- */

/*
 * Rows stored on a second thread: dc_writer_start() with the INSERT; for
 * each row, dc_writer_next() gives the row to fill (not cleared), and
 * dc_writer_push() hands it over as row @id, which must be the rowid the
 * INSERT gives it (checked); its texts must stay until dc_writer_finish(). Around
 * any other use of @sql meanwhile, dc_writer_lock()/dc_writer_unlock().
 * dc_writer_finish() waits for the last row and frees the writer (the
 * INSERT stays the caller's). Return: next NULL, push and finish -1 on a
 * failure (vms_error set; a failure of the writer is reported by finish).
 */
struct dc_writer;
struct dc_writer *dc_writer_start(sqlite3 *sql, sqlite3_stmt *insert);
struct dc_row *dc_writer_next(struct dc_writer *w);
int dc_writer_push(struct dc_writer *w, long long id);
void dc_writer_lock(struct dc_writer *w);
void dc_writer_unlock(struct dc_writer *w);
int dc_writer_finish(struct dc_writer *w);

struct decision;
/* decision-load.c: the record of row @r of id @id, before decisions_order(). */
void dc_decision_of_row(const struct dc_row *r, long long id, struct decision *d);

#endif
