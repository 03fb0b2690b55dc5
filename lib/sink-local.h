/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sink-local.h - what the files of the event sink share. Not part of the
 * public interface: see "the event sink" in vms.h.
 *
 *  - sink-schema.c reads the schema's description of itself (event_table,
 *    field_alias, vocab, column_vocab, the columns of each typed table) into
 *    struct vms_table, with one INSERT per table;
 *  - sink.c builds rows (vms_sink_begin() ... vms_sink_end()), converts the
 *    text form of a field to its column, and keeps the run's counters;
 *  - sink-writer.c serializes rows into batches and writes them on a second
 *    thread (vms_sink_set_async()), ROWS_PER_INSERT rows per INSERT;
 *  - sink-reader.c runs a decoder in a reader process whose sink calls are
 *    replayed into this one (vms_sink_run_reader());
 *  - sink-bins.c counts the stored rows per table, event and time bin for
 *    the derive step's event_bucket (temp.vms_sink_bins).
 *
 * A serialized row (a batch of the writer, the stream of a reader) is
 * u16 table id, then (u16 column, u8 Q_INT, i64) or (u16 column, u8 Q_TEXT,
 * u32 length, bytes) per field, then u16 Q_END; all in host byte order.
 */
#ifndef VMS_SINK_LOCAL_H
#define VMS_SINK_LOCAL_H

#include <pthread.h>
#include <stdint.h>
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
	int id;				/* index in vms_sink.by_id, written in serialized rows */
	struct column *cols;
	int ncols;
	struct alias *aliases;
	int naliases;
	int event_col;			/* column naming the event, -1 if none */
	int system_col;			/* generic table only */
	int json_col;			/* 'extra' or, in the generic table, 'fields' */
	int payload_col;		/* generic table only */
	int generic;
	int lenient;			/* made from a text line: a value that is not a number stays text */
	uint64_t required;		/* bit c: column c (< 64) is in required_field */
	int bins_spoiled;		/* a field wrote the event column: no bins (sink-bins.c) */
	struct sink_bins *bins;		/* its bins of the last row (sink-bins.c) */
	/* vms_sink_begin(): the counts entry of the table's last event, while counts_gen holds */
	const char *count_event;
	struct strmap_entry *count_entry;
	size_t count_gen;
	sqlite3_stmt *insert;
	/* the writer's multi-row INSERT: the per-statement cost is paid once per ROWS_PER_INSERT */
	sqlite3_stmt *insert_n;
	const char *pending[ROWS_PER_INSERT];	/* serialized rows not written yet */
	/* bit c: column c (< 64) of the row in that place of insert_n is bound (not NULL) */
	uint64_t bound_n[ROWS_PER_INSERT];
	int npending;
};

struct task {
	uint64_t first_ts;
	uint64_t last_ts;
	uint64_t events;
};

struct sink_reader;

