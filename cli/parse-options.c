// SPDX-License-Identifier: GPL-2.0
/*
 * parse-options.c - the option parser of every subcommand, driven by the
 * command's table of struct cli_option (parse-options.h), and the --help
 * text written from the same table. Part of the CLI layer (linked into the
 * vmscope binary, not into libvms.a): it reports usage errors itself, with
 * error() and the usage on stderr, and leaves the exit to the command.
 *
 * How it works: one pass over argv. An argument starting with "--" is a
 * long option (its value after '=' or in the next argument), one starting
 * with '-' (not "-" alone) is one or more bundled short options (a value
 * either attached, "-ofile", or the next argument), anything else is the
 * next positional slot of the table: the OPT_ARG entries in order, then the
 * OPT_ARG_LIST. "--" ends the options. Each value is checked by its type
 * (range, finiteness, format name) where it is parsed, so every message
 * names the option as it was written.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "parse-options.h"

/* Longest option column in --help; a longer one puts its help on the next line. */
#define HELP_COLUMN_MAX 26

struct parse {
	const struct cli_option *opts;
	const struct cli_help *help;
	int nargs;		/* positional slots (OPT_ARG) filled */
	int alone;		/* an OPT_MODE option was given */
};

static int is_positional(const struct cli_option *o)
{
	return o->type == CLI_OPT_ARG || o->type == CLI_OPT_ARG_LIST || o->type == CLI_OPT_REST;
}

static int takes_value(const struct cli_option *o)
{
	return o->type != CLI_OPT_BOOL;
}

int cli_usage_error(const struct cli_option *opts, const struct cli_help *help, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error("%s", msg);
	cli_usage(stderr, opts, help);
	return EXIT_USAGE;
}

