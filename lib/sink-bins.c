// SPDX-License-Identifier: GPL-2.0
/*
 * sink-bins.c - count the rows the sink stores per table, event and short
 * time bin, so that the derive step's event_bucket (lib/derive.c) does not
 * read every event table again at the end of an import: on a 4.6M-event
 * trace that pass alone was 0.5 to 0.7 s after the last row was written.
 *
 * The derive step's buckets are counted from the run's start (known only
 * at the end: the smallest timestamp, or a counter sample's) and are 1, 2,
 * 5, ... 1000 ms wide, chosen by the run's span. So the bins here are
 * counted from the first row's timestamp (the base), in the finest width
 * that every bucket width still possible divides (the resolution: 1 ms
 * while the span is under 4 s, 5 ms under 10 s, 10 ms under 40 s, ...; see
 * resolution_for()); when the span grows past it, every bin is merged into
 * the coarser one. A bin then falls into exactly one bucket whenever the
 * run's start is a whole number of resolutions before the base (always, for
 * a trace read in time order without earlier counters). Per table and event
 * a bin keeps its rows and their smallest and largest seq, as the buckets do.
 *
 * vms_sink_finish() leaves them in the connection's temporary table
 * temp.vms_sink_bins (tbl, event, base, res, bin, n, lo, hi; event NULL for
 * a table without an event column), and the derive step uses them for a
 * table only when they agree with it (row count, smallest and largest seq)
 * and with its buckets; else it reads the table as before. A table whose
 * event column is written by a field as well (so that its rows might not
 * be grouped by the event the sink counted) gets no bins.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sink-local.h"

struct sink_bin {
	long long bin, n, lo, hi;	/* n == 0: a free slot */
};

/* The bins of one table (and event, for a table with an event column). */
struct sink_bins {
	struct vms_table *table;
	char *event;			/* NULL: the table has no event column */
	struct sink_bin *slot;		/* open addressing, by bin */
	size_t size, used;
	struct sink_bin *last;		/* the bin of the last row: runs of rows share one */
	long long first_seq;		/* of its first row */
};

/* Bucket widths of the derive step (derive.c), in ns, and what divides all from each on. */
static const long long widths[] = { 1000000, 2000000, 5000000, 10000000, 20000000,
				    50000000, 100000000, 200000000, 500000000 };
static const long long resolutions[] = { 1000000, 1000000, 5000000, 10000000, 10000000,
					 50000000, 100000000, 100000000, 500000000 };

/* The finest resolution that divides every bucket width a run of @span ns may still get. */
static long long resolution_for(long long span)
{
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (span / widths[i] < 2000)
			return resolutions[i];
	return 1000000000;
}

static long long floor_div(long long a, long long b)
{
	long long q = a / b;

	return (a % b && a < 0) ? q - 1 : q;
}

static size_t bin_hash(long long b, size_t size)
{
	return (size_t)(((unsigned long long)b * 0x9e3779b97f4a7c15ULL) >> 24) & (size - 1);
}

/* The slot of bin @b in @x, made when new. NULL: out of memory. */
static struct sink_bin *bin_slot(struct sink_bins *x, long long b)
{
	size_t i;

	if (2 * (x->used + 1) > x->size) {
		size_t n = x->size ? 2 * x->size : 64, j;
		struct sink_bin *slot = calloc(n, sizeof(*slot));

		if (!slot)
			return NULL;
		for (j = 0; j < x->size; j++) {
			if (!x->slot[j].n)
				continue;
			for (i = bin_hash(x->slot[j].bin, n); slot[i].n; i = (i + 1) & (n - 1))
				;
			slot[i] = x->slot[j];
		}
		free(x->slot);
		x->slot = slot;
		x->size = n;
	}
	x->last = NULL;
	for (i = bin_hash(b, x->size); x->slot[i].n; i = (i + 1) & (x->size - 1))
		if (x->slot[i].bin == b)
			return &x->slot[i];
	x->used++;
	x->slot[i].bin = b;
	x->slot[i].lo = LLONG_MAX;
	x->slot[i].hi = LLONG_MIN;
	return &x->slot[i];
}

