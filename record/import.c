// SPDX-License-Identifier: GPL-2.0
/*
 * import.c - vms_import(): a trace file into a new vmscope database (see
 * vms-import.h). Detects the format (trace-cmd .dat by its magic, else text)
 * and the compression, runs the matching importer (import-dat.c,
 * import-text.c), and leaves either a complete database, one marked
 * incomplete (damaged source: all that was readable is kept), or none at all
 * (nothing usable). The counters files given with the trace are stored
 * (counters-store.c) before the run is finished, in the same transaction.
 * `vmscope import` (cmd-import.c) is its command line.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vms.h"
#include "vms-import.h"
#include "import.h"

static const unsigned char dat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

char *vms_import_default_output(const char *path)
{
	const char *base = strrchr(path, '/');
	char *out, *dot;

	base = base ? base + 1 : path;
	out = malloc(strlen(base) + 4);
	if (!out) {
		vms_error("out of memory");
		return NULL;
	}
	strcpy(out, base);
	while ((dot = strrchr(out, '.')) && dot != out &&
	       (!strcmp(dot, ".gz") || !strcmp(dot, ".zst") || !strcmp(dot, ".xz") ||
		!strcmp(dot, ".dat") || !strcmp(dot, ".txt") || !strcmp(dot, ".trace")))
		*dot = '\0';
	strcat(out, ".db");
	return out;
}

void vms_remove_db_files(const char *path)
{
	static const char *const suffixes[] = { "", "-journal", "-wal", "-shm" };
	char name[4096];

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++)
		if (snprintf(name, sizeof(name), "%s%s", path, suffixes[i]) < (int)sizeof(name))
			unlink(name);
}

int vms_remove_stale_partials(const char *db)
{
	const char *slash = strrchr(db, '/');
	char dir[4096], prefix[1024], path[8192];
	size_t plen;
	struct dirent *de;
	DIR *d;
	int removed = 0;

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - db) ? (int)(slash - db) : 1, db);
	else
		snprintf(dir, sizeof(dir), ".");
	snprintf(prefix, sizeof(prefix), "%s.partial-", slash ? slash + 1 : db);
	plen = strlen(prefix);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, prefix, plen))
			continue;
		errno = 0;
		pid = strtol(de->d_name + plen, &end, 10);
		/* DB.partial-PID itself; its -journal, -wal and -shm go with it */
		if (*end || end == de->d_name + plen || pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (slash)
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		else
			snprintf(path, sizeof(path), "%s", de->d_name);
		vms_remove_db_files(path);
		vms_warning("removed '%s', left by an import that was killed (pid %ld is gone)", path,
			    pid);
		removed++;
	}
	if (d)
		closedir(d);
	return removed;
}

/* libtracecmd needs a seekable, uncompressed file: decompress into a temporary one. */
static char *decompress_to_temp(struct vms_input *in)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	char buf[1 << 16];
	FILE *f;
	long n;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	if (asprintf(&path, "%s/vmscope-import-XXXXXX", dir) < 0) {
		vms_error("out of memory");
		return NULL;
	}
	fd = mkstemp(path);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		vms_error("cannot create a temporary file in '%s': %s", dir, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		free(path);
		return NULL;
	}
	while ((n = vms_input_read(in, buf, sizeof(buf))) > 0)
		if (fwrite(buf, 1, n, f) != (size_t)n) {
			n = vms_error("cannot write '%s': %s", path, strerror(errno));
			break;
		}
	if (fclose(f) && n == 0)
		n = vms_error("cannot write '%s': %s", path, strerror(errno));
	if (n < 0) {
		unlink(path);
		free(path);
		return NULL;
	}
	return path;
}

/* Source, compression, command line and kernel of the run row. Return: 0 or -1. */
static int store_source(struct vms_db *db, const char *file, struct vms_input *in,
			const struct vms_import_options *opt)
{
	return vms_db_set_run_text(db, "source_path", file) ||
	       vms_db_set_run_text(db, "source_compression", vms_input_compression(in)) ||
	       (opt->command_line && vms_db_set_run_text(db, "command_line", opt->command_line)) ||
	       (opt->kernel && vms_db_set_run_text(db, "kernel_release", opt->kernel)) ? -1 : 0;
}