void cli_list_release(struct cli_list *l)
{
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

int cli_list_add(struct cli_list *l, const char *item)
{
	const char **items = realloc(l->items, (l->n + 2) * sizeof(*items));

	if (!items)
		return -1;
	l->items = items;
	l->items[l->n++] = item;
	l->items[l->n] = NULL;
	return 0;
}

/* Left column of --help for @o: "  -o, --output DB". */
static int option_column(const struct cli_option *o, char *buf, size_t size)
{
	return snprintf(buf, size, "  %c%c%s%s%s%s%s", o->short_name ? '-' : ' ',
			o->short_name ? o->short_name : ' ', o->short_name && o->long_name ? ", " : "  ",
			o->long_name ? "--" : "", o->long_name ? o->long_name : "",
			o->argh ? " " : "", o->argh ? o->argh : "");
}

static void usage_line(FILE *out, const struct cli_option *o, int width)
{
	char col[128];
	const char *h = o->help ? o->help : "", *nl;
	int n = option_column(o, col, sizeof(col));

	if (n > width - 2)
		fprintf(out, "%s\n%*s", col, width, "");
	else
		fprintf(out, "%-*s", width, col);
	/* continuation lines of the help go under its first line */
	while ((nl = strchr(h, '\n'))) {
		fprintf(out, "%.*s\n%*s", (int)(nl - h), h, width, "");
		h = nl + 1;
	}
	fprintf(out, "%s\n", h);
}

void cli_usage(FILE *out, const struct cli_option *opts, const struct cli_help *help)
{
	static const struct cli_option help_opt = OPT_BOOL('h', "help", NULL, "this help");
	const struct cli_option *o;
	int width = 0, i;
	char col[128];

	for (i = 0; i < (int)(sizeof(help->synopsis) / sizeof(help->synopsis[0])) &&
		    help->synopsis[i]; i++)
		fprintf(out, "%s%s\n", i ? "   or: " : "usage: ", help->synopsis[i]);
	if (help->about)
		fprintf(out, "\n%s", help->about);
	for (o = opts; o->type != CLI_OPT_END; o++) {
		int n;

		if (is_positional(o))
			continue;
		n = option_column(o, col, sizeof(col)) + 2;
		if (n > width && n <= HELP_COLUMN_MAX)
			width = n;
	}
	if (width < option_column(&help_opt, col, sizeof(col)) + 2)
		width = option_column(&help_opt, col, sizeof(col)) + 2;
	fputc('\n', out);
	for (o = opts; o->type != CLI_OPT_END; o++)
		if (!is_positional(o))
			usage_line(out, o, width);
	usage_line(out, &help_opt, width);
	if (help->more)
		fprintf(out, "\n%s", help->more);
}

static const struct cli_option *find_long(const struct cli_option *opts, const char *name, size_t len)
{
	for (; opts->type != CLI_OPT_END; opts++)
		if (!is_positional(opts) && opts->long_name && strlen(opts->long_name) == len &&
		    !strncmp(opts->long_name, name, len))
			return opts;
	return NULL;
}

static const struct cli_option *find_short(const struct cli_option *opts, int c)
{
	for (; opts->type != CLI_OPT_END; opts++)
		if (!is_positional(opts) && opts->short_name == c)
			return opts;
	return NULL;
}

static const struct cli_option *find_type(const struct cli_option *opts, enum cli_option_type t)
{
	for (; opts->type != CLI_OPT_END; opts++)
		if (opts->type == t)
			return opts;
	return NULL;
}

/* A whole number in [o->min, o->max]. Return: 0, or -1. */
static int parse_int(const struct cli_option *o, const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (!*arg || *end || errno || v < o->min || v > o->max)
		return -1;
	*(int *)o->value = (int)v;
	return 0;
}

/* A finite number in [min, max]: inf, nan and 1e300 would make nonsense windows. */
static int parse_number(const char *arg, double min, double max, double *out)
{
	char *end;
	double v;

	v = strtod(arg, &end);
	if (!*arg || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* What @o takes, for "option '--x' takes ..., not 'y'". */
static void describe(const struct cli_option *o, char *buf, size_t size)
{
	switch (o->type) {
	case CLI_OPT_INT:
		if (o->max >= INT_MAX)
			snprintf(buf, size, "a whole number >= %.0f", o->min);
		else
			snprintf(buf, size, "a whole number from %.0f to %.0f", o->min, o->max);
		break;
	case CLI_OPT_NUMBER:
		snprintf(buf, size, "%s (a number from %.15g to %.15g)", o->unit, o->min, o->max);
		break;
	case CLI_OPT_WINDOW_FROM:
	case CLI_OPT_WINDOW_TO:
		snprintf(buf, size, "seconds (a number from 0 to %.15g)", CLI_SECONDS_MAX);
		break;
	case CLI_OPT_FORMAT:
		snprintf(buf, size, "text, csv or json");
		break;
	default:
		snprintf(buf, size, "%s", o->accepts ? o->accepts : "a value");
		break;
	}
}

/* Store @arg (NULL for a flag) as @o's value. Return: 0; -1 bad value; -2 out of memory. */
static int store(struct parse *p, const struct cli_option *o, const char *arg)
{
	struct cli_window *w = o->value;

	if (o->seen)
		*o->seen = 1;
	if (o->flags & CLI_OPT_ALONE)
		p->alone = 1;
	switch (o->type) {
	case CLI_OPT_BOOL:
		*(int *)o->value = 1;
		return 0;
	case CLI_OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case CLI_OPT_STRING_LIST:
		return cli_list_add(o->value, arg) ? -2 : 0;
	case CLI_OPT_INT:
		return parse_int(o, arg);
	case CLI_OPT_NUMBER:
		return parse_number(arg, o->min, o->max, o->value);
	case CLI_OPT_FORMAT:
		return out_format_parse(arg, o->value);
	case CLI_OPT_WINDOW_FROM:
		w->has_from = 1;
		return parse_number(arg, 0, CLI_SECONDS_MAX, &w->from);
	case CLI_OPT_WINDOW_TO:
		w->has_to = 1;
		return parse_number(arg, 0, CLI_SECONDS_MAX, &w->to);
	case CLI_OPT_CALLBACK:
		return o->parse(arg, o->value);
	default:
		return -1;
	}
}

/* Store and report. @name is the option as written ("--from", "-d"). Return: 0, or the exit code. */
static int take(struct parse *p, const struct cli_option *o, const char *name, const char *arg)
{
	char what[128];
	int rc = store(p, o, arg);

	if (!rc)
		return 0;
	if (rc == -2)
		return error("out of memory");
	describe(o, what, sizeof(what));
	return cli_usage_error(p->opts, p->help, "option '%s' takes %s, not '%s'", name, what, arg);
}

/* A positional argument: the next OPT_ARG slot, else the OPT_ARG_LIST. Return: 0 or exit code. */
static int positional(struct parse *p, const char *arg)
{
	const struct cli_option *o;
	int k = 0;

	for (o = p->opts; o->type != CLI_OPT_END; o++)
		if (o->type == CLI_OPT_ARG && k++ == p->nargs) {
			*(const char **)o->value = arg;
			p->nargs++;
			return 0;
		}
	o = find_type(p->opts, CLI_OPT_ARG_LIST);
	if (o)
		return cli_list_add(o->value, arg) ? error("out of memory") : 0;
	return cli_usage_error(p->opts, p->help, "unexpected argument '%s'", arg);
}

static int long_option(struct parse *p, int argc, const char **argv, int *i)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct cli_option *o = find_long(p->opts, name, len);
	char spelled[64];

	snprintf(spelled, sizeof(spelled), "--%.*s", (int)len, name);
	if (!o)
		return cli_usage_error(p->opts, p->help, "unknown option '%s'", spelled);
	if (!takes_value(o)) {
		if (eq)
			return cli_usage_error(p->opts, p->help, "option '%s' takes no value", spelled);
		return take(p, o, spelled, NULL);
	}
	if (eq)
		return take(p, o, spelled, eq + 1);
	if (*i + 1 >= argc)
		return cli_usage_error(p->opts, p->help, "option '%s' needs a value (%s)", spelled,
				       o->argh);
	return take(p, o, spelled, argv[++*i]);
}

static int short_options(struct parse *p, int argc, const char **argv, int *i)
{
	const char *s = argv[*i] + 1;

	for (; *s; s++) {
		const struct cli_option *o = find_short(p->opts, *s);
		char spelled[3] = { '-', *s, 0 };
		int rc;

		if (!o)
			return cli_usage_error(p->opts, p->help, "unknown option '%s'%s", spelled,
					       s > argv[*i] + 1 ? " (in a bundle of short options)" : "");
		if (!takes_value(o)) {
			rc = take(p, o, spelled, NULL);
			if (rc)
				return rc;
			continue;
		}
		if (s[1])	/* -ovalue */
			return take(p, o, spelled, s + 1);
		if (*i + 1 >= argc)
			return cli_usage_error(p->opts, p->help, "option '%s' needs a value (%s)",
					       spelled, o->argh);
		return take(p, o, spelled, argv[++*i]);
	}
	return 0;
}

/* After the arguments: required positionals, and --to not before --from. */
static int check(struct parse *p)
{
	const struct cli_option *o;
	int k = 0;

	for (o = p->opts; o->type != CLI_OPT_END; o++) {
		if (o->type == CLI_OPT_ARG && k++ >= p->nargs && !p->alone)
			return cli_usage_error(p->opts, p->help, "no %s given", o->long_name);
		if (o->type == CLI_OPT_WINDOW_TO) {
			const struct cli_window *w = o->value;

			if (w->has_from && w->has_to && w->to < w->from)
				return cli_usage_error(p->opts, p->help, "--to %g is before --from %g",
						       w->to, w->from);
		}
	}
	return 0;
}

/*
 * `vmscope CMD --list-options` (first argument only, not in --help): the
 * options and positionals of CMD, one a line, for the shell completion:
 * "--output DB", "-o DB", "--quiet", "@DB", "@SECTION..." (a list).
 */
static void list_options(const struct cli_option *opts)
{
	const struct cli_option *o;

	for (o = opts; o->type != CLI_OPT_END; o++) {
		int positional = o->type == CLI_OPT_ARG || o->type == CLI_OPT_ARG_LIST;

		if (positional) {
			printf("@%s%s\n", o->argh, o->type == CLI_OPT_ARG_LIST ? "..." : "");
			continue;
		}
		if (o->type == CLI_OPT_REST)
			continue;
		if (o->long_name)
			printf("--%s%s%s\n", o->long_name, o->argh ? " " : "", o->argh ? o->argh : "");
		if (o->short_name)
			printf("-%c%s%s\n", o->short_name, o->argh ? " " : "", o->argh ? o->argh : "");
	}
	printf("--help\n-h\n");
}

int cli_parse_options(int argc, const char **argv, const struct cli_option *opts,
		      const struct cli_help *help, int *rc)
{
	struct parse p = { .opts = opts, .help = help };
	const struct cli_option *rest = find_type(opts, CLI_OPT_REST);
	int i, only_args = 0;

	*rc = 0;
	if (rest)
		*(const char ***)rest->value = NULL;
	if (argc == 2 && !strcmp(argv[1], "--list-options")) {
		list_options(opts);
		return 1;
	}
	for (i = 1; i < argc && !*rc; i++) {
		const char *a = argv[i];

		if (only_args || a[0] != '-' || !a[1]) {
			*rc = positional(&p, a);
		} else if (!strcmp(a, "--")) {
			if (rest) {
				*(const char ***)rest->value = argv + i + 1;
				break;
			}
			only_args = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_usage(stdout, opts, help);
			return 1;
		} else if (a[1] == '-') {
			*rc = long_option(&p, argc, argv, &i);
		} else {
			*rc = short_options(&p, argc, argv, &i);
		}
	}
	if (!*rc)
		*rc = check(&p);
	return *rc != 0;
}
