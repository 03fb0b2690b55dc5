// SPDX-License-Identifier: GPL-2.0
/*
 * import-dat.c - import a trace-cmd .dat file through libtracecmd. Records
 * are decoded by field name with the event formats saved in the file itself
 * (decode.c), so that each kernel's layout (field sizes, renamed fields) is
 * read as that kernel wrote it. This file adds what is particular to .dat
 * files: run information, per-CPU statistics, every buffer instance, and
 * surviving files that are cut short.
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
#include "decode.h"

/* Exported by libtracecmd but declared only in its private header. */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
off64_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);

struct dat_ctx {
	struct vms_sink *sink;
	struct record_decoder *decoder;
	const struct import_options *opt;
	struct vms_progress *progress;
	unsigned long long bad;
	int failed;			/* a sink or allocation failure: stop */
	uint64_t records;
	uint64_t last_ts;		/* of the last record read, for error messages */
	int buffers;			/* top buffer plus instance buffers read */
};

static int store_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *p)
{
	struct dat_ctx *ctx = p;
	int rc;

	ctx->records++;
	ctx->last_ts = rec->ts;
	if ((ctx->records & 0x3ffff) == 0)
		vms_progress_update(ctx->progress, rec->offset, 0, ctx->records);
	rc = record_decoder_store(ctx->decoder, tracecmd_get_tep(handle), rec);
	if (rc == 1) {
		ctx->bad++;
		import_report_bad(ctx->opt, ctx->bad, -1, vms_last_error());
		rc = vms_sink_import_error(ctx->sink, -1, (long long)rec->offset, vms_last_error(),
					   NULL, 0);
	}
	if (rc) {
		ctx->failed = 1;
		return -1;
	}
	return 0;
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

static int store_run_info(struct tracecmd_input *handle, struct vms_db *db)
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
	ctx.decoder = record_decoder_new(sink);
	if (!ctx.decoder || store_run_info(handle, db) ||
	    record_decoder_store_formats(tracecmd_get_tep(handle), db) ||
	    store_cpustats(&ctx, db, tracecmd_get_cpustats(handle)))
		goto out;
	snprintf(what, sizeof(what), "importing %s", opt->display_path);
	ctx.progress = opt->quiet ? NULL : vms_progress_new(what);
	{
		struct stat st;
		long long want = 0;

		for (i = 0; i < tracecmd_cpus(handle); i++)
			want += tracecmd_get_cpu_file_size(handle, i);
		/* version 7 files compress the CPU data: their sizes say nothing then */
		if (tracecmd_get_in_file_version(handle) < 7 && !stat(file, &st) && want > st.st_size)
			vms_warning("'%s' is %lld bytes but its CPU buffers alone need %lld: "
				    "the file is truncated", opt->display_path,
				    (long long)st.st_size, want);
	}
	/* decode here, write to SQLite on a second thread */
	if (vms_sink_set_async(sink, 1))
		goto out;
	fault = guarded(file, &handle, &ctx);
	if (vms_sink_set_async(sink, 0) && !fault)
		ctx.failed = 1;
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
	record_decoder_free(ctx.decoder);
	if (handle)
		tracecmd_close(handle);
	return rc;
}
