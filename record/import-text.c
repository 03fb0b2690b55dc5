// SPDX-License-Identifier: GPL-2.0
/*
 * import-text.c - import a text trace (tracefs `trace`/`trace_pipe`, or
 * `trace-cmd report` output) into the database, field by field through the
 * sink. Lines that cannot be read are stored in import_error with their
 * line number and reported; an event the schema does not know gets a table
 * made from its fields (text-table.c), or goes to event_generic.
 *
 * A timestamp more than OUTLIER_NS away from the event before it is held
 * back for one event: when the next event is near it, the trace did jump (a
 * long pause) and both are stored; when the next one is not (or there is
 * none), the held line is a bad record, stored in import_error, so that one
 * damaged line cannot stretch the run over days or years.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "import.h"
#include "text.h"

#define OUTLIER_NS (86400ull * 1000000000ull)	/* a day: no trace pauses that long */

/* An event line held back because its timestamp jumped (see the top). */
struct held_line {
	char *line;			/* a copy, NULL when none is held */
	size_t len;
	int nl;
	unsigned long long lineno;
	long long offset;
	uint64_t ts;
	uint64_t from;			/* the timestamp it jumped from */
};

/* One import's state. */
struct text_import {
	struct vms_sink *sink;
	const struct import_options *opt;
	unsigned long long bad, events;
	long long first_bad, cpus, entries_lost;
	const char *kind;
	int ts_digits, ts_raw, truncated;
	char what[64];			/* the cut line, when truncated */
	uint64_t last_ts;		/* of the last event stored, 0 before it */
	struct held_line held;
};

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

static int far_apart(uint64_t a, uint64_t b)
{
	return (a > b ? a - b : b - a) > OUTLIER_NS;
}

/* A line that cannot be stored: in import_error, reported. Return: 0 or -1. */
static int bad_line(struct text_import *ti, const char *line, size_t len, int nl,
		    unsigned long long lineno, long long offset, const char *why)
{
	if (!ti->first_bad || (long long)lineno < ti->first_bad)
		ti->first_bad = lineno;
	ti->bad++;
	if (vms_sink_import_error(ti->sink, lineno, offset, why, line, len))
		return -1;
	import_report_bad(ti->opt, ti->bad, lineno, why);
	if (!nl)
		ti->truncated = 1;
	return 0;
}

/* The held line has no event near it: a bad record. Return: 0 or -1. */
static int held_is_bad(struct text_import *ti)
{
	struct held_line *h = &ti->held;
	char why[160];
	int rc;

	snprintf(why, sizeof(why), "its timestamp jumps %.0f s away from the events around it: "
		 "a damaged line, left out",
		 (double)(h->ts > h->from ? h->ts - h->from : h->from - h->ts) / 1e9);
	rc = bad_line(ti, h->line, h->len, h->nl, h->lineno, h->offset, why);
	free(h->line);
	h->line = NULL;
	return rc;
}

static int import_line(struct text_import *ti, const char *line, size_t len, int nl,
		       unsigned long long lineno, long long offset, int may_hold);

/*
 * An event line whose timestamp @ts is about to be stored: first settle the
 * held line, then hold this one if it jumps. Return: 1 held, 0 go on, -1.
 */
static int check_jump(struct text_import *ti, const char *line, size_t len, int nl,
		      unsigned long long lineno, long long offset, uint64_t ts)
{
	struct held_line *h = &ti->held;

	if (h->line && far_apart(ts, h->ts)) {
		if (held_is_bad(ti))
			return -1;
	} else if (h->line) {
		/* confirmed: the trace did pause; store the held line first */
		struct held_line was = *h;
		int rc;

		h->line = NULL;
		rc = import_line(ti, was.line, was.len, was.nl, was.lineno, was.offset, 0);
		free(was.line);
		if (rc)
			return -1;
	}
	if (!ti->last_ts || !far_apart(ts, ti->last_ts))
		return 0;
	h->line = malloc(len ? len : 1);
	if (!h->line)
		return vms_error("out of memory");
	memcpy(h->line, line, len);
	h->len = len;
	h->nl = nl;
	h->lineno = lineno;
	h->offset = offset;
	h->ts = ts;
	h->from = ti->last_ts;
	return 1;
}

/*
 * One line: stored, or in import_error. @may_hold: a jumping timestamp may
 * be held back (not for a held line being stored). Return: 0 or -1 (fatal).
 */
