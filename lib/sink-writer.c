// SPDX-License-Identifier: GPL-2.0
/*
 * sink-writer.c - the sink's asynchronous mode: rows are serialized into
 * batches of about BATCH_BYTES (format in sink-local.h), and a second thread
 * binds and inserts them, ROWS_PER_INSERT rows of one table per INSERT, while
 * the decoder goes on. Used by the .dat importer and by the recorder's
 * decoding (vms_sink_set_async()).
 *
 * How it works: the decoder fills s->cur; a full batch goes to a FIFO of 4
 * (enqueue(), waiting while it is full) and the decoder takes a spare
 * buffer. The writer takes batches from the FIFO, writes them and returns
 * them to the spares. Everything the two threads share (queue, spares,
 * writer_busy/stop/failed and writer_err) is read and written under s->mu;
 * a write failure stops the writing (later batches are dropped) and is
 * reported by the next enqueue() or sink_flush().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sink-local.h"

#define QUEUE_LEN 4
#define SPARES 5

int sink_writer_init(struct vms_sink *s)
{
	if (pthread_mutex_init(&s->mu, NULL))
		return vms_error("cannot create the database writer's lock");
	if (pthread_cond_init(&s->cv, NULL)) {
		pthread_mutex_destroy(&s->mu);
		return vms_error("cannot create the database writer's lock");
	}
	return 0;
}

void sink_writer_release(struct vms_sink *s)
{
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
}

/*
 * Bind the serialized row at @p to @st's parameters from @base + 1 on (@st
 * NULL: only step over it). Return: the end of the row.
 */
static const char *bind_row(sqlite3_stmt *st, int base, const char *p, uint64_t *bound)
{
	for (;;) {
		unsigned short col;
		unsigned char type;

		memcpy(&col, p, sizeof(col));
		p += sizeof(col);
		if (col == Q_END)
			return p;
		if (bound && col < 64)
			*bound |= 1ULL << col;
		type = (unsigned char)*p++;
		if (type == Q_INT) {
			long long v;

			memcpy(&v, p, sizeof(v));
			p += sizeof(v);
			if (st)
				sqlite3_bind_int64(st, base + col + 1, v);
		} else {
			unsigned int n;

			memcpy(&n, p, sizeof(n));
			p += sizeof(n);
			if (st)
				sqlite3_bind_text(st, base + col + 1, p, (int)n, SQLITE_STATIC);
			p += n;
		}
	}
}

static int step_insert(struct vms_sink *s, sqlite3_stmt *st, char *err, size_t errlen)
{
	if (sqlite3_step(st) == SQLITE_DONE)
		return 0;
	snprintf(err, errlen, "%s: cannot store an event: %s", vms_db_path(s->db),
		 sqlite3_errmsg(vms_db_sql(s->db)));
	sqlite3_reset(st);
	return -1;
}

/* Write @t's pending rows: ROWS_PER_INSERT at once when @all is 0 and they are that many, else one by one. */
static int write_pending(struct vms_sink *s, struct vms_table *t, int all, char *err, size_t errlen)
{
	int i;

	if (t->npending == ROWS_PER_INSERT && !all) {
		sqlite3_reset(t->insert_n);
		if (t->ncols > 64)
			sqlite3_clear_bindings(t->insert_n);
		for (i = 0; i < ROWS_PER_INSERT; i++) {
			uint64_t bound = 0, stale;

			bind_row(t->insert_n, i * t->ncols, t->pending[i], &bound);
			if (t->ncols > 64)
				continue;
			/*
			 * Only this statement binds insert_n: what the row in
			 * this place bound last time and this row does not is
			 * set NULL, instead of clearing every parameter
			 */
			for (stale = t->bound_n[i] & ~bound; stale; stale &= stale - 1)
				sqlite3_bind_null(t->insert_n, i * t->ncols + __builtin_ctzll(stale) + 1);
			t->bound_n[i] = bound;
		}
		t->npending = 0;
		return step_insert(s, t->insert_n, err, errlen);
	}
	for (i = 0; i < t->npending; i++) {
		sqlite3_reset(t->insert);
		sqlite3_clear_bindings(t->insert);
		bind_row(t->insert, 0, t->pending[i], NULL);
		if (step_insert(s, t->insert, err, errlen))
			return -1;
	}
	t->npending = 0;
	return 0;
}

/*
 * Write the rows of batch @b. Rows of one table are gathered ROWS_PER_INSERT
 * at a time (their order kept; tables are independent: rows carry their
 * seq); the rest are written one by one before returning, while @b's bytes
 * they point into are still there. (The tables are all loaded by
 * vms_sink_new(), so s->by_id does not change while the writer runs.)
 */
