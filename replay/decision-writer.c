// SPDX-License-Identifier: GPL-2.0
/*
 * decision-writer.c - store the decision rows on a second thread while the
 * build goes on walking the events: the build writes each row straight
 * into the next slot of a bounded queue (no copy), and a writer thread
 * binds and steps the INSERT. The two threads
 * share one SQLite connection and take turns on it: the writer holds
 * dc_writer's lock for each row it stores, and the build takes the same
 * lock (dc_writer_lock()) around every call that may read from the
 * connection (the counter series are loaded the first time a pass needs
 * them). Inserting the rows was about half of the build's time, and most
 * of the rest is not SQLite. The writer inserts ROWS_PER_INSERT rows per
 * INSERT (one statement with as many value lists, made from the caller's
 * one-row INSERT): at 10M events the build waited 2.9 s of its 6 s for room
 * in the queue with one row per INSERT.
 *
 * The rows are stored in the order they are handed over, so their ids are
 * 1, 2, ... in a fresh table (the build empties it first): the build gives
 * the id it expects with each row, and the writer checks it.
 *
 * Without SQLite's thread support (sqlite3_threadsafe() 0), or on one CPU
 * (the process's affinity: `taskset -c 0` runs it so), every row is stored
 * when it is handed over, on the caller's thread.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "decisions-local.h"

/* Rows in the queue: about 1.6 KiB each. */
#define QUEUE_ROWS 4096
/* The writer wakes for this many rows (or the last ones). */
#define BATCH_ROWS 128
/* Rows of one INSERT statement of the writer (BATCH_ROWS is a multiple). */
#define ROWS_PER_INSERT 16

struct queued_row {
	struct dc_row row;
	long long id;
};

struct dc_writer {
	sqlite3 *sql;
	sqlite3_stmt *insert;
	sqlite3_stmt *insert_many;	/* ROWS_PER_INSERT rows, or NULL: one at a time */
	int threaded;
	pthread_t thread;
	pthread_mutex_t sql_lock;	/* whoever uses sql holds it */
	pthread_mutex_t queue_lock;
	pthread_cond_t has_rows, has_room;
	struct queued_row *q;		/* QUEUE_ROWS, or without a thread 1 */
	struct queued_row *filling;	/* the slot dc_writer_next() gave, or NULL */
	size_t head, count;		/* guarded by queue_lock */
	int done;			/* no more rows will come */
	int failed;			/* the writer stopped: message in error */
	char error[512];
};

/* Store @r as row @id. Return: 0, or -1 with w->error set. */
static int store_row(struct dc_writer *w, const struct dc_row *r, long long id)
{
	sqlite3_reset(w->insert);
	dc_row_bind(r, w->insert);
	if (sqlite3_step(w->insert) != SQLITE_DONE) {
		snprintf(w->error, sizeof(w->error), "cannot store a decision: %s",
			 sqlite3_errmsg(w->sql));
		return -1;
	}
	if (sqlite3_last_insert_rowid(w->sql) != id) {
		snprintf(w->error, sizeof(w->error), "decision %lld was stored as row %lld: the table "
			 "was not empty", id, (long long)sqlite3_last_insert_rowid(w->sql));
		return -1;
	}
	return 0;
}

/* Store the ROWS_PER_INSERT rows from slot @at, the first as row @id. Return: 0 or -1. */
static int store_rows(struct dc_writer *w, size_t at, long long id)
{
	sqlite3_reset(w->insert_many);
	for (int k = 0; k < ROWS_PER_INSERT; k++) {
		const struct queued_row *qr = &w->q[(at + k) % QUEUE_ROWS];

		if (qr->id != id + k) {
			snprintf(w->error, sizeof(w->error), "decision %lld was handed over as row "
				 "%lld: the rows are not in order", qr->id, id + k);
			return -1;
		}
		dc_row_bind_at(&qr->row, w->insert_many, k * DC_COLUMNS);
	}
	if (sqlite3_step(w->insert_many) != SQLITE_DONE) {
		snprintf(w->error, sizeof(w->error), "cannot store a decision: %s",
			 sqlite3_errmsg(w->sql));
		return -1;
	}
	if (sqlite3_last_insert_rowid(w->sql) != id + ROWS_PER_INSERT - 1) {
		snprintf(w->error, sizeof(w->error), "decision %lld was stored as row %lld: the table "
			 "was not empty", id + ROWS_PER_INSERT - 1,
			 (long long)sqlite3_last_insert_rowid(w->sql));
		return -1;
	}
	return 0;
}

/*
 * The INSERT of ROWS_PER_INSERT rows made from @one, the INSERT of one row
 * ("... VALUES (?, ..., ?)"), or NULL (then the rows go one at a time).
 */
static sqlite3_stmt *prepare_many(sqlite3 *sql, sqlite3_stmt *one)
{
	const char *text = sqlite3_sql(one), *values = text ? strstr(text, " VALUES (") : NULL;
	size_t head, group;
	sqlite3_stmt *st = NULL;
	char *q, *p;

	if (!values || sqlite3_bind_parameter_count(one) != DC_COLUMNS)
		return NULL;
	head = values - text + strlen(" VALUES ");
	group = strlen(values + strlen(" VALUES "));
	q = malloc(head + ROWS_PER_INSERT * (group + 2) + 1);
	if (!q)
		return NULL;
	memcpy(q, text, head);
	p = q + head;
	for (int k = 0; k < ROWS_PER_INSERT; k++) {
		if (k) {
			memcpy(p, ", ", 2);
			p += 2;
		}
		memcpy(p, values + strlen(" VALUES "), group);
		p += group;
	}
	*p = 0;
	if (sqlite3_prepare_v2(sql, q, -1, &st, NULL)) {
		sqlite3_finalize(st);
		st = NULL;
	}
	free(q);
	return st;
}

