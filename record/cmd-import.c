// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-import.c - `vmscope import`: turn a trace file into a vmscope
 * database. Detects the format (trace-cmd .dat, tracefs text, trace-cmd
 * report text) and the compression, runs the matching importer, and leaves
 * either a complete database, one marked incomplete (damaged source: all that
 * was readable is kept), or none at all (nothing usable).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vms.h"
#include "cli.h"
#include "import.h"

static const struct cli_help import_help = {
	.synopsis = { "vmscope import [options] FILE" },
	.about = "Import a trace into a vmscope database (SQLite).\n"
		 "FILE is a trace-cmd .dat file, a tracefs trace/trace_pipe text, or\n"
		 "`trace-cmd report` output; gzip, zstd and xz compression are undone.\n",
	.more = "Exit status: 0 imported completely; 1 nothing imported, or the source was\n"
		"damaged (truncated, unreadable lines): what could be read is kept and the\n"
		"run is marked incomplete; 2 usage error. See docs/import.md.\n",
};

static const unsigned char dat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

void import_report_bad(const struct import_options *opt, unsigned long long n_bad,
		       long long line, const char *reason)
{
	if (n_bad <= (unsigned long long)opt->max_reported_errors) {
		if (line > 0)
			note("%s:%lld: %s", opt->display_path, line, reason);
		else
			note("%s: %s", opt->display_path, reason);
	} else if (n_bad == (unsigned long long)opt->max_reported_errors + 1) {
		note("%s: more unreadable lines follow; all are in table import_error",
		     opt->display_path);
	}
}

