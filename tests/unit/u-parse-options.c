// SPDX-License-Identifier: GPL-2.0
/*
 * u-parse-options.c - the subcommands' option parser (cli/parse-options.c):
 * both spellings of a value, short options alone, bundled and with attached
 * values, positionals around options and after `--`, and the usage errors
 * (unknown option, missing value, bad number, non-finite seconds), each
 * with the exit code the commands return and a message naming the option.
 * error() is the CLI's (main.c); here it records the message instead.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "parse-options.h"
#include "tap.h"

static char last_msg[512];

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	va_end(ap);
	return 1;
}

static const struct cli_help help = {
	.synopsis = { "vmscope test DB [NAME...] [options]", "vmscope test --list" },
	.about = "A table that uses every option type.\n",
	.more = "Exit status: 0, 1, 2.\n",
};

static struct {
	const char *output, *db;
	int force, quiet, show, list;
	double duration;
	enum out_format fmt;
	struct cli_window win;
	struct cli_list names, policies;
} v;

static const struct cli_option opts[] = {
	OPT_STRING('o', "output", &v.output, "DB", "database to write"),
	OPT_BOOL('f', "force", &v.force, "replace DB"),
	OPT_BOOL('q', "quiet", &v.quiet, "no summary"),
	OPT_INT(0, "show", &v.show, "N", "how many", 0, 100),
	OPT_SECONDS('d', "duration", &v.duration, "S", "stop after S seconds"),
	OPT_FORMAT(&v.fmt),
	OPT_WINDOW(&v.win, "the run"),
	OPT_STRING_LIST('p', "policy", &v.policies, "P", "a policy\n(repeatable)"),
	OPT_MODE(0, "list", &v.list, "list and exit"),
	OPT_ARG("DB", "database", &v.db),
	OPT_ARG_LIST("NAME", &v.names),
	OPT_END(),
};

/* Parse the NULL-terminated words after "test". Return: 0 parsed, else the exit code. */
static int parse(const char *first, ...)
{
	const char *argv[32] = { "test" };
	int argc = 1, rc;
	va_list ap;

	cli_list_release(&v.names);
	cli_list_release(&v.policies);
	memset(&v, 0, sizeof(v));
	last_msg[0] = 0;
	va_start(ap, first);
	for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = a;
	va_end(ap);
	if (!cli_parse_options(argc, argv, opts, &help, &rc))
		return 0;
	return rc ? rc : -1;	/* -1: help shown */
}

/* parse(a, b) with stdout (where --help goes) on /dev/null. */
static int quiet_parse(const char *a, const char *b)
{
	int saved, null, rc;

	fflush(stdout);
	saved = dup(1);
	null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	close(null);
	rc = parse(a, b, NULL);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return rc;
}

/* The usage text: synopsis lines, then one aligned line per option. */
static void check_usage(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		ok(0, "open_memstream");
		return;
	}
	cli_usage(f, opts, &help);
	fclose(f);
	ok(!strncmp(text, "usage: vmscope test DB [NAME...] [options]\n   or: vmscope test --list\n",
		    strlen("usage: vmscope test DB [NAME...] [options]\n   or: vmscope test --list\n")),
	   "usage starts with the synopsis lines");
	ok(strstr(text, "\n  -o, --output DB   database to write\n") != NULL,
	   "a short and long option with its value name");
	ok(strstr(text, "\n      --show N      how many\n") != NULL, "a long-only option is indented");
	ok(strstr(text, "\n  -p, --policy P    a policy\n                    (repeatable)\n") != NULL,
	   "a help continuation line sits under the first");
	ok(strstr(text, "\n  -h, --help        this help\n\nExit status") != NULL,
	   "-h, --help closes the option list, then the text under it");
	ok(strstr(text, "DB\n") && !strstr(text, " NAME "), "positionals are not listed as options");
	free(text);
}

static int has(const char *needle)
{
	return strstr(last_msg, needle) != NULL;
}

