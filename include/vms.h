/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vms.h - the public interface of libvms, the library behind every vmscope
 * subcommand (record/import -> replay -> analyze -> plots).
 *
 * Invariants:
 *  - The library never prints to stdout and never exits. A failing function
 *    returns -1 (or NULL) after storing a message with vms_error(); the
 *    command that called it reports vms_last_error() once, at the edge.
 *  - Warnings that must reach the user but do not stop the work go through
 *    vms_warning(), which the CLI prints on stderr.
 *  - A database holds one run. Every event table shares the leading columns
 *    (seq, ts, cpu, pid); seq is unique across all event tables of a run.
 *
 * Protocol of a writer (import, record):
 *  1. vms_db_create() a new database file: schema applied, run.status set
 *     to 'importing' or 'recording'.
 *  2. vms_sink_new(), then for each event vms_sink_begin(), field setters,
 *     vms_sink_end().
 *  3. vms_sink_finish() writes tasks and counts, vms_db_finish() adds the
 *     indexes and sets run.status to 'complete' or 'incomplete'.
 */
#ifndef VMS_H
#define VMS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define VMS_VERSION "0.1.0"
#define VMS_SCHEMA_VERSION 2
#define VMS_APPLICATION_ID 0x766d7363 /* 'vmsc' */

/* --- errors (lib/error.c) --- */

/**
 * vms_error() - store the message of the current failure
 * @fmt: printf format, lowercase, no final period, quote the subject
 *
 * Return: -1, so that `return vms_error(...)` reads naturally.
 */
int vms_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Return: the last stored message ("" if none); must *not* be freed. */
const char *vms_last_error(void);
/* Report a problem that does not stop the work; the CLI prints it on stderr. */
void vms_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* --- database (lib/db.c) --- */

struct sqlite3;
struct vms_db;

enum vms_open_flags {
	VMS_OPEN_READONLY = (1 << 0),	/* analyzers: never write */
	VMS_OPEN_ANY_STATUS = (1 << 1),	/* accept a run that is not 'complete' without a warning */
};

/**
 * vms_db_create() - create a new vmscope database
 * @path: file to create; an existing file is an error unless @overwrite
 * @overwrite: replace an existing vmscope database (see vms_db_may_replace())
 * @source_kind: value for run.source_kind
 *
 * Return: handle (caller frees with vms_db_close()), or NULL with vms_error set.
 */
struct vms_db *vms_db_create(const char *path, int overwrite, const char *source_kind);
/**
 * vms_db_may_replace() - may a database be written to @path?
 * @path: the output; a missing one is always fine
 * @force: an existing @path may be replaced (--force); even then only a
 *	regular file holding a vmscope database, and never @input
 * @input: the file being read, or NULL
 *
 * Return: 0, or -1 with vms_error saying why not.
 */
int vms_db_may_replace(const char *path, int force, const char *input);
/**
 * vms_db_open() - open an existing vmscope database and check its schema version
 * Return: handle (caller frees with vms_db_close()), or NULL with vms_error set.
 */
struct vms_db *vms_db_open(const char *path, int flags);
/*
 * vms_db_resume() - reopen for writing a live recording whose recorder died
 * (run.status still 'recording'), to store more and finish it.
 * Return: handle, or NULL with vms_error set.
 */
struct vms_db *vms_db_resume(const char *path);
/* Close; a write transaction still open (a failure path) is rolled back. Accepts NULL. */
void vms_db_close(struct vms_db *db);
/* Return: the sqlite handle; must *not* be closed by the caller. */
struct sqlite3 *vms_db_sql(struct vms_db *db);
const char *vms_db_path(const struct vms_db *db);
/* Run SQL that returns no rows. Return: 0 or -1. */
int vms_db_exec(struct vms_db *db, const char *sql);
/* Run one embedded schema file (e.g. "007-replay.sql", all IF NOT EXISTS). Return: 0 or -1. */
int vms_db_apply_schema_file(struct vms_db *db, const char *name);
/* Set one column of the run row to text (NULL allowed) or an integer. */
int vms_db_set_run_text(struct vms_db *db, const char *column, const char *value);
int vms_db_set_run_int(struct vms_db *db, const char *column, long long value);
/* Commit what was written so far and continue in a new transaction. Return: 0 or -1. */
int vms_db_commit(struct vms_db *db);
/**
 * vms_db_finish() - add indexes, set run.status and finished_at, commit
 * @detail: NULL for a complete run, else why it is incomplete
 */
