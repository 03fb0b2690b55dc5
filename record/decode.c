// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c - decode binary trace records by field name into the typed
 * tables (see decode.h). Used by `vmscope import` for .dat files and by
 * `vmscope record`.
 *
 * How it works: for each event id a decoder is built once: every field of
 * the format is bound to a column of the event's table (by name or alias),
 * or to the row's `extra` JSON. An event the schema has no table for gets
 * one made from its format on first sight (lib/sink-generate.c). Numbers are read straight from the record.
 * Columns the schema keeps as text but the kernel stores as numbers (gfp
 * flag names, writeback reasons, shrinker symbols) are rendered by
 * libtraceevent with the kernel's own print format and read back by the text
 * payload parser; the rendering is cached per raw value, since these values
 * repeat, so that the text of a .dat import and of a text import agree and
 * the cost stays low.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>
#include <event-parse.h>
#include <trace-seq.h>

#include "vms.h"
#include "decode.h"
#include "text.h"
#include "vms-strmap.h"

enum field_kind {
	FK_NUM,		/* integer read from the record */
	FK_STR,		/* char array or __data_loc string */
	FK_RENDER,	/* text column of a numeric field: symbolic rendering */
	FK_HEX,		/* other arrays: stored as hex bytes in extra */
};

struct bound_field {
	struct tep_format_field *f;
	enum field_kind kind;
	int col;		/* column, or -1: goes to extra */
	struct strmap cache;	/* FK_RENDER: raw value -> rendered text */
};

struct decoder {
	struct tep_event *event;
	struct vms_table *table;
	struct bound_field *fields;
	int nfields;
};

struct record_decoder {
	struct vms_sink *sink;
	struct tep_handle *tep;		/* of the record being decoded */
	struct tep_handle *built_for;	/* decoders below were built with this one */
	struct decoder **decoders;	/* indexed by event id */
	int ndecoders;
	struct trace_seq seq;
	int last_pid;
	const char *last_comm;		/* comm of last_pid, owned by libtraceevent */
};

static void free_decoder(struct decoder *d)
{
	int i;

	if (!d)
		return;
	for (i = 0; i < d->nfields; i++)
		strmap_release(&d->fields[i].cache, free);
	free(d->fields);
	free(d);
}

static int is_char_array(const struct tep_format_field *f)
{
	return (f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) ||
	       ((f->flags & TEP_FIELD_IS_ARRAY) && f->elementsize == 1 && strstr(f->type, "char"));
}

/*
 * The table of @ev: the schema's, or one made from the format on first
 * sight. Return: the table, or NULL (vms_error set).
 */
static struct vms_table *table_of(struct record_decoder *ctx, struct tep_event *ev, int n)
{
	struct vms_field_desc *desc;
	struct vms_table *t = vms_sink_table(ctx->sink, ev->name);
	struct tep_format_field *f;
	int i = 0;

	if (!vms_table_is_generic(t))
		return t;
	desc = calloc(n ? n : 1, sizeof(*desc));
	if (!desc) {
		vms_error("out of memory");
		return NULL;
	}
	for (f = ev->format.fields; f; f = f->next, i++) {
		desc[i].name = f->name;
		desc[i].is_text = is_char_array(f) || (f->flags & TEP_FIELD_IS_ARRAY);
	}
	t = vms_sink_table_for_format(ctx->sink, ev->system, ev->name, desc, n, "format");
	free(desc);
	return t;
}

static struct decoder *build_decoder(struct record_decoder *ctx, struct tep_event *ev)
{
	struct decoder *d = calloc(1, sizeof(*d));
	struct tep_format_field *f;
	int n = 0;

	if (!d)
		return NULL;
	d->event = ev;
	for (f = ev->format.fields; f; f = f->next)
		n++;
	d->table = table_of(ctx, ev, n);
	d->fields = calloc(n ? n : 1, sizeof(*d->fields));
	if (!d->table || !d->fields) {
		free(d->fields);
		free(d);
		return NULL;
	}
	for (f = ev->format.fields; f; f = f->next) {
		struct bound_field *b = &d->fields[d->nfields++];

		b->f = f;
		strmap_init(&b->cache);
		b->col = vms_table_is_generic(d->table) ? -1 : vms_table_column(d->table, f->name);
		if (is_char_array(f))
			b->kind = FK_STR;
		else if (f->flags & TEP_FIELD_IS_ARRAY)
			b->kind = FK_HEX;
		else if (b->col >= 0 && vms_table_column_is_text(d->table, b->col))
			b->kind = FK_RENDER;
		else
			b->kind = FK_NUM;
		if (b->kind == FK_HEX && b->col >= 0 && !vms_table_column_is_text(d->table, b->col))
			b->col = -1;
	}
	return d;
}

static struct decoder *decoder_for(struct record_decoder *ctx, int id)
{
	struct tep_event *ev;

