// SPDX-License-Identifier: GPL-2.0
/*
 * import-dat.c - import a trace-cmd .dat file through libtracecmd, decoding
 * every field by name with the event formats saved in the file itself, so
 * that each kernel's layout (field sizes, renamed fields) is read as that
 * kernel wrote it.
 *
 * How it works: for each event id a decoder is built once: every field of
 * the format is bound to a column of the event's table (by name or alias),
 * or to the row's `extra` JSON. Numbers are read straight from the record.
 * Columns the schema keeps as text but the kernel stores as numbers (gfp
 * flag names, writeback reasons, shrinker symbols) are rendered by
 * libtraceevent with the file's own print format and read back by the text
 * payload parser; the rendering is cached per raw value, since these values
 * repeat, which keeps the import well ahead of `trace-cmd report`.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>
#include <trace-cmd.h>
#include <event-parse.h>
#include <trace-seq.h>

#include "vms.h"
#include "import.h"
#include "text.h"
#include "../lib/strmap.h"

/* Exported by libtracecmd but declared only in its private header. */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
off64_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);

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

struct dat_ctx {
	struct tep_handle *tep;
	struct vms_sink *sink;
	const struct import_options *opt;
	struct decoder **decoders;	/* indexed by event id */
	int ndecoders;
	struct trace_seq seq;
	struct vms_progress *progress;
	unsigned long long bad;
	int last_pid;
	const char *last_comm;		/* comm of last_pid, owned by libtraceevent */
	int failed;			/* a sink or allocation failure: stop */
	uint64_t records;
	uint64_t last_ts;		/* of the last record read, for error messages */
	int buffers;			/* top buffer plus instance buffers read */
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

static struct decoder *build_decoder(struct dat_ctx *ctx, struct tep_event *ev)
{
	struct decoder *d = calloc(1, sizeof(*d));
	struct tep_format_field *f;
	int n = 0;

	if (!d)
		return NULL;
	d->event = ev;
	d->table = vms_sink_table(ctx->sink, ev->name);
	for (f = ev->format.fields; f; f = f->next)
		n++;
	d->fields = calloc(n ? n : 1, sizeof(*d->fields));
	if (!d->fields) {
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
		if (b->kind == FK_HEX && b->col >= 0)
			b->col = -1;
	}
	return d;
}

static struct decoder *decoder_for(struct dat_ctx *ctx, int id)
{
	struct tep_event *ev;

	if (id < 0)
		return NULL;
	if (id >= ctx->ndecoders) {
		int n = id + 256;
		struct decoder **nd = realloc(ctx->decoders, n * sizeof(*nd));

		if (!nd)
			return NULL;
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
	return ctx->decoders[id];
}

static long long read_num(struct dat_ctx *ctx, const struct tep_format_field *f, const void *data)
{
	unsigned long long v = tep_read_number(ctx->tep, (const char *)data + f->offset, f->size);

	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		int shift = 64 - 8 * f->size;

		return ((long long)(v << shift)) >> shift;
	}
	return (long long)v;
}

static const char *read_str(struct dat_ctx *ctx, const struct tep_format_field *f,
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
static const char *render(struct dat_ctx *ctx, struct decoder *d, struct bound_field *b,
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

static void add_hex(struct dat_ctx *ctx, const struct bound_field *b, const struct tep_record *rec)
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
	vms_sink_extra_text(ctx->sink, b->f->name, buf, 2 * n);
}

static int store_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *p)
{
	struct dat_ctx *ctx = p;
	struct decoder *d;
	int id, pid, i;

	ctx->tep = tracecmd_get_tep(handle);
	ctx->records++;
	ctx->last_ts = rec->ts;
	if ((ctx->records & 0x3ffff) == 0)
		vms_progress_update(ctx->progress, rec->offset, 0, ctx->records);
	if (rec->missed_events &&
	    vms_sink_lost(ctx->sink, rec->cpu, rec->ts, rec->missed_events > 0 ? rec->missed_events : -1,
			  "ring-buffer"))
		goto fail;
	id = tep_data_type(ctx->tep, rec);
	d = decoder_for(ctx, id);
	if (!d) {
		char why[96];

		snprintf(why, sizeof(why), "record of unknown event id %d on cpu %d", id, rec->cpu);
		ctx->bad++;
		import_report_bad(ctx->opt, ctx->bad, -1, why);
		if (vms_sink_import_error(ctx->sink, -1, (long long)rec->offset, why, NULL, 0))
			goto fail;
		return 0;
	}
	pid = tep_data_pid(ctx->tep, rec);
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
				vms_error("out of memory");
				goto fail;
			}
			vms_sink_set_text(ctx->sink, b->col, s, len);
			break;
		case FK_HEX:
			add_hex(ctx, b, rec);
			break;
		}
	}
	if (vms_sink_end(ctx->sink))
		goto fail;
	if (pid != ctx->last_pid || !ctx->last_comm) {
		ctx->last_pid = pid;
		ctx->last_comm = tep_data_comm_from_pid(ctx->tep, pid);
	}
	vms_sink_task(ctx->sink, pid, ctx->last_comm, strlen(ctx->last_comm), rec->ts);
	return 0;