struct vms_sink {
	struct vms_db *db;
	struct strmap tables;		/* table name -> struct vms_table * */
	struct vms_table **by_id;	/* every table, by vms_table.id */
	int ntables;
	struct strmap event_tables;	/* event name -> struct vms_table * */
	struct strmap vocabs;		/* domain -> struct vocab * */
	struct strmap counts;		/* event name -> (uintptr_t) count */
	struct strmap tasks;		/* "pid comm" -> struct task * */
	struct vms_table *generic;
	struct vms_table *row;		/* table of the row being built, NULL if none */
	struct vms_table *row_table;	/* the same, kept until the row is stored */
	const char *row_event;		/* its event name, valid until then */
	uint64_t row_ts;		/* its timestamp */
	struct strmap_entry *row_count;	/* its entry in counts */
	struct strmap_entry *last_count;	/* cache: counts entry of the last event type */
	struct vms_buf json;		/* extra fields of the row being built */
	int json_fields;
	uint64_t row_fields;		/* bit c: column c (< 64) of the row was given as text */
	int oom;			/* an allocation for the row being built failed */
	uint64_t seq;
	uint64_t first_ts, last_ts;
	uint64_t events, errors, lost;
	uint64_t lost_by_source[3];	/* ring-buffer, cpustats, other */
	size_t counts_gen;		/* counts.size (it grows, entries move) when count_entry were taken */
	/* vms_sink_task(): recent tasks by pid (a task's entry: "PID COMM", its PID prefix) */
	struct recent_task {
		int pid;
		size_t prefix;
		struct strmap_entry *e;
	} recent_tasks[64];
	size_t tasks_gen;		/* tasks.size when recent_tasks were filled */
	struct strmap_entry *last_task;	/* fast path: same task as the previous event */
	int last_task_pid;
	size_t last_task_prefix;	/* length of "PID " in last_task's key */
	sqlite3_stmt *lost_insert;
	sqlite3_stmt *error_insert;
	/* asynchronous mode (sink-writer.c) */
	int async;
	struct vms_buf *cur;		/* batch being filled */
	size_t row_start;		/* where the row being built starts in cur */
	struct vms_buf *queue[4];	/* full batches, FIFO */
	int qhead, qlen;
	struct vms_buf *spare[6];
	int nspare;
	pthread_t writer;
	pthread_mutex_t mu;		/* guards queue, spare and the writer_* fields */
	pthread_cond_t cv;
	int writer_busy, writer_stop, writer_failed;
	char writer_err[512];		/* why the writer failed; written and read under mu */
	/* sink-generate.c: the schema's own table names, to keep generated tables off them */
	sqlite3 *schema_names;
	/* sink-bins.c: rows per table, event and bin of bin_res ns from bin_base */
	struct sink_bins **bins;
	int nbins, abins, bins_off;
	long long bin_base, bin_res;
	/* reader-process mode (sink-reader.c): calls are serialized for the parent */
	struct sink_reader *reader;
};

enum { Q_INT = 1, Q_TEXT = 2, Q_END = 0xffff };
#define BATCH_BYTES (1 << 20)

/* sink.c */
int sink_sql_fail(struct vms_sink *s, const char *what);
/*
 * Async mode: end the row begun with vms_sink_begin() with @len bytes of
 * serialized fields, up to and with Q_END, checked by the caller (in place
 * of one vms_sink_set_*() call each). Return: 0 or -1.
 */
int sink_end_serialized(struct vms_sink *s, const void *fields, size_t len);

/* sink-schema.c: load every table of the schema; release them. Return: 0 or -1. */
int sink_schema_load(struct vms_sink *s);
void sink_schema_release(struct vms_sink *s);
/* Load table @name of the database (columns, aliases, vocabularies, inserts). NULL: vms_error set. */
struct vms_table *sink_load_table(struct vms_sink *s, const char *name);
/* Column of @t storing field @name (not NUL-terminated), or -1. */
int sink_column(const struct vms_table *t, const char *name, size_t len);

/*
 * Is the NUL-terminated @known exactly the @len bytes at @name? @name comes
 * from the input and may hold a NUL itself, so @known is never read past its end.
 */
static inline int sink_name_is(const char *known, const char *name, size_t len)
{
	return strnlen(known, len + 1) == len && !memcmp(known, name, len);
}

/*
 * sink-generate.c: make (or, in a reader, describe) the table of @event from
 * its fields and list it under the event. Return: the table, s->generic
 * for names that cannot make one, or NULL with vms_error set.
 */
struct vms_table *sink_generate_table(struct vms_sink *s, const char *system, const char *event,
				      const struct vms_field_desc *f, int n, const char *source);

/* sink-bins.c: count a stored row; its table's event column was written by a field; */
void sink_bins_add(struct vms_sink *s, struct vms_table *t, const char *event, uint64_t ts,
		   uint64_t seq);
void sink_bins_spoil(struct vms_sink *s, struct vms_table *t);
/* leave the bins in temp.vms_sink_bins (a hint: a failure leaves none; returns 0); free them */
int sink_bins_write(struct vms_sink *s);
void sink_bins_free(struct vms_sink *s);

