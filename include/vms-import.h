/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vms-import.h - import a trace file into a new vmscope database, the work
 * of `vmscope import` as a library call (record/import.c): format detection
 * (trace-cmd .dat by its magic, else text), decompression (a compressed .dat
 * goes to a temporary file first), the database written as DB.partial-PID
 * and renamed to DB at the end, and its removal on failure.
 *
 * Protocol:
 *  1. Fill a struct vms_import_options (zero is the default for each field).
 *  2. vms_import(); on 0 or 1 the database exists, on -1 it does not (an
 *     existing DB is left as it was) and vms_last_error() says why.
 *  3. vms_import_result_release() the result.
 */
#ifndef VMS_IMPORT_H
#define VMS_IMPORT_H

#include <stdint.h>

/*
 * Counters that came with a trace (`import --counters`, `counters add`):
 * files read whole, aligned to the trace clock (record/counters-align.c),
 * then stored with a counter_source row each, all or nothing.
 */
struct vms_counters_options {
	const char *const *files;	/* counter files (FILE@SECONDS for a timeless snapshot) */
	int nfiles;
	const char *const *sysctls;	/* "NAME=VALUE" for the sysctl table */
	int nsysctls;
	const char *clock;		/* --counters-clock: realtime, mono, boot, trace; NULL unsaid */
	int has_offset;			/* --counters-offset given */
	double offset_s;		/* seconds added to the files' times */
	/* Called with a line per file: how it was read and aligned. May be NULL. */
	void (*note)(void *arg, const char *line);
	void *arg;
};

/* Return: 1 when @name is a clock --counters-clock accepts, else 0. */
int vms_counters_clock_known(const char *name);

/**
 * vms_counters_add() - add counters to an existing database, all or nothing
 * @db: a finished vmscope database (its run complete or incomplete)
 * @opt: the files and how to align them
 *
 * A copy DB.partial-PID gets the counters and its derived tables again (the
 * run's span may grow), then replaces @db; on failure @db is as it was.
 * Return: 0, or -1 with vms_error set.
 */
int vms_counters_add(const char *db, const struct vms_counters_options *opt);

struct vms_import_options {
	const char *output;		/* database to write (required) */
	int force;			/* replace @output if it exists */
	int quiet;			/* no progress on stderr */
	const char *kernel;		/* run.kernel_release for text traces, or NULL */
	const char *command_line;	/* run.command_line, or NULL */
	/*
	 * Called for each unreadable line or record, all of which are stored in
	 * import_error: @n_bad counts them from 1, @line is 0 for a .dat record.
	 * May be NULL. The library itself prints nothing.
	 */
	void (*report_bad)(void *arg, unsigned long long n_bad, long long line, const char *reason);
	void *arg;			/* for report_bad and count_line */
	/* Called with each "  N  event" line of the import, most frequent first; may be NULL. */
	void (*count_line)(void *arg, const char *line);
	/* Counters and sysctls to store with the trace, or NULL: a failure to read or align them fails the import. */
	const struct vms_counters_options *counters;
};

struct vms_import_result {
	uint64_t events;		/* events stored */
	uint64_t errors;		/* rows of import_error */
	uint64_t lost;			/* lost events the source reports */
	char *detail;			/* why the run is incomplete, NULL when complete */
};

/**
 * vms_import() - import @file into a new database
 * @file: the trace (path as the user gave it; used in messages)
 * @opt: options, see above
 * @res: out: counts, and the detail of an incomplete run
 *
 * Return: 0 imported completely; 1 the source was damaged: what could be
 * read is stored, the run is marked incomplete and @res->detail says why;
 * -1 nothing was imported, no database is left (vms_error set).
 */
int vms_import(const char *file, const struct vms_import_options *opt,
	       struct vms_import_result *res);
/* Free what @res holds (accepts a zeroed result). */
void vms_import_result_release(struct vms_import_result *res);

/*
 * vms_import_default_output() - the database name `vmscope import` picks for @file:
 * its base name without .gz/.zst/.xz/.dat/.txt/.trace endings, plus ".db".
 * Return: the name (caller frees), or NULL (vms_error set).
 */
char *vms_import_default_output(const char *file);
/*
 * vms_remove_stale_partials() - remove the DB.partial-PID files of @db that
 * an import or `counters add` killed with SIGKILL left behind (PID no
 * longer running), each with a warning. Return: how many were removed.
 */
int vms_remove_stale_partials(const char *db);
/* Remove a database that holds nothing usable: @path and its -journal, -wal and -shm files. */
void vms_remove_db_files(const char *path);

#endif
