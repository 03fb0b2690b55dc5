// SPDX-License-Identifier: GPL-2.0
/*
 * decision-writer.c - store the decision rows on a second thread while the
 * build goes on walking the events: the build writes each row, its two
 * JSON texts included, straight into the next slot of a bounded queue (no
 * copy), and a writer thread binds and steps the INSERT. The two threads
 * share one SQLite connection and take turns on it: the writer holds
 * dc_writer's lock for each row it stores, and the build takes the same
 * lock (dc_writer_lock()) around every call that may read from the
 * connection (the counter series are loaded the first time a pass needs
 * them). Inserting the rows was about half of the build's time, and most
 * of the rest is not SQLite.
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
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "decisions-local.h"

/* Rows in the queue: about 3.5 KiB each. */
#define QUEUE_ROWS 4096
/* The writer wakes for this many rows (or the last ones). */
#define BATCH_ROWS 128

struct queued_row {
	struct dc_row row;
	long long id;
	char json[2][DECISION_JSON_MAX];	/* the row's two JSON texts */
};

struct dc_writer {
	sqlite3 *sql;
	sqlite3_stmt *insert;
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
		for (k = 0; k < n; k++) {
			struct queued_row *qr = &w->q[(w->head + k) % QUEUE_ROWS];
			int rc;

			pthread_mutex_lock(&w->sql_lock);
			rc = w->failed ? 0 : store_row(w, &qr->row, qr->id);
			pthread_mutex_unlock(&w->sql_lock);
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

/* Whether a second thread can run beside this one: more than one CPU to run on. */
static int two_cpus(void)
{
	cpu_set_t cpus;

	return sched_getaffinity(0, sizeof(cpus), &cpus) || CPU_COUNT(&cpus) > 1;
}

struct dc_writer *dc_writer_start(sqlite3 *sql, sqlite3_stmt *insert)
{
	struct dc_writer *w = calloc(1, sizeof(*w));
	int threads = sqlite3_threadsafe() && two_cpus();

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
	w->threaded = !pthread_create(&w->thread, NULL, writer_main, w);
	if (!w->threaded) {	/* no second thread: rows stored as they come */
		pthread_cond_destroy(&w->has_rows);
		pthread_cond_destroy(&w->has_room);
		pthread_mutex_destroy(&w->queue_lock);
	}
	return w;
}

struct dc_row *dc_writer_next(struct dc_writer *w, char **json0, char **json1)
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
	*json0 = qr->json[0];
	*json1 = qr->json[1];
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
	free(w->q);
	free(w);
	return failed ? -1 : 0;
}