/* sink-reader.c: the buffers shared with a reader process, and the reader's side */
void sink_reader_put(struct vms_sink *s, const void *p, size_t n);
#define READER_BUF (4u << 20)	/* a record may use what BATCH_BYTES leaves of it */

struct sink_shared {
	size_t done[2];			/* bytes of complete records in each buffer */
	char buf[2][READER_BUF];
};

/* s->reader points to it in the reader process only. */
struct sink_reader {
	struct sink_shared *sh;
	int k;				/* buffer being filled */
	size_t len;			/* bytes written into it */
	size_t start;			/* where the record being written starts */
	int busy[2];			/* handed over and not acked yet */
	int fd;				/* the reader's end of the socket pair */
	int overflow;			/* the record being written does not fit */
};

/* sink-writer.c */
int sink_writer_init(struct vms_sink *s);
void sink_writer_release(struct vms_sink *s);

/*
 * Append to the row being serialized (async or reader mode); a failure sets
 * s->oom. These run for every field of every event: inline, so that the
 * copies of the fixed-size parts are a few moves, not calls.
 */
static inline void sink_q_put(struct vms_sink *s, const void *p, size_t n)
{
	struct sink_reader *r = s->reader;
	struct vms_buf *b = s->cur;

	if (!n)
		return;		/* (p may be NULL then) */
	if (r) {
		if (!r->overflow && n <= READER_BUF - r->len) {
			memcpy(r->sh->buf[r->k] + r->len, p, n);
			r->len += n;
		} else {
			sink_reader_put(s, p, n);	/* marks the overflow */
		}
	} else if (b->len + n < b->alloc) {
		memcpy(b->buf + b->len, p, n);
		b->len += n;
		b->buf[b->len] = '\0';
	} else if (vms_buf_add(b, p, n)) {
		s->oom = 1;
	}
}

static inline void sink_q_int(struct vms_sink *s, int col, long long v)
{
	unsigned short c = (unsigned short)col;
	char field[sizeof(c) + 1 + sizeof(v)];

	memcpy(field, &c, sizeof(c));
	field[sizeof(c)] = Q_INT;
	memcpy(field + sizeof(c) + 1, &v, sizeof(v));
	sink_q_put(s, field, sizeof(field));
}

static inline void sink_q_text(struct vms_sink *s, int col, const char *text, size_t len)
{
	unsigned short c = (unsigned short)col;
	unsigned int n = (unsigned int)len;
	char head[sizeof(c) + 1 + sizeof(n)];

	memcpy(head, &c, sizeof(c));
	head[sizeof(c)] = Q_TEXT;
	memcpy(head + sizeof(c) + 1, &n, sizeof(n));
	sink_q_put(s, head, sizeof(head));
	sink_q_put(s, text, len);
}
/* The row is complete (async mode): hand the batch over when it is full. Return: 0 or -1. */
int sink_q_row_done(struct vms_sink *s);
/* Wait until every queued row is written: the connection is then free. Return: 0 or -1. */
int sink_flush(struct vms_sink *s);

/* sink-reader.c: the calls of a sink in reader mode (s->reader set), serialized for the parent */
void sink_reader_begin(struct vms_sink *s, struct vms_table *t, const char *system,
		       const char *event, uint64_t ts, int cpu, int pid);
/* The row's Q_END is written: publish it. Return: 0 or -1. */
int sink_reader_done(struct vms_sink *s);
void sink_reader_abandon(struct vms_sink *s);
void sink_reader_task(struct vms_sink *s, int pid, const char *comm, size_t len, uint64_t ts);
int sink_reader_lost(struct vms_sink *s, int cpu, uint64_t ts, long long count, const char *source);
int sink_reader_error(struct vms_sink *s, long long line, long long offset, const char *reason,
		      const char *text, size_t len);
/* A table the reader generated (sink-generate.c): the parent makes it under t->id. Return: 0 or -1. */
int sink_reader_table(struct vms_sink *s, const struct vms_table *t, const char *system,
		      const char *event, const struct vms_field_desc *f, int n, const char *source);

#endif