int main(void)
{
	FILE *devnull = freopen("/dev/null", "w", stderr);

	ok(devnull != NULL, "usage text of the errors goes to /dev/null");

	/* values: both spellings, short forms */
	is_int(parse("x.db", "--output", "a.db", NULL), 0, "--opt value parses");
	ok(v.output && !strcmp(v.output, "a.db"), "--opt value stores the value");
	is_int(parse("x.db", "--output=b.db", NULL), 0, "--opt=value parses");
	ok(v.output && !strcmp(v.output, "b.db"), "--opt=value stores the value");
	is_int(parse("x.db", "--output=", NULL), 0, "--opt= gives an empty value");
	ok(v.output && !*v.output, "--opt= stores the empty string");
	is_int(parse("-o", "c.db", "x.db", NULL), 0, "-o value parses");
	ok(v.output && !strcmp(v.output, "c.db"), "-o value stores the value");
	is_int(parse("-od.db", "x.db", NULL), 0, "-ovalue parses");
	ok(v.output && !strcmp(v.output, "d.db"), "-ovalue stores the value");
	is_int(parse("x.db", "-fq", NULL), 0, "bundled flags parse");
	ok(v.force && v.quiet, "-fq sets both flags");
	is_int(parse("x.db", "-fqoe.db", NULL), 0, "a bundle may end in an option with its value");
	ok(v.force && v.quiet && v.output && !strcmp(v.output, "e.db"), "-fqoe.db: both flags and -o e.db");

	/* positionals */
	is_int(parse("--show", "3", "x.db", "a", "--format=csv", "b", NULL), 0,
	       "options before, between and after positionals");
	ok(v.db && !strcmp(v.db, "x.db") && v.names.n == 2 && !strcmp(v.names.items[1], "b"),
	   "first positional in DB, the others in the list, in order");
	ok(v.show == 3 && v.fmt == OUT_CSV, "the options among them are parsed");
	is_int(parse("x.db", "--", "-f", "-", NULL), 0, "-- ends the options");
	ok(!v.force && v.names.n == 2 && !strcmp(v.names.items[0], "-f") &&
	   !strcmp(v.names.items[1], "-"), "after --, -f is a positional; - alone always is");
	is_int(parse("-p", "a", "--policy=b:k=1", "x.db", NULL), 0, "a repeatable option");
	ok(v.policies.n == 2 && !strcmp(v.policies.items[1], "b:k=1"), "each value is kept, in order");
	is_int(parse("--list", NULL), 0, "a mode option needs no positional");
	ok(v.list, "--list is set");

	/* usage errors: exit 2, the message names the option */
	is_int(parse("x.db", "--bogus", NULL), EXIT_USAGE, "unknown long option: exit 2");
	ok(has("unknown option '--bogus'"), "message names it: %s", last_msg);
	is_int(parse("x.db", "-x", NULL), EXIT_USAGE, "unknown short option: exit 2");
	ok(has("'-x'"), "message names it: %s", last_msg);
	is_int(parse("x.db", "-fx", NULL), EXIT_USAGE, "unknown option in a bundle: exit 2");
	ok(has("'-x'") && has("bundle"), "message names it and the bundle: %s", last_msg);
	is_int(parse("x.db", "--output", NULL), EXIT_USAGE, "missing value of a long option: exit 2");
	ok(has("'--output' needs a value"), "message names it: %s", last_msg);
	is_int(parse("x.db", "-o", NULL), EXIT_USAGE, "missing value of a short option: exit 2");
	ok(has("'-o' needs a value"), "message names it: %s", last_msg);
	is_int(parse("x.db", "--force=1", NULL), EXIT_USAGE, "a value given to a flag: exit 2");
	ok(has("'--force' takes no value"), "message names it: %s", last_msg);
	is_int(parse(NULL), EXIT_USAGE, "missing positional: exit 2");
	ok(has("no database given"), "message names what is missing: %s", last_msg);
	is_int(parse("x.db", "--format", "xml", NULL), EXIT_USAGE, "bad --format: exit 2");
	ok(has("'--format' takes text, csv or json, not 'xml'"), "message: %s", last_msg);
	is_int(parse("x.db", "--show", "101", NULL), EXIT_USAGE, "int out of range: exit 2");
	is_int(parse("x.db", "--show", "3x", NULL), EXIT_USAGE, "int with trailing text: exit 2");
	ok(has("'--show' takes a whole number from 0 to 100, not '3x'"), "message: %s", last_msg);
	is_int(parse("x.db", "--show=99999999999999999999", NULL), EXIT_USAGE, "int overflow: exit 2");

	/* seconds: finite and bounded */
	is_int(parse("x.db", "--from", "1.5", "--to=2", NULL), 0, "a window parses");
	ok(v.win.has_from && v.win.has_to && v.win.from == 1.5 && v.win.to == 2, "from 1.5, to 2");
	is_int(parse("x.db", "--from", "-1", NULL), EXIT_USAGE, "negative seconds: exit 2");
	ok(has("'--from' takes seconds"), "message names the option: %s", last_msg);
	is_int(parse("x.db", "--from", "inf", NULL), EXIT_USAGE, "--from inf: exit 2");
	ok(has("not 'inf'"), "message quotes the value: %s", last_msg);
	is_int(parse("x.db", "--from", "nan", NULL), EXIT_USAGE, "--from nan: exit 2");
	is_int(parse("x.db", "--to", "1e300", NULL), EXIT_USAGE, "--to 1e300: exit 2");
	ok(has("'--to'") && has("1e300"), "message: %s", last_msg);
	is_int(parse("x.db", "-d", "infinity", NULL), EXIT_USAGE, "OPT_SECONDS -d infinity: exit 2");
	ok(has("'-d' takes seconds"), "message names the short option as written: %s", last_msg);
	is_int(parse("x.db", "--duration=NaN", NULL), EXIT_USAGE, "OPT_SECONDS --duration=NaN: exit 2");
	is_int(parse("x.db", "-d", "", NULL), EXIT_USAGE, "empty seconds: exit 2");
	is_int(parse("x.db", "--from", "2", "--to", "1", NULL), EXIT_USAGE, "--to before --from: exit 2");
	ok(has("--to 1 is before --from 2"), "message: %s", last_msg);

	/* help: from the table, on stdout (sent to /dev/null here) */
	is_int(quiet_parse("x.db", "--help"), -1, "--help: stop with exit 0");
	is_int(quiet_parse("-h", "--bogus"), -1, "-h before an error: help wins");
	check_usage();
	cli_list_release(&v.names);
	cli_list_release(&v.policies);
	return done_testing();
}