static int import_line(struct text_import *ti, const char *line, size_t len, int nl,
		       unsigned long long lineno, long long offset, int may_hold)
{
	struct text_ctx ctx = { ti->sink, 0 };
	struct vms_sink *sink = ti->sink;
	struct text_line tl;
	struct vms_table *t;
	const char *why, *missing;
	char event[128], missing_why[256];
	int rc;

	if (memchr(line, 0, len))
		/* a text trace has none; a key or value cut at a NUL is not what was traced */
		return bad_line(ti, line, len, nl, lineno, offset, "a NUL byte inside the line");
	switch (text_line_parse(line, len, &tl, &why)) {
	case TL_BLANK:
		return 0;
	case TL_COMMENT:
		if (!ti->kind)
			ti->kind = "tracefs-text";
		if (tl.entries_lost >= 0)
			ti->entries_lost = tl.entries_lost;
		return 0;
	case TL_HEADER:
		if (!ti->kind)
			ti->kind = "trace-cmd-report";
		if (tl.header_cpus >= 0)
			ti->cpus = tl.header_cpus;
		return 0;
	case TL_LOST:
		if (vms_sink_lost(sink, tl.cpu, 0, tl.lost, "text"))
			return -1;
		if (!nl) {
			/* counted, but the count may be cut short */
			ti->truncated = 1;
			snprintf(ti->what, sizeof(ti->what), "line %llu", lineno);
			return vms_sink_import_error(sink, lineno, offset, "the file ends inside "
						     "this line: its count of lost events may be "
						     "cut short", line, len);
		}
		return 0;
	case TL_BAD:
		return bad_line(ti, line, len, nl, lineno, offset, why);
	case TL_EVENT:
		break;
	}
	if (!ti->kind)
		ti->kind = "tracefs-text";
	if (tl.event_len >= sizeof(event))
		return bad_line(ti, line, len, nl, lineno, offset, "event name too long");
	if (may_hold && !tl.ts_raw) {
		rc = check_jump(ti, line, len, nl, lineno, offset, tl.ts);
		if (rc)
			return rc < 0 ? -1 : 0;
	}
	memcpy(event, tl.event, tl.event_len);
	event[tl.event_len] = '\0';
	if (ti->ts_digits < 0 || tl.ts_digits < ti->ts_digits)
		ti->ts_digits = tl.ts_digits;
	ti->ts_raw |= tl.ts_raw;
	t = text_event_table(sink, event, tl.payload, tl.payload_len);
	if (!t)
		return -1;
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
		if (!rc && (missing = vms_sink_missing_field(sink))) {
			snprintf(missing_why, sizeof(missing_why), "field '%s' of %s is missing "
				 "(every kernel from 4.14 on prints it)", missing, event);
			why = missing_why;
			rc = -1;
		}
		if (rc) {
			vms_sink_abandon(sink);
			return bad_line(ti, line, len, nl, lineno, offset, why);
		}
	}
	if (vms_sink_end(sink))
		return -1;
	vms_sink_task(sink, tl.pid, tl.comm, tl.comm_len, tl.ts);
	ti->events++;
	if (!tl.ts_raw)
		ti->last_ts = tl.ts;
	if (!nl) {
		/* stored, since it parsed, but a number may have been cut short */
		ti->truncated = 1;
		snprintf(ti->what, sizeof(ti->what), "line %llu", lineno);
		if (vms_sink_import_error(sink, lineno, offset, "the file ends inside this line: "
					  "it was stored, but its last value may be cut short",
					  line, len))
			return -1;
	}
	return 0;
}

int import_text(struct vms_input *in, struct vms_db *db, struct vms_sink *sink,
		const struct import_options *opt, char **detail)
{
	struct text_import ti = {
		.sink = sink, .opt = opt, .cpus = -1, .entries_lost = -1, .ts_digits = -1,
	};
	struct vms_progress *progress;
	unsigned long long lineno = 0;
	int read_failed = 0, rc = -1;
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
		lineno++;
		if ((lineno & 0xffff) == 0)
			vms_progress_update(progress, vms_input_raw_pos(in), vms_input_raw_size(in),
					    ti.events);
		if (import_line(&ti, line, len, nl, lineno, vms_input_line_offset(in), 1))
			goto out;
	}
	/* no event after it confirms the held line's jump */
	if (ti.held.line && held_is_bad(&ti))
		goto out;
	vms_progress_done(progress);
	progress = NULL;
	if (len == (size_t)-1) {
		/* decompression failed part way: keep what was read */
		if (!ti.events)
			goto out;
		read_failed = 1;
		snprintf(read_error, sizeof(read_error), "%s", vms_last_error());
	}

	if (!ti.events && !ti.bad) {
		rc = vms_error(lineno ? "'%s' holds no trace events (%llu lines of headers or "
			       "comments)" : "'%s' is empty", opt->display_path, lineno);
		goto out;
	}
	if (!ti.events) {
		rc = vms_error("'%s' is not a trace this version can read: none of its %llu lines "
			       "parsed (first at line %lld)", opt->display_path, ti.bad, ti.first_bad);
		goto out;
	}
	if (ti.entries_lost > 0 && vms_sink_lost(sink, -1, 0, ti.entries_lost, "text"))
		goto out;
	if (vms_db_set_run_text(db, "source_kind", ti.kind) ||
	    (ti.cpus > 0 && vms_db_set_run_int(db, "cpus", ti.cpus)))
		goto out;
	if (ti.ts_raw) {
		/* counter, uptime or x86-tsc clock: ticks, not time */
		vms_warning("'%s': timestamps have no fraction (counter, uptime or x86-tsc clock): "
			    "stored as they are, not in ns", opt->display_path);
	} else {
		long long res = 1;

		for (int d = ti.ts_digits; d < 9; d++)
			res *= 10;
		if (vms_db_set_run_int(db, "ts_resolution_ns", res))
			goto out;
	}
	rc = 0;
	if (read_failed) {
		*detail = strdup(read_error);
		rc = 1;
	} else if (ti.truncated || ti.bad) {
		char buf[4800];

		if (ti.truncated && !ti.bad)
			snprintf(buf, sizeof(buf), "'%s' ends without a newline: %s may be cut short",
				 opt->display_path, ti.what);
		else
			snprintf(buf, sizeof(buf), "%s%s: %llu of %llu lines could not be parsed "
				 "(first at line %lld; all are in table import_error)",
				 opt->display_path, ti.truncated ? " is truncated" : "", ti.bad,
				 lineno, ti.first_bad);
		*detail = strdup(buf);
		rc = 1;
	}
out:
	vms_progress_done(progress);
	free(ti.held.line);
	return rc;
}
