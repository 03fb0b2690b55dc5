// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-counters.c - `vmscope counters add DB FILE...`: the counters kept
 * beside a trace, added to a database imported before (vms_counters_add(),
 * record/counters-store.c): read, aligned to the trace clock and stored all
 * together, or not at all.
 */
#include <stdio.h>
#include <string.h>

#include "vms.h"
#include "vms-import.h"
#include "cli.h"

static const struct cli_help counters_help = {
	.synopsis = { "vmscope counters add [options] DB FILE..." },
	.about = "Add counters kept beside a trace to its database: mmtests monitor logs\n"
		 "(proc-vmstat, proc-meminfo, proc-zoneinfo, memory.stat), plain /proc\n"
		 "snapshots (FILE@SECONDS), a wide CSV, `sysctl -a` listings. They are\n"
		 "aligned to the trace clock (the trace's own offset, --counters-clock,\n"
		 "--counters-offset, else automatically from the reclaim counters).\n",
	.more = "Exit status: 0 added; 1 nothing added (a file cannot be read or aligned;\n"
		"DB is as it was); 2 usage error. See docs/counters.md.\n",
};

void cli_counters_note(void *arg, const char *line)
{
	note("%s", line);
}

int cli_parse_counters_clock(const char *arg, void *value)
{
	if (!vms_counters_clock_known(arg))
		return -1;
	*(const char **)value = arg;
	return 0;
}

int cmd_counters(int argc, const char **argv)
{
	const char *action = NULL, *db = NULL;
	struct cli_list files = { 0 }, sysctls = { 0 };
	struct vms_counters_options copt = { 0 };
	int quiet = 0, rc;
	const struct cli_option opts[] = {
		OPT_STRING_LIST(0, "sysctl", &sysctls, "NAME=VALUE",
				"a sysctl of the traced machine (repeatable)"),
		OPT_COUNTERS_ALIGN(&copt),
		OPT_BOOL('q', "quiet", &quiet, "no line per file on stderr"),
		OPT_ARG("ACTION", "action (add)", &action),
		OPT_ARG("DB", "database", &db),
		OPT_ARG_LIST("FILE", &files),
		OPT_END(),
	};

	if (cli_parse_options(argc, argv, opts, &counters_help, &rc))
		goto out;
	if (strcmp(action, "add")) {
		rc = cli_usage_error(opts, &counters_help, "unknown action '%s' (only 'add')", action);
		goto out;
	}
	if (!files.n && !sysctls.n) {
		rc = cli_usage_error(opts, &counters_help, "no counters FILE given");
		goto out;
	}
	copt.files = files.items;
	copt.nfiles = files.n;
	copt.sysctls = sysctls.items;
	copt.nsysctls = sysctls.n;
	copt.note = quiet ? NULL : cli_counters_note;
	rc = vms_counters_add(db, &copt) ? error_last() : 0;
	if (!rc && !quiet)
		note("added to %s", db);
out:
	cli_list_release(&files);
	cli_list_release(&sysctls);
	return rc;
}
