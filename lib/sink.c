// SPDX-License-Identifier: GPL-2.0
/*
 * sink.c - writes decoded events into the typed tables. Shared by the .dat
 * importer, the text importer and the live recorder, so that every source
 * stores the same event the same way.
 *
 * How it works: at start the sink reads the schema's own description of
 * itself (event_table, field_alias, vocab, column_vocab and the column list
 * of every typed table) and prepares one INSERT per table. A row is bound
 * column by column as the decoder sets fields, and inserted by
 * vms_sink_end(). Fields with no column are collected as a JSON object in
 * the table's `extra` column (`fields` for the generic table), so nothing a
 * source carries is dropped.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "vms-strmap.h"

#define COMMON_COLUMNS 4	/* seq, ts, cpu, pid */

struct vocab_entry {
	char *name;
	long long value;
};

struct vocab {
	struct vocab_entry *entries;
	int n;
};

struct column {
	char *name;
	int is_text;			/* declared TEXT */
	const struct vocab *vocab;	/* names the text form may use, or NULL */
	int is_flags;			/* vocab names are '|'-joined bits */
};

struct alias {
	char *alias;
	int col;
};

#define ROWS_PER_INSERT 16

struct vms_table {
	char *name;
	struct column *cols;
	int ncols;
	struct alias *aliases;
	int naliases;
	int event_col;			/* column naming the event, -1 if none */
	int system_col;			/* generic table only */
	int json_col;			/* 'extra' or, in the generic table, 'fields' */
	int payload_col;		/* generic table only */
	int generic;
	sqlite3_stmt *insert;
	/* the writer's multi-row INSERT: the per-statement cost is paid once per ROWS_PER_INSERT */
	sqlite3_stmt *insert_n;
	const char *pending[ROWS_PER_INSERT];	/* serialized rows not written yet */
	int npending;
};

struct task {
	uint64_t first_ts;
	uint64_t last_ts;
	uint64_t events;
};

struct vms_sink {
	struct vms_db *db;
	struct strmap tables;		/* table name -> struct vms_table * */
	struct strmap event_tables;	/* event name -> struct vms_table * */
	struct strmap vocabs;		/* domain -> struct vocab * */
	struct strmap counts;		/* event name -> (uintptr_t) count */
	struct strmap tasks;		/* "pid comm" -> struct task * */
	struct vms_table *generic;
	struct vms_table *row;		/* table of the row being built, NULL if none */
	struct strmap_entry *row_count;	/* its entry in counts */
	struct strmap_entry *last_count;	/* cache: counts entry of the last event type */
	struct vms_buf json;		/* extra fields of the row being built */
	int json_fields;
	uint64_t seq;
	uint64_t first_ts, last_ts;
	uint64_t events, errors, lost;
	uint64_t lost_by_source[3];	/* ring-buffer, cpustats, other */
	struct strmap_entry *last_task;	/* fast path: same task as the previous event */
	int last_task_pid;
	size_t last_task_prefix;	/* length of "PID " in last_task's key */
	sqlite3_stmt *lost_insert;
	sqlite3_stmt *error_insert;
	/* asynchronous mode */
	int async;
	struct vms_buf *cur;		/* batch being filled */
	size_t row_start;		/* where the row being built starts in cur */
	struct vms_buf *queue[4];	/* full batches, FIFO */
	int qhead, qlen;
	struct vms_buf *spare[6];
	int nspare;
	pthread_t writer;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int writer_busy, writer_stop, writer_failed;
	char writer_err[512];
};

enum { Q_INT = 1, Q_TEXT = 2, Q_END = 0xffff };
#define BATCH_BYTES (1 << 20)

static int sql_fail(struct vms_sink *s, const char *what)
{
	return vms_error("%s: %s: %s", vms_db_path(s->db), what,
			 sqlite3_errmsg(vms_db_sql(s->db)));
}

static void free_vocab(void *p)
{
	struct vocab *v = p;
	int i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++)
		free(v->entries[i].name);
	free(v->entries);
	free(v);
}

