/* SPDX-License-Identifier: GPL-2.0 */
/*
 * import.h - the importers behind `vmscope import`: one per source format.
 * Each fills the run row it knows about and writes events through the sink.
 *
 * Return convention of the importers:
 *   0   everything in the source was stored;
 *   1   the source was damaged (truncated, lines that do not parse): all that
 *       could be read was stored, and *detail says what and where (caller frees);
 *  -1   nothing usable: vms_error() says why.
 */
#ifndef VMS_RECORD_IMPORT_H
#define VMS_RECORD_IMPORT_H

struct vms_db;
struct vms_input;
struct vms_sink;

struct import_options {
	const char *display_path;	/* the file as the user named it, for messages */
	int max_reported_errors;	/* bad lines printed on stderr (all are stored) */
	int quiet;			/* no progress on stderr */
};

int import_text(struct vms_input *in, struct vms_db *db, struct vms_sink *sink,
		const struct import_options *opt, char **detail);
/* @file: an uncompressed .dat file that libtracecmd can open (may be a temporary copy). */
int import_dat(const char *file, struct vms_db *db, struct vms_sink *sink,
	       const struct import_options *opt, char **detail);

/* Shared by both: log a bad line or record on stderr, up to the option's limit. */
void import_report_bad(const struct import_options *opt, unsigned long long n_bad,
		       long long line, const char *reason);

#endif
