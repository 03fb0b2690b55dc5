// SPDX-License-Identifier: GPL-2.0
/*
 * import-dat.c - import a trace-cmd .dat file through libtracecmd. Records
 * are decoded by field name with the event formats saved in the file itself
 * (decode.c), so that each kernel's layout (field sizes, renamed fields) is
 * read as that kernel wrote it. This file adds what is particular to .dat
 * files: run information, per-CPU statistics, every buffer instance, and
 * surviving files that are cut short.
 *
 * How it works: libtracecmd maps the file's CPU buffers, and a file cut
 * short (or otherwise damaged) can make it fault while reading. So the file
 * is read in a reader process (vms_sink_run_reader()): it opens the file,
 * sends the run information, event formats and CPU statistics as messages,
 * and decodes every record into its sink, which sends the rows here. This
 * process alone writes the database. A fault ends the reader; every record
 * it completed before is stored and the run is marked incomplete.
 *
 * libtracecmd reads leniently (it skips a chunk that does not decompress,
 * or a sub-buffer it cannot parse), so after it has read the file the
 * reader walks the CPU data again by the layout the file states
 * (dat-check.c) and compares, for each buffer and CPU, the records its
 * pages hold with the records libtracecmd delivered. Every damaged place
 * and every shortfall becomes an import_error row naming the CPU, the file
 * offset and an estimate of the records lost, and the run is incomplete.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
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
#include "decode.h"
#include "dat-check.h"

/* Exported by libtracecmd but declared only in its private header. */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
off64_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);
void tracecmd_record_ref(struct tep_record *record);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle, const char **name,
				     const char **version);

#define MAX_CPUS 65536		/* more in a file's CPU count is damage (Linux: 8192) */

/* Messages from the reader (vms_sink_message()); strings are NUL-terminated. */
enum dat_msg {
	M_OPENED = 1,		/* libtracecmd opened the file */
	M_RUN_INT,		/* column \0 i64: a run column */
	M_RUN_TEXT,		/* column \0 value \0 */
	M_FORMAT,		/* i32 id, system \0 name \0 text: an event_format row */
	M_CPUSTATS,		/* the saved per-CPU statistics, as text */
	M_BAD,			/* i64 offset, reason \0: a record that cannot be decoded */
	M_DONE,			/* u64 records: every record was read */
	M_DAMAGE,		/* i64 offset, i64 lost (-1 unknown), i32 cpu, buffer \0, what \0 */
};

/* The records libtracecmd delivered for one buffer (handle) and CPU. */
struct delivered {
	struct tracecmd_input *handle;
	const char *buffer;		/* its name, "" for the top one; not freed */
	int cpu;
	uint64_t records;
	const void *held_page;		/* the page of the last record held (hold_pages) */
};

/* The reader process's state. */
struct dat_reader {
	const char *file;
	const struct import_options *opt;
	struct vms_sink *sink;
	struct record_decoder *decoder;
	struct vms_progress *progress;
	int failed;			/* a sink or allocation failure: stop */
	uint64_t records;
	struct tracecmd_input **handles;	/* the buffers being read, [0] the top one */
	const char **names;		/* their names */
	int nhandles;
	struct delivered *delivered;	/* per buffer and CPU seen */
	size_t ndelivered, delivered_alloc;
	size_t last;			/* index of the last one counted */
	int hold_pages;			/* keep one record of each page: see frees_pages_slowly() */
};

/* This process's state. */
struct dat_writer {
	struct vms_db *db;
	struct vms_sink *sink;
	const struct import_options *opt;
	unsigned long long bad;		/* records that could not be decoded */
	int opened, done;		/* M_OPENED, M_DONE seen */
	uint64_t records;		/* of M_DONE */
	unsigned long long damaged;	/* damaged places (M_DAMAGE) */
	long long lost;			/* their estimated records lost, -1 if none known */
};

/* The argument of both sides of vms_sink_run_reader(). */
struct dat_import {
	struct dat_reader reader;
	struct dat_writer writer;
};

