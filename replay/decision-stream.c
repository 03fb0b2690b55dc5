// SPDX-License-Identifier: GPL-2.0
/*
 * decision-stream.c - the reclaim events decisions.c rebuilds the decisions
 * from, task by task in time order. Part of replay: read by decisions.c.
 *
 * How it works: each event table is read once in its stored (rowid) order
 * into one array of small records, table after table; then an index is
 * ordered by pid (a counting sort: one count per task) and, within a task,
 * by time with a stable natural merge sort (each table is stored in time
 * order, so a task's events are a few sorted runs and the merge is about
 * linear). Ties keep the array order, table then rowid: the order SQL's
 * ORDER BY pid, ts gave over the UNION ALL of the tables in this order,
 * which sorted each table (stably) and merged them, the earlier table first.
 * Replaces that ORDER BY, which sorted every event in SQLite.
 *
 * The tables are read on two threads: each table has its place in the
 * array (the counts of the tables before it), a second thread with its own
 * read-only connection reads about half of the rows, and the array is what
 * one thread reading table after table would give. Without that connection
 * (a database that cannot be opened twice) the calling thread reads them all.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "decisions-local.h"

/*
 * The values an arm gives after pid and ts, in this order: a, b, c,
 * priority, nid, d, e, f, and keep (N only). Each is a column expression
 * selected from the table, a constant, or NULL; the constants are known
 * here and not read from every row (a third of the columns read at 10M
 * events).
 */
#define ARM_COLS 9
struct arm_col {
	const char *expr;	/* the expression selected, or NULL: not read */
	int is_const;		/* not read: the constant @value, or else NULL */
	long long value;
};
#define COL(e) { .expr = (e) }
#define K(v) { .is_const = 1, .value = (v) }
#define SQL_NULL { .expr = NULL }	/* also what an arm's missing last values are */

/* One table: its kind and its values. */
static const struct arm {
	char k;
	const char *table;
	struct arm_col col[ARM_COLS];
} arms[] = {
	{ 'N', "mm_vmscan_lru_shrink_inactive",
	  { COL("reclaim_flags"), COL("nr_scanned"), COL("nr_reclaimed"), COL("priority"),
	    COL("nid"), COL("nr_activate0"), COL("nr_activate1"), COL("nr_activate"),
	    COL("nr_ref_keep") } },
	{ 'A', "mm_vmscan_lru_shrink_active",
	  { COL("reclaim_flags"), COL("nr_taken"), K(0), COL("priority"), COL("nid"),
	    COL("nr_referenced"), SQL_NULL, SQL_NULL } },
	{ 'S', "mm_shrink_slab_start",
	  { K(0), K(0), K(0), COL("priority"), COL("nid"), K(0), K(0), K(0) } },
	{ 'E', "mm_shrink_slab_end",
	  { K(0), COL("retval"), K(0), SQL_NULL, COL("nid"), K(0), K(0), K(0) } },
	{ 'P', "mm_vmscan_write_folio",
	  { COL("reclaim_flags"), K(0), K(0), SQL_NULL, SQL_NULL, K(0), K(0), K(0) } },
	{ 'W', "mm_vmscan_kswapd_wake",
	  { K(0), K(0), K(0), COL("\"order\""), COL("nid"), K(0), K(0), K(0) } },
	{ 'Z', "mm_vmscan_kswapd_sleep",
	  { K(0), K(0), K(0), SQL_NULL, COL("nid"), K(0), K(0), K(0) } },
	{ 'B', "mm_vmscan_direct_reclaim_begin",
	  { K(0), K(0), K(0), COL("\"order\""), SQL_NULL, K(0), K(0), K(0) } },
	{ 'B', "mm_vmscan_memcg_reclaim_begin",
	  { K(1), K(0), K(0), COL("\"order\""), SQL_NULL, K(0), K(0), K(0) } },
	{ 'B', "mm_vmscan_memcg_softlimit_reclaim_begin",
	  { K(2), K(0), K(0), COL("\"order\""), SQL_NULL, K(0), K(0), K(0) } },
	{ 'B', "mm_vmscan_node_reclaim_begin",
	  { K(3), K(0), K(0), COL("\"order\""), COL("nid"), K(0), K(0), K(0) } },
	{ 'F', "mm_vmscan_direct_reclaim_end",
	  { K(0), K(0), K(0), SQL_NULL, SQL_NULL, K(0), K(0), K(0) } },
	{ 'F', "mm_vmscan_memcg_reclaim_end",
	  { K(1), K(0), K(0), SQL_NULL, SQL_NULL, K(0), K(0), K(0) } },
	{ 'F', "mm_vmscan_memcg_softlimit_reclaim_end",
	  { K(2), K(0), K(0), SQL_NULL, SQL_NULL, K(0), K(0), K(0) } },
	{ 'F', "mm_vmscan_node_reclaim_end",
	  { K(3), K(0), K(0), SQL_NULL, SQL_NULL, K(0), K(0), K(0) } },
};
#define NARMS (sizeof(arms) / sizeof(arms[0]))

