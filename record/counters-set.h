/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters-set.h - counters read from files that came with a trace (the
 * `--counters` of `vmscope import` and `vmscope counters add`), held in
 * memory until they are aligned to the trace clock and stored in one go:
 * nothing is written before every file has been read and aligned.
 *
 * Protocol: cset_load() each file into a struct cset_file (the readers are
 * counters-mmtests.c and counters-csv.c; the /proc text parsers they share
 * with the live sampler are in counters-proc.c); counters_align()
 * (counters-align.c) sets each file's offset; counters-store.c writes them.
 */
#ifndef VMS_RECORD_COUNTERS_SET_H
#define VMS_RECORD_COUNTERS_SET_H

#include <stddef.h>

#include "vms-strmap.h"

/* The clock a file's times are on, as --counters-clock or a CSV header names it. */
enum cset_clock { CLOCK_UNSAID, CLOCK_REALTIME_C, CLOCK_MONO_C, CLOCK_BOOT_C, CLOCK_TRACE_C };

struct cset_value {
	int sample;		/* index into cset_file.samples */
	const char *name;	/* interned in cset_file.names */
	long long value;
};

struct cset_sample {
	long long ts;		/* ns on the file's clock */
	const char *source;	/* 'vmstat', 'meminfo', 'zoneinfo', 'memcg', 'csv' (static) */
	const char *scope;	/* interned */
	long long line;		/* where it starts in the file, for messages */
};

struct cset_sysctl {
	char *name, *value;
};

struct cset_file {
	const char *path;		/* as given (a FILE@SECONDS spelling without the @) */
	char *format;			/* 'mmtests proc-vmstat', 'csv', 'sysctl', ... */
	enum cset_clock clock;
	const char *memcg_scope;	/* scope of its memcg samples: the file's base name */
	struct cset_sample *samples;
	int nsamples, samples_alloc;
	struct cset_value *values;
	int nvalues, values_alloc;
	struct cset_sysctl *sysctls;
	int nsysctls, sysctls_alloc;
	int sysctls_skipped;		/* of a listing, not vm.* */
	struct strmap names;		/* counter names and scopes, interned */
	/* set by counters_align() */
	long long offset_ns;		/* added to each ts: the trace clock */
	char *aligned_by;		/* 'trace-date', 'same-clock', 'user-offset', 'automatic' */
	double residual;		/* automatic: relative residual; else -1 */
	char *detail;			/* the sentence info prints */
};

/* Parse a --counters-clock name. Return: the clock, or -1 when unknown. */
int cset_clock_parse(const char *name);
const char *cset_clock_name(enum cset_clock c);

/* "SECONDS" or "SECONDS.FRACTION" (9 digits kept), the whole of @s. Return: 0 and *ns, or -1. */
int cset_parse_seconds(const char *s, size_t len, long long *ns);

void cset_file_init(struct cset_file *f, const char *path);
void cset_file_release(struct cset_file *f);
/* Intern @s (@len bytes). Return: the copy, or NULL (vms_error set). */
const char *cset_intern(struct cset_file *f, const char *s, size_t len);
/* Start a sample. Return: its index, or -1 (vms_error set). */
int cset_begin(struct cset_file *f, long long ts, const char *source, const char *scope,
	       size_t scope_len, long long line);
/* Add a value to sample @sample. Return: 0 or -1 (vms_error set). */
int cset_value(struct cset_file *f, int sample, const char *name, size_t len, long long value);
int cset_sysctl(struct cset_file *f, const char *name, size_t nlen, const char *value, size_t vlen);
/* @out[i] (nsamples of them): value @name of sample i, or @dflt when it has none. */
void cset_series(const struct cset_file *f, const char *name, long long *out, long long dflt);

/*
 * cset_load() - read @path (its kind recognised from the content: an mmtests
 * monitor log, a plain /proc snapshot, a sysctl listing, a wide CSV) into @f.
 * @clock: --counters-clock (CLOCK_UNSAID when not given)
 * Return: 0, or -1 with vms_error naming the file and line.
 */
int cset_load(struct cset_file *f, const char *path, enum cset_clock clock);

/* --- the readers behind cset_load() --- */
struct vms_input;
/* A wide CSV whose header line is @header: read the rest. (counters-csv.c) */
int cset_read_csv(struct cset_file *f, struct vms_input *in, const char *display,
		  const char *header, size_t len, enum cset_clock clock);
/* Is @line the header of a wide CSV? */
int cset_is_csv_header(const char *line, size_t len);

/* --- the /proc text parsers (counters-proc.c), shared with counters.c --- */
struct proc_parse_cb {
	/* a new sample of @source and @scope; return its id (>= 0) or -1 */
	long long (*begin)(void *arg, const char *source, const char *scope);
	/* a value of sample @sample; return 0 or -1 */
	int (*value)(void *arg, long long sample, const char *name, size_t len, long long value);
	void *arg;
};
/* "name value" (vmstat, memory.stat) and "Name:  value kB" (meminfo) lines of @text (modified). */
int proc_parse_name_value(char *text, const char *source, const char *scope,
			  const struct proc_parse_cb *cb);
/* /proc/zoneinfo in @text (modified): a sample per zone and per node. */
int proc_parse_zoneinfo(char *text, const struct proc_parse_cb *cb);

#endif