static int send_run_int(struct vms_sink *sink, const char *column, long long value)
{
	char msg[64];
	size_t n = strlen(column) + 1;

	memcpy(msg, column, n);
	memcpy(msg + n, &value, sizeof(value));
	return vms_sink_message(sink, M_RUN_INT, msg, n + sizeof(value));
}

static int send_run_text(struct vms_sink *sink, const char *column, const char *value)
{
	struct vms_buf b = { 0 };
	int rc;

	if (vms_buf_add(&b, column, strlen(column) + 1) ||
	    vms_buf_add(&b, value, strlen(value) + 1))
		rc = -1;
	else
		rc = vms_sink_message(sink, M_RUN_TEXT, b.buf, b.len);
	vms_buf_release(&b);
	return rc;
}

/* Count a record of @handle's @cpu. Return: 0 or -1 (out of memory). */
static int count_delivered(struct dat_reader *r, struct tracecmd_input *handle, int cpu)
{
	struct delivered *d = r->ndelivered ? &r->delivered[r->last] : NULL;
	size_t i;

	if (d && d->handle == handle && d->cpu == cpu) {
		d->records++;
		return 0;
	}
	for (i = 0; i < r->ndelivered; i++) {
		d = &r->delivered[i];
		if (d->handle == handle && d->cpu == cpu) {
			r->last = i;
			d->records++;
			return 0;
		}
	}
	if (r->ndelivered == r->delivered_alloc) {
		size_t n = r->delivered_alloc ? 2 * r->delivered_alloc : 16;

		d = realloc(r->delivered, n * sizeof(*d));
		if (!d)
			return vms_error("out of memory");
		r->delivered = d;
		r->delivered_alloc = n;
	}
	d = &r->delivered[r->ndelivered];
	d->handle = handle;
	d->buffer = "";
	for (int k = 0; k < r->nhandles; k++)
		if (r->handles[k] == handle)
			d->buffer = r->names[k];
	d->cpu = cpu;
	d->records = 1;
	d->held_page = NULL;
	r->last = r->ndelivered++;
	return 0;
}

/*
 * Does this libtracecmd walk every decompressed chunk of a CPU each time it
 * lets go of a page of a compressed file? Before libtracecmd 1.5 (trace-cmd
 * 3.3) its free_zpage() compares the wrong way round: it never finds the
 * chunk, so the chunks stay in its list (the whole decompressed data stays
 * in memory) and the walk over them, once per page, grows with the file
 * (a tenth of the import's time on 4.6M events). There, a record of each
 * page is held until the reader ends, so a page is never let go of: no
 * walk, and no more memory than the chunks the list keeps anyway (a page's
 * bookkeeping, about 150 bytes per 4 KiB). Told by the file name of the
 * library loaded (libtracecmd.so.1.3.1); a name that says no version is
 * taken as a fixed library.
 */
static int frees_pages_slowly(struct tracecmd_input *handle)
{
	const char *name, *version, *base;
	char path[PATH_MAX];
	unsigned int major, minor;
	Dl_info info;

	if (tracecmd_get_file_compress_proto(handle, &name, &version) < 0)
		return 0;	/* not compressed: pages are mapped from the file */
	if (!dladdr((void *)tracecmd_open, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, path))
		return 0;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (sscanf(base, "libtracecmd.so.%u.%u", &major, &minor) != 2)
		return 0;
	return major < 1 || (major == 1 && minor < 5);
}