static char *default_output(const char *path)
{
	const char *base = strrchr(path, '/');
	char *out, *dot;

	base = base ? base + 1 : path;
	out = malloc(strlen(base) + 4);
	if (!out)
		return NULL;
	strcpy(out, base);
	while ((dot = strrchr(out, '.')) && dot != out &&
	       (!strcmp(dot, ".gz") || !strcmp(dot, ".zst") || !strcmp(dot, ".xz") ||
		!strcmp(dot, ".dat") || !strcmp(dot, ".txt") || !strcmp(dot, ".trace")))
		*dot = '\0';
	strcat(out, ".db");
	return out;
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

	if (asprintf(&path, "%s/vmscope-import-XXXXXX", dir && *dir ? dir : "/tmp") < 0)
		return NULL;
	fd = mkstemp(path);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		vms_error("cannot create a temporary file in '%s': %s", dir ? dir : "/tmp",
			  strerror(errno));
		if (fd >= 0)
			close(fd);
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

static void print_count_line(const char *line)
{
	fprintf(stderr, "%s\n", line);
}

int cmd_import(int argc, const char **argv)
{
	struct import_options opt = { .max_reported_errors = 10 };
	const char *file = NULL, *output = NULL, *kernel = NULL;
	char *out_alloc = NULL, *detail = NULL, *tmp = NULL, *partial = NULL, *cmdline;
	int force = 0, quiet = 0, rc = 1, is_dat;
	struct vms_input *in = NULL;
	struct vms_sink *sink = NULL;
	struct vms_db *db = NULL;
	const unsigned char *head;
	double t0 = vms_now();
	long long dat_size = 0;
	size_t nhead;
	const struct cli_option opts[] = {
		OPT_STRING('o', "output", &output, "DB",
			   "database to write (default: FILE without extensions + .db)"),
		OPT_BOOL('f', "force", &force, "replace DB if it exists"),
		OPT_STRING(0, "kernel", &kernel, "REL", "kernel release, for text traces that do not say"),
		OPT_INT(0, "show-errors", &opt.max_reported_errors, "N",
			"bad lines to print on stderr (default 10; all are stored)", 0, 1000000),
		OPT_BOOL('q', "quiet", &quiet, "no summary on stderr"),
		OPT_ARG("FILE", "input file", &file),
		OPT_END(),
	};

	if (cli_parse_options(argc, argv, opts, &import_help, &rc))
		return rc;
	rc = 1;
	opt.display_path = file;
	opt.quiet = quiet;
	if (!output && !(output = out_alloc = default_output(file)))
		return error("out of memory");

	in = vms_input_open(file);
	if (!in)
		goto fail;
	nhead = vms_input_peek(in, &head, sizeof(dat_magic));
	is_dat = nhead == sizeof(dat_magic) && !memcmp(head, dat_magic, sizeof(dat_magic));
	/*
	 * Write to a temporary name and rename at the end: a failed import
	 * leaves an existing database (--force) as it was, and an interrupted
	 * one leaves nothing under the real name.
	 */
	if (!force && access(output, F_OK) == 0) {
		rc = error("'%s' already exists (use --force to replace it)", output);
		goto out;
	}
	if (asprintf(&partial, "%s.partial-%d", output, (int)getpid()) < 0) {
		rc = error("out of memory");
		goto out;
	}
	db = vms_db_create(partial, 1, is_dat ? "trace-cmd-dat" : "tracefs-text");
	if (!db)
		goto fail;
	sink = vms_sink_new(db);
	if (!sink)
		goto fail_db;
	cmdline = vms_join_args("vmscope", argc, argv);
	if (vms_db_set_run_text(db, "source_path", file) ||
	    vms_db_set_run_text(db, "source_compression", vms_input_compression(in)) ||
	    vms_db_set_run_text(db, "command_line", cmdline) ||
	    (kernel && vms_db_set_run_text(db, "kernel_release", kernel))) {
		free(cmdline);
		goto fail_db;
	}
	free(cmdline);

	if (is_dat) {
		const char *dat_file = file;

		if (strcmp(vms_input_compression(in), "none")) {
			tmp = decompress_to_temp(in);
			if (!tmp)
				goto fail_db;
			dat_size = vms_input_decoded_bytes(in);
			dat_file = tmp;
		}
		rc = import_dat(dat_file, db, sink, &opt, &detail);
	} else {
		rc = import_text(in, db, sink, &opt, &detail);
	}
	if (rc < 0)
		goto fail_db;
	if (vms_sink_finish(sink) ||
	    vms_db_set_run_int(db, "source_bytes", (long long)(tmp ? dat_size : is_dat ?
				vms_input_raw_size(in) : vms_input_decoded_bytes(in))) ||
	    vms_db_finish(db, detail))
		goto fail_db;

	if (!quiet) {
		note("imported %llu events from %s into %s in %.1f s", (unsigned long long)
		     vms_sink_events(sink), file, output, vms_now() - t0);
		vms_sink_print_counts(sink, print_count_line);
		if (vms_sink_lost_total(sink))
			note("lost events reported by the source: %llu (table lost_events)",
			     (unsigned long long)vms_sink_lost_total(sink));
		if (vms_sink_errors(sink))
			note("unreadable lines or records: %llu (table import_error)",
			     (unsigned long long)vms_sink_errors(sink));
	}
	vms_sink_free(sink);
	sink = NULL;
	vms_db_close(db);
	db = NULL;
	if (rename(partial, output)) {
		rc = error("cannot rename '%s' to '%s': %s", partial, output, strerror(errno));
		unlink(partial);
		goto out;
	}
	if (detail)
		error("%s; the run in '%s' is marked incomplete", detail, output);
	rc = detail ? 1 : 0;
	goto out;

fail_db:
	/* nothing usable was imported: leave no database that could be mistaken for one */
	error_last();
	vms_sink_free(sink);
	sink = NULL;
	vms_db_close(db);
	db = NULL;
	unlink(partial);
	rc = 1;
	goto out;
fail:
	rc = error_last();
out:
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	vms_sink_free(sink);
	vms_db_close(db);
	vms_input_close(in);
	free(detail);
	free(partial);
	free(out_alloc);
	return rc;
}