static void free_table(void *p)
{
	struct vms_table *t = p;
	int i;

	if (!t)
		return;
	for (i = 0; i < t->ncols; i++)
		free(t->cols[i].name);
	for (i = 0; i < t->naliases; i++)
		free(t->aliases[i].alias);
	free(t->cols);
	free(t->aliases);
	free(t->name);
	sqlite3_finalize(t->insert);
	sqlite3_finalize(t->insert_n);
	free(t);
}

static int load_vocabs(struct vms_sink *s)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(vms_db_sql(s->db), "SELECT domain, name, value FROM vocab",
			       -1, &st, NULL))
		return sql_fail(s, "cannot read the vocab table");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *domain = (const char *)sqlite3_column_text(st, 0);
		struct strmap_entry *e = strmap_get(&s->vocabs, domain, strlen(domain));
		struct vocab *v;
		struct vocab_entry *n;

		if (!e)
			goto oom;
		if (!e->value && !(e->value = calloc(1, sizeof(struct vocab))))
			goto oom;
		v = e->value;
		n = realloc(v->entries, (v->n + 1) * sizeof(*n));
		if (!n)
			goto oom;
		v->entries = n;
		n[v->n].name = strdup((const char *)sqlite3_column_text(st, 1));
		n[v->n].value = sqlite3_column_int64(st, 2);
		if (!n[v->n].name)
			goto oom;
		v->n++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(s, "cannot read the vocab table");
oom:
	sqlite3_finalize(st);
	return vms_error("out of memory");
}

/* Build the table description and its INSERT from PRAGMA table_info. */
static struct vms_table *load_table(struct vms_sink *s, const char *name)
{
	struct strmap_entry *e = strmap_get(&s->tables, name, strlen(name));
	struct vms_buf sql = { 0 }, marks = { 0 };
	sqlite3_stmt *st = NULL;
	struct vms_table *t;
	int rc;

	if (!e)
		goto oom;
	if (e->value)
		return e->value;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->name = strdup(name)))
		goto oom_t;
	e->value = t;
	t->event_col = t->system_col = t->json_col = t->payload_col = -1;
	t->generic = !strcmp(name, "event_generic");

	vms_buf_addf(&sql, "SELECT name, type FROM pragma_table_info('%s') ORDER BY cid", name);
	if (sqlite3_prepare_v2(vms_db_sql(s->db), sql.buf, -1, &st, NULL)) {
		sql_fail(s, "cannot read the schema");
		goto err;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *cname = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);
		struct column *c = realloc(t->cols, (t->ncols + 1) * sizeof(*c));

		if (!c)
			goto oom_t;
		t->cols = c;
		c = &t->cols[t->ncols];
		memset(c, 0, sizeof(*c));
		if (!(c->name = strdup(cname)))
			goto oom_t;
		c->is_text = type && !strcasecmp(type, "TEXT");
		if (!strcmp(cname, "event"))
			t->event_col = t->ncols;
		else if (t->generic && !strcmp(cname, "system"))
			t->system_col = t->ncols;
		else if (!strcmp(cname, "extra") || (t->generic && !strcmp(cname, "fields")))
			t->json_col = t->ncols;
		else if (t->generic && !strcmp(cname, "payload"))
			t->payload_col = t->ncols;
		t->ncols++;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (t->ncols <= COMMON_COLUMNS || t->json_col < 0) {
		vms_error("%s: table '%s' is missing or lacks the common columns",
			  vms_db_path(s->db), name);
		goto err;
	}

	/* Aliases and vocabularies of this table. */
	vms_buf_reset(&sql);
	vms_buf_addf(&sql, "SELECT alias, col, NULL, NULL FROM field_alias WHERE tbl = '%s'"
		     " UNION ALL SELECT NULL, col, domain, is_flags FROM column_vocab WHERE tbl = '%s'",
		     name, name);
	if (sqlite3_prepare_v2(vms_db_sql(s->db), sql.buf, -1, &st, NULL)) {
		sql_fail(s, "cannot read the schema");
		goto err;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *alias = (const char *)sqlite3_column_text(st, 0);
		const char *col = (const char *)sqlite3_column_text(st, 1);
		int ci = vms_table_column(t, col);

		if (ci < 0) {
			vms_error("schema: '%s' names column '%s' that table '%s' lacks",
				  alias ? "field_alias" : "column_vocab", col, name);
			goto err;
		}
		if (alias) {
			struct alias *a = realloc(t->aliases, (t->naliases + 1) * sizeof(*a));

			if (!a)
				goto oom_t;
			t->aliases = a;
			a[t->naliases].col = ci;
			if (!(a[t->naliases].alias = strdup(alias)))
				goto oom_t;
			t->naliases++;
		} else {
			const char *domain = (const char *)sqlite3_column_text(st, 2);
			struct strmap_entry *v = strmap_find(&s->vocabs, domain, strlen(domain));

			if (!v) {
				vms_error("schema: vocabulary '%s' is empty", domain);
				goto err;
			}
			t->cols[ci].vocab = v->value;
			t->cols[ci].is_flags = sqlite3_column_int(st, 3);
		}
	}
	sqlite3_finalize(st);
	st = NULL;

	vms_buf_reset(&sql);
	vms_buf_addf(&sql, "INSERT INTO \"%s\" VALUES (", name);
	for (int i = 0; i < t->ncols; i++)
		vms_buf_add(&sql, i ? ",?" : "?", i ? 2 : 1);
	vms_buf_add(&sql, ")", 1);
	if (sqlite3_prepare_v3(vms_db_sql(s->db), sql.buf, -1, SQLITE_PREPARE_PERSISTENT,
			       &t->insert, NULL)) {
		sql_fail(s, "cannot prepare an insert");
		goto err;
	}
	{
		/* "INSERT ... VALUES (?,...)" and ROWS_PER_INSERT - 1 more ",(?,...)" */
		size_t one = strlen(strchr(sql.buf, '('));
		char *group = strdup(strchr(sql.buf, '('));

		if (!group)
			goto oom;
		for (int r = 1; r < ROWS_PER_INSERT; r++) {
			vms_buf_add(&sql, ",", 1);
			vms_buf_add(&sql, group, one);
		}
		free(group);
	}
	if (sqlite3_prepare_v3(vms_db_sql(s->db), sql.buf, -1, SQLITE_PREPARE_PERSISTENT,
			       &t->insert_n, NULL)) {
		sql_fail(s, "cannot prepare an insert");
		goto err;
	}
	vms_buf_release(&sql);
	vms_buf_release(&marks);
	return t;
