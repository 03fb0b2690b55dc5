/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - what the subcommands (cmd-*.c) share: the command entry points,
 * reporting at the edge, and the option parser (parse-options.h). Only
 * cmd-*.c, main.c and cli/ include this; the library never prints.
 */
#ifndef VMS_CLI_H
#define VMS_CLI_H

#include <stdio.h>

#include "parse-options.h"

/* Exit codes: 0 success, 1 failure, 2 usage error. */
#define EXIT_USAGE 2

int cmd_import(int argc, const char **argv);
int cmd_info(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_compare(int argc, const char **argv);
int cmd_plot(int argc, const char **argv);
int cmd_replay(int argc, const char **argv);
int cmd_upgrade(int argc, const char **argv);
int cmd_whatif(int argc, const char **argv);
int cmd_export(int argc, const char **argv);
int cmd_counters(int argc, const char **argv);
/*
 * The options of `import` and `counters add` that say how counters files are
 * aligned to the trace clock (cmd-counters.c), into a struct
 * vms_counters_options @copt; and cli_counters_note(), its note callback.
 */
int cli_parse_counters_clock(const char *arg, void *value);
void cli_counters_note(void *arg, const char *line);
#define OPT_COUNTERS_ALIGN(copt) \
	OPT_CALLBACK(0, "counters-clock", &(copt)->clock, "CLOCK", \
		     "clock of the counters' times: realtime, mono, boot or trace", \
		     cli_parse_counters_clock, "realtime, mono, boot or trace"), \
	{ .type = CLI_OPT_NUMBER, .long_name = "counters-offset", .value = &(copt)->offset_s, \
	  .argh = "SECONDS", .help = "add SECONDS to the counters' times: the trace clock", \
	  .min = -1e11, .max = 1e11, .unit = "seconds", .seen = &(copt)->has_offset }

/* Name of the running subcommand, for message prefixes. */
extern const char *cli_command;

/* Print "vmscope CMD: error: ..." on stderr. Return: 1 (the failure exit code). */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the library's last error. Return: 1. */
int error_last(void);
/* Print "vmscope CMD: ..." on stderr (notes, summaries). */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Is @arg one of -h, --help? */
int is_help(const char *arg);
/* Show manual page @page ("vmscope-record") with man(1). Return: 0 shown, -1 no such page or no man. */
int cli_show_manual(const char *page);

#endif