int vms_db_finish(struct vms_db *db, const char *detail);
enum vms_upgrade_flags {
	VMS_UPGRADE_REDERIVE = (1 << 0),	/* derive again even when the version is current */
};

/**
 * vms_db_upgrade() - bring a database to this vmscope's schema version, in place
 * @path: a vmscope database of schema version 1 .. VMS_SCHEMA_VERSION
 * @flags: enum vms_upgrade_flags
 * @old_version: out (may be NULL), the version the file had
 *
 * In one transaction: the migration steps of each version passed, then the
 * tables of the schema files applied at finish (9NN) dropped, made again and
 * derived (vms_derive()) for a finished run, then user_version set. On
 * failure the file is left as it was. See docs/upgrade.md.
 * Return: 0 upgraded (or derived again), 1 nothing to do (already current),
 * -1 with vms_error set.
 */
int vms_db_upgrade(const char *path, int flags, int *old_version);

/* --- derived tables (lib/derive.c) --- */

/**
 * vms_derive() - fill the tables of the schema files applied at finish
 * (schema/9NN-*.sql: pairings, rollups, episodes) from the events
 * @db: a run whose events are all stored, its 9NN files applied and their
 *      tables empty, inside a write transaction (vms_db_finish() and
 *      vms_db_upgrade() call it)
 *
 * Return: 0, or -1 with vms_error set.
 */
int vms_derive(struct vms_db *db);
/* --- which reclaim call a task was inside (lib/reclaim-marks.c) --- */

struct vms_marks;
/*
 * vms_marks_load() - the begin/end events of memcg (group 0) and direct
 * (group 1) reclaim calls of the tasks @pids (all tasks when @pids is NULL).
 * Return: marks (free with vms_marks_free()), or NULL with vms_error set.
 */
struct vms_marks *vms_marks_load(struct vms_db *db, const long long *pids, size_t npids);
/* 1 when @pid was inside a call of group @g at @ts (the audit section's rule), else 0. */
int vms_marks_inside(const struct vms_marks *mk, int g, long long pid, long long ts);
void vms_marks_free(struct vms_marks *mk);

/* --- the event sink: writes decoded events into the typed tables (lib/sink*.c) --- */

struct vms_sink;
struct vms_table;

struct vms_sink *vms_sink_new(struct vms_db *db);
void vms_sink_free(struct vms_sink *sink);
/**
 * vms_sink_table() - the table that stores @event
 * Return: the typed table, or the generic table for an unknown event;
 * never NULL; must *not* be freed.
 */
struct vms_table *vms_sink_table(struct vms_sink *sink, const char *event);
/* A field of an event's format, for vms_sink_table_for_format(). */
struct vms_field_desc {
	const char *name;
	int is_text;		/* a string, or an array stored as hex */
};
/*
 * vms_sink_table_for_format() - the table that stores @event, made from its
 * format on first sight when the schema has none (lib/sink-generate.c): a
 * column per field, listed in event_table and generated_table.
 * @source: where the format comes from ("trace.dat format", "tracefs format")
 * Return: the table; event_generic when the names cannot make one; NULL with
 * vms_error set when making it failed.
 */
struct vms_table *vms_sink_table_for_format(struct vms_sink *sink, const char *system,
					    const char *event, const struct vms_field_desc *fields,
					    int nfields, const char *source);
/* Return: 1 when @table is the generic table (fields go to JSON). */
int vms_table_is_generic(const struct vms_table *table);
/*
 * Return: 1 when @table was made from the fields of a text line (source
 * "text fields"): a later line's value that is not a number stays text in
 * its column, and a payload with free text goes to `extra` as "payload".
 */
int vms_table_is_lenient(const struct vms_table *table);
/* Is the printed @value a plain number (decimal or 0x hex, no leading 0, fits 64 bits)? */
int vms_sink_text_is_number(const char *value, size_t len);
const char *vms_table_name(const struct vms_table *table);
/**
 * vms_table_column() - column that stores field (or text label) @name
 * Return: column index, or -1 when the table has no such column.
 */
int vms_table_column(const struct vms_table *table, const char *name);
int vms_table_columns(const struct vms_table *table);
const char *vms_table_column_name(const struct vms_table *table, int col);
/* Return: 1 when the column holds text (TEXT affinity). */
int vms_table_column_is_text(const struct vms_table *table, int col);