oom_t:
oom:
	vms_error("out of memory");
err:
	sqlite3_finalize(st);
	vms_buf_release(&sql);
	vms_buf_release(&marks);
	return NULL;
}

static int load_event_tables(struct vms_sink *s)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(vms_db_sql(s->db), "SELECT event, tbl FROM event_table", -1, &st, NULL))
		return sql_fail(s, "cannot read the event_table table");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *ev = (const char *)sqlite3_column_text(st, 0);
		struct vms_table *t = load_table(s, (const char *)sqlite3_column_text(st, 1));
		struct strmap_entry *e;

		if (!t)
			goto err;
		e = strmap_get(&s->event_tables, ev, strlen(ev));
		if (!e) {
			vms_error("out of memory");
			goto err;
		}
		e->value = t;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_fail(s, "cannot read the event_table table");
	s->generic = load_table(s, "event_generic");
	return s->generic ? 0 : -1;
err:
	sqlite3_finalize(st);
	return -1;
}

struct vms_sink *vms_sink_new(struct vms_db *db)
{
	struct vms_sink *s = calloc(1, sizeof(*s));
	sqlite3 *sql = vms_db_sql(db);

	if (!s) {
		vms_error("out of memory");
		return NULL;
	}
	s->db = db;
	s->first_ts = UINT64_MAX;
	strmap_init(&s->tables);
	strmap_init(&s->event_tables);
	strmap_init(&s->vocabs);
	strmap_init(&s->counts);
	strmap_init(&s->tasks);
	if (load_vocabs(s) || load_event_tables(s))
		goto err;
	if (sqlite3_prepare_v2(sql, "INSERT INTO lost_events VALUES (?, ?, ?, ?)", -1,
			       &s->lost_insert, NULL) ||
	    sqlite3_prepare_v2(sql, "INSERT INTO import_error VALUES (?, ?, ?, ?)", -1,
			       &s->error_insert, NULL)) {
		sql_fail(s, "cannot prepare an insert");
		goto err;
	}
	return s;
err:
	vms_sink_free(s);
	return NULL;
}

