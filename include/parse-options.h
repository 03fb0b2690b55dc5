/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse-options.h - the one option parser of the subcommands (cli/
 * parse-options.c). A command declares its options, and its positional
 * arguments, in one table; the same table parses argv and writes --help, so
 * the two cannot drift apart (tests/t0010-docs.sh checks the docs pages
 * against that help).
 *
 * Protocol (in a cmd_NAME(argc, argv); cli.h includes this header):
 *  1. A `struct cli_help` with the synopsis lines ("vmscope NAME ..."), the
 *     paragraph under them and the text under the options. The value checks
 *     and their messages come with the types: OPT_SECONDS refuses inf, nan,
 *     1e300 and negative times, OPT_FORMAT anything but text/csv/json,
 *     OPT_WINDOW a --to before --from. After the parse, a check of the
 *     command's own reports with cli_usage_error(opts, &help, ...).
 *  2. `const struct cli_option opts[] = { OPT_STRING('o', "output", &path,
 *     "DB", "database to write"), ..., OPT_ARG("DB", "database", &db), OPT_END() };`
 *     -h/--help is added by the parser.
 *  3. `if (cli_parse_options(argc, argv, opts, &help, &rc)) return rc;`
 *     It returns nonzero when the command must return at once: rc is 0
 *     after --help (usage on stdout), EXIT_USAGE after a usage error (one
 *     line naming the option, then the usage, on stderr).
 *  4. Free what OPT_STRING_LIST/OPT_ARG_LIST collected with cli_list_release()
 *     (also after a failed parse: the lists may hold what came before).
 *
 * Accepted: `--opt value`, `--opt=value`, `-o value`, `-ovalue`, bundled
 * flags (`-fq`), options before, between and after positional arguments,
 * and `--`, after which everything is positional (or, with OPT_REST, the
 * command to run). A value may start with '-' (`--from -1` is then
 * rejected by the value check, not taken for an option). `-` alone is a
 * positional argument.
 */
#ifndef VMS_PARSE_OPTIONS_H
#define VMS_PARSE_OPTIONS_H

#include <limits.h>
#include <stdio.h>

#include "vms-table.h"

enum cli_option_type {
	CLI_OPT_END,
	CLI_OPT_BOOL,		/* int *: set to 1 */
	CLI_OPT_STRING,		/* const char **: the value (points into argv) */
	CLI_OPT_STRING_LIST,	/* struct cli_list *: each value appended (repeatable) */
	CLI_OPT_INT,		/* int *: a whole number in [min, max] */
	CLI_OPT_NUMBER,		/* double *: a finite number in [min, max] */
	CLI_OPT_FORMAT,		/* enum out_format *: text, csv or json */
	CLI_OPT_WINDOW_FROM,	/* struct cli_window *: seconds, sets from/has_from */
	CLI_OPT_WINDOW_TO,	/* struct cli_window *: seconds, sets to/has_to; to >= from */
	CLI_OPT_CALLBACK,	/* @parse(value, @value) checks and stores the value */
	CLI_OPT_ARG,		/* positional: const char **, one, required */
	CLI_OPT_ARG_LIST,	/* positional: struct cli_list *, the remaining ones (none or more) */
	CLI_OPT_REST,		/* const char ***: argv after `--` (NULL-terminated), NULL without `--` */
};

/* Values of a repeatable option or positional; items point into argv. */
struct cli_list {
	const char **items;
	int n;
};

/* --from/--to: seconds from the start of the run, as vms_window_open() takes them. */
struct cli_window {
	double from, to;
	int has_from, has_to;
};

struct cli_option {
	enum cli_option_type type;
	int short_name;			/* 'o' for -o, 0 for none */
	const char *long_name;		/* "output" for --output; positional: the error's noun */
	void *value;			/* where the value goes; see the type */
	const char *argh;		/* the value's name in --help ("DB"), NULL for a flag */
	const char *help;		/* one line; '\n' continues it under itself */
	double min, max;		/* CLI_OPT_INT, CLI_OPT_NUMBER: the accepted range */
	const char *unit;		/* CLI_OPT_NUMBER: "seconds", for the error message */
	const char *accepts;		/* CLI_OPT_CALLBACK: "what it takes", for the error message */
	int (*parse)(const char *arg, void *value);	/* CLI_OPT_CALLBACK: 0, or -1 to reject */
	int *seen;			/* when not NULL, set to 1 when the option is given */
	int flags;			/* enum cli_option_flags */
};