	if (id < 0)
		return NULL;
	if (id >= ctx->ndecoders) {
		int n = id + 256;
		struct decoder **nd = realloc(ctx->decoders, n * sizeof(*nd));

		if (!nd) {
			vms_error("out of memory");
			return NULL;
		}
		memset(nd + ctx->ndecoders, 0, (n - ctx->ndecoders) * sizeof(*nd));
		ctx->decoders = nd;
		ctx->ndecoders = n;
	}
	if (ctx->decoders[id])
		return ctx->decoders[id];
	ev = tep_find_event(ctx->tep, id);
	if (!ev)
		return NULL;
	ctx->decoders[id] = build_decoder(ctx, ev);
	if (!ctx->decoders[id] && !*vms_last_error())
		vms_error("out of memory");
	return ctx->decoders[id];
}

static long long read_num(struct record_decoder *ctx, const struct tep_format_field *f, const void *data)
{
	unsigned long long v = tep_read_number(ctx->tep, (const char *)data + f->offset, f->size);

	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		int shift = 64 - 8 * f->size;

		return ((long long)(v << shift)) >> shift;
	}
	return (long long)v;
}

static const char *read_str(struct record_decoder *ctx, const struct tep_format_field *f,
			    const struct tep_record *rec, size_t *len)
{
	const char *data = rec->data;
	unsigned int off = f->offset, size = f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned int loc = tep_read_number(ctx->tep, data + f->offset, f->size);

		off = loc & 0xffff;
		size = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	}
	if (off + size > (unsigned int)rec->size) {
		*len = 0;
		return "";
	}
	*len = strnlen(data + off, size);
	return data + off;
}

struct render_pick {
	struct decoder *d;
	int col;
	const char *val;
	size_t len;
};

static int pick_field(void *p, const char *key, size_t keylen, const char *val, size_t vallen)
{
	struct render_pick *pick = p;
	char name[128];

	if (keylen >= sizeof(name))
		return 0;
	memcpy(name, key, keylen);
	name[keylen] = '\0';
	if (vms_table_column(pick->d->table, name) == pick->col) {
		pick->val = val;
		pick->len = vallen;
		return 1;
	}
	return 0;
}

/* Text of field @b for this record, as the kernel's print format names it. */
static const char *render(struct record_decoder *ctx, struct decoder *d, struct bound_field *b,
			  struct tep_record *rec, size_t *len)
{
	unsigned long long raw = tep_read_number(ctx->tep, (char *)rec->data + b->f->offset,
						 b->f->size);
	struct strmap_entry *e = strmap_find(&b->cache, (const char *)&raw, sizeof(raw));
	struct render_pick pick = { d, b->col, NULL, 0 };
	const char *why;
	char *copy;

	if (!e) {
		trace_seq_reset(&ctx->seq);
		tep_print_event(ctx->tep, &ctx->seq, rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&ctx->seq);
		text_payload_parse(d->event->name, strlen(d->event->name), ctx->seq.buffer,
				   ctx->seq.len, pick_field, &pick, &why);
		if (pick.val) {
			copy = strndup(pick.val, pick.len);
		} else {
			/* the print format does not show this field: keep the number */
			copy = malloc(24);
			if (copy)
				snprintf(copy, 24, "0x%llx", raw);
		}
		e = strmap_get(&b->cache, (const char *)&raw, sizeof(raw));
		if (!copy || !e) {
			free(copy);
			return NULL;
		}
		e->value = copy;
	}
	*len = strlen(e->value);
	return e->value;
}

static void add_hex(struct record_decoder *ctx, const struct bound_field *b, const struct tep_record *rec)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)rec->data + b->f->offset;
	char buf[2 * 256 + 1];
	int i, n = b->f->size;

	if (n > 256)
		n = 256;
	if (b->f->offset + n > rec->size)
		n = rec->size > b->f->offset ? rec->size - b->f->offset : 0;
	for (i = 0; i < n; i++) {
		buf[2 * i] = hex[p[i] >> 4];
		buf[2 * i + 1] = hex[p[i] & 15];
	}
	if (b->col >= 0)
		vms_sink_set_text(ctx->sink, b->col, buf, 2 * n);
	else
		vms_sink_extra_text(ctx->sink, b->f->name, buf, 2 * n);
}


struct record_decoder *record_decoder_new(struct vms_sink *sink)
{
	struct record_decoder *rd = calloc(1, sizeof(*rd));

	if (!rd) {
		vms_error("out of memory");
		return NULL;
	}
	rd->sink = sink;
	rd->last_pid = -1;
	trace_seq_init(&rd->seq);
	return rd;
}

void record_decoder_free(struct record_decoder *rd)
{
	int i;

	if (!rd)
		return;
	for (i = 0; i < rd->ndecoders; i++)
		free_decoder(rd->decoders[i]);
	free(rd->decoders);
	trace_seq_destroy(&rd->seq);
	free(rd);
}

