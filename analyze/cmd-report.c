// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-report.c - `vmscope report`: answer the postmortem questions from a
 * database (imported or recorded). Parses the options, opens the database,
 * sets the time window, and runs the chosen sections (report-*.c) into one
 * text, CSV or JSON document on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "cli.h"
#include "report.h"

static const char report_usage[] =
	"usage: vmscope report DB [SECTION...] [options]\n"
	"\n"
	"Compute the reclaim postmortem tables from a vmscope database. With no\n"
	"SECTION, all sections; `vmscope report --list` names them.\n"
	"\n"
	"  --format F      text (default), csv or json\n"
	"  --from S        start of the window, seconds from the first event\n"
	"  --to S          end of the window, seconds from the first event\n"
	"  --table NAME    print only the tables called NAME (e.g. per-task)\n"
	"  --list          list the sections and exit\n"
	"  -h, --help      this help\n"
	"\n"
	"Text output is aligned for email and changelogs; CSV loads with\n"
	"`sqlite3 .import` (ask for one section); JSON holds every table with its\n"
	"columns, units and notes. Exit status: 0 done; 1 DB unreadable or a\n"
	"section failed; 2 usage error. See docs/report.md.\n";

static int parse_seconds(const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	return *s && !*end && *out >= 0 ? 0 : -1;
}

static const struct report_section *find_section(const char *name)
{
	int i;

	for (i = 0; i < report_nsections; i++)
		if (!strcmp(report_sections[i].name, name))
			return &report_sections[i];
	return NULL;
}

/* Window and run facts every section needs. */
static int init_ctx(struct vms_window *ctx, double from_s, double to_s, int has_from, int has_to)
{
	if (vms_window_open(ctx, from_s, to_s, has_from, has_to))
		return -1;
	if (has_from && ctx->from > ctx->run_end)
		return vms_error("--from %.3f is after the end of the run (%.3f s long)", from_s,
				 vms_window_rel_s(ctx, ctx->run_end));
	if (ctx->to < ctx->from)
		return vms_error("--to %.3f is before --from %.3f", to_s, from_s);
	return report_derived(ctx);
}

static void add_meta(struct vms_window *ctx, struct out *o, const char *path)
{
	sqlite3_stmt *st = vms_window_prepare(ctx, "SELECT status, source_kind, source_path,"
					  " kernel_release, trace_clock FROM run");
	static const char *const keys[] = { "status", "source_kind", "source_path",
					    "kernel_release", "trace_clock" };
	char buf[64];
	int i;

	out_meta(o, "database", path);
	if (st && sqlite3_step(st) == SQLITE_ROW)
		for (i = 0; i < 5; i++)
			out_meta(o, keys[i], (const char *)sqlite3_column_text(st, i));
	sqlite3_finalize(st);
	snprintf(buf, sizeof(buf), "%.6f", vms_window_rel_s(ctx, ctx->from));
	out_meta(o, "from_s", buf);
	snprintf(buf, sizeof(buf), "%.6f", vms_window_rel_s(ctx, ctx->to));
	out_meta(o, "to_s", buf);
}

int cmd_report(int argc, const char **argv)
{
	const struct report_section **chosen = calloc(report_nsections + argc, sizeof(*chosen));
	int nchosen = 0, has_from = 0, has_to = 0, rc = 0, i;
	enum out_format fmt = OUT_TEXT;
	struct vms_window ctx = { 0 };
	double from_s = 0, to_s = 0;
	const char *path = NULL, *only = NULL;
	struct out *o;

	if (!chosen)
		return error("out of memory");
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (is_help(a)) {
			free(chosen);
			return show_help(report_usage);
		}
		if (!strcmp(a, "--list")) {
			for (int k = 0; k < report_nsections; k++)
				printf("%-16s %s\n", report_sections[k].name, report_sections[k].summary);
			free(chosen);
			return 0;
		}
		if (!strcmp(a, "--format") && i + 1 < argc) {
			if (out_format_parse(argv[++i], &fmt))
				goto usage_format;
		} else if (!strcmp(a, "--table") && i + 1 < argc) {
			only = argv[++i];
		} else if (!strcmp(a, "--from") && i + 1 < argc) {
			if (parse_seconds(argv[++i], &from_s))
				goto usage_time;
			has_from = 1;
		} else if (!strcmp(a, "--to") && i + 1 < argc) {
			if (parse_seconds(argv[++i], &to_s))
				goto usage_time;
			has_to = 1;
		} else if (a[0] == '-') {
			free(chosen);
			return usage_error(report_usage, "unknown or incomplete option '%s'", a);
		} else if (!path) {
			path = a;
		} else if (!(chosen[nchosen++] = find_section(a))) {
			free(chosen);
			return usage_error(report_usage, "no section '%s' (see vmscope report --list)", a);
		}
	}
	if (!path) {
		free(chosen);
		return usage_error(report_usage, "no database given");
	}
	if (!nchosen)
		for (i = 0; i < report_nsections; i++)
			chosen[nchosen++] = &report_sections[i];

	ctx.db = vms_db_open(path, VMS_OPEN_READONLY);
	if (!ctx.db) {
		free(chosen);
		return error_last();
	}
	if (init_ctx(&ctx, from_s, to_s, has_from, has_to)) {
		rc = error_last();
		goto out;
	}
	o = out_open(stdout, fmt);
	if (!o) {
		rc = error("out of memory");
		goto out;
	}
	if (only)
		out_only(o, only);
	add_meta(&ctx, o, path);
	for (i = 0; i < nchosen; i++)
		if (chosen[i]->fn(&ctx, o)) {
			rc = error("section '%s': %s", chosen[i]->name, vms_last_error());
			break;
		}
	if (out_close(o) && !rc)
		rc = error("cannot write the report to standard output");
out:
	vms_db_close(ctx.db);
	free(chosen);
	return rc;
usage_format:
	free(chosen);
	return usage_error(report_usage, "--format takes text, csv or json, not '%s'", argv[i]);
usage_time:
	free(chosen);
	return usage_error(report_usage, "%s takes seconds (>= 0), not '%s'", argv[i - 1], argv[i]);
}