enum cli_option_flags {
	CLI_OPT_ALONE = (1 << 0),	/* a mode such as --list: the positionals are not required */
};

struct cli_help {
	const char *synopsis[4];	/* "vmscope CMD ..." lines: "usage: " then "   or: " */
	const char *about;		/* paragraph under the synopsis */
	const char *more;		/* text under the options: exit status, docs page */
};

/* Largest number of seconds an option takes (about 31 years); as VMS_WINDOW_MAX_S. */
#define CLI_SECONDS_MAX 1e9

#define OPT_END() { .type = CLI_OPT_END }
#define OPT_BOOL(s, l, v, h) \
	{ .type = CLI_OPT_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
/* A flag that is a mode of its own (--list): given, no positional argument is required. */
#define OPT_MODE(s, l, v, h) \
	{ .type = CLI_OPT_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h), \
	  .flags = CLI_OPT_ALONE }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = CLI_OPT_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .help = (h) }
#define OPT_STRING_LIST(s, l, v, a, h) \
	{ .type = CLI_OPT_STRING_LIST, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h) }
#define OPT_INT(s, l, v, a, h, lo, hi) \
	{ .type = CLI_OPT_INT, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .help = (h), .min = (lo), .max = (hi) }
#define OPT_NUMBER(s, l, v, a, h, lo, hi, u) \
	{ .type = CLI_OPT_NUMBER, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .help = (h), .min = (lo), .max = (hi), .unit = (u) }
/* Seconds, finite, 0 to CLI_SECONDS_MAX: no inf, nan, 1e300 or negative times. */
#define OPT_SECONDS(s, l, v, a, h) OPT_NUMBER(s, l, v, a, h, 0, CLI_SECONDS_MAX, "seconds")
#define OPT_FORMAT(v) \
	{ .type = CLI_OPT_FORMAT, .long_name = "format", .value = (v), .argh = "F", \
	  .help = "text (default), csv or json" }
/* --from S and --to S into a struct cli_window; --to before --from is a usage error. */
#define OPT_WINDOW(w, what) \
	{ .type = CLI_OPT_WINDOW_FROM, .long_name = "from", .value = (w), .argh = "S", \
	  .help = "start of the window, seconds from the start of " what }, \
	{ .type = CLI_OPT_WINDOW_TO, .long_name = "to", .value = (w), .argh = "S", \
	  .help = "end of the window, seconds from the start of " what }
#define OPT_CALLBACK(s, l, v, a, h, fn, acc) \
	{ .type = CLI_OPT_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .help = (h), .parse = (fn), .accepts = (acc) }
/* Positional arguments, in the order given; @noun names a missing one ("no database given"). */
#define OPT_ARG(name, noun, v) { .type = CLI_OPT_ARG, .argh = (name), .long_name = (noun), .value = (v) }
#define OPT_ARG_LIST(name, v) { .type = CLI_OPT_ARG_LIST, .argh = (name), .value = (v) }
#define OPT_REST(v) { .type = CLI_OPT_REST, .argh = "COMMAND", .value = (v) }

/*
 * cli_parse_options() - parse argv[1..argc) (argv[0] is the command name)
 * by @opts, which ends with OPT_END(). argv is not modified.
 * Return: 0 to go on; nonzero when the command must return *@rc now (0
 * after --help, EXIT_USAGE after a usage error, 1 out of memory).
 */
int cli_parse_options(int argc, const char **argv, const struct cli_option *opts,
		      const struct cli_help *help, int *rc);
/* Print the usage of @opts (synopsis, about, one line per option, more) on @out. */
void cli_usage(FILE *out, const struct cli_option *opts, const struct cli_help *help);
/* A usage error of the command: "vmscope CMD: error: ..." and the usage on stderr. Return: EXIT_USAGE. */
int cli_usage_error(const struct cli_option *opts, const struct cli_help *help, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Append @item (borrowed) to @l, keeping it NULL-terminated. Return: 0, or -1 out of memory. */
int cli_list_add(struct cli_list *l, const char *item);
/* Free the items array of @l (accepts an empty list). */
void cli_list_release(struct cli_list *l);

#endif