static int store_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *p)
{
	struct dat_reader *r = p;
	int rc;

	r->records++;
	if (count_delivered(r, handle, rec->cpu)) {
		r->failed = 1;
		return -1;
	}
	if (r->hold_pages) {
		struct delivered *d = &r->delivered[r->last];

		/* not freed: the reader process ends without letting go of it */
		if (rec->priv != d->held_page) {
			tracecmd_record_ref(rec);
			d->held_page = rec->priv;
		}
	}
	if ((r->records & 0x3ffff) == 0)
		vms_progress_update(r->progress, rec->offset, 0, r->records);
	if (rec->ts > (unsigned long long)INT64_MAX) {
		/* beyond what the database stores (signed): a damaged timestamp */
		vms_error("record on cpu %d at %llu ns: timestamp beyond 2^63 ns", rec->cpu,
			  (unsigned long long)rec->ts);
		rc = 1;
	} else {
		rc = record_decoder_store(r->decoder, tracecmd_get_tep(handle), rec);
	}
	if (rc == 1) {
		/* undecodable: the writer stores it in import_error and reports it */
		struct vms_buf b = { 0 };
		long long offset = (long long)rec->offset;

		rc = vms_buf_add(&b, (const char *)&offset, sizeof(offset)) ||
		     vms_buf_add(&b, vms_last_error(), strlen(vms_last_error()) + 1) ? -1 :
		     vms_sink_message(r->sink, M_BAD, b.buf, b.len);
		vms_buf_release(&b);
	}
	if (rc) {
		r->failed = 1;
		return -1;
	}
	return 0;
}

static int store_run_info(struct tracecmd_input *handle, struct vms_sink *sink)
{
	const char *uname = tracecmd_get_uname(handle);
	const char *clock = tracecmd_get_trace_clock(handle);
	int rc = 0;

	rc |= send_run_int(sink, "ts_resolution_ns", 1);
	/* a damaged count is reported by read_dat() */
	if (tracecmd_cpus(handle) <= MAX_CPUS)
		rc |= send_run_int(sink, "cpus", tracecmd_cpus(handle));
	rc |= send_run_int(sink, "page_size", tracecmd_page_size(handle));
	if (uname) {
		/* "Linux host 6.18.44-fc-v782 #1 SMP ..." -> third word is the release */
		char release[128] = "";

		rc |= send_run_text(sink, "uname", uname);
		if (sscanf(uname, "%*s %*s %127s", release) == 1)
			rc |= send_run_text(sink, "kernel_release", release);
	}
	if (clock) {
		/* "[local] global counter ...": the selected clock is in brackets */
		const char *open = strchr(clock, '['), *close = open ? strchr(open, ']') : NULL;
		char name[32];

		if (open && close && close - open - 1 < (long)sizeof(name)) {
			memcpy(name, open + 1, close - open - 1);
			name[close - open - 1] = '\0';
			rc |= send_run_text(sink, "trace_clock", name);
		} else {
			rc |= send_run_text(sink, "trace_clock", clock);
		}
	}
	return rc ? -1 : 0;
}

static int send_format(void *sink, const char *system, const char *name, int id,
		       const char *text, size_t len)
{
	struct vms_buf b = { 0 };
	int rc;

	if (!system)
		system = "";
	if (vms_buf_add(&b, (const char *)&id, sizeof(id)) ||
	    vms_buf_add(&b, system, strlen(system) + 1) || vms_buf_add(&b, name, strlen(name) + 1) ||
	    vms_buf_add(&b, text, len))
		rc = -1;
	else
		rc = vms_sink_message(sink, M_FORMAT, b.buf, b.len);
	vms_buf_release(&b);
	return rc;
}

/*
 * Read the top buffer and every instance buffer (trace-cmd record -B), merged
 * in timestamp order by libtracecmd.
 */
static int iterate_all_buffers(struct tracecmd_input *handle, struct dat_reader *r)
{
	int n = tracecmd_buffer_instances(handle), i, used;
	struct tracecmd_input **handles = calloc(n + 1, sizeof(*handles));
	const char **names = calloc(n + 1, sizeof(*names));

	if (!handles || !names) {
		free(handles);
		free(names);
		return vms_error("out of memory");
	}
	/*
	 * libtracecmd scans every CPU of every buffer for each record: a damaged
	 * CPU count (millions) would take hours. Such a buffer is left out;
	 * read_dat() reports the count and the check the records not read.
	 */
	used = 0;
	if (tracecmd_cpus(handle) <= MAX_CPUS) {
		handles[used] = handle;
		names[used++] = "";
	}
	for (i = 0; i < n; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(handle, i);

		/* a buffer that cannot be read delivers nothing: the check names it */
		if (h && tracecmd_cpus(h) <= MAX_CPUS) {
			names[used] = tracecmd_buffer_instance_name(handle, i);
			handles[used++] = h;
		} else if (h) {
			tracecmd_close(h);
		}
	}
	r->handles = handles;
	r->names = names;
	r->nhandles = used;
	if (used)
		tracecmd_iterate_events_multi(handles, used, store_record, r);
	for (i = 0; i < used; i++)
		if (handles[i] != handle)
			tracecmd_close(handles[i]);
	r->handles = NULL;
	r->nhandles = 0;
	free(handles);
	free(names);
	return 0;
}

