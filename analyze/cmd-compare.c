// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-compare.c - `vmscope compare`: the edge of the two comparisons.
 *  - `vmscope compare A.db B.db`: the two-run table (compare-pair.c).
 *  - `vmscope compare A1.db [A2.db ...] --vs B1.db [B2.db ...]`: the
 *    statistics of two groups of runs (compare-run.c, compare-rows.c), as
 *    the brief table (compare-brief.c) or every row (compare-out.c).
 * Every database after --vs belongs to side B: the arguments are rewritten
 * into one `--vs DB` per database before the option table parses them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vms.h"
#include "cli.h"
#include "compare.h"

static const struct cli_help compare_help = {
	.synopsis = { "vmscope compare A.db B.db [options]",
		      "vmscope compare A1.db [A2.db ...] --vs B1.db [B2.db ...] [options]" },
	.about = "Compare runs, A before and B after, in the layout of kernel changelogs.\n"
		 "Two databases are two groups of one run; with --vs, groups of runs:\n"
		 "each side's mean, stddev, CoV,\n"
		 "min and max per metric (totals; --rates for per second), the change of\n"
		 "the means and a '*' where Welch's t-test finds it significant; the\n"
		 "workload's own result and times, memcg and machine counters, reclaim\n"
		 "calls, each row with its scope. Text is the brief table (about 20\n"
		 "rows that fit 80 columns); --full, CSV and JSON hold every metric.\n",
	.more = "'-' is a value a run cannot give (a counter its kernel or memcg lacks,\n"
		"no counter samples, an efficiency of nothing scanned), or a change from\n"
		"A = 0; the notes say which. --pair (and, for two databases, CSV and JSON\n"
		"without a group option) gives the two-run table of every metric per\n"
		"second with the change 100*(B-A)/A instead. Exit status: 0 done; 1 a\n"
		"database unreadable; 2 usage error. See docs/compare.md.\n",
};

/* Does @name (without "--") take a value in @opts? */
static int takes_value(const struct cli_option *opts, const char *name, size_t len)
{
	for (; opts->type != CLI_OPT_END; opts++)
		if (opts->long_name && opts->argh && opts->type != CLI_OPT_ARG &&
		    opts->type != CLI_OPT_ARG_LIST && strlen(opts->long_name) == len &&
		    !strncmp(opts->long_name, name, len))
			return 1;
	return 0;
}

/*
 * argv with every database after a bare `--vs` given as `--vs DB`, so that
 * the option table collects side B in order. Return: the new argv (caller
 * frees the array only; the strings are argv's), or NULL out of memory.
 */
static const char **split_vs(int argc, const char **argv, const struct cli_option *opts,
			     int *nargc)
{
	const char **out = calloc(2 * argc + 1, sizeof(*out));
	int n = 0, vs = 0, dashdash = 0;

	if (!out)
		return NULL;
	out[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!dashdash && !strcmp(a, "--vs")) {
			vs = 1;
			continue;
		}
		if (!dashdash && !strcmp(a, "--")) {
			dashdash = 1;
			continue;
		}
		if (!dashdash && a[0] == '-' && a[1]) {
			out[n++] = a;
			if (!strncmp(a, "--vs=", 5))
				vs = 1;
			/* an option's value is not a database */
			if (a[1] == '-' && !strchr(a, '=') && takes_value(opts, a + 2, strlen(a + 2)) &&
			    i + 1 < argc)
				out[n++] = argv[++i];
			continue;
		}
		if (vs)
			out[n++] = "--vs";
		out[n++] = a;
	}
	*nargc = n;
	return out;
}

/* --label A=NAME / B=NAME into @label. Return: 0, or -1 when one is not of that form. */
static int parse_labels(const struct cli_list *l, const char *label[2])
{
	for (int i = 0; i < l->n; i++) {
		const char *s = l->items[i];

		if ((s[0] != 'A' && s[0] != 'a' && s[0] != 'B' && s[0] != 'b') || s[1] != '=' || !s[2])
			return -1;
		label[s[0] == 'B' || s[0] == 'b'] = s + 2;
	}
	return 0;
}

static int run_groups(struct cmp_groups *g, const struct cli_list *side[2],
		      const struct cli_window *win)
{
	for (int k = 0; k < 2; k++) {
		g->nrun[k] = side[k]->n;
		if (!(g->run[k] = calloc(side[k]->n, sizeof(*g->run[k]))))
			return vms_error("out of memory");
		for (int i = 0; i < side[k]->n; i++)
			if (cmp_run_load(&g->run[k][i], side[k]->items[i], win->from, win->to,
					 win->has_from, win->has_to))
				return vms_error("%s: %s", k ? "B" : "A", vms_last_error());
	}
	return cmp_rows_build(g);
}

