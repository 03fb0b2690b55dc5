// SPDX-License-Identifier: GPL-2.0
/*
 * sink.c - writes decoded events into the typed tables. Shared by the .dat
 * importer, the text importer and the live recorder, so that every source
 * stores the same event the same way.
 *
 * How it works: vms_sink_new() reads the schema's own description of itself
 * (sink-schema.c), with one INSERT per table. A row is bound column by
 * column as the decoder sets fields, and inserted by vms_sink_end(); in
 * asynchronous mode it is serialized for the writer thread instead
 * (sink-writer.c), and in a reader process for the parent (sink-reader.c).
 * Fields with no column are collected as a JSON object in the table's
 * `extra` column (`fields` for the generic table), so nothing a source
 * carries is dropped. This file also converts the text form of a field
 * (numbers, device numbers, vocabulary names) and keeps the run's counters.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sink-local.h"

int sink_sql_fail(struct vms_sink *s, const char *what)
{
	return vms_error("%s: %s: %s", vms_db_path(s->db), what,
			 sqlite3_errmsg(vms_db_sql(s->db)));
}

struct vms_sink *vms_sink_new(struct vms_db *db)
{
	struct vms_sink *s = calloc(1, sizeof(*s));
	sqlite3 *sql = vms_db_sql(db);

	if (!s) {
		vms_error("out of memory");
		return NULL;
	}
	if (sink_writer_init(s)) {
		free(s);
		return NULL;
	}
	s->db = db;
	s->first_ts = UINT64_MAX;
	strmap_init(&s->counts);
	strmap_init(&s->tasks);
	if (sink_schema_load(s))
		goto err;
	if (sqlite3_prepare_v2(sql, "INSERT INTO lost_events VALUES (?, ?, ?, ?)", -1,
			       &s->lost_insert, NULL) ||
	    sqlite3_prepare_v2(sql, "INSERT INTO import_error VALUES (?, ?, ?, ?)", -1,
			       &s->error_insert, NULL)) {
		sink_sql_fail(s, "cannot prepare an insert");
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
	sink_bins_free(s);	/* before the tables it points to */
	sink_schema_release(s);
	strmap_release(&s->counts, NULL);
	strmap_release(&s->tasks, free);
	sqlite3_finalize(s->lost_insert);
	sqlite3_finalize(s->error_insert);
	vms_buf_release(&s->json);
	sink_writer_release(s);
	free(s);
}