static void add_to(struct sink_bin *k, long long n, long long lo, long long hi)
{
	k->n += n;
	if (lo < k->lo)
		k->lo = lo;
	if (hi > k->hi)
		k->hi = hi;
}

/* Merge @x's bins into bins @factor times as wide. Return: 0, or -1 out of memory. */
static int coarsen(struct sink_bins *x, long long factor)
{
	struct sink_bin *old = x->slot;
	size_t n = x->size, j;

	x->slot = NULL;
	x->size = x->used = 0;
	x->last = NULL;
	for (j = 0; j < n; j++) {
		struct sink_bin *k;

		if (!old[j].n)
			continue;
		if (!(k = bin_slot(x, floor_div(old[j].bin, factor)))) {
			free(old);
			return -1;
		}
		add_to(k, old[j].n, old[j].lo, old[j].hi);
	}
	free(old);
	return 0;
}

static void drop_all(struct vms_sink *s)
{
	for (int i = 0; i < s->nbins; i++) {
		free(s->bins[i]->slot);
		free(s->bins[i]->event);
		free(s->bins[i]);
	}
	for (int i = 0; i < s->ntables; i++)
		s->by_id[i]->bins = NULL;
	free(s->bins);
	s->bins = NULL;
	s->nbins = s->abins = 0;
}

/* Counting failed (out of memory): no bins at all, the derive step reads the tables. */
static void give_up(struct vms_sink *s)
{
	drop_all(s);
	s->bins_off = 1;
}

static struct sink_bins *bins_of(struct vms_sink *s, struct vms_table *t, const char *event)
{
	struct sink_bins *x = t->bins;
	int i;

	if (t->event_col < 0)
		event = NULL;
	if (x && (!event || !strcmp(x->event, event)))
		return x;
	for (i = 0; i < s->nbins; i++) {
		x = s->bins[i];
		if (x->table == t && (!event || !strcmp(x->event, event)))
			return t->bins = x;
	}
	if (s->nbins == s->abins) {
		int n = s->abins ? 2 * s->abins : 32;
		struct sink_bins **p = realloc(s->bins, n * sizeof(*p));

		if (!p)
			return NULL;
		s->bins = p;
		s->abins = n;
	}
	x = calloc(1, sizeof(*x));
	if (!x || (event && !(x->event = strdup(event)))) {
		free(x);
		return NULL;
	}
	x->table = t;
	s->bins[s->nbins++] = x;
	return t->bins = x;
}

void sink_bins_add(struct vms_sink *s, struct vms_table *t, const char *event, uint64_t ts,
		   uint64_t seq)
{
	struct sink_bins *x;
	struct sink_bin *k;
	long long b, res;

	if (s->bins_off)
		return;
	if (!s->bin_res) {
		s->bin_base = (long long)ts;
		s->bin_res = resolution_for(0);
	}
	if (!(x = bins_of(s, t, event))) {
		give_up(s);
		return;
	}
	b = floor_div((long long)ts - s->bin_base, s->bin_res);
	if (x->last && x->last->bin == b) {
		x->last->n++;
		x->last->hi = (long long)seq;	/* seq only grows */
		return;
	}
	res = resolution_for((long long)(s->last_ts - s->first_ts));
	if (res != s->bin_res) {
		/* the span outgrew the resolution: every bin merged into the coarser one */
		for (int i = 0; i < s->nbins; i++)
			if (coarsen(s->bins[i], res / s->bin_res)) {
				give_up(s);
				return;
			}
		s->bin_res = res;
		b = floor_div((long long)ts - s->bin_base, s->bin_res);
	}
	if (!(k = bin_slot(x, b))) {
		give_up(s);
		return;
	}
	add_to(k, 1, (long long)seq, (long long)seq);
	x->last = k;
	if (!x->first_seq)
		x->first_seq = (long long)seq;
}