int cmd_compare(int argc, const char **argv)
{
	struct cli_list pos = { 0 }, vs = { 0 }, labels = { 0 }, one[2] = { { 0 }, { 0 } };
	int rc, nargc = 0, rates = 0, brief = 0, full = 0, width = 0, alpha_given = 0, pair = 0;
	struct cmp_groups g = { .label = { "A", "B" }, .alpha = 0.05 };
	const struct cli_list *side[2] = { &pos, &vs };
	enum out_format fmt = OUT_TEXT;
	struct cli_window win = { 0 };
	char auto_label[2][CMP_LABEL_MAX];
	const char **args = NULL;
	struct cli_option opts[] = {
		OPT_FORMAT(&fmt),
		OPT_WINDOW(&win, "each run"),
		OPT_STRING_LIST(0, "vs", &vs, "B.db", "side B: every database after --vs (the A\n"
				"databases come before it)"),
		OPT_STRING_LIST(0, "label", &labels, "SIDE=NAME", "name side A or B (A=base)"),
		OPT_BOOL(0, "rates", &rates, "totals divided by each run's seconds"),
		OPT_BOOL(0, "brief", &brief, "text: the brief table (default with --vs)"),
		OPT_BOOL(0, "full", &full, "text: every metric and statistic"),
		OPT_BOOL(0, "pair", &pair, "two databases: the two-run table of every metric,\n"
			 "per second"),
		OPT_INT(0, "width", &width, "COLS", "width of the brief table, 60 to 200 (default 80)",
			60, 200),
		OPT_NUMBER(0, "alpha", &g.alpha, "P", "level of the significance test (default 0.05)",
			   0.0001, 0.5, "probability"),
		OPT_ARG_LIST("A.db", &pos),
		OPT_END(),
	};

	for (struct cli_option *o = opts; o->type != CLI_OPT_END; o++)
		if (o->long_name && !strcmp(o->long_name, "alpha"))
			o->seen = &alpha_given;
	args = split_vs(argc, argv, opts, &nargc);
	if (!args)
		return error("out of memory");
	if (cli_parse_options(nargc, args, opts, &compare_help, &rc))
		goto out;
	rc = 0;
	if (!pos.n || (!vs.n && pos.n != 2)) {
		rc = cli_usage_error(opts, &compare_help, vs.n ? "no database before --vs" :
				     "give two databases, or two groups: A1.db ... --vs B1.db ...");
		goto out;
	}
	if (parse_labels(&labels, g.label)) {
		rc = cli_usage_error(opts, &compare_help, "--label takes A=NAME or B=NAME");
		goto out;
	}
	if (brief && full) {
		rc = cli_usage_error(opts, &compare_help, "--brief and --full exclude each other");
		goto out;
	}
	if (pair && (vs.n || rates || brief || full || labels.n || width || alpha_given)) {
		rc = cli_usage_error(opts, &compare_help, "--pair takes two databases and no group option");
		goto out;
	}
	if (pair || (!vs.n && fmt != OUT_TEXT && !rates && !brief && !full && !labels.n && !width &&
		     !alpha_given)) {
		const char *const paths[2] = { pos.items[0], pos.items[1] };

		if (cmp_pair_write(stdout, fmt, paths, win.from, win.to, win.has_from, win.has_to))
			rc = error_last();
		goto out;
	}
	if (!vs.n) {	/* two databases as groups of one run */
		if (cli_list_add(&one[0], pos.items[0]) || cli_list_add(&one[1], pos.items[1])) {
			rc = error("out of memory");
			goto out;
		}
		side[0] = &one[0];
		side[1] = &one[1];
	}
	g.rates = rates;
	if (run_groups(&g, side, &win)) {
		rc = error_last();
		goto out;
	}
	if (!labels.n)
		cmp_default_labels(&g, auto_label);
	if (fmt == OUT_TEXT && !full)
		rc = cmp_brief_print(stdout, &g, width ? width : 80);
	else
		rc = cmp_table_write(stdout, fmt, &g);
	if (rc)
		rc = error_last();
out:
	for (int k = 0; k < 2; k++) {
		for (int i = 0; g.run[k] && i < g.nrun[k]; i++)
			cmp_run_release(&g.run[k][i]);
		free(g.run[k]);
		cli_list_release(&one[k]);
	}
	cmp_rows_release(&g);
	cli_list_release(&pos);
	cli_list_release(&vs);
	cli_list_release(&labels);
	free(args);
	return rc;
}