static int write_batch(struct vms_sink *s, const struct vms_buf *b, char *err, size_t errlen)
{
	const char *p = b->buf, *end = b->buf + b->len;
	int rc = 0, i;

	while (p < end && !rc) {
		unsigned short id;
		struct vms_table *t;

		memcpy(&id, p, sizeof(id));
		p += sizeof(id);
		t = s->by_id[id];
		t->pending[t->npending++] = p;
		p = bind_row(NULL, 0, p, NULL);
		if (t->npending == ROWS_PER_INSERT)
			rc = write_pending(s, t, 0, err, errlen);
	}
	for (i = 0; i < s->ntables; i++) {
		struct vms_table *t = s->by_id[i];

		if (!t->npending)
			continue;
		if (!rc)
			rc = write_pending(s, t, 1, err, errlen);
		t->npending = 0;
	}
	return rc;
}

static void *writer_main(void *arg)
{
	struct vms_sink *s = arg;
	char err[sizeof(s->writer_err)];

	pthread_mutex_lock(&s->mu);
	for (;;) {
		struct vms_buf *b;
		int failed, rc = 0;

		while (!s->qlen && !s->writer_stop)
			pthread_cond_wait(&s->cv, &s->mu);
		if (!s->qlen)
			break;
		b = s->queue[s->qhead];
		s->qhead = (s->qhead + 1) % QUEUE_LEN;
		s->qlen--;
		s->writer_busy = 1;
		failed = s->writer_failed;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
		if (!failed)
			rc = write_batch(s, b, err, sizeof(err));
		vms_buf_reset(b);
		pthread_mutex_lock(&s->mu);
		if (rc) {
			memcpy(s->writer_err, err, sizeof(err));
			s->writer_failed = 1;
		}
		s->spare[s->nspare++] = b;
		s->writer_busy = 0;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* vms_error() with the writer's message. Call with s->mu held. */
static int writer_error_locked(struct vms_sink *s)
{
	char err[sizeof(s->writer_err)];

	memcpy(err, s->writer_err, sizeof(err));
	return vms_error("%s", err);
}

/* Hand the current batch to the writer (waits while the queue is full). */
static int enqueue(struct vms_sink *s)
{
	int rc = 0;

	pthread_mutex_lock(&s->mu);
	while (s->qlen == QUEUE_LEN || !s->nspare)
		pthread_cond_wait(&s->cv, &s->mu);
	s->queue[(s->qhead + s->qlen) % QUEUE_LEN] = s->cur;
	s->qlen++;
	s->cur = s->spare[--s->nspare];
	pthread_cond_broadcast(&s->cv);
	if (s->writer_failed)
		rc = writer_error_locked(s);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

int sink_q_row_done(struct vms_sink *s)
{
	return s->cur->len >= BATCH_BYTES ? enqueue(s) : 0;
}

int sink_flush(struct vms_sink *s)
{
	int rc = 0;

	if (!s->async)
		return 0;
	if (s->cur->len && enqueue(s))
		return -1;
	pthread_mutex_lock(&s->mu);
	while (s->qlen || s->writer_busy)
		pthread_cond_wait(&s->cv, &s->mu);
	if (s->writer_failed)
		rc = writer_error_locked(s);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

static void free_buffers(struct vms_sink *s)
{
	int i;

	if (s->cur) {
		vms_buf_release(s->cur);
		free(s->cur);
		s->cur = NULL;
	}
	for (i = 0; i < s->nspare; i++) {
		vms_buf_release(s->spare[i]);
		free(s->spare[i]);
	}
	s->nspare = 0;
}

int vms_sink_set_async(struct vms_sink *s, int on)
{
	int rc;

	if (on == s->async)
		return 0;
	if (!on) {
		rc = sink_flush(s);
		pthread_mutex_lock(&s->mu);
		s->writer_stop = 1;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
		pthread_join(s->writer, NULL);
		free_buffers(s);
		s->async = 0;
		return rc;
	}
	s->cur = calloc(1, sizeof(*s->cur));
	while (s->cur && s->nspare < SPARES &&
	       (s->spare[s->nspare] = calloc(1, sizeof(struct vms_buf))))
		s->nspare++;
	if (!s->cur || s->nspare < SPARES) {
		free_buffers(s);
		return vms_error("out of memory");
	}
	s->writer_busy = s->writer_stop = s->writer_failed = 0;
	s->qhead = s->qlen = 0;
	if (pthread_create(&s->writer, NULL, writer_main, s)) {
		free_buffers(s);
		return vms_error("cannot start the database writer thread");
	}
	s->async = 1;
	return 0;
}
