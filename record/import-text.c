// SPDX-License-Identifier: GPL-2.0
/*
 * import-text.c - import a text trace (tracefs `trace`/`trace_pipe`, or
 * `trace-cmd report` output) into the database, field by field through the
 * sink. Lines that cannot be read are stored in import_error with their
 * line number and reported; events of unknown types go to event_generic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "import.h"
#include "text.h"

struct text_ctx {
	struct vms_sink *sink;
	int failed;		/* a field did not fit its column; vms_error says why */
};

static int store_field(void *p, const char *key, size_t keylen, const char *val, size_t vallen)
{
	struct text_ctx *ctx = p;

	if (vms_sink_set_from_text(ctx->sink, key, keylen, val, vallen)) {
		ctx->failed = 1;
		return -1;
	}
	return 0;
}

/* Binary data is not a text trace: say so at once instead of listing every line. */
static int looks_binary(struct vms_input *in)
{
	const unsigned char *data;
	size_t n = vms_input_peek(in, &data, 4096), bad = 0, i;

	for (i = 0; i < n; i++)
		if (data[i] == 0 || (data[i] < 0x20 && data[i] != '\n' && data[i] != '\t' &&
				     data[i] != '\r'))
			bad++;
	return n && (memchr(data, 0, n) || bad * 20 > n);
}

int import_text(struct vms_input *in, struct vms_db *db, struct vms_sink *sink,
		const struct import_options *opt, char **detail)
{
	struct vms_progress *progress;
	unsigned long long lineno = 0, bad = 0, events = 0;
	long long first_bad = 0, cpus = -1, entries_lost = -1;
	const char *kind = NULL;
	int ts_digits = -1, ts_raw = 0, truncated = 0, read_failed = 0;
	char read_error[1024];
	char what[4200];
	const char *line;
	size_t len;
	int nl;

	*detail = NULL;
	if (looks_binary(in))
		return vms_error("'%s' is binary data but not a trace-cmd .dat file (bad magic)",
				 opt->display_path);
	snprintf(what, sizeof(what), "importing %s", opt->display_path);
	progress = opt->user->quiet ? NULL : vms_progress_new(what);

	while ((line = vms_input_getline(in, &len, &nl))) {
		struct text_ctx ctx = { sink, 0 };
		struct text_line tl;
		struct vms_table *t;
		const char *why;
		char event[128];
		int rc;

		lineno++;
		if ((lineno & 0xffff) == 0)
			vms_progress_update(progress, vms_input_raw_pos(in), vms_input_raw_size(in),
					    events);
		if (memchr(line, 0, len)) {
			/* a text trace has none; a key or value cut at a NUL is not what was traced */
			why = "a NUL byte inside the line";
			goto bad_line;
		}
		switch (text_line_parse(line, len, &tl, &why)) {
		case TL_BLANK:
			continue;
		case TL_COMMENT:
			if (!kind)
				kind = "tracefs-text";
			if (tl.entries_lost >= 0)
				entries_lost = tl.entries_lost;
			continue;
		case TL_HEADER:
			if (!kind)
				kind = "trace-cmd-report";
			if (tl.header_cpus >= 0)
				cpus = tl.header_cpus;
			continue;
		case TL_LOST:
			if (vms_sink_lost(sink, tl.cpu, 0, tl.lost, "text"))
				goto fatal;
			continue;
		case TL_BAD:
			goto bad_line;
		case TL_EVENT:
			break;
		}
		if (!kind)
			kind = "tracefs-text";
		if (tl.event_len >= sizeof(event)) {
			why = "event name too long";
			goto bad_line;
		}
		memcpy(event, tl.event, tl.event_len);
		event[tl.event_len] = '\0';
		if (ts_digits < 0 || tl.ts_digits < ts_digits)
			ts_digits = tl.ts_digits;
		ts_raw |= tl.ts_raw;
		t = text_event_table(sink, event, tl.payload, tl.payload_len);
		if (!t)
			goto fatal;
		vms_sink_begin(sink, t, NULL, event, tl.ts, tl.cpu, tl.pid);
		if (vms_table_is_generic(t) || vms_table_is_lenient(t)) {
			/* free text in an unknown event is fine: the payload is kept whole */
			rc = text_payload_parse(tl.event, tl.event_len, tl.payload, tl.payload_len,
						store_field, &ctx, &why);
			if (vms_table_is_generic(t) || rc)
				vms_sink_set_payload(sink, tl.payload, tl.payload_len);
		} else {
			rc = text_payload_parse(tl.event, tl.event_len, tl.payload, tl.payload_len,
						store_field, &ctx, &why);
			if (ctx.failed)
				why = vms_last_error();
			if (rc) {
				vms_sink_abandon(sink);
				goto bad_line;
			}
		}
		if (vms_sink_end(sink))
			goto fatal;
		vms_sink_task(sink, tl.pid, tl.comm, tl.comm_len, tl.ts);
		events++;
		if (!nl) {
			/* stored, since it parsed, but a number may have been cut short */
			truncated = 1;
			snprintf(what, sizeof(what), "line %llu", lineno);
			if (vms_sink_import_error(sink, lineno, vms_input_line_offset(in),
						  "the file ends inside this line: it was stored, but "
						  "its last value may be cut short", line, len))
				goto fatal;
		}
		continue;
bad_line:
		if (!first_bad)
			first_bad = lineno;
		bad++;
		if (vms_sink_import_error(sink, lineno, vms_input_line_offset(in), why, line, len))
			goto fatal;
		import_report_bad(opt, bad, lineno, why);
		if (!nl)
			truncated = 1;
	}
	vms_progress_done(progress);
	progress = NULL;
	if (len == (size_t)-1) {
		/* decompression failed part way: keep what was read */
		if (!events)
			return -1;
		read_failed = 1;
		snprintf(read_error, sizeof(read_error), "%s", vms_last_error());
	}

	if (!events && !bad)
		return vms_error(lineno ? "'%s' holds no trace events (%llu lines of headers or comments)"
				 : "'%s' is empty", opt->display_path, lineno);
	if (!events)
		return vms_error("'%s' is not a trace this version can read: none of its %llu lines "
				 "parsed (first at line %lld)", opt->display_path, bad, first_bad);
	if (entries_lost > 0 && vms_sink_lost(sink, -1, 0, entries_lost, "text"))
		return -1;
	if (vms_db_set_run_text(db, "source_kind", kind) ||
	    (cpus > 0 && vms_db_set_run_int(db, "cpus", cpus)))
		return -1;
	if (ts_raw) {
		/* counter, uptime or x86-tsc clock: ticks, not time */
		vms_warning("'%s': timestamps have no fraction (counter, uptime or x86-tsc clock): "
			    "stored as they are, not in ns", opt->display_path);
	} else {
		long long res = 1;

		for (int d = ts_digits; d < 9; d++)
			res *= 10;
		if (vms_db_set_run_int(db, "ts_resolution_ns", res))
			return -1;
	}
	if (read_failed) {
		*detail = strdup(read_error);
		return 1;
	}
	if (truncated || bad) {
		char buf[4800];

		if (truncated && !bad)
			snprintf(buf, sizeof(buf), "'%s' ends without a newline: %s may be cut short",
				 opt->display_path, what);
		else
			snprintf(buf, sizeof(buf), "%s%s: %llu of %llu lines could not be parsed "
				 "(first at line %lld; all are in table import_error)",
				 opt->display_path, truncated ? " is truncated" : "", bad, lineno,
				 first_bad);
		*detail = strdup(buf);
		return 1;
	}
	return 0;
fatal:
	vms_progress_done(progress);
	return -1;
}