/* Fill @db from @in (the input of @file). Return: as vms_import(). */
static int import_into(const char *file, struct vms_input *in, int is_dat, struct vms_db *db,
		       struct vms_sink *sink, const struct vms_import_options *opt,
		       struct vms_import_result *res)
{
	struct import_options iopt = { .display_path = file, .user = opt };
	char *tmp = NULL;
	long long bytes;
	int rc;

	if (store_source(db, file, in, opt))
		return -1;
	if (is_dat && strcmp(vms_input_compression(in), "none")) {
		tmp = decompress_to_temp(in);
		if (!tmp)
			return -1;
		rc = import_dat(tmp, db, sink, &iopt, &res->detail);
		bytes = (long long)vms_input_decoded_bytes(in);
		unlink(tmp);
		free(tmp);
	} else if (is_dat) {
		rc = import_dat(file, db, sink, &iopt, &res->detail);
		bytes = (long long)vms_input_raw_size(in);
	} else {
		rc = import_text(in, db, sink, &iopt, &res->detail);
		bytes = (long long)vms_input_decoded_bytes(in);
	}
	if (rc < 0 || vms_sink_finish(sink) || vms_db_set_run_int(db, "source_bytes", bytes) ||
	    (opt->counters && counters_store(db, opt->counters)) || vms_db_finish(db, res->detail))
		return -1;
	res->events = vms_sink_events(sink);
	res->errors = vms_sink_errors(sink);
	res->lost = vms_sink_lost_total(sink);
	return rc;
}

int vms_import(const char *file, const struct vms_import_options *opt,
	       struct vms_import_result *res)
{
	struct vms_input *in = NULL;
	struct vms_sink *sink = NULL;
	struct vms_db *db = NULL;
	const unsigned char *head;
	char *partial = NULL;
	int rc = -1, is_dat;
	size_t nhead;

	memset(res, 0, sizeof(*res));
	if (!opt->output)
		return vms_error("no output database");
	in = vms_input_open(file);
	if (!in)
		return -1;
	nhead = vms_input_peek(in, &head, sizeof(dat_magic));
	is_dat = nhead == sizeof(dat_magic) && !memcmp(head, dat_magic, sizeof(dat_magic));
	/*
	 * Write to a temporary name and rename at the end: a failed import
	 * leaves an existing database (force) as it was, and an interrupted
	 * one leaves nothing under the real name.
	 */
	if (vms_db_may_replace(opt->output, opt->force, file))
		goto out;
	vms_remove_stale_partials(opt->output);
	if (asprintf(&partial, "%s.partial-%d", opt->output, (int)getpid()) < 0) {
		partial = NULL;
		vms_error("out of memory");
		goto out;
	}
	db = vms_db_create(partial, 1, is_dat ? "trace-cmd-dat" : "tracefs-text");
	if (!db)
		goto out;
	sink = vms_sink_new(db);
	if (!sink)
		goto discard;
	rc = import_into(file, in, is_dat, db, sink, opt, res);
	if (rc < 0)
		goto discard;
	if (opt->count_line)
		vms_sink_print_counts(sink, opt->count_line, opt->arg);
	vms_sink_free(sink);
	sink = NULL;
	vms_db_close(db);
	db = NULL;
	if (rename(partial, opt->output)) {
		vms_error("cannot rename '%s' to '%s': %s", partial, opt->output, strerror(errno));
		goto discard;
	}
	goto out;

discard:
	/* nothing usable was imported: leave no database that could be mistaken for one */
	rc = -1;
	vms_sink_free(sink);
	sink = NULL;
	vms_db_close(db);
	db = NULL;
	vms_remove_db_files(partial);
	vms_import_result_release(res);
out:
	vms_sink_free(sink);
	vms_db_close(db);
	vms_input_close(in);
	free(partial);
	return rc;
}

void vms_import_result_release(struct vms_import_result *res)
{
	free(res->detail);
	memset(res, 0, sizeof(*res));
}