static int send_damage(void *p, const char *buffer, int cpu, long long offset, long long lost,
		       const char *what)
{
	struct dat_reader *r = p;
	struct vms_buf b = { 0 };
	int rc;

	if (vms_buf_add(&b, (const char *)&offset, sizeof(offset)) ||
	    vms_buf_add(&b, (const char *)&lost, sizeof(lost)) ||
	    vms_buf_add(&b, (const char *)&cpu, sizeof(cpu)) ||
	    vms_buf_add(&b, buffer, strlen(buffer) + 1) || vms_buf_add(&b, what, strlen(what) + 1))
		rc = vms_error("out of memory");
	else
		rc = vms_sink_message(r->sink, M_DAMAGE, b.buf, b.len);
	vms_buf_release(&b);
	return rc;
}

/*
 * Walk the CPU data by the file's layout and compare each buffer's and
 * CPU's records with those libtracecmd delivered. Return: 0 or -1.
 */
static int check_layout(struct tracecmd_input *handle, struct dat_reader *r,
			struct dat_check_job *job)
{
	struct dat_check chk;
	int rc;

	rc = dat_check_finish(job, r->file, tracecmd_get_tep(handle), &chk, send_damage, r);
	if (rc) {
		dat_check_release(&chk);
		return rc < 0 ? -1 : 0;
	}
	for (size_t i = 0; !rc && i < chk.ncpus; i++) {
		struct dat_cpu_events *ce = &chk.cpus[i];
		uint64_t got = 0;
		char what[256];

		for (size_t k = 0; k < r->ndelivered; k++)
			if (r->delivered[k].cpu == ce->cpu &&
			    !strcmp(r->delivered[k].buffer, ce->buffer))
				got += r->delivered[k].records;
		if (got >= ce->events)
			continue;
		snprintf(what, sizeof(what), "libtracecmd read %llu of the %llu records that the "
			 "CPU's sub-buffers hold", (unsigned long long)got,
			 (unsigned long long)ce->events);
		rc = send_damage(r, ce->buffer, ce->cpu, ce->offset,
				 (long long)(ce->events - got), what);
	}
	dat_check_release(&chk);
	return rc;
}