static int read_fail(sqlite3 *sql, const char *path)
{
	return vms_error("%s: cannot read the reclaim events: %s", path, sqlite3_errmsg(sql));
}

/* The query of an arm, and where each of its values comes from. */
struct arm_query {
	char sql[512];
	int at[ARM_COLS];		/* result column of each value, or -1: not read */
	long long value[ARM_COLS];	/* a constant's value */
	int null[ARM_COLS];		/* a constant NULL */
};

/* The SELECT of @arm: pid, ts and the values that are expressions. */
static void arm_query(const struct arm *arm, struct arm_query *q)
{
	int n = snprintf(q->sql, sizeof(q->sql), "SELECT pid, ts"), selected = 2;

	for (int j = 0; j < ARM_COLS; j++) {
		const struct arm_col *c = &arm->col[j];

		q->at[j] = c->expr ? selected++ : -1;
		q->value[j] = c->expr ? 0 : c->value;
		q->null[j] = !c->expr && !c->is_const;
		if (c->expr)
			n += snprintf(q->sql + n, sizeof(q->sql) - n, ", %s", c->expr);
	}
	snprintf(q->sql + n, sizeof(q->sql) - n, " FROM %s", arm->table);
}

static long long col_int(sqlite3_stmt *st, const struct arm_query *q, int j)
{
	return q->at[j] < 0 ? q->value[j] : sqlite3_column_int64(st, q->at[j]);
}

static int col_is_null(sqlite3_stmt *st, const struct arm_query *q, int j)
{
	return q->at[j] < 0 ? q->null[j] : sqlite3_column_type(st, q->at[j]) == SQLITE_NULL;
}

static int int_or_none(sqlite3_stmt *st, const struct arm_query *q, int j)
{
	return col_is_null(st, q, j) ? -1 : (int)col_int(st, q, j);
}

/*
 * Read the rows of @arm into @ev, at most @cap (its count); *@got: how many.
 * Return: 0, or an SQLite error code (the message is @sql's).
 */
static int read_arm(sqlite3 *sql, const struct arm *arm, struct stream_event *ev, size_t cap,
		    size_t *got)
{
	sqlite3_stmt *st = NULL;
	struct arm_query q;
	int r;

	*got = 0;
	arm_query(arm, &q);
	r = sqlite3_prepare_v2(sql, q.sql, -1, &st, NULL);
	if (r)
		return r;
	while ((r = sqlite3_step(st)) == SQLITE_ROW && *got < cap) {
		struct stream_event *e = &ev[(*got)++];

		e->pid = sqlite3_column_int(st, 0);
		e->ts = sqlite3_column_int64(st, 1);
		e->k = arm->k;
		e->a = col_int(st, &q, 0) & 3;
		e->b = col_int(st, &q, 1);
		e->c = col_int(st, &q, 2);
		e->prio = int_or_none(st, &q, 3);
		e->nid = int_or_none(st, &q, 4);
		e->per_type = !col_is_null(st, &q, 5);
		if (arm->k == 'N' && !e->per_type) {
			e->d = col_int(st, &q, 7);	/* <= 5.1: one total */
			e->e = 0;
		} else {
			e->d = col_int(st, &q, 5);
			e->e = col_int(st, &q, 6);
		}
		e->keep = arm->k == 'N' ? col_int(st, &q, 8) : 0;	/* nr_ref_keep */
	}
	sqlite3_finalize(st);
	return r == SQLITE_DONE || r == SQLITE_ROW ? 0 : r;
}

/* The number of rows of each table (@count, NARMS of them) and of all (@n). */
static int count_rows(sqlite3 *sql, const char *path, size_t *count, size_t *n)
{
	sqlite3_stmt *st = NULL;
	char q[256];

	*n = 0;
	for (size_t i = 0; i < NARMS; i++) {
		snprintf(q, sizeof(q), "SELECT COUNT(*) FROM %s", arms[i].table);
		if (sqlite3_prepare_v2(sql, q, -1, &st, NULL) || sqlite3_step(st) != SQLITE_ROW) {
			sqlite3_finalize(st);
			return read_fail(sql, path);
		}
		count[i] = (size_t)sqlite3_column_int64(st, 0);
		*n += count[i];
		sqlite3_finalize(st);
	}
	return 0;
}