void vms_sink_free(struct vms_sink *s)
{
	if (!s)
		return;
	vms_sink_set_async(s, 0);
	strmap_release(&s->event_tables, NULL);
	strmap_release(&s->tables, free_table);
	strmap_release(&s->vocabs, free_vocab);
	strmap_release(&s->counts, NULL);
	strmap_release(&s->tasks, free);
	sqlite3_finalize(s->lost_insert);
	sqlite3_finalize(s->error_insert);
	vms_buf_release(&s->json);
	free(s);
}

struct vms_table *vms_sink_table(struct vms_sink *s, const char *event)
{
	struct strmap_entry *e = strmap_find(&s->event_tables, event, strlen(event));

	return e ? e->value : s->generic;
}

int vms_table_is_generic(const struct vms_table *t)
{
	return t->generic;
}

const char *vms_table_name(const struct vms_table *t)
{
	return t->name;
}

int vms_table_columns(const struct vms_table *t)
{
	return t->ncols;
}

const char *vms_table_column_name(const struct vms_table *t, int col)
{
	return t->cols[col].name;
}

int vms_table_column_is_text(const struct vms_table *t, int col)
{
	return t->cols[col].is_text;
}

static int column_by_name(const struct vms_table *t, const char *name, size_t len)
{
	int i;

	for (i = COMMON_COLUMNS; i < t->ncols; i++)
		if (i != t->json_col && i != t->event_col && !strncmp(t->cols[i].name, name, len) &&
		    !t->cols[i].name[len])
			return t->generic ? -1 : i;
	for (i = 0; i < t->naliases; i++)
		if (!strncmp(t->aliases[i].alias, name, len) && !t->aliases[i].alias[len])
			return t->aliases[i].col;
	return -1;
}

int vms_table_column(const struct vms_table *t, const char *name)
{
	return column_by_name(t, name, strlen(name));
}

static void q_put(struct vms_buf *b, const void *p, size_t n)
{
	vms_buf_add(b, p, n);
}

static void q_int(struct vms_sink *s, int col, long long v)
{
	unsigned short c = (unsigned short)col;
	unsigned char type = Q_INT;

	q_put(s->cur, &c, sizeof(c));
	q_put(s->cur, &type, 1);
	q_put(s->cur, &v, sizeof(v));
}

static void q_text(struct vms_sink *s, int col, const char *text, size_t len)
{
	unsigned short c = (unsigned short)col;
	unsigned char type = Q_TEXT;
	unsigned int n = (unsigned int)len;

	q_put(s->cur, &c, sizeof(c));
	q_put(s->cur, &type, 1);
	q_put(s->cur, &n, sizeof(n));
	q_put(s->cur, text, len);
}

/* Bind and insert every row of a batch (writer thread, or inline). Return: 0 or -1. */
/*
 * Bind the serialized row at @p to @st's parameters from @base + 1 on (@st
 * NULL: only step over it). Return: the end of the row.
 */