/* Start a row of @table. @system may be NULL (text traces). */
void vms_sink_begin(struct vms_sink *sink, struct vms_table *table, const char *system,
		    const char *event, uint64_t ts, int cpu, int pid);
void vms_sink_set_int(struct vms_sink *sink, int col, long long value);
void vms_sink_set_text(struct vms_sink *sink, int col, const char *text, size_t len);
/* Add a field the table has no column for to the row's JSON (extra/fields). */
void vms_sink_extra_int(struct vms_sink *sink, const char *key, long long value);
void vms_sink_extra_text(struct vms_sink *sink, const char *key, const char *text, size_t len);
/* Generic table only: the printed payload. */
void vms_sink_set_payload(struct vms_sink *sink, const char *text, size_t len);
/**
 * vms_sink_set_from_text() - store a field given as printed text
 * @key: field name or text label (aliases resolved)
 *
 * Numbers are read in decimal or 0x hex, 'M:m' device numbers converted,
 * names mapped through the column's vocabulary; a key with no column goes to
 * the row's JSON.
 * Return: 0, or -1 with vms_error set when the value does not fit the column.
 */
int vms_sink_set_from_text(struct vms_sink *sink, const char *key, size_t keylen,
			   const char *value, size_t vallen);
/*
 * vms_sink_missing_field() - a field of table required_field that no
 * vms_sink_set_from_text() call of the row being built gave
 * Return: its column name (owned by the sink), or NULL when none is missing.
 */
const char *vms_sink_missing_field(const struct vms_sink *sink);
/* Insert the row. Return: 0 or -1. */
int vms_sink_end(struct vms_sink *sink);
/*
 * vms_sink_set_async() - write rows on a second thread (1) or inline (0)
 *
 * While asynchronous, the caller must not use the database connection except
 * through the sink (lost events, import errors and vms_sink_finish() wait
 * for the writer first). Turning it off waits for every row to be written.
 * Return: 0, or -1 (vms_error set; also a write error of the writer).
 */
int vms_sink_set_async(struct vms_sink *sink, int on);
/* Drop the row begun last (decoding failed). */
void vms_sink_abandon(struct vms_sink *sink);
/**
 * vms_sink_run_reader() - decode in a reader process, store in this one (lib/sink-reader.c)
 * @sink: a synchronous sink: where what the reader stores goes
 * @decode: runs in a child process, with a copy of @sink whose every call
 *          (rows, tasks, lost events, import errors, vms_sink_message()) is
 *          sent to this process; returns 0, or -1 with vms_error set. It must
 *          not use the database connection (it is this process's).
 * @on_message: called here, in order with the rows (those before it are written
 *              first, so it may use the database), for each vms_sink_message()
 *              of @decode; its failure (-1, vms_error set) stops the reader
 * @arg: passed to @decode and @on_message
 * @sig: out: the signal that ended the reader (0: it returned)
 *
 * For decoders that may fault on damaged input (libtracecmd): a fault ends
 * only the reader, and everything it completed before is stored.
 * Return: 0 when the reader returned 0 or was ended by a signal (*@sig), -1
 * when it failed (its vms_error message) or storing failed (vms_error set).
 */
int vms_sink_run_reader(struct vms_sink *sink, int (*decode)(struct vms_sink *sink, void *arg),
			int (*on_message)(void *arg, int type, const void *data, size_t len),
			void *arg, int *sig);
/* In a reader (vms_sink_run_reader()): send @data to on_message(). Return: 0 or -1. */
int vms_sink_message(struct vms_sink *sink, int type, const void *data, size_t len);

void vms_sink_task(struct vms_sink *sink, int pid, const char *comm, size_t len, uint64_t ts);
/* @count < 0: unknown; @ts == 0: unknown; @cpu < 0: unknown. */
int vms_sink_lost(struct vms_sink *sink, int cpu, uint64_t ts, long long count, const char *source);
int vms_sink_import_error(struct vms_sink *sink, long long line, long long offset,
			  const char *reason, const char *text, size_t len);
/* Counters kept while writing. */
uint64_t vms_sink_events(const struct vms_sink *sink);
uint64_t vms_sink_errors(const struct vms_sink *sink);
uint64_t vms_sink_lost_total(const struct vms_sink *sink);
/* Write tasks, first/last timestamps and the event count to the database. */
int vms_sink_finish(struct vms_sink *sink);
/* Print "  N  event" lines of the events written, most frequent first. */
void vms_sink_print_counts(const struct vms_sink *sink, void (*out)(void *arg, const char *line),
			   void *arg);