/* The tables' places in the array, and which thread reads each. */
struct arm_plan {
	struct stream_event *ev;
	size_t start[NARMS], count[NARMS], got[NARMS];
	int second[NARMS];		/* read by the second thread */
	const char *path;		/* the database, opened again by the second thread */
	int rc;				/* the second thread's: 0, or an SQLite error code */
	char err[256];			/* and its message */
	int opened;			/* it had a connection of its own */
};

/* Read the tables of @plan marked @second (1) or not (0) through @sql. */
static int read_arms(sqlite3 *sql, struct arm_plan *plan, int second)
{
	for (size_t i = 0; i < NARMS; i++) {
		int r;

		if (plan->second[i] != second)
			continue;
		r = read_arm(sql, &arms[i], plan->ev + plan->start[i], plan->count[i], &plan->got[i]);
		if (r)
			return r;
	}
	return 0;
}

static void *second_reader(void *arg)
{
	struct arm_plan *plan = arg;
	sqlite3 *sql = NULL;

	if (sqlite3_open_v2(plan->path, &sql, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL)) {
		sqlite3_close(sql);
		return NULL;	/* not opened: the calling thread reads these tables */
	}
	sqlite3_busy_timeout(sql, 10000);
	plan->opened = 1;
	plan->rc = read_arms(sql, plan, 1);
	if (plan->rc)
		snprintf(plan->err, sizeof(plan->err), "%s", sqlite3_errmsg(sql));
	sqlite3_close(sql);
	return NULL;
}

/*
 * Read every table into s->ev, each at its place: about half of the rows
 * (the largest tables first, to the lighter side) on a second thread.
 */
static int read_all(sqlite3 *sql, const char *path, const size_t *count, struct decision_stream *s)
{
	struct arm_plan plan = { .ev = s->ev, .path = path };
	size_t load[2] = { 0, 0 }, at = 0;
	int done[NARMS] = { 0 }, r;
	pthread_t thread;
	int threaded;

	for (size_t i = 0; i < NARMS; i++) {
		plan.start[i] = at;
		plan.count[i] = count[i];
		at += count[i];
	}
	for (size_t k = 0; k < NARMS; k++) {
		size_t big = NARMS;

		for (size_t i = 0; i < NARMS; i++)
			if (!done[i] && (big == NARMS || count[i] > count[big]))
				big = i;
		done[big] = 1;
		plan.second[big] = load[1] < load[0];
		load[plan.second[big]] += count[big];
	}
	threaded = path && *path && !pthread_create(&thread, NULL, second_reader, &plan);
	r = read_arms(sql, &plan, 0);
	if (threaded)
		pthread_join(thread, NULL);
	if (r)
		return read_fail(sql, path);
	if (plan.rc)
		return vms_error("%s: cannot read the reclaim events: %s", path, plan.err);
	if (!plan.opened && read_arms(sql, &plan, 1))
		return read_fail(sql, path);
	/* tables that had fewer rows than counted: close the gaps, in order */
	for (size_t i = 0; i < NARMS; i++) {
		if (s->n != plan.start[i])
			memmove(s->ev + s->n, s->ev + plan.start[i], plan.got[i] * sizeof(*s->ev));
		s->n += plan.got[i];
	}
	return 0;
}

struct pid_slot {
	int pid, used;
	size_t count;		/* events; then where the task's events start in order[] */
};

/* The slot of @pid in @map (open addressing, @mask + 1 slots). */
static struct pid_slot *slot_of(struct pid_slot *map, size_t mask, int pid)
{
	size_t h = ((unsigned int)pid * 2654435761u) & mask;

	while (map[h].used && map[h].pid != pid)
		h = (h + 1) & mask;
	return &map[h];
}