static const char *bind_row(sqlite3_stmt *st, int base, const char *p)
{
	for (;;) {
		unsigned short col;
		unsigned char type;

		memcpy(&col, p, sizeof(col));
		p += sizeof(col);
		if (col == Q_END)
			return p;
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
		sqlite3_clear_bindings(t->insert_n);
		for (i = 0; i < ROWS_PER_INSERT; i++)
			bind_row(t->insert_n, i * t->ncols, t->pending[i]);
		t->npending = 0;
		return step_insert(s, t->insert_n, err, errlen);
	}
	for (i = 0; i < t->npending; i++) {
		sqlite3_reset(t->insert);
		sqlite3_clear_bindings(t->insert);
		bind_row(t->insert, 0, t->pending[i]);
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
 * vms_sink_new(), so s->tables does not change while the writer runs.)
 */
static int write_batch(struct vms_sink *s, const struct vms_buf *b, char *err, size_t errlen)
{
	const char *p = b->buf, *end = b->buf + b->len;
	size_t i;
	int rc = 0;

	while (p < end && !rc) {
		struct vms_table *t;

		memcpy(&t, p, sizeof(t));
		p += sizeof(t);
		t->pending[t->npending++] = p;
		p = bind_row(NULL, 0, p);
		if (t->npending == ROWS_PER_INSERT)
			rc = write_pending(s, t, 0, err, errlen);
	}
	for (i = 0; i < s->tables.size; i++) {
		struct vms_table *t = s->tables.slots[i].value;

		if (!s->tables.slots[i].key || !t->npending)
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

	pthread_mutex_lock(&s->mu);
	for (;;) {
		struct vms_buf *b;

		while (!s->qlen && !s->writer_stop)
			pthread_cond_wait(&s->cv, &s->mu);
		if (!s->qlen)
			break;
		b = s->queue[s->qhead];
		s->qhead = (s->qhead + 1) % 4;
		s->qlen--;
		s->writer_busy = 1;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
		if (!s->writer_failed && write_batch(s, b, s->writer_err, sizeof(s->writer_err)))
			s->writer_failed = 1;
		vms_buf_reset(b);
		pthread_mutex_lock(&s->mu);
		s->spare[s->nspare++] = b;
		s->writer_busy = 0;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* Hand the current batch to the writer (waits while the queue is full). */
static int enqueue(struct vms_sink *s)
{
	pthread_mutex_lock(&s->mu);
	while (s->qlen == 4 || !s->nspare)
		pthread_cond_wait(&s->cv, &s->mu);
	s->queue[(s->qhead + s->qlen) % 4] = s->cur;
	s->qlen++;
	s->cur = s->spare[--s->nspare];
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return s->writer_failed ? vms_error("%s", s->writer_err) : 0;
}

/* Wait until every queued row is written: the connection is then free. */
static int sink_flush(struct vms_sink *s)
{
	if (!s->async)
		return 0;
	if (s->cur->len && enqueue(s))
		return -1;
	pthread_mutex_lock(&s->mu);
	while (s->qlen || s->writer_busy)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
	return s->writer_failed ? vms_error("%s", s->writer_err) : 0;
}

int vms_sink_set_async(struct vms_sink *s, int on)
{
	int i;

	if (on == s->async)
		return 0;
	if (!on) {
		int rc = sink_flush(s);

		pthread_mutex_lock(&s->mu);
		s->writer_stop = 1;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
		pthread_join(s->writer, NULL);
		vms_buf_release(s->cur);
		free(s->cur);
		for (i = 0; i < s->nspare; i++) {
			vms_buf_release(s->spare[i]);
			free(s->spare[i]);
		}
		s->nspare = 0;
		s->cur = NULL;
		s->async = 0;
		return rc;
	}
	s->cur = calloc(1, sizeof(*s->cur));
	for (i = 0; i < 5; i++)
		if ((s->spare[s->nspare] = calloc(1, sizeof(struct vms_buf))))
			s->nspare++;
	if (!s->cur || s->nspare < 2)
		return vms_error("out of memory");
	s->writer_stop = s->writer_failed = 0;
	s->qhead = s->qlen = 0;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	if (pthread_create(&s->writer, NULL, writer_main, s))
		return vms_error("cannot start the database writer thread");
	s->async = 1;
	return 0;
}

void vms_sink_begin(struct vms_sink *s, struct vms_table *t, const char *system,
		    const char *event, uint64_t ts, int cpu, int pid)
{
	sqlite3_stmt *st = t->insert;

	s->row = t;
	vms_buf_reset(&s->json);
	s->json_fields = 0;
	if (s->async) {
		s->row_start = s->cur->len;
		q_put(s->cur, &t, sizeof(t));
		q_int(s, 0, (long long)(s->seq + 1));
		q_int(s, 1, (long long)ts);
		q_int(s, 2, cpu);
		q_int(s, 3, pid);
		if (t->event_col >= 0)
			q_text(s, t->event_col, event, strlen(event));
		if (t->system_col >= 0 && system)
			q_text(s, t->system_col, system, strlen(system));
		goto count;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	sqlite3_bind_int64(st, 1, (sqlite3_int64)(s->seq + 1));
	sqlite3_bind_int64(st, 2, (sqlite3_int64)ts);
	sqlite3_bind_int(st, 3, cpu);
	sqlite3_bind_int(st, 4, pid);
	if (t->event_col >= 0)
		sqlite3_bind_text(st, t->event_col + 1, event, -1, SQLITE_TRANSIENT);
	if (t->system_col >= 0 && system)
		sqlite3_bind_text(st, t->system_col + 1, system, -1, SQLITE_TRANSIENT);
count:
	/* counted when the row is stored, see vms_sink_end(); runs of one event
	 * type are common, so the last lookup is kept */
	if (!s->last_count || strcmp(event, s->last_count->key))
		s->last_count = strmap_get(&s->counts, event, strlen(event));
	s->row_count = s->last_count;
	if (ts < s->first_ts)
		s->first_ts = ts;
	if (ts > s->last_ts)
		s->last_ts = ts;
}

void vms_sink_set_int(struct vms_sink *s, int col, long long value)
{
	if (s->async)
		q_int(s, col, value);
	else
		sqlite3_bind_int64(s->row->insert, col + 1, value);
}

void vms_sink_set_text(struct vms_sink *s, int col, const char *text, size_t len)
{
	if (s->async)
		q_text(s, col, text, len);
	else
		sqlite3_bind_text(s->row->insert, col + 1, text, (int)len, SQLITE_TRANSIENT);
}

void vms_sink_set_payload(struct vms_sink *s, const char *text, size_t len)
{
	if (s->row->payload_col >= 0)
		vms_sink_set_text(s, s->row->payload_col, text, len);
}

static void json_key(struct vms_sink *s, const char *key, size_t len)
{
	vms_buf_add(&s->json, s->json_fields++ ? "," : "{", 1);
	vms_json_append_string(&s->json, key, len);
	vms_buf_add(&s->json, ":", 1);
}

void vms_sink_extra_int(struct vms_sink *s, const char *key, long long value)
{
	json_key(s, key, strlen(key));
	vms_buf_addf(&s->json, "%lld", value);
}

void vms_sink_extra_text(struct vms_sink *s, const char *key, const char *text, size_t len)
{
	json_key(s, key, strlen(key));
	vms_json_append_string(&s->json, text, len);
}

/* Decimal or 0x-hex integer, optionally negative; the whole of @s must be used. */
static int parse_number(const char *s, size_t len, long long *out)
{
	unsigned long long v = 0;
	size_t i = 0;
	int neg = 0;

	if (len && s[0] == '-') {
		neg = 1;
		i++;
	}
	if (i >= len)
		return -1;
	if (len - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		for (i += 2; i < len; i++) {
			unsigned char c = s[i];
			int d;

			if (c >= '0' && c <= '9')
				d = c - '0';
			else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
				d = (c | 0x20) - 'a' + 10;
			else
				return -1;
			v = v * 16 + d;
		}
	} else {
		for (; i < len; i++) {
			if (s[i] < '0' || s[i] > '9')
				return -1;
			v = v * 10 + (s[i] - '0');
		}
	}
	*out = neg ? -(long long)v : (long long)v;
	return 0;
}

static int vocab_lookup(const struct vocab *v, const char *name, size_t len, long long *out)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (!strncmp(v->entries[i].name, name, len) && !v->entries[i].name[len]) {
			*out = v->entries[i].value;
			return 0;
		}
	return -1;
}

/* Text form of an INTEGER column: a number, 'M:m', or vocabulary names. */
static int text_to_int(const struct column *c, const char *val, size_t len, long long *out)
{
	const char *colon;

	if (!parse_number(val, len, out))
		return 0;
	colon = memchr(val, ':', len);
	if (colon) {
		long long major, minor;

		if (!parse_number(val, colon - val, &major) &&
		    !parse_number(colon + 1, len - (colon + 1 - val), &minor)) {
			*out = (major << 20) | minor;	/* the kernel's MKDEV() */
			return 0;
		}
	}
	if (!c->vocab)
		return -1;
	if (!c->is_flags)
		return vocab_lookup(c->vocab, val, len, out);
	*out = 0;
	while (len) {
		const char *bar = memchr(val, '|', len);
		size_t n = bar ? (size_t)(bar - val) : len;
		long long bit;

		if (vocab_lookup(c->vocab, val, n, &bit) && parse_number(val, n, &bit))
			return -1;
		*out |= bit;
		if (!bar)
			break;
		len -= n + 1;
		val = bar + 1;
	}
	return 0;
}

int vms_sink_set_from_text(struct vms_sink *s, const char *key, size_t keylen,
			   const char *value, size_t vallen)
{
	struct vms_table *t = s->row;
	int col = column_by_name(t, key, keylen);
	const struct column *c;
	long long v;

	if (col < 0) {
		json_key(s, key, keylen);
		/*
		 * Only plain numbers become JSON numbers: "0000000012345678" (a
		 * hashed pointer) or "060000" (octal mode) stay text as printed.
		 */
		if (vallen < 19 && (vallen == 1 || value[0] != '0' ||
				    (vallen > 2 && value[1] == 'x')) && value[0] != '+' &&
		    !(value[0] == '-' && vallen > 2 && value[1] == '0') &&
		    !parse_number(value, vallen, &v))
			vms_buf_addf(&s->json, "%lld", v);
		else
			vms_json_append_string(&s->json, value, vallen);
		return 0;
	}
	c = &t->cols[col];
	if (c->is_text) {
		vms_sink_set_text(s, col, value, vallen);
		return 0;
	}
	if (text_to_int(c, value, vallen, &v))
		return vms_error("field '%s' of %s: '%.*s' is not %s", c->name, t->name,
				 (int)(vallen > 60 ? 60 : vallen), value,
				 c->vocab ? "a number or a known name" : "a number");
	vms_sink_set_int(s, col, v);
	return 0;
}

int vms_sink_end(struct vms_sink *s)
{
	struct vms_table *t = s->row;

	if (s->json_fields)
		vms_buf_add(&s->json, "}", 1);
	s->row = NULL;
	if (s->async) {
		unsigned short endmark = Q_END;

		if (s->json_fields)
			q_text(s, t->json_col, s->json.buf, s->json.len);
		q_put(s->cur, &endmark, sizeof(endmark));
		if (s->cur->len >= BATCH_BYTES && enqueue(s))
			return -1;
		if (s->writer_failed)
			return vms_error("%s", s->writer_err);
		goto stored;
	}
	if (s->json_fields)
		sqlite3_bind_text(t->insert, t->json_col + 1, s->json.buf, (int)s->json.len,
				  SQLITE_STATIC);
	if (sqlite3_step(t->insert) != SQLITE_DONE)
		return sql_fail(s, "cannot store an event");
stored:
	if (s->row_count)
		s->row_count->value = (void *)((uintptr_t)s->row_count->value + 1);
	s->seq++;
	s->events++;
	return 0;
}

void vms_sink_abandon(struct vms_sink *s)
{
	if (s->async && s->row)
		s->cur->len = s->row_start;	/* drop the half-serialized row */
	s->row = NULL;
}

void vms_sink_task(struct vms_sink *s, int pid, const char *comm, size_t len, uint64_t ts)
{
	struct strmap_entry *e = s->last_task;
	struct task *t;
	char key[256];
	int n;

	/* fast path: the same task as the previous event ("PID COMM" key, no printf) */
	if (!e || s->last_task_pid != pid || e->len != s->last_task_prefix + len ||
	    memcmp(e->key + s->last_task_prefix, comm, len)) {
		n = snprintf(key, sizeof(key), "%d %.*s", pid, (int)len, comm);
		if (n >= (int)sizeof(key))
			n = sizeof(key) - 1;
		e = strmap_get(&s->tasks, key, n);
		if (!e)
			return;
		if (!e->value) {
			e->value = calloc(1, sizeof(struct task));
			if (!e->value)
				return;
			((struct task *)e->value)->first_ts = ts;
		}
		s->last_task = e;
		s->last_task_pid = pid;
		s->last_task_prefix = strchr(e->key, ' ') + 1 - e->key;
	}
	t = e->value;
	t->last_ts = ts;
	t->events++;
}

int vms_sink_lost(struct vms_sink *s, int cpu, uint64_t ts, long long count, const char *source)
{
	sqlite3_stmt *st = s->lost_insert;

	if (sink_flush(s))
		return -1;
	sqlite3_reset(st);
	if (cpu >= 0)
		sqlite3_bind_int(st, 1, cpu);
	else
		sqlite3_bind_null(st, 1);
	if (ts)
		sqlite3_bind_int64(st, 2, (sqlite3_int64)ts);
	else
		sqlite3_bind_null(st, 2);
	if (count >= 0)
		sqlite3_bind_int64(st, 3, count);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_text(st, 4, source, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		return sql_fail(s, "cannot store lost events");
	/*
	 * Sources can report the same loss twice (a gap in a CPU buffer and the
	 * overrun count at the end): the total is the largest source's sum.
	 */
	if (count > 0) {
		int k = !strcmp(source, "ring-buffer") ? 0 : !strcmp(source, "cpustats") ? 1 : 2;

		s->lost_by_source[k] += count;
		s->lost = s->lost_by_source[0];
		if (s->lost_by_source[1] > s->lost)
			s->lost = s->lost_by_source[1];
		if (s->lost_by_source[2] > s->lost)
			s->lost = s->lost_by_source[2];
	}
	return 0;
}

int vms_sink_import_error(struct vms_sink *s, long long line, long long offset,
			  const char *reason, const char *text, size_t len)
{
	sqlite3_stmt *st = s->error_insert;

	if (sink_flush(s))
		return -1;
	s->errors++;
	sqlite3_reset(st);
	if (line > 0)
		sqlite3_bind_int64(st, 1, line);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_int64(st, 2, offset);
	sqlite3_bind_text(st, 3, reason, -1, SQLITE_TRANSIENT);
	if (text)
		sqlite3_bind_text(st, 4, text, (int)(len > 512 ? 512 : len), SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, 4);
	if (sqlite3_step(st) != SQLITE_DONE)
		return sql_fail(s, "cannot store an import error");
	return 0;
}

uint64_t vms_sink_events(const struct vms_sink *s)
{
	return s->events;
}

uint64_t vms_sink_errors(const struct vms_sink *s)
{
	return s->errors;
}

uint64_t vms_sink_lost_total(const struct vms_sink *s)
{
	return s->lost;
}

int vms_sink_finish(struct vms_sink *s)
{
	sqlite3_stmt *st;
	size_t i;

	if (vms_sink_set_async(s, 0))
		return -1;
	if (sqlite3_prepare_v2(vms_db_sql(s->db), "INSERT OR REPLACE INTO task VALUES (?, ?, ?, ?, ?)",
			       -1, &st, NULL))
		return sql_fail(s, "cannot store tasks");
	for (i = 0; i < s->tasks.size; i++) {
		struct strmap_entry *e = &s->tasks.slots[i];
		struct task *t = e->value;
		char *space;

		if (!e->key || !t)
			continue;
		space = strchr(e->key, ' ');
		sqlite3_reset(st);
		sqlite3_bind_int(st, 1, atoi(e->key));
		sqlite3_bind_text(st, 2, space + 1, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)t->first_ts);
		sqlite3_bind_int64(st, 4, (sqlite3_int64)t->last_ts);
		sqlite3_bind_int64(st, 5, (sqlite3_int64)t->events);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return sql_fail(s, "cannot store tasks");
		}
	}
	sqlite3_finalize(st);
	if (s->events && (vms_db_set_run_int(s->db, "start_ts", (long long)s->first_ts) ||
			  vms_db_set_run_int(s->db, "end_ts", (long long)s->last_ts)))
		return -1;
	return vms_db_set_run_int(s->db, "events", (long long)s->events);
}

struct count_row {
	const char *name;
	uint64_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct count_row *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

void vms_sink_print_counts(const struct vms_sink *s, void (*out)(const char *line))
{
	struct count_row *rows = calloc(s->counts.used + 1, sizeof(*rows));
	size_t i, n = 0;
	char line[256];

	if (!rows)
		return;
	for (i = 0; i < s->counts.size; i++)
		if (s->counts.slots[i].key && s->counts.slots[i].value) {
			rows[n].name = s->counts.slots[i].key;
			rows[n++].n = (uintptr_t)s->counts.slots[i].value;
		}
	qsort(rows, n, sizeof(*rows), by_count);
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%12llu  %s", (unsigned long long)rows[i].n, rows[i].name);
		out(line);
	}
	free(rows);
}