/* The reader process: everything libtracecmd does happens here. */
static int read_dat(struct vms_sink *sink, void *arg)
{
	struct dat_reader *r = &((struct dat_import *)arg)->reader;
	struct dat_check_job *job = NULL;
	struct tracecmd_input *handle;
	const char *stats;
	char what[4200];
	struct stat st;
	long long want = 0;
	int i, rc = -1;

	r->sink = sink;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	handle = tracecmd_open(r->file, TRACECMD_FL_LOAD_NO_PLUGINS |
				      TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!handle)
		return vms_error("'%s': libtracecmd cannot open this .dat file: it is truncated "
				 "or corrupt (its headers or sections do not read back)",
				 r->opt->display_path);
	stats = tracecmd_get_cpustats(handle);
	r->decoder = record_decoder_new(sink);
	if (vms_sink_message(sink, M_OPENED, NULL, 0) || !r->decoder ||
	    store_run_info(handle, sink) ||
	    record_decoder_formats(tracecmd_get_tep(handle), send_format, sink) ||
	    (stats && vms_sink_message(sink, M_CPUSTATS, stats, strlen(stats) + 1)))
		goto out;
	if (tracecmd_cpus(handle) > MAX_CPUS) {
		snprintf(what, sizeof(what), "the file states %d CPUs", tracecmd_cpus(handle));
		if (send_damage(r, "", -1, 0, -1, what))
			goto out;
	}
	for (i = 0; i < tracecmd_cpus(handle) && i < MAX_CPUS; i++)
		want += tracecmd_get_cpu_file_size(handle, i);
	/* version 7 files compress the CPU data: their sizes say nothing then */
	if (tracecmd_get_in_file_version(handle) < 7 && !stat(r->file, &st) && want > st.st_size)
		vms_warning("'%s' is %lld bytes but its CPU buffers alone need %lld: "
			    "the file is truncated", r->opt->display_path,
			    (long long)st.st_size, want);
	snprintf(what, sizeof(what), "importing %s", r->opt->display_path);
	r->progress = r->opt->user->quiet ? NULL : vms_progress_new(what);
	r->hold_pages = frees_pages_slowly(handle);
	/* the layout is checked on the other CPU while the records are decoded */
	job = dat_check_start(r->file, tracecmd_get_tep(handle));
	if (iterate_all_buffers(handle, r))
		goto out;
	vms_progress_done(r->progress);
	if (!r->failed) {
		rc = check_layout(handle, r, job);
		job = NULL;
		if (!rc)
			rc = vms_sink_message(sink, M_DONE, &r->records, sizeof(r->records));
		else
			rc = -1;
	}
out:
	dat_check_abandon(job);
	free(r->delivered);
	record_decoder_free(r->decoder);
	tracecmd_close(handle);
	return rc;
}

/*
 * trace-cmd saves the kernel's per-CPU ring buffer statistics as text:
 * "CPU: 0\nentries: 0\noverrun: 0\ncommit overrun: 0\n...dropped events: 0\n".
 * Overruns and dropped events are events the kernel lost.
 */
