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

static const struct cli_help import_help = {
	.synopsis = { "vmscope import [options] FILE" },
	.about = "Import a trace into a vmscope database (SQLite).\n"
		 "FILE is a trace-cmd .dat file, a tracefs trace/trace_pipe text, or\n"
		 "`trace-cmd report` output; gzip, zstd and xz compression are undone.\n"
		 "Counters kept beside the trace (mmtests monitor logs, /proc snapshots, a\n"
		 "wide CSV, sysctl -a) come with --counters and are aligned to the trace clock.\n",
	.more = "Exit status: 0 imported completely; 1 nothing imported, or the source was\n"
		"damaged (truncated, unreadable lines): what could be read is kept and the\n"
		"run is marked incomplete; 2 usage error. See docs/import.md.\n",
};

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
	struct vms_counters_options copt = { 0 };
	struct cli_list counters = { 0 }, sysctls = { 0 };
	struct vms_import_result res = { 0 };
	char *out_alloc = NULL, *cmdline = NULL;
	int force = 0, quiet = 0, rc;
	double t0 = vms_now();
	const struct cli_option opts[] = {
		OPT_STRING('o', "output", &output, "DB",
			   "database to write (default: FILE without extensions + .db)"),
		OPT_BOOL('f', "force", &force, "replace DB if it exists"),
		OPT_STRING(0, "kernel", &kernel, "REL", "kernel release, for text traces that do not say"),
		OPT_INT(0, "show-errors", &opt.max_reported_errors, "N",
			"bad lines to print on stderr (default 10; all are stored)", 0, 1000000),
		OPT_BOOL('q', "quiet", &quiet, "no summary on stderr"),
		OPT_STRING_LIST(0, "counters", &counters, "FILE",
				"counters kept with the trace (repeatable; see docs/counters.md)"),
		OPT_STRING_LIST(0, "sysctl", &sysctls, "NAME=VALUE", "a sysctl of the traced machine (repeatable)"),
		OPT_COUNTERS_ALIGN(&copt),
		OPT_ARG("FILE", "input file", &file),
		OPT_END(),
	};

	if (cli_parse_options(argc, argv, opts, &import_help, &rc))
		goto out_lists;
	rc = 1;
	copt.files = counters.items;
	copt.nfiles = counters.n;
	copt.sysctls = sysctls.items;
	copt.nsysctls = sysctls.n;
	copt.note = quiet ? NULL : cli_counters_note;
	if (copt.nfiles || copt.nsysctls)
		iopt.counters = &copt;
	else if (copt.clock || copt.has_offset) {
		rc = cli_usage_error(opts, &import_help,
				     "--counters-clock and --counters-offset need --counters FILE");
		goto out_lists;
	}
	opt.display_path = file;
	if (!output && !(output = out_alloc = vms_import_default_output(file))) {
		rc = error_last();
		goto out_lists;
	}
	cmdline = vms_join_args("vmscope", argc, argv);
	if (!cmdline) {
		rc = error_last();
		goto out;
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
		if (!iopt.counters)
			note("no counters: plot ratio, refaults and lru, report vmstat and audit need"
			     " them, and replay has only the bounds the events give; give the logs"
			     " kept beside the trace with --counters, or later to `vmscope counters add`");
	}
	if (res.detail)
		error("%s; the run in '%s' is marked incomplete", res.detail, output);
	rc = res.detail ? 1 : 0;
out:
	vms_import_result_release(&res);
	vms_buf_release(&opt.counts);
	free(cmdline);
	free(out_alloc);
out_lists:
	cli_list_release(&counters);
	cli_list_release(&sysctls);
	return rc;
}