fail:
	ctx->failed = 1;
	return -1;
}

/* Rebuild the format text of each event for the event_format table. */
static int store_formats(struct dat_ctx *ctx, struct vms_db *db)
{
	struct tep_event **events = tep_list_events(ctx->tep, TEP_EVENT_SORT_ID);
	struct vms_buf text = { 0 };
	sqlite3_stmt *st;
	int rc = 0, i;

	if (!events)
		return 0;
	if (sqlite3_prepare_v2(vms_db_sql(db), "INSERT OR REPLACE INTO event_format VALUES (?, ?, ?, ?)",
			       -1, &st, NULL))
		return vms_error("%s: cannot store event formats: %s", vms_db_path(db),
				 sqlite3_errmsg(vms_db_sql(db)));
	for (i = 0; events[i]; i++) {
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
		vms_buf_addf(&text, "\nprint fmt: \"%s\"\n",
			     ev->print_fmt.format ? ev->print_fmt.format : "");
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, ev->system ? ev->system : "", -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, ev->name, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, ev->id);
		sqlite3_bind_text(st, 4, text.buf, (int)text.len, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			rc = vms_error("%s: cannot store event formats: %s", vms_db_path(db),
				       sqlite3_errmsg(vms_db_sql(db)));
			break;
		}
	}
	sqlite3_finalize(st);
	vms_buf_release(&text);
	return rc;
}

/*
 * trace-cmd saves the kernel's per-CPU ring buffer statistics as text:
 * "CPU: 0\nentries: 0\noverrun: 0\ncommit overrun: 0\n...dropped events: 0\n".
 * Overruns and dropped events are events the kernel lost.
 */
static int store_cpustats(struct dat_ctx *ctx, struct vms_db *db, const char *stats)
{
	sqlite3_stmt *st;
	const char *line = stats;
	int cpu = -1, rc = 0;

	if (!stats)
		return 0;
	if (sqlite3_prepare_v2(vms_db_sql(db), "INSERT OR REPLACE INTO cpu_stats VALUES (?, ?, ?)",
			       -1, &st, NULL))
		return vms_error("%s: cannot store cpu stats", vms_db_path(db));
	while (line && *line) {
		const char *end = strchr(line, '\n'), *colon;
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char name[64];
		double value;

		colon = memchr(line, ':', len);
		if (colon && colon - line < (long)sizeof(name)) {
			memcpy(name, line, colon - line);
			name[colon - line] = '\0';
			value = strtod(colon + 1, NULL);
			if (!strcmp(name, "CPU")) {
				cpu = (int)value;
			} else if (cpu >= 0) {
				sqlite3_reset(st);
				sqlite3_bind_int(st, 1, cpu);
				sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
				sqlite3_bind_double(st, 3, value);
				if (sqlite3_step(st) != SQLITE_DONE) {
					rc = vms_error("%s: cannot store cpu stats", vms_db_path(db));
					break;
				}
				if ((!strcmp(name, "overrun") || !strcmp(name, "dropped events")) &&
				    value > 0 &&
				    vms_sink_lost(ctx->sink, cpu, 0, (long long)value, "cpustats")) {
					rc = -1;
					break;
				}
			}
		}
		line = end ? end + 1 : NULL;
	}
	sqlite3_finalize(st);
	return rc;
}

static int store_run_info(struct tracecmd_input *handle, struct vms_db *db, struct tep_handle *tep)
{
	const char *uname = tracecmd_get_uname(handle);
	const char *clock = tracecmd_get_trace_clock(handle);
	int rc = 0;

	rc |= vms_db_set_run_int(db, "ts_resolution_ns", 1);
	rc |= vms_db_set_run_int(db, "cpus", tracecmd_cpus(handle));
	rc |= vms_db_set_run_int(db, "page_size", tracecmd_page_size(handle));
	if (uname) {
		/* "Linux host 6.18.44-fc-v782 #1 SMP ..." -> third word is the release */
		char release[128] = "";

		rc |= vms_db_set_run_text(db, "uname", uname);
		if (sscanf(uname, "%*s %*s %127s", release) == 1)
			rc |= vms_db_set_run_text(db, "kernel_release", release);
	}
	if (clock) {
		/* "[local] global counter ...": the selected clock is in brackets */
		const char *open = strchr(clock, '['), *close = open ? strchr(open, ']') : NULL;
		char name[32];

		if (open && close && close - open - 1 < (long)sizeof(name)) {
			memcpy(name, open + 1, close - open - 1);
			name[close - open - 1] = '\0';
			rc |= vms_db_set_run_text(db, "trace_clock", name);
		} else {
			rc |= vms_db_set_run_text(db, "trace_clock", clock);
		}
	}
	return rc ? -1 : 0;
}