static int store_cpustats(struct dat_writer *w, const char *stats)
{
	struct vms_db *db = w->db;
	sqlite3_stmt *st;
	const char *line = stats;
	int cpu = -1, rc = 0;

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
				    vms_sink_lost(w->sink, cpu, 0, (long long)value, "cpustats")) {
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

/* @n NUL-terminated strings at the start of @data (@len bytes): their starts in @out, then the rest. */
static int split_strings(const char *data, size_t len, int n, const char **out, const char **rest)
{
	const char *p = data, *end = data + len;

	for (int i = 0; i < n; i++) {
		const char *nul = memchr(p, 0, end - p);

		if (!nul)
			return -1;
		out[i] = p;
		p = nul + 1;
	}
	*rest = p;
	return 0;
}

/*
 * An M_DAMAGE message: an import_error row naming the buffer, CPU and
 * offset, and the estimated loss in lost_events. Return: 0, 1 (malformed)
 * or -1.
 */
static int store_damage(struct dat_writer *w, const char *data, size_t len)
{
	long long offset, lost;
	const char *s[2], *rest;
	char reason[600], est[64];
	int cpu;

	if (len < 2 * sizeof(long long) + sizeof(int) ||
	    split_strings(data + 20, len - 20, 2, s, &rest))
		return 1;
	memcpy(&offset, data, sizeof(offset));
	memcpy(&lost, data + 8, sizeof(lost));
	memcpy(&cpu, data + 16, sizeof(cpu));
	if (lost > 0)
		snprintf(est, sizeof(est), "about %lld records lost", lost);
	else
		snprintf(est, sizeof(est), lost ? "records lost: unknown" : "no records lost");
	if (cpu >= 0)
		snprintf(reason, sizeof(reason), "damaged CPU data (buffer '%s', CPU %d, file "
			 "offset %lld; %s): %s", s[0], cpu, offset, est, s[1]);
	else
		snprintf(reason, sizeof(reason), "damaged layout (file offset %lld): %s", offset,
			 s[1]);
	w->damaged++;
	if (lost > 0)
		w->lost = (w->lost > 0 ? w->lost : 0) + lost;
	if (lost && vms_sink_lost(w->sink, cpu, 0, lost, "damage"))
		return -1;
	return vms_sink_import_error(w->sink, -1, offset, reason, NULL, 0);
}

/* This process: a message of the reader. Return: 0 or -1. */
static int on_message(void *arg, int type, const void *data, size_t len)
{
	struct dat_writer *w = &((struct dat_import *)arg)->writer;
	const char *s[2], *rest;
	long long v;
	int id;

	switch (type) {
	case M_OPENED:
		w->opened = 1;
		return 0;
	case M_RUN_INT:
		if (split_strings(data, len, 1, s, &rest) || (size_t)((const char *)data + len - rest) != sizeof(v))
			break;
		memcpy(&v, rest, sizeof(v));
		return vms_db_set_run_int(w->db, s[0], v);
	case M_RUN_TEXT:
		if (split_strings(data, len, 2, s, &rest))
			break;
		return vms_db_set_run_text(w->db, s[0], s[1]);
	case M_FORMAT:
		if (len < sizeof(id) || split_strings((const char *)data + sizeof(id),
						      len - sizeof(id), 2, s, &rest))
			break;
		memcpy(&id, data, sizeof(id));
		return record_decoder_store_format(w->db, s[0], s[1], id, rest,
						   (const char *)data + len - rest);
	case M_CPUSTATS:
		if (!len || ((const char *)data)[len - 1])
			break;
		return store_cpustats(w, data);
	case M_BAD:
		if (len < sizeof(v) || split_strings((const char *)data + sizeof(v), len - sizeof(v),
						      1, s, &rest))
			break;
		memcpy(&v, data, sizeof(v));
		w->bad++;
		import_report_bad(w->opt, w->bad, 0, s[0]);
		return vms_sink_import_error(w->sink, -1, v, s[0], NULL, 0);
	case M_DAMAGE:
		if ((id = store_damage(w, data, len)) <= 0)
			return id;
		break;
	case M_DONE:
		if (len != sizeof(w->records))
			break;
		memcpy(&w->records, data, sizeof(w->records));
		w->done = 1;
		return 0;
	}
	return vms_error("the .dat reader process sent a malformed message (type %d)", type);
}

int import_dat(const char *file, struct vms_db *db, struct vms_sink *sink,
	       const struct import_options *opt, char **detail)
{
	struct dat_import imp = {
		.reader = { .file = file, .opt = opt },
		.writer = { .db = db, .sink = sink, .opt = opt },
	};
	struct dat_writer *w = &imp.writer;
	char buf[4400];
	int sig;

	*detail = NULL;
	if (vms_sink_run_reader(sink, read_dat, on_message, &imp, &sig))
		return -1;
	if (sig && !w->opened)
		return vms_error("'%s': libtracecmd cannot open this .dat file: it is truncated "
				 "or corrupt (reading its headers stopped by %s)",
				 opt->display_path, strsignal(sig));
	if (sig) {
		snprintf(buf, sizeof(buf), "%s: reading stopped by %s after %llu records: the file "
			 "is truncated or corrupt (the events read until then are kept)",
			 opt->display_path, strsignal(sig),
			 (unsigned long long)(vms_sink_events(sink) + w->bad));
	} else if (!w->done) {
		return vms_error("'%s': the .dat reader process ended early", opt->display_path);
	} else if (w->damaged) {
		char lost[64] = "";

		if (w->lost > 0)
			snprintf(lost, sizeof(lost), ", about %lld records lost", w->lost);
		snprintf(buf, sizeof(buf), "%s: the CPU data is damaged in %llu places%s (all are "
			 "in table import_error); the records that could be read are kept",
			 opt->display_path, w->damaged, lost);
	} else if (w->bad) {
		snprintf(buf, sizeof(buf), "%s: %llu records could not be decoded (all are in table "
			 "import_error)", opt->display_path, w->bad);
	} else {
		return 0;
	}
	*detail = strdup(buf);
	return *detail ? 1 : vms_error("out of memory");
}
