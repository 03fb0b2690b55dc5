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
	{ "export", cmd_export, "write a run as a Perfetto/Chrome trace-event timeline (JSON)" },
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
	fprintf(out, "\nRun 'vmscope <command> --help' for a command's options and "
		"'vmscope help <command>'\nfor its manual page (vmscope-<command>(1)).\n");
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

static int run_command(const struct command *cmd, int argc, const char **argv)
{
	int rc;

	cli_command = cmd->name;
	rc = cmd->fn(argc, argv);
	if (fflush(stdout) || ferror(stdout)) {
		error("cannot write to standard output: %s", strerror(errno));
		return 1;
	}
	return rc;
}

/*
 * `vmscope help TOPIC`: the manual page vmscope-TOPIC (a command, or
 * "policy", "schema", "report-ratio"...); for a command whose page is not
 * installed, its --help.
 */
static int help_topic(const char *topic)
{
	const struct command *cmd = find_command(topic);
	const char *help_argv[] = { topic, "--help", NULL };
	char page[256];

	if (strlen(topic) > 200 || strchr(topic, '/')) {
		fprintf(stderr, "vmscope: no manual page for '%s'\n", topic);
		return EXIT_USAGE;
	}
	snprintf(page, sizeof(page), "vmscope-%s", topic);
	if (!cli_show_manual(page))
		return 0;
	if (!cmd) {
		fprintf(stderr, "vmscope: no manual page vmscope-%s (commands: 'vmscope --help')\n", topic);
		return EXIT_USAGE;
	}
	fprintf(stderr, "vmscope: the manual page vmscope-%s is not installed "
		"('make install', or 'make man' in the source tree); its --help:\n\n", topic);
	return run_command(cmd, 2, help_argv);
}

/* `vmscope --list-commands`: one command name a line, for the shell completion. */
static void list_commands(void)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		printf("%s\n", commands[i].name);
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
	const struct command *cmd;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") && argc > 2)
		return help_topic(argv[2]);
	if (is_help(argv[1]) || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--list-commands")) {
		list_commands();
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("vmscope %s (schema %d)\n", VMS_VERSION, VMS_SCHEMA_VERSION);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (cmd)
		return run_command(cmd, argc - 1, argv + 1);
	fprintf(stderr, "vmscope: '%s' is not a command (see 'vmscope --help')\n", argv[1]);
	return EXIT_USAGE;
}
