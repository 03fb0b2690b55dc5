/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text.h - parsing of text traces as people paste them: the tracefs
 * `trace`/`trace_pipe` files and `trace-cmd report` output. Split in two:
 * the anatomy of a line (text-line.c) and the fields of its payload
 * (text-payload.c). The .dat importer reuses the payload parser to read
 * symbolic values (gfp names, shrinker symbols) from libtraceevent's output.
 */
#ifndef VMS_RECORD_TEXT_H
#define VMS_RECORD_TEXT_H

#include <stddef.h>
#include <stdint.h>

enum text_line_kind {
	TL_BLANK,	/* empty or only white space */
	TL_COMMENT,	/* '#' header lines of the tracefs trace file */
	TL_HEADER,	/* trace-cmd report headers: cpus=, version =, CPU N is empty */
	TL_LOST,	/* CPU:N [LOST N EVENTS] and trace-cmd's DROPPED variant */
	TL_EVENT,
	TL_BAD,
};

struct text_line {
	const char *comm;
	size_t comm_len;
	int pid;
	int tgid;		/* -1 when the line has no (tgid) column */
	int cpu;
	uint64_t ts;		/* ns, or raw counter value when ts_raw */
	int ts_raw;		/* the timestamp had no fraction (counter, uptime, x86-tsc clocks) */
	int ts_digits;		/* digits after the point: 6 (µs) or 9 (ns) */
	const char *event;
	size_t event_len;
	const char *payload;
	size_t payload_len;
	long long lost;		/* TL_LOST: events lost, -1 when not said */
	long long header_cpus;	/* TL_HEADER: value of cpus=, else -1 */
	long long entries_lost;	/* TL_COMMENT: written - in buffer, from "# entries-in-buffer/...", else -1 */
	const char *range;	/* what was out of range (static string), for *why */
};

/**
 * text_line_parse() - classify and split one line
 * @why: out, for TL_BAD: what was wrong (static string)
 * Return: the kind of line.
 */
enum text_line_kind text_line_parse(const char *s, size_t len, struct text_line *out,
				    const char **why);

/* Called for each field found in a payload; return non-zero to stop. */
typedef int (*payload_field_fn)(void *ctx, const char *key, size_t keylen,
				const char *val, size_t vallen);

/**
 * text_payload_parse() - find the fields of an event's printed payload
 * @event: event name (selects the special forms of shrink_slab and writeback)
 * @why: out, on failure: what could not be read (static string)
 *
 * Return: 0 when the whole payload was read as fields, 1 when part of it
 * was free text that is not fields, or the callback's non-zero value.
 */
int text_payload_parse(const char *event, size_t event_len, const char *p, size_t len,
		       payload_field_fn fn, void *ctx, const char **why);
/*
 * text_event_table() - the table of @event's text line with @payload
 * (text-table.c): the schema's, one made from the line's fields, or
 * event_generic. Return: it, or NULL with vms_error set.
 */
struct vms_sink;
struct vms_table *text_event_table(struct vms_sink *sink, const char *event, const char *payload,
				   size_t len);
/* The same for the payload of a filemap event (text-filemap.c), fields as the binary format names them. */
int text_filemap_parse(const char *p, size_t len, payload_field_fn fn, void *ctx, const char **why);

#endif
