// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-import.c - `vmscope import`: the command line of vms_import()
 * (record/import.c), which turns a trace file into a vmscope database.
 * Parses the options, prints unreadable lines as they are found and the
 * summary at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "vms-import.h"
#include "cli.h"

static const char import_usage[] =
	"usage: vmscope import [options] FILE\n"
	"\n"
	"Import a trace into a vmscope database (SQLite).\n"
	"FILE is a trace-cmd .dat file, a tracefs trace/trace_pipe text, or\n"
	"`trace-cmd report` output; gzip, zstd and xz compression are undone.\n"
	"\n"
	"  -o, --output DB      database to write (default: FILE without extensions + .db)\n"
	"  -f, --force          replace DB if it exists\n"
	"      --kernel REL     kernel release, for text traces that do not say\n"
	"      --show-errors N  bad lines to print on stderr (default 10; all are stored)\n"
	"  -q, --quiet          no summary on stderr\n"
	"  -h, --help           this help\n"
	"\n"
	"Exit status: 0 imported completely; 1 nothing imported, or the source was\n"
	"damaged (truncated, unreadable lines): what could be read is kept and the\n"
	"run is marked incomplete; 2 usage error. See docs/import.md.\n";

/* What the command line adds to vms_import_options. */
struct import_cli {
	const char *display_path;	/* FILE as given */
	int max_reported_errors;	/* bad lines printed on stderr (all are stored) */
	struct vms_buf counts;		/* the "  N  event" lines, printed under the summary */
};

static void report_bad(void *arg, unsigned long long n_bad, long long line, const char *reason)
{
	const struct import_cli *opt = arg;

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

static void keep_count_line(void *arg, const char *line)
{
	struct import_cli *opt = arg;

	/* the summary loses a line when out of memory; the database does not */
	if (!vms_buf_add(&opt->counts, line, strlen(line)))
		vms_buf_add(&opt->counts, "\n", 1);
}

int cmd_import(int argc, const char **argv)
{
	struct import_cli opt = { .max_reported_errors = 10 };
	const char *file = NULL, *output = NULL, *kernel = NULL;
	struct vms_import_options iopt = { 0 };
	struct vms_import_result res;
	char *out_alloc = NULL, *cmdline = NULL;
	int force = 0, quiet = 0, rc, i;
	double t0 = vms_now();

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (is_help(a))
			return show_help(import_usage);
		if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc)
			output = argv[++i];
		else if (!strcmp(a, "-f") || !strcmp(a, "--force"))
			force = 1;
		else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
			quiet = 1;
		else if (!strcmp(a, "--kernel") && i + 1 < argc)
			kernel = argv[++i];
		else if (!strcmp(a, "--show-errors") && i + 1 < argc) {
			char *end;
			long n = strtol(argv[++i], &end, 10);

			if (*end || end == argv[i] || n < 0 || n > 1000000)
				return usage_error(import_usage, "--show-errors takes a number, not '%s'",
						   argv[i]);
			opt.max_reported_errors = (int)n;
		}
		else if (a[0] == '-' && a[1])
			return usage_error(import_usage, "unknown or incomplete option '%s'", a);
		else if (!file)
			file = a;
		else
			return usage_error(import_usage, "more than one input file ('%s')", a);
	}
	if (!file)
		return usage_error(import_usage, "no input file");
	opt.display_path = file;
	if (!output && !(output = out_alloc = vms_import_default_output(file)))
		return error_last();
	cmdline = vms_join_args("vmscope", argc, argv);
	if (!cmdline) {
		free(out_alloc);
		return error_last();
	}
	iopt.output = output;
	iopt.force = force;
	iopt.quiet = quiet;
	iopt.kernel = kernel;
	iopt.command_line = cmdline;
	iopt.report_bad = report_bad;
	iopt.count_line = quiet ? NULL : keep_count_line;
	iopt.arg = &opt;

	rc = vms_import(file, &iopt, &res);
	if (rc < 0) {
		rc = error_last();
		goto out;
	}
	if (!quiet) {
		note("imported %llu events from %s into %s in %.1f s",
		     (unsigned long long)res.events, file, output, vms_now() - t0);
		if (opt.counts.len)
			fputs(opt.counts.buf, stderr);
		if (res.lost)
			note("lost events reported by the source: %llu (table lost_events)",
			     (unsigned long long)res.lost);
		if (res.errors)
			note("unreadable lines or records: %llu (table import_error)",
			     (unsigned long long)res.errors);
	}
	if (res.detail)
		error("%s; the run in '%s' is marked incomplete", res.detail, output);
	rc = res.detail ? 1 : 0;
out:
	vms_import_result_release(&res);
	vms_buf_release(&opt.counts);
	free(cmdline);
	free(out_alloc);
	return rc;
}