static int by_pid(const void *a, const void *b)
{
	const struct pid_slot *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * Order order[] by pid, keeping the array order within a task. Return: 0,
 * or -1 (vms_error set). @bounds: the start of each task's run of order[],
 * and a last entry s->n (caller frees it), @ntasks the number of tasks.
 */
static int order_by_pid(struct decision_stream *s, size_t **bounds, size_t *ntasks)
{
	size_t cap = 64, mask, ndistinct = 0, i, at = 0;
	struct pid_slot *map, *list = NULL;
	int rc = -1;

	while (cap < 2 * s->n + 2)
		cap *= 2;
	mask = cap - 1;
	/* a map the size of the events: a task's slot is found in one or two probes */
	map = calloc(cap, sizeof(*map));
	if (!map)
		return vms_error("out of memory");
	for (i = 0; i < s->n; i++) {
		struct pid_slot *p = slot_of(map, mask, s->ev[i].pid);

		if (!p->used) {
			p->used = 1;
			p->pid = s->ev[i].pid;
			ndistinct++;
		}
		p->count++;
	}
	list = malloc((ndistinct + 1) * sizeof(*list));
	*bounds = malloc((ndistinct + 1) * sizeof(**bounds));
	if (!list || !*bounds) {
		vms_error("out of memory");
		goto out;
	}
	for (i = 0, ndistinct = 0; i < cap; i++)
		if (map[i].used)
			list[ndistinct++] = map[i];
	qsort(list, ndistinct, sizeof(*list), by_pid);
	for (i = 0; i < ndistinct; i++) {
		struct pid_slot *p = slot_of(map, mask, list[i].pid);

		(*bounds)[i] = at;
		at += p->count;
		p->count = (*bounds)[i];	/* from now on: the next free place of the task */
	}
	(*bounds)[ndistinct] = s->n;
	for (i = 0; i < s->n; i++)
		s->order[slot_of(map, mask, s->ev[i].pid)->count++] = (unsigned int)i;
	*ntasks = ndistinct;
	rc = 0;
out:
	free(map);
	free(list);
	return rc;
}

/* The end of the run of order[i, hi) whose times do not decrease. */
static size_t run_end(const struct stream_event *ev, const unsigned int *o, size_t i, size_t hi)
{
	for (i++; i < hi && ev[o[i - 1]].ts <= ev[o[i]].ts; i++)
		;
	return i;
}

/*
 * Sort order[lo, hi) by time, stably: a natural merge sort, merging
 * neighbour runs into @tmp and back until one run is left.
 */
static void sort_task(struct decision_stream *s, size_t lo, size_t hi, unsigned int *tmp)
{
	const struct stream_event *ev = s->ev;
	unsigned int *src = s->order, *dst = tmp, *t;
	size_t runs;

	if (run_end(ev, src, lo, hi) >= hi)
		return;
	do {
		size_t i = lo, out = lo;

		for (runs = 0; i < hi; runs++) {
			size_t mid = run_end(ev, src, i, hi), end = mid < hi ? run_end(ev, src, mid, hi) : hi;
			size_t a = i, b = mid;

			while (a < mid || b < end)
				dst[out++] = b >= end || (a < mid && ev[src[a]].ts <= ev[src[b]].ts) ?
					     src[a++] : src[b++];
			i = end;
		}
		t = src;
		src = dst;
		dst = t;
	} while (runs > 1);
	if (src != s->order)
		memcpy(s->order + lo, src + lo, (hi - lo) * sizeof(*src));
}

int decision_stream_read(sqlite3 *sql, const char *path, struct decision_stream *s)
{
	size_t cap, *bounds = NULL, ntasks = 0, count[NARMS];
	unsigned int *tmp = NULL;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (count_rows(sql, path, count, &cap))
		return -1;
	if (cap >= 0xffffffffu)
		return vms_error("%s: too many reclaim events to replay (%zu)", path, cap);
	s->ev = malloc((cap ? cap : 1) * sizeof(*s->ev));
	s->order = malloc((cap ? cap : 1) * sizeof(*s->order));
	tmp = malloc((cap ? cap : 1) * sizeof(*tmp));
	if (!s->ev || !s->order || !tmp) {
		vms_error("out of memory");
		goto out;
	}
	if (read_all(sql, path, count, s))
		goto out;
	if (order_by_pid(s, &bounds, &ntasks))
		goto out;
	for (size_t i = 0; i < ntasks; i++)
		sort_task(s, bounds[i], bounds[i + 1], tmp);
	rc = 0;
out:
	free(tmp);
	free(bounds);
	if (rc)
		decision_stream_release(s);
	return rc;
}

const struct stream_event *decision_stream_next(struct decision_stream *s)
{
	return s->next < s->n ? &s->ev[s->order[s->next++]] : NULL;
}

void decision_stream_release(struct decision_stream *s)
{
	free(s->ev);
	free(s->order);
	memset(s, 0, sizeof(*s));
}