void vms_sink_begin(struct vms_sink *s, struct vms_table *t, const char *system,
		    const char *event, uint64_t ts, int cpu, int pid)
{
	sqlite3_stmt *st = t->insert;

	s->row = t;
	s->row_table = t;
	s->row_event = event;
	s->row_ts = ts;
	vms_buf_reset(&s->json);
	s->json_fields = 0;
	s->row_fields = 0;
	s->oom = 0;
	if (s->reader) {
		/* the parent's sink numbers, counts and stores the row */
		sink_reader_begin(s, t, system, event, ts, cpu, pid);
		return;
	}
	if (s->async) {
		unsigned short id = (unsigned short)t->id;

		s->row_start = s->cur->len;
		sink_q_put(s, &id, sizeof(id));
		sink_q_int(s, 0, (long long)(s->seq + 1));
		sink_q_int(s, 1, (long long)ts);
		sink_q_int(s, 2, cpu);
		sink_q_int(s, 3, pid);
		if (t->event_col >= 0)
			sink_q_text(s, t->event_col, event, strlen(event));
		if (t->system_col >= 0 && system)
			sink_q_text(s, t->system_col, system, strlen(system));
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
	if (!s->last_count || strcmp(event, s->last_count->key)) {
		/* events alternate: each table keeps the entry of its last one */
		if (t->count_entry && t->count_gen == s->counts_gen && !strcmp(event, t->count_event)) {
			s->last_count = t->count_entry;
		} else {
			s->last_count = strmap_get(&s->counts, event, strlen(event));
			/* the map grew (which moves every entry), or it did not */
			s->counts_gen = s->counts.size;
			t->count_entry = s->last_count;
			t->count_event = s->last_count ? s->last_count->key : NULL;
			t->count_gen = s->counts_gen;
		}
	}
	s->row_count = s->last_count;
	if (ts < s->first_ts)
		s->first_ts = ts;
	if (ts > s->last_ts)
		s->last_ts = ts;
}

void vms_sink_set_int(struct vms_sink *s, int col, long long value)
{
	if (s->row && col == s->row->event_col)
		sink_bins_spoil(s, s->row);
	if (s->async || s->reader)
		sink_q_int(s, col, value);
	else
		sqlite3_bind_int64(s->row->insert, col + 1, value);
}

void vms_sink_set_text(struct vms_sink *s, int col, const char *text, size_t len)
{
	if (s->row && col == s->row->event_col)
		sink_bins_spoil(s, s->row);
	if (s->async || s->reader)
		sink_q_text(s, col, text, len);
	else
		sqlite3_bind_text(s->row->insert, col + 1, text, (int)len, SQLITE_TRANSIENT);
}

void vms_sink_set_payload(struct vms_sink *s, const char *text, size_t len)
{
	if (s->row->payload_col >= 0)
		vms_sink_set_text(s, s->row->payload_col, text, len);
	else if (s->row->lenient)
		vms_sink_extra_text(s, "payload", text, len);
}

/* The JSON of the row's extra fields; a failed allocation fails the row in vms_sink_end(). */
static void json_key(struct vms_sink *s, const char *key, size_t len)
{
	if (vms_buf_add(&s->json, s->json_fields++ ? "," : "{", 1) ||
	    vms_json_append_string(&s->json, key, len) || vms_buf_add(&s->json, ":", 1))
		s->oom = 1;
}

void vms_sink_extra_int(struct vms_sink *s, const char *key, long long value)
{
	json_key(s, key, strlen(key));
	if (vms_buf_addf(&s->json, "%lld", value))
		s->oom = 1;
}

void vms_sink_extra_text(struct vms_sink *s, const char *key, const char *text, size_t len)
{
	json_key(s, key, strlen(key));
	if (vms_json_append_string(&s->json, text, len))
		s->oom = 1;
}

/* What parse_number() found. */
enum number_kind {
	NUM_OK = 0,
	NUM_BAD = -1,		/* not a number */
	NUM_RANGE = -2,		/* a number that does not fit 64 bits */
};

/*
 * Decimal or 0x-hex integer, optionally negative; the whole of @s must be
 * used. Values from 2^63 to 2^64 - 1 (a u64 printed with %llu or %llx) keep
 * their 64-bit pattern, as the .dat importer stores a u64 field; negative
 * values go down to -2^63. Return: an enum number_kind.
 */
static int parse_number(const char *s, size_t len, long long *out)
{
	unsigned long long v = 0, base = 10;
	int neg = 0, range = 0;
	size_t i = 0;

	if (len && s[0] == '-') {
		neg = 1;
		i++;
	}
	if (len - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i >= len)
		return NUM_BAD;
	for (; i < len; i++) {
		unsigned char c = s[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			return NUM_BAD;
		if (v > (ULLONG_MAX - d) / base)
			range = 1;	/* keep reading: text after it makes it no number at all */
		else
			v = v * base + d;
	}
	if (range || (neg && v > (unsigned long long)LLONG_MAX + 1))
		return NUM_RANGE;
	if (neg)
		*out = v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v;
	else
		*out = (long long)v;
	return NUM_OK;
}

static int vocab_lookup(const struct vocab *v, const char *name, size_t len, long long *out)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (sink_name_is(v->entries[i].name, name, len)) {
			*out = v->entries[i].value;
			return 0;
		}
	return -1;
}

/* The kernel's dev_t: MKDEV(major, minor) with MINORBITS 20 in 32 bits. */
#define MINOR_BITS 20
#define MAJOR_MAX ((1LL << (32 - MINOR_BITS)) - 1)
#define MINOR_MAX ((1LL << MINOR_BITS) - 1)

/* Text form of an INTEGER column: a number, 'M:m', or vocabulary names. Return: an enum number_kind. */
static int text_to_int(const struct column *c, const char *val, size_t len, long long *out)
{
	const char *colon;
	int rc = parse_number(val, len, out);

	if (rc != NUM_BAD)
		return rc;
	colon = memchr(val, ':', len);
	if (colon) {
		long long major = 0, minor = 0;
		int rc_major = parse_number(val, colon - val, &major);
		int rc_minor = parse_number(colon + 1, len - (colon + 1 - val), &minor);

		if (rc_major != NUM_BAD && rc_minor != NUM_BAD) {
			if (rc_major || rc_minor || major < 0 || major > MAJOR_MAX || minor < 0 ||
			    minor > MINOR_MAX)
				return NUM_RANGE;
			*out = (major << MINOR_BITS) | minor;
			return NUM_OK;
		}
	}
	if (!c->vocab)
		return NUM_BAD;
	if (!c->is_flags)
		return vocab_lookup(c->vocab, val, len, out) ? NUM_BAD : NUM_OK;
	*out = 0;
	while (len) {
		const char *bar = memchr(val, '|', len);
		size_t n = bar ? (size_t)(bar - val) : len;
		long long bit;

		if (vocab_lookup(c->vocab, val, n, &bit) && (rc = parse_number(val, n, &bit)))
			return rc;
		*out |= bit;
		if (!bar)
			break;
		len -= n + 1;
		val = bar + 1;
	}
	return NUM_OK;
}

/*
 * Only plain numbers count as numbers in text: "0000000012345678" (a hashed
 * pointer) or "060000" (octal mode) stay text as printed. Return: 1 with *@v set, or 0.
 */
static int plain_number(const char *value, size_t vallen, long long *v)
{
	return vallen && vallen < 19 && (vallen == 1 || value[0] != '0' ||
					(vallen > 2 && value[1] == 'x')) && value[0] != '+' &&
	       !(value[0] == '-' && vallen > 2 && value[1] == '0') &&
	       !parse_number(value, vallen, v);
}

int vms_sink_text_is_number(const char *value, size_t len)
{
	long long v;

	return plain_number(value, len, &v);
}

int vms_sink_set_from_text(struct vms_sink *s, const char *key, size_t keylen,
			   const char *value, size_t vallen)
{
	struct vms_table *t = s->row;
	int col = sink_column(t, key, keylen);
	const struct column *c;
	long long v;
	int rc;

	if (col < 0) {
		json_key(s, key, keylen);
		if (plain_number(value, vallen, &v)) {
			if (vms_buf_addf(&s->json, "%lld", v))
				s->oom = 1;
		} else if (vms_json_append_string(&s->json, value, vallen)) {
			s->oom = 1;
		}
		return 0;
	}
	c = &t->cols[col];
	if (col < 64)
		s->row_fields |= 1ULL << col;
	if (c->is_text) {
		vms_sink_set_text(s, col, value, vallen);
		return 0;
	}
	rc = text_to_int(c, value, vallen, &v);
	if (rc != NUM_OK && t->lenient) {
		/* a table made from an earlier line: the text is kept as the line gave it */
		vms_sink_set_text(s, col, value, vallen);
		return 0;
	}
	switch (rc) {
	case NUM_OK:
		break;
	case NUM_RANGE:
		return vms_error("field '%s' of %s: '%.*s' is out of range (a number must fit "
				 "64 bits, a device number MAJOR:MINOR 12:20 bits)", c->name, t->name,
				 (int)(vallen > 60 ? 60 : vallen), value);
	default:
		return vms_error("field '%s' of %s: '%.*s' is not %s", c->name, t->name,
				 (int)(vallen > 60 ? 60 : vallen), value,
				 c->vocab ? "a number or a known name" : "a number");
	}
	vms_sink_set_int(s, col, v);
	return 0;
}

const char *vms_sink_missing_field(const struct vms_sink *s)
{
	uint64_t missing = s->row ? s->row->required & ~s->row_fields : 0;

	for (int col = 0; missing && col < 64; col++)
		if (missing & (1ULL << col))
			return s->row->cols[col].name;
	return NULL;
}

/* The row is in the database or queued for it: count it. */
static void row_stored(struct vms_sink *s)
{
	if (s->row_count)
		s->row_count->value = (void *)((uintptr_t)s->row_count->value + 1);
	sink_bins_add(s, s->row_table, s->row_event, s->row_ts, s->seq + 1);
	s->seq++;
	s->events++;
}

int sink_end_serialized(struct vms_sink *s, const void *fields, size_t len)
{
	sink_q_put(s, fields, len);
	if (s->oom) {
		vms_sink_abandon(s);
		return vms_error("out of memory");
	}
	s->row = NULL;
	if (sink_q_row_done(s))
		return -1;
	row_stored(s);
	return 0;
}

int vms_sink_end(struct vms_sink *s)
{
	struct vms_table *t = s->row;

	if (s->json_fields && vms_buf_add(&s->json, "}", 1))
		s->oom = 1;
	if (s->oom) {
		vms_sink_abandon(s);
		return vms_error("out of memory");
	}
	if (s->async || s->reader) {
		unsigned short endmark = Q_END;

		if (s->json_fields)
			sink_q_text(s, t->json_col, s->json.buf, s->json.len);
		sink_q_put(s, &endmark, sizeof(endmark));
		if (s->oom) {
			vms_sink_abandon(s);
			return vms_error("out of memory");
		}
		s->row = NULL;
		if (s->reader)
			return sink_reader_done(s);
		if (sink_q_row_done(s))
			return -1;
		row_stored(s);
		return 0;
	}
	s->row = NULL;
	if (s->json_fields)
		sqlite3_bind_text(t->insert, t->json_col + 1, s->json.buf, (int)s->json.len,
				  SQLITE_STATIC);
	if (sqlite3_step(t->insert) != SQLITE_DONE)
		return sink_sql_fail(s, "cannot store an event");
	row_stored(s);
	return 0;
}

void vms_sink_abandon(struct vms_sink *s)
{
	if (s->reader && s->row)
		sink_reader_abandon(s);
	else if (s->async && s->row)
		s->cur->len = s->row_start;	/* drop the half-serialized row */
	s->row = NULL;
	s->oom = 0;
}

void vms_sink_task(struct vms_sink *s, int pid, const char *comm, size_t len, uint64_t ts)
{
	struct strmap_entry *e = s->last_task;
	struct task *t;
	char key[256];
	int n;

	if (s->reader) {
		sink_reader_task(s, pid, comm, len, ts);
		return;
	}
	/* fast path: the same task as the previous event ("PID COMM" key, no printf) */
	if (!e || s->last_task_pid != pid || e->len != s->last_task_prefix + len ||
	    memcmp(e->key + s->last_task_prefix, comm, len)) {
		/* then a recent task of that pid (tasks on other CPUs interleave) */
		struct recent_task *rt = &s->recent_tasks[(unsigned int)pid % 64];

		if (rt->e && s->tasks_gen == s->tasks.size && rt->pid == pid &&
		    rt->e->len == rt->prefix + len && !memcmp(rt->e->key + rt->prefix, comm, len)) {
			s->last_task = rt->e;
			s->last_task_pid = pid;
			s->last_task_prefix = rt->prefix;
			e = rt->e;
			goto found;
		}
	}
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
		/* the map grew, which moves every entry: forget the recent ones */
		if (s->tasks_gen != s->tasks.size) {
			memset(s->recent_tasks, 0, sizeof(s->recent_tasks));
			s->tasks_gen = s->tasks.size;
		}
		s->recent_tasks[(unsigned int)pid % 64] =
			(struct recent_task){ pid, s->last_task_prefix, e };
	}
found:
	t = e->value;
	t->last_ts = ts;
	t->events++;
}

int vms_sink_lost(struct vms_sink *s, int cpu, uint64_t ts, long long count, const char *source)
{
	sqlite3_stmt *st = s->lost_insert;

	if (s->reader)
		return sink_reader_lost(s, cpu, ts, count, source);
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
		return sink_sql_fail(s, "cannot store lost events");
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

	if (s->reader)
		return sink_reader_error(s, line, offset, reason, text, len);
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
		return sink_sql_fail(s, "cannot store an import error");
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
		return sink_sql_fail(s, "cannot store tasks");
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
			return sink_sql_fail(s, "cannot store tasks");
		}
	}
	sqlite3_finalize(st);
	sink_bins_write(s);
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

void vms_sink_print_counts(const struct vms_sink *s, void (*out)(void *arg, const char *line),
			   void *arg)
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
	if (n)
		qsort(rows, n, sizeof(*rows), by_count);
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%12llu  %s", (unsigned long long)rows[i].n, rows[i].name);
		out(arg, line);
	}
	free(rows);
}