int record_decoder_store(struct record_decoder *ctx, struct tep_handle *tep, struct tep_record *rec)
{
	struct decoder *d;
	int id, pid, i;

	if (tep != ctx->built_for) {
		/* another set of formats: the event ids may mean other events */
		for (i = 0; i < ctx->ndecoders; i++) {
			free_decoder(ctx->decoders[i]);
			ctx->decoders[i] = NULL;
		}
		ctx->built_for = tep;
		ctx->last_comm = NULL;
	}
	ctx->tep = tep;
	if (rec->missed_events &&
	    vms_sink_lost(ctx->sink, rec->cpu, rec->ts, rec->missed_events > 0 ? rec->missed_events : -1,
			  "ring-buffer"))
		return -1;
	id = tep_data_type(tep, rec);
	d = decoder_for(ctx, id);
	if (!d && id >= 0 && tep_find_event(tep, id))
		return -1;	/* its decoder or table could not be made: vms_error says why */
	if (!d) {
		vms_error("record of unknown event id %d on cpu %d at %llu ns", id, rec->cpu,
			  (unsigned long long)rec->ts);
		return 1;
	}
	pid = tep_data_pid(tep, rec);
	vms_sink_begin(ctx->sink, d->table, d->event->system, d->event->name, rec->ts, rec->cpu, pid);
	for (i = 0; i < d->nfields; i++) {
		struct bound_field *b = &d->fields[i];
		const char *s;
		size_t len;

		switch (b->kind) {
		case FK_NUM:
			if (b->col >= 0)
				vms_sink_set_int(ctx->sink, b->col, read_num(ctx, b->f, rec->data));
			else
				vms_sink_extra_int(ctx->sink, b->f->name, read_num(ctx, b->f, rec->data));
			break;
		case FK_STR:
			s = read_str(ctx, b->f, rec, &len);
			if (b->col >= 0)
				vms_sink_set_text(ctx->sink, b->col, s, len);
			else
				vms_sink_extra_text(ctx->sink, b->f->name, s, len);
			break;
		case FK_RENDER:
			s = render(ctx, d, b, rec, &len);
			if (!s) {
				vms_sink_abandon(ctx->sink);
				return vms_error("out of memory");
			}
			vms_sink_set_text(ctx->sink, b->col, s, len);
			break;
		case FK_HEX:
			add_hex(ctx, b, rec);
			break;
		}
	}
	if (vms_sink_end(ctx->sink))
		return -1;
	if (pid != ctx->last_pid || !ctx->last_comm) {
		ctx->last_pid = pid;
		ctx->last_comm = tep_data_comm_from_pid(tep, pid);
	}
	vms_sink_task(ctx->sink, pid, ctx->last_comm, strlen(ctx->last_comm), rec->ts);
	return 0;
}

int record_decoder_store_format(struct vms_db *db, const char *system, const char *name, int id,
				const char *text, size_t len)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(vms_db_sql(db), "INSERT OR REPLACE INTO event_format VALUES (?, ?, ?, ?)",
			       -1, &st, NULL))
		return vms_error("%s: cannot store event formats: %s", vms_db_path(db),
				 sqlite3_errmsg(vms_db_sql(db)));
	sqlite3_bind_text(st, 1, system ? system : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, id);
	sqlite3_bind_text(st, 4, text, (int)len, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = vms_error("%s: cannot store event formats: %s", vms_db_path(db),
			       sqlite3_errmsg(vms_db_sql(db)));
	sqlite3_finalize(st);
	return rc;
}

/* Rebuild the format text of each event for the event_format table. */
int record_decoder_formats(struct tep_handle *tep,
			   int (*fn)(void *arg, const char *system, const char *name, int id,
				     const char *text, size_t len),
			   void *arg)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	struct vms_buf text = { 0 };
	int rc = 0, i;

	if (!events)
		return 0;
	for (i = 0; events[i] && !rc; i++) {
		struct tep_event *ev = events[i];
		struct tep_format_field *f;
		int pass;

		vms_buf_reset(&text);
		vms_buf_addf(&text, "name: %s\nID: %d\nformat:\n", ev->name, ev->id);
		for (pass = 0; pass < 2; pass++) {
			for (f = pass ? ev->format.fields : ev->format.common_fields; f; f = f->next)
				vms_buf_addf(&text, "\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;\n",
					     f->type, f->name, f->offset, f->size,
					     !!(f->flags & TEP_FIELD_IS_SIGNED));
			if (!pass)
				vms_buf_add(&text, "\n", 1);
		}
		if (vms_buf_addf(&text, "\nprint fmt: \"%s\"\n",
				 ev->print_fmt.format ? ev->print_fmt.format : ""))
			rc = -1;
		else
			rc = fn(arg, ev->system, ev->name, ev->id, text.buf, text.len);
	}
	vms_buf_release(&text);
	return rc;
}

static int store_one_format(void *db, const char *system, const char *name, int id,
			    const char *text, size_t len)
{
	return record_decoder_store_format(db, system, name, id, text, len);
}

int record_decoder_store_formats(struct tep_handle *tep, struct vms_db *db)
{
	return record_decoder_formats(tep, store_one_format, db);
}