/*
 * libtracecmd maps the CPU buffers of the file; a file cut short makes it
 * fault while reading. The fault is turned into an error that keeps every
 * event read until then.
 */
static sigjmp_buf fault_jump;

static void on_fault(int sig)
{
	siglongjmp(fault_jump, sig);
}

/*
 * Read the top buffer and every instance buffer (trace-cmd record -B), merged
 * in timestamp order by libtracecmd.
 */
static void iterate_all_buffers(struct tracecmd_input *handle, struct dat_ctx *ctx)
{
	int n = tracecmd_buffer_instances(handle), i, used = 1;
	struct tracecmd_input **handles = calloc(n + 1, sizeof(*handles));

	if (!handles) {
		tracecmd_iterate_events(handle, NULL, 0, store_record, ctx);
		return;
	}
	handles[0] = handle;
	for (i = 0; i < n; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(handle, i);

		if (h)
			handles[used++] = h;
		else
			vms_warning("'%s': cannot read buffer '%s'", ctx->opt->display_path,
				    tracecmd_buffer_instance_name(handle, i));
	}
	ctx->buffers = used;
	tracecmd_iterate_events_multi(handles, used, store_record, ctx);
	for (i = 1; i < used; i++)
		tracecmd_close(handles[i]);
	free(handles);
}

/*
 * Run tracecmd_open() (when *handle is NULL) or the iteration over all
 * records with faults caught. Return: 0, or the signal that stopped it.
 */
static int guarded(const char *file, struct tracecmd_input **handle, struct dat_ctx *ctx)
{
	struct sigaction sa = { .sa_handler = on_fault }, old_segv, old_bus;
	volatile int sig;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	sig = sigsetjmp(fault_jump, 1);
	if (!sig && !*handle)
		*handle = tracecmd_open(file, TRACECMD_FL_LOAD_NO_PLUGINS |
					      TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	else if (!sig)
		iterate_all_buffers(*handle, ctx);
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return sig;
}

int import_dat(const char *file, struct vms_db *db, struct vms_sink *sink,
	       const struct import_options *opt, char **detail)
{
	struct dat_ctx ctx = { .sink = sink, .opt = opt };
	struct tracecmd_input *handle = NULL;
	char what[4200];
	int rc = -1, fault, i;

	*detail = NULL;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (guarded(file, &handle, &ctx) || !handle)
		return vms_error("'%s': libtracecmd cannot open this .dat file: it is truncated "
				 "or corrupt (its headers or sections do not read back)",
				 opt->display_path);
	ctx.tep = tracecmd_get_tep(handle);
	trace_seq_init(&ctx.seq);
	if (store_run_info(handle, db, ctx.tep) || store_formats(&ctx, db) ||
	    store_cpustats(&ctx, db, tracecmd_get_cpustats(handle)))
		goto out;
	snprintf(what, sizeof(what), "importing %s", opt->display_path);
	ctx.progress = vms_progress_new(what);
	{
		struct stat st;
		long long want = 0;

		for (i = 0; i < tracecmd_cpus(handle); i++)
			want += tracecmd_get_cpu_file_size(handle, i);
		if (!stat(file, &st) && want > st.st_size)
			vms_warning("'%s' is %lld bytes but its CPU buffers alone need %lld: "
				    "the file is truncated", opt->display_path,
				    (long long)st.st_size, want);
	}
	fault = guarded(file, &handle, &ctx);
	vms_progress_done(ctx.progress);
	if (fault) {
		char buf[512];

		snprintf(buf, sizeof(buf), "%s: reading stopped by %s after %llu records "
			 "(last at %.6f s): the file is truncated or corrupt",
			 opt->display_path, strsignal(fault), (unsigned long long)ctx.records,
			 ctx.last_ts / 1e9);
		*detail = strdup(buf);
		/* libtracecmd's state is unknown after a fault: do not touch the handle again */
		handle = NULL;
		rc = 1;
		goto out;
	}
	if (ctx.failed)
		goto out;
	rc = 0;
	if (ctx.bad) {
		char buf[256];

		snprintf(buf, sizeof(buf), "%s: %llu records could not be decoded (all are in table "
			 "import_error)", opt->display_path, ctx.bad);
		*detail = strdup(buf);
		rc = 1;
	}
out:
	for (i = 0; i < ctx.ndecoders; i++)
		free_decoder(ctx.decoders[i]);
	free(ctx.decoders);
	trace_seq_destroy(&ctx.seq);
	if (handle)
		tracecmd_close(handle);
	return rc;
}