void sink_bins_spoil(struct vms_sink *s, struct vms_table *t)
{
	t->bins_spoiled = 1;
	(void)s;
}

static int by_table_then_first_row(const void *a, const void *b)
{
	const struct sink_bins *x = *(struct sink_bins *const *)a, *y = *(struct sink_bins *const *)b;

	if (x->table != y->table)
		return x->table->id < y->table->id ? -1 : 1;
	return x->first_seq < y->first_seq ? -1 : x->first_seq > y->first_seq;
}

static int by_bin(const void *a, const void *b)
{
	const struct sink_bin *x = a, *y = b;

	return x->bin < y->bin ? -1 : x->bin > y->bin;
}

/*
 * The rows of temp.vms_sink_bins are written in the order the derive step
 * makes its buckets (per table: events by their first row, bins in time
 * order), so that it reads them by rowid through the index on tbl: no sort.
 */
int sink_bins_write(struct vms_sink *s)
{
	sqlite3 *sql = vms_db_sql(s->db);
	sqlite3_stmt *st = NULL;
	int rc = -1;

	sqlite3_exec(sql, "DROP TABLE IF EXISTS temp.vms_sink_bins", NULL, NULL, NULL);
	if (s->bins_off || !s->bin_res)
		return 0;
	if (s->nbins > 1)
		qsort(s->bins, s->nbins, sizeof(*s->bins), by_table_then_first_row);
	if (sqlite3_exec(sql, "CREATE TEMP TABLE vms_sink_bins (tbl TEXT NOT NULL, event TEXT,"
			 " base INTEGER NOT NULL, res INTEGER NOT NULL, bin INTEGER NOT NULL,"
			 " n INTEGER NOT NULL, lo INTEGER NOT NULL, hi INTEGER NOT NULL);"
			 " CREATE INDEX temp.vms_sink_bins_tbl ON vms_sink_bins (tbl)",
			 NULL, NULL, NULL) ||
	    sqlite3_prepare_v2(sql, "INSERT INTO temp.vms_sink_bins VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL))
		goto out;
	for (int i = 0; i < s->nbins; i++) {
		struct sink_bins *x = s->bins[i];
		size_t j, n;

		if (x->table->bins_spoiled)
			continue;
		/* the used slots to the front, in bin order (the hash is not used again) */
		for (j = n = 0; j < x->size; j++)
			if (x->slot[j].n)
				x->slot[n++] = x->slot[j];
		x->used = n;
		x->last = NULL;
		qsort(x->slot, n, sizeof(*x->slot), by_bin);
		for (j = 0; j < n; j++) {
			struct sink_bin *k = &x->slot[j];

			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, x->table->name, -1, SQLITE_STATIC);
			if (x->event)
				sqlite3_bind_text(st, 2, x->event, -1, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, 2);
			sqlite3_bind_int64(st, 3, s->bin_base);
			sqlite3_bind_int64(st, 4, s->bin_res);
			sqlite3_bind_int64(st, 5, k->bin);
			sqlite3_bind_int64(st, 6, k->n);
			sqlite3_bind_int64(st, 7, k->lo);
			sqlite3_bind_int64(st, 8, k->hi);
			if (sqlite3_step(st) != SQLITE_DONE)
				goto out;
		}
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	/* only a hint: without it the derive step reads the tables */
	if (rc)
		sqlite3_exec(sql, "DROP TABLE IF EXISTS temp.vms_sink_bins", NULL, NULL, NULL);
	/* the bins are compacted now: no more rows may be counted */
	drop_all(s);
	s->bins_off = 1;
	return 0;
}

void sink_bins_free(struct vms_sink *s)
{
	drop_all(s);
}