/* --- input files (lib/input.c) --- */

struct vms_input;

/**
 * vms_input_open() - open a file, decompressing gzip, zstd or xz transparently
 * Return: handle (caller frees with vms_input_close()), or NULL with vms_error set.
 */
struct vms_input *vms_input_open(const char *path);
void vms_input_close(struct vms_input *in);
/* Return: 'none', 'gzip', 'zstd' or 'xz'. */
const char *vms_input_compression(const struct vms_input *in);
/* Read up to @len bytes. Return: bytes read, 0 at end, -1 on error (vms_error set). */
long vms_input_read(struct vms_input *in, void *buf, size_t len);
/* Bytes of compressed input consumed so far and the file's size (for progress). */
uint64_t vms_input_raw_pos(const struct vms_input *in);
uint64_t vms_input_raw_size(const struct vms_input *in);
/* Decompressed bytes read so far (the input's size once it was read to the end). */
uint64_t vms_input_decoded_bytes(const struct vms_input *in);
/**
 * vms_input_getline() - next line without its newline
 * @len: out, length of the line
 * @had_newline: out, 0 when the file ended without a newline (truncated line)
 * Return: pointer to the line (valid until the next call), NULL at end or on
 * error (vms_error set and *len == (size_t)-1 on error).
 */
const char *vms_input_getline(struct vms_input *in, size_t *len, int *had_newline);
/* Bytes of decompressed input consumed so far (start of the line last returned). */
uint64_t vms_input_line_offset(const struct vms_input *in);
/**
 * vms_input_peek() - the first bytes of the (decompressed) input, without consuming
 * Return: number of bytes available in *@data (at most @len).
 */
size_t vms_input_peek(struct vms_input *in, const unsigned char **data, size_t len);

/* --- progress on stderr (lib/progress.c) --- */

struct vms_progress;
/* @what: e.g. "importing trace.dat"; shown only for long work. */
struct vms_progress *vms_progress_new(const char *what);
void vms_progress_update(struct vms_progress *p, uint64_t done, uint64_t total, uint64_t events);
void vms_progress_done(struct vms_progress *p);

/* --- misc (lib/util.c) --- */

/* "PROG ARG ARG..." for run.command_line; caller frees. NULL when out of memory (vms_error set). */
char *vms_join_args(const char *prog, int argc, const char **argv);
/* Return: seconds on CLOCK_MONOTONIC. */
double vms_now(void);
/* Return: the CPUs this process may run on (its affinity; `taskset -c 0` makes it 1). */
int vms_cpus_to_run_on(void);
/* Return: UTC time as ISO 8601 in a static buffer. */
const char *vms_utc_now(void);
/**
 * vms_json_append_string() - append @s as a JSON string literal (quoted, escaped)
 * Return: 0 or -1 on allocation failure.
 */
struct vms_buf {
	char *buf;
	size_t len;
	size_t alloc;
};
int vms_buf_add(struct vms_buf *b, const char *s, size_t len);
int vms_buf_addf(struct vms_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vms_buf_reset(struct vms_buf *b);
void vms_buf_release(struct vms_buf *b);

/*
 * vms_array_reserve() - make room for element @n of the array *@arrayp of
 * @size-byte elements, of which *@alloc fit now; the room doubles, from
 * @first. Return: 0, or -1 with vms_error set (array and *@alloc as they were).
 */
int vms_array_reserve(void *arrayp, int *alloc, int n, int first, size_t size);
int vms_json_append_string(struct vms_buf *b, const char *s, size_t len);
/*
 * vms_control_len() - is a control character at @p (C0 below 0x20, DEL, or
 * C1 U+0080..U+009F in UTF-8)? Text read from a trace may hold terminal
 * escapes; every text and CSV output shows each such byte as '?'.
 * Return: its length in bytes (1 or 2), or 0.
 */
size_t vms_control_len(const char *p);
/* vms_make_printable() - replace every control byte of @s in place with '?'. Return: @s. */
char *vms_make_printable(char *s);
/*
 * vms_parse_size() - a size in bytes: a whole number with an optional K, M,
 * G or T suffix (powers of 1024), as memory.limit_in_bytes takes it.
 * Return: 0 with *@bytes set, or -1 (not such a number, or above 2^62).
 */
int vms_parse_size(const char *s, long long *bytes);

#endif /* VMS_H */
