/* SPDX-License-Identifier: GPL-2.0 */
/*
 * import.h - the importers behind vms_import() (record/import.c): one per
 * source format. Each fills the run row it knows about and writes events
 * through the sink.
 *
 * Return convention of the importers:
 *   0   everything in the source was stored;
 *   1   the source was damaged (truncated, lines that do not parse): all that
 *       could be read was stored, and *detail says what and where (caller frees);
 *  -1   nothing usable: vms_error() says why.
 */
#ifndef VMS_RECORD_IMPORT_H
#define VMS_RECORD_IMPORT_H

#include "vms-import.h"

struct vms_db;
struct vms_input;
struct vms_sink;

struct import_options {
	const char *display_path;	/* the file as the user named it, for messages */
	const struct vms_import_options *user;	/* quiet, report_bad */
};

int import_text(struct vms_input *in, struct vms_db *db, struct vms_sink *sink,
		const struct import_options *opt, char **detail);
/* @file: an uncompressed .dat file that libtracecmd can open (may be a temporary copy). */
int import_dat(const char *file, struct vms_db *db, struct vms_sink *sink,
	       const struct import_options *opt, char **detail);

/*
 * counters_store() - read, align and store the counters files of @opt in
 * @db, whose events are all stored (vms_sink_finish() done), inside the
 * caller's transaction (record/counters-store.c).
 * Return: 0, or -1 with vms_error set; then nothing of them was written.
 */
struct vms_counters_options;
int counters_store(struct vms_db *db, const struct vms_counters_options *opt);

/* Shared by both: pass a bad line or record (the @n_bad-th) to the caller's report_bad. */
static inline void import_report_bad(const struct import_options *opt, unsigned long long n_bad,
				     long long line, const char *reason)
{
	if (opt->user->report_bad)
		opt->user->report_bad(opt->user->arg, n_bad, line > 0 ? line : 0, reason);
}

#endif
