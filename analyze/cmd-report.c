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

static const struct cli_help report_help = {
	.synopsis = { "vmscope report DB [SECTION...] [options]", "vmscope report --list" },
	.about = "Compute the reclaim postmortem tables from a vmscope database. With no\n"
		 "SECTION, all sections; `vmscope report --list` names them.\n",
	.more = "Text output is aligned for email and changelogs; the CSV of one table\n"
		"(--table NAME) loads with `sqlite3 :memory: '.import --csv FILE t'`; JSON\n"
		"holds every table with its columns, units and notes. Text shows the\n"
		"episodes section's one-row-per-episode table only with --table episodes. Exit status: 0 done; 1 DB unreadable or a\n"
		"section failed; 2 usage error. See docs/report.md.\n",
};

static const struct report_section *find_section(const char *name)
{
	int i;

	for (i = 0; i < report_nsections; i++)
		if (!strcmp(report_sections[i].name, name))
			return &report_sections[i];
	return NULL;
}

/* Window and run facts every section needs. */
static int init_ctx(struct vms_window *ctx, const struct cli_window *w)
{
	if (vms_window_open(ctx, w->from, w->to, w->has_from, w->has_to))
		return -1;
	if (w->has_from && ctx->from > ctx->run_end)
		return vms_error("--from %.3f is after the end of the run (%.3f s long)", w->from,
				 vms_window_rel_s(ctx, ctx->run_end));
	if (ctx->to < ctx->from)
		return vms_error("--to %.3f is before --from %.3f", w->to, w->from);
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
	const struct report_section **chosen = NULL;
	struct cli_list names = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct vms_window ctx = { 0 };
	struct cli_window win = { 0 };
	const char *path = NULL, *only = NULL;
	int nchosen = 0, list = 0, rc, i;
	struct out *o;
	FILE *dst = stdout;
	char *held = NULL;
	size_t held_len = 0;
	const struct cli_option opts[] = {
		OPT_FORMAT(&fmt),
		OPT_WINDOW(&win, "the run"),
		OPT_STRING(0, "table", &only, "NAME", "print only the tables called NAME (e.g. per-task)"),
		OPT_MODE(0, "list", &list, "list the sections and exit"),
		OPT_ARG("DB", "database", &path),
		OPT_ARG_LIST("SECTION", &names),
		OPT_END(),
	};

	if (cli_parse_options(argc, argv, opts, &report_help, &rc))
		goto out;
	if (list) {
		for (i = 0; i < report_nsections; i++)
			printf("%-16s %s\n", report_sections[i].name, report_sections[i].summary);
		goto out;
	}
	chosen = calloc(names.n ? names.n : report_nsections, sizeof(*chosen));
	if (!chosen) {
		rc = error("out of memory");
		goto out;
	}
	for (i = 0; i < names.n; i++)
		if (!(chosen[nchosen++] = find_section(names.items[i]))) {
			rc = cli_usage_error(opts, &report_help, "no section '%s' (see vmscope report --list)",
					     names.items[i]);
			goto out;
		}
	if (!nchosen)
		for (i = 0; i < report_nsections; i++)
			chosen[nchosen++] = &report_sections[i];

	ctx.db = vms_db_open(path, VMS_OPEN_READONLY);
	if (!ctx.db) {
		rc = error_last();
		goto out;
	}
	if (init_ctx(&ctx, &win)) {
		rc = error_last();
		goto out;
	}
	/* with --table, hold the report back until it is known that the table came */
	if (only && !(dst = open_memstream(&held, &held_len))) {
		rc = error("out of memory");
		goto out;
	}
	o = out_open(dst, fmt);
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
	if (!rc && only && !out_only_found(o))
		rc = cli_usage_error(opts, &report_help, "no table '%s' in this report (tables: %s)",
				     only, out_table_names(o));
	if (out_close(o) && !rc)
		rc = error("cannot write the report to standard output");
	if (dst != stdout) {
		if (fclose(dst) && !rc)
			rc = error("out of memory");
		dst = stdout;
		if (!rc && (fwrite(held, 1, held_len, stdout) != held_len || fflush(stdout)))
			rc = error("cannot write the report to standard output");
	}
out:
	if (dst != stdout)
		fclose(dst);
	free(held);
	vms_db_close(ctx.db);
	cli_list_release(&names);
	free(chosen);
	return rc;
}