static void *writer_main(void *arg)
{
	struct dc_writer *w = arg;

	pthread_mutex_lock(&w->queue_lock);
	for (;;) {
		size_t n, k;

		while (!w->done && w->count < BATCH_ROWS)
			pthread_cond_wait(&w->has_rows, &w->queue_lock);
		/* a batch at a time, so that the build gets room again soon */
		n = w->count < BATCH_ROWS ? w->count : BATCH_ROWS;
		if (!n)
			break;	/* done and drained */
		pthread_mutex_unlock(&w->queue_lock);
		/* the producer only appends past head + count: these n rows are the writer's */
		for (k = 0; k < n;) {
			struct queued_row *qr = &w->q[(w->head + k) % QUEUE_ROWS];
			int many = w->insert_many && n - k >= ROWS_PER_INSERT, rc;

			pthread_mutex_lock(&w->sql_lock);
			rc = w->failed ? 0 : many ? store_rows(w, w->head + k, qr->id) :
						    store_row(w, &qr->row, qr->id);
			pthread_mutex_unlock(&w->sql_lock);
			k += many ? ROWS_PER_INSERT : 1;
			if (rc) {
				pthread_mutex_lock(&w->queue_lock);
				w->failed = 1;
				pthread_mutex_unlock(&w->queue_lock);
			}
		}
		pthread_mutex_lock(&w->queue_lock);
		w->head = (w->head + n) % QUEUE_ROWS;
		w->count -= n;
		pthread_cond_signal(&w->has_room);
	}
	pthread_mutex_unlock(&w->queue_lock);
	return NULL;
}

struct dc_writer *dc_writer_start(sqlite3 *sql, sqlite3_stmt *insert)
{
	struct dc_writer *w = calloc(1, sizeof(*w));
	int threads = sqlite3_threadsafe() && vms_cpus_to_run_on() > 1;

	if (!w) {
		vms_error("out of memory");
		return NULL;
	}
	w->sql = sql;
	w->insert = insert;
	pthread_mutex_init(&w->sql_lock, NULL);
	w->q = malloc((threads ? QUEUE_ROWS : 1) * sizeof(*w->q));
	if (!w->q) {
		free(w);
		vms_error("out of memory");
		return NULL;
	}
	if (!threads)
		return w;	/* rows stored as they come */
	pthread_mutex_init(&w->queue_lock, NULL);
	pthread_cond_init(&w->has_rows, NULL);
	pthread_cond_init(&w->has_room, NULL);
	w->insert_many = prepare_many(sql, insert);
	w->threaded = !pthread_create(&w->thread, NULL, writer_main, w);
	if (!w->threaded) {	/* no second thread: rows stored as they come */
		pthread_cond_destroy(&w->has_rows);
		pthread_cond_destroy(&w->has_room);
		pthread_mutex_destroy(&w->queue_lock);
	}
	return w;
}

struct dc_row *dc_writer_next(struct dc_writer *w)
{
	struct queued_row *qr = w->q;
	int failed = 0;

	if (w->threaded) {
		pthread_mutex_lock(&w->queue_lock);
		while (w->count == QUEUE_ROWS && !w->failed)
			pthread_cond_wait(&w->has_room, &w->queue_lock);
		failed = w->failed;
		/* the slot past head + count is the producer's until count covers it */
		qr = &w->q[(w->head + w->count) % QUEUE_ROWS];
		pthread_mutex_unlock(&w->queue_lock);
	}
	if (failed)
		return NULL;	/* reported by dc_writer_finish() */
	w->filling = qr;
	return &qr->row;
}

int dc_writer_push(struct dc_writer *w, long long id)
{
	struct queued_row *qr = w->filling;
	int rc;

	w->filling = NULL;
	qr->id = id;
	if (!w->threaded) {
		pthread_mutex_lock(&w->sql_lock);
		rc = store_row(w, &qr->row, id);
		pthread_mutex_unlock(&w->sql_lock);
		return rc ? vms_error("%s", w->error) : 0;
	}
	pthread_mutex_lock(&w->queue_lock);
	w->count++;
	if (w->count >= BATCH_ROWS)
		pthread_cond_signal(&w->has_rows);
	pthread_mutex_unlock(&w->queue_lock);
	return 0;
}

void dc_writer_lock(struct dc_writer *w)
{
	pthread_mutex_lock(&w->sql_lock);
}

void dc_writer_unlock(struct dc_writer *w)
{
	pthread_mutex_unlock(&w->sql_lock);
}

int dc_writer_finish(struct dc_writer *w)
{
	int failed = 0;

	if (!w)
		return 0;
	if (w->threaded) {
		pthread_mutex_lock(&w->queue_lock);
		w->done = 1;
		pthread_cond_signal(&w->has_rows);
		pthread_mutex_unlock(&w->queue_lock);
		pthread_join(w->thread, NULL);
		failed = w->failed;
		pthread_cond_destroy(&w->has_rows);
		pthread_cond_destroy(&w->has_room);
		pthread_mutex_destroy(&w->queue_lock);
	}
	if (failed)
		vms_error("%s", w->error);
	pthread_mutex_destroy(&w->sql_lock);
	sqlite3_finalize(w->insert_many);
	free(w->q);
	free(w);
	return failed ? -1 : 0;
}
