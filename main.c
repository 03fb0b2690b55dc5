// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the vmscope command: the one table of subcommands, shared setup,
 * and the exit status. Each subcommand lives in its own cmd-*.c file under
 * record/, replay/ or analyze/.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "cli.h"

const char *cli_command = "";

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "import", cmd_import, "import a trace-cmd .dat file or a text trace into a database" },
	{ "record", cmd_record, "record reclaim live: trace events and counters on one clock" },
	{ "info", cmd_info, "show what a database holds: source, kernel, span, events, losses" },
	{ "compare", cmd_compare, "before/after table of two runs (vmstat, episodes, ratio)" },
	{ "plot", cmd_plot, "gnuplot figures (PNG, SVG, text) of a run" },
	{ "replay", cmd_replay, "rebuild reclaim decisions and run them through other policies" },
	{ "whatif", cmd_whatif, "simulate a recording forward under other knobs or another policy" },
	{ "report", cmd_report, "postmortem tables: episodes, vmstat, ratio, refaults, kswapd failures" },
	{ "upgrade", cmd_upgrade, "bring a database of an older vmscope to this schema version" },
	{ "counters", cmd_counters, "add counters kept beside a trace (mmtests logs, CSV) to its database" },
};


static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: vmscope <command> [<args>]\n\n"
		"vmscope %s: Linux memory-reclaim forensics from vmscan/writeback traces.\n\n"
		"Commands:\n", VMS_VERSION);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "   %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nRun 'vmscope <command> --help' for a command's options; "
		"docs/ has a page per command.\n");
}

static void vprefix(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "vmscope%s%s: %s", *cli_command ? " " : "", cli_command, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprefix("error: ", fmt, ap);
	va_end(ap);
	return 1;
}

int error_last(void)
{
	return error("%s", vms_last_error());
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprefix("", fmt, ap);
	va_end(ap);
}

void vms_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprefix("warning: ", fmt, ap);
	va_end(ap);
}

int is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int main(int argc, const char **argv)
{
	size_t i;
	int rc;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (is_help(argv[1]) || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("vmscope %s (schema %d)\n", VMS_VERSION, VMS_SCHEMA_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		cli_command = commands[i].name;
		rc = commands[i].fn(argc - 1, argv + 1);
		if (fflush(stdout) || ferror(stdout)) {
			error("cannot write to standard output: %s", strerror(errno));
			return 1;
		}
		return rc;
	}
	fprintf(stderr, "vmscope: '%s' is not a command (see 'vmscope --help')\n", argv[1]);
	return EXIT_USAGE;
}
