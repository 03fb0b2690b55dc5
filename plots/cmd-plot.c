// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-plot.c - `vmscope plot`: a gnuplot figure (PNG, SVG or 60-200 column text)
 * of one run, or of two runs overlaid. Parses the options, opens the
 * database(s), has the kind (plots/kind-KIND.c) write the figure's .dat
 * files into a private working directory next to a copy of the script
 * plots/KIND.gp, runs gnuplot
 * there (fork/exec, no shell) and moves the figure to the -o file.
 *
 * How it stays safe with untrusted traces (see also plot.h): gnuplot gets
 * one `-e` string of assignments built here from numbers and names vmscope
 * chose (kind, format, KIND-a.dat, KIND.png), and runs in the working
 * directory, so neither the user's paths nor anything from the trace is
 * ever gnuplot code; trace text is only in the .dat files, sanitized.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vms.h"
#include "cli.h"
#include "plot.h"

static const struct cli_help plot_help = {
	.synopsis = { "vmscope plot DB KIND [-o FILE] [--compare B.db] [options]",
		      "vmscope plot A1.db [A2.db ...] KIND --compare B1.db [B2.db ...] [options]",
		      "vmscope plot --list" },
	.about = "Draw a gnuplot figure of a vmscope database. KIND is one of:\n"
		 "  ratio      slab and file LRU sizes, slab/page-cache ratio (counters)\n"
		 "  refaults   anon/file refault and activation rates (counters)\n"
		 "  kswapd     kswapd awake per node, failures, node_unreclaimable, reclaim calls\n"
		 "  scan       pages scanned/reclaimed per second by reclaimer, file/anon\n"
		 "  stalls     latency distribution of reclaim calls and throttling\n"
		 "  lru        LRU list sizes; free pages against the watermarks (counters)\n"
		 "  shrinkers  objects scanned/freed per second by the top shrinkers\n"
		 "  replay     decisions replayed policies would have taken differently (after replay)\n"
		 "  whatif     recorded against simulated refaults, reclaim, LRU sizes (after whatif)\n",
	.more = "Needs gnuplot (Debian: apt-get install gnuplot-nox). The scripts are\n"
		"looked up in $VMSCOPE_PLOTDIR, then plots/ next to the vmscope binary, then\n"
		"/usr/local/share/vmscope/plots. Exit status: 0 done; 1 DB unreadable, data\n"
		"missing or gnuplot failed; 2 usage error. See docs/plot.md.\n",
};

#define DEFAULT_WIDTH 900
#define DEFAULT_HEIGHT 600
#define TEXT_WIDTH 80
#define TEXT_HEIGHT 25

static const char *const format_ext[] = { "png", "svg", "txt" };

struct image_size {
	int width, height;
	int given;			/* --size was given */
};

/* --size WIDTHxHEIGHT into a struct image_size. Return: 0, or -1 (the parser says why). */
static int parse_size(const char *s, void *value)
{
	struct image_size *size = value;
	char *end;
	long a, b;

	errno = 0;
	a = strtol(s, &end, 10);
	if (end == s || (*end != 'x' && *end != 'X'))
		return -1;
	s = end + 1;
	b = strtol(s, &end, 10);
	if (end == s || *end || errno || a < 100 || b < 100 || a > 10000 || b > 10000)
		return -1;
	size->width = a;
	size->height = b;
	size->given = 1;
	return 0;
}

/* The format named by the extension of @path. Return: 0, or -1 when it has none we draw. */
static int format_of(const char *path, enum plot_format *fmt)
{
	const char *dot = strrchr(path, '.');
	int i;

	if (!dot || strchr(dot, '/'))
		return -1;
	for (i = 0; i < 3; i++)
		if (!strcasecmp(dot + 1, format_ext[i])) {
			*fmt = i;
			return 0;
		}
	return -1;
}

/* Return: @name found in $PATH, as a path (caller frees), or NULL. */
static char *find_in_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	struct stat st;
	char *full;

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = end + 1) {
		end = strchrnul(p, ':');
		if (asprintf(&full, "%.*s/%s", end == p ? 1 : (int)(end - p), end == p ? "." : p,
			     name) < 0)
			return NULL;
		if (!stat(full, &st) && S_ISREG(st.st_mode) && !access(full, X_OK))
			return full;
		free(full);
		if (!*end)
			return NULL;
	}
}

/*
 * The directory holding KIND.gp and common.gp: $VMSCOPE_PLOTDIR, plots/
 * next to the executable (a source tree), ../share/vmscope/plots from it
 * (an installed prefix), /usr/local/share/vmscope/plots. Return: the
 * directory (caller frees), or NULL with vms_error set.
 */
static char *find_plotdir(const char *kind)
{
	char exe[PATH_MAX], *cand[4] = { NULL }, *found = NULL, *slash;
	const char *env = getenv("VMSCOPE_PLOTDIR");
	struct vms_buf tried = { 0 };
	ssize_t n;
	int i, nc = 0;

	if (env && *env)
		cand[nc++] = strdup(env);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (asprintf(&cand[nc], "%s/plots", exe) >= 0)
				nc++;
			if (asprintf(&cand[nc], "%s/../share/vmscope/plots", exe) >= 0)
				nc++;
			else
				cand[nc] = NULL;
		}
	}
	cand[nc++] = strdup("/usr/local/share/vmscope/plots");
	for (i = 0; i < nc && !found; i++) {
		char *gp = NULL, *common = NULL;
		int ok;

		if (!cand[i])
			continue;	/* out of memory for this one */
		ok = asprintf(&gp, "%s/%s.gp", cand[i], kind) >= 0 &&
		     asprintf(&common, "%s/common.gp", cand[i]) >= 0 &&
		     !access(gp, R_OK) && !access(common, R_OK);
		if (ok) {
			found = cand[i];
			cand[i] = NULL;
		} else {
			vms_buf_addf(&tried, "%s'%s'", tried.len ? ", " : "", cand[i]);
		}
		free(gp);
		free(common);
	}
	if (!found)
		vms_error("cannot find the gnuplot script %s.gp (with common.gp): looked in %s; set"
			  " VMSCOPE_PLOTDIR to the plots/ directory of the vmscope sources", kind,
			  tried.buf ? tried.buf : "nowhere");
	for (i = 0; i < nc; i++)
		free(cand[i]);
	vms_buf_release(&tried);
	return found;
}

/* Copy @from to @to (created or truncated). Return: 0 or -1 with vms_error set. */
static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in, out, rc = 0;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return vms_error("cannot read '%s': %s", from, strerror(errno));
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (out < 0) {
		close(in);
		return vms_error("cannot write '%s': %s", to, strerror(errno));
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		char *p = buf;

		while (n > 0) {
			ssize_t w = write(out, p, n);

			if (w < 0) {
				if (errno == EINTR)
					continue;
				rc = vms_error("cannot write '%s': %s", to, strerror(errno));
				goto out;
			}
			p += w;
			n -= w;
		}
	}
	if (n < 0)
		rc = vms_error("cannot read '%s': %s", from, strerror(errno));
out:
	close(in);
	if (close(out) && !rc)
		rc = vms_error("cannot write '%s': %s", to, strerror(errno));
	if (rc)
		unlink(to);	/* a full disk leaves no empty or partial figure */
	return rc;
}

/* Copy dir/name to dest/name. */
static int copy_into(const char *dir, const char *name, const char *dest)
{
	char *from = NULL, *to = NULL;
	int rc;

	if (asprintf(&from, "%s/%s", dir, name) < 0 || asprintf(&to, "%s/%s", dest, name) < 0) {
		free(from);
		return vms_error("out of memory");
	}
	rc = copy_file(from, to);
	free(from);
	free(to);
	return rc;
}

/* Remove the private temporary directory and what is in it (only files). */
static void remove_tmpdir(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (d) {
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				unlinkat(dirfd(d), de->d_name, 0);
		closedir(d);
	}
	rmdir(dir);
}

/* Print gnuplot's messages, one note per line. */
static void print_output(const struct vms_buf *out)
{
	const char *p = out->buf, *nl;

	if (!p)
		return;
	while (*p) {
		nl = strchrnul(p, '\n');
		if (nl > p)
			note("gnuplot: %.*s", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

/*
 * Run @gnuplot -e @vars @script in @dir, its output (stdout and stderr)
 * collected into @out. Return: its exit status, or -1 with vms_error set.
 */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *vars, const char *script,
		       struct vms_buf *out)
{
	const char *argv[] = { "gnuplot", "-e", vars, script, NULL };
	int fd[2], status;
	char buf[4096];
	ssize_t n;
	pid_t pid;

	if (pipe2(fd, O_CLOEXEC))
		return vms_error("cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return vms_error("cannot start gnuplot: %s", strerror(errno));
	}
	if (!pid) {
		int null = open("/dev/null", O_RDONLY);

		if (null < 0 || dup2(null, 0) < 0 || dup2(fd[1], 1) < 0 || dup2(fd[1], 2) < 0 ||
		    chdir(dir)) {
			dprintf(fd[1], "cannot set up gnuplot in '%s': %s\n", dir, strerror(errno));
			_exit(127);
		}
		execv(gnuplot, (char *const *)argv);
		dprintf(2, "cannot run '%s': %s\n", gnuplot, strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	while ((n = read(fd[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		vms_buf_add(out, buf, n);
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return vms_error("cannot wait for gnuplot: %s", strerror(errno));
	if (WIFSIGNALED(status))
		return vms_error("gnuplot was killed by signal %d", WTERMSIG(status));
	return WEXITSTATUS(status);
}

/*
 * Make gnuplot's text plot fit for email: the dumb terminal starts the page
 * with a form feed (even with `nofeed` in gnuplot 5.4) and pads every line
 * to the full width. Drop the form feed, the trailing blanks and the blank
 * lines before and after the plot.
 */
static int tidy_text(const char *path)
{
	struct vms_buf in = { 0 }, out = { 0 };
	const char *p, *nl, *end;
	char buf[4096];
	size_t blank = 0;
	int fd, rc = 0;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return vms_error("cannot read '%s': %s", path, strerror(errno));
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (vms_buf_add(&in, buf, n)) {
			rc = -1;
			break;
		}
	close(fd);
	if (rc || n < 0) {
		vms_buf_release(&in);
		return rc ? rc : vms_error("cannot read '%s': %s", path, strerror(errno));
	}
	for (p = in.buf ? in.buf : ""; *p; p = *nl ? nl + 1 : nl) {
		nl = strchrnul(p, '\n');
		while (p < nl && *p == '\f')
			p++;
		for (end = nl; end > p && (end[-1] == ' ' || end[-1] == '\f' || end[-1] == '\r'); end--)
			;
		if (end == p) {
			blank += out.len > 0;	/* blank lines inside the plot are kept */
			continue;
		}
		for (; blank; blank--)
			vms_buf_add(&out, "\n", 1);
		vms_buf_add(&out, p, end - p);
		vms_buf_add(&out, "\n", 1);
	}
	vms_buf_release(&in);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0 || (out.len && write(fd, out.buf, out.len) != (ssize_t)out.len))
		rc = vms_error("cannot write '%s': %s", path, strerror(errno));
	if (fd >= 0 && close(fd) && !rc)
		rc = vms_error("cannot write '%s': %s", path, strerror(errno));
	vms_buf_release(&out);
	return rc;
}

/* Put the figure @made where the user wants it: @dest. */
static int deliver(const char *made, const char *dest, int keep)
{
	struct stat a, b;

	if (!stat(made, &a) && !stat(dest, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return 0;	/* -o names the file in the --keep directory */
	if (!keep && !rename(made, dest))
		return 0;
	if (!keep && errno != EXDEV)
		return vms_error("cannot write '%s': %s", dest, strerror(errno));
	return copy_file(made, dest);
}

/* Does the long option @name (without "--", @len bytes) take a value in @opts? */
static int takes_value(const struct cli_option *opts, const char *name, size_t len)
{
	for (; opts->type != CLI_OPT_END; opts++)
		if (opts->long_name && opts->argh && opts->type != CLI_OPT_ARG &&
		    opts->type != CLI_OPT_ARG_LIST && strlen(opts->long_name) == len &&
		    !strncmp(opts->long_name, name, len))
			return 1;
	return 0;
}

/* Does the short option -@c take a value (-o FILE)? */
static int short_takes_value(const struct cli_option *opts, int c)
{
	for (; opts->type != CLI_OPT_END; opts++)
		if (opts->short_name == c && opts->argh)
			return 1;
	return 0;
}

/*
 * argv with every database after `--compare B1.db` given as `--compare DB`,
 * so that the option table collects side B. Return: the new argv (caller
 * frees the array; the strings are argv's), or NULL out of memory.
 */
static const char **plot_split_compare(int argc, const char **argv, const struct cli_option *opts,
				       int *nargc)
{
	const char **out = calloc(2 * argc + 1, sizeof(*out));
	int n = 0, side_b = 0;

	if (!out)
		return NULL;
	out[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			while (i < argc)
				out[n++] = argv[i++];
			break;
		}
		if (a[0] == '-' && a[1]) {
			out[n++] = a;
			if (!strcmp(a, "--compare"))
				side_b = 1;
			else if (!strncmp(a, "--compare=", 10))
				side_b = 1;
			/* an option's value (--compare's first database too) is not a positional */
			if (((a[1] == '-' && !strchr(a, '=') && takes_value(opts, a + 2, strlen(a + 2))) ||
			     (a[1] != '-' && !a[2] && short_takes_value(opts, a[1]))) && i + 1 < argc)
				out[n++] = argv[++i];
			continue;
		}
		if (side_b)
			out[n++] = "--compare";
		out[n++] = a;
	}
	*nargc = n;
	return out;
}

int cmd_plot(int argc, const char **argv)
{
	const char *path = NULL, *kind_name = NULL, *output = NULL, *compare = NULL, *keep = NULL;
	struct cli_list rest = { 0 }, cmp = { 0 };
	const char **args = NULL;
	int nargs = 0, ngroup[2] = { 1, 0 }, groups = 0;
	char side_label[2][PLOT_LABEL_MAX + 1];
	const char *rpath[PLOT_RUNS_MAX] = { NULL };
	char *gnuplot = NULL, *plotdir = NULL, *workdir = NULL, *made = NULL, *script = NULL;
	struct image_size size = { DEFAULT_WIDTH, DEFAULT_HEIGHT, 0 };
	struct plot_run runs[PLOT_RUNS_MAX] = { 0 };
	struct plot_job job = { 0 };
	const struct plot_kind *kind;
	struct vms_buf vars = { 0 }, out = { 0 };
	struct cli_window win = { 0 };
	int width, height, list = 0, rc = 1, status, force = 0, text_width = 0;
	char tmpl[PATH_MAX];
	struct stat st;
	const struct cli_option opts[] = {
		OPT_STRING('o', "output", &output, "FILE",
			   "output; .png, .svg or .txt (text, 80x25) (default KIND.png)"),
		OPT_CALLBACK(0, "size", &size, "WxH",
			     "image size in pixels for .png and .svg (default 900x600)", parse_size,
			     "WIDTHxHEIGHT in pixels (100 to 10000 each)"),
		OPT_INT(0, "width", &text_width, "COLS",
			"width of a .txt plot in characters, 60 to 200 (default 80)", 60, 200),
		OPT_BOOL('f', "force", &force, "replace FILE if it exists"),
		OPT_STRING_LIST(0, "compare", &cmp, "B.db", "overlay a second run; the legend names both;\n"
				"every database after it is side B's (KIND before it)"),
		OPT_WINDOW(&win, "the run"),
		OPT_STRING(0, "keep", &keep, "DIR", "leave the gnuplot script and its .dat files in DIR"),
		OPT_MODE(0, "list", &list, "list the kinds and exit"),
		OPT_ARG("DB", "database", &path),
		OPT_ARG_LIST("KIND", &rest),
		OPT_END(),
	};

	if (!(args = plot_split_compare(argc, argv, opts, &nargs)))
		return error("out of memory");
	rc = cli_parse_options(nargs, args, opts, &plot_help, &status);
	free(args);
	if (rc) {
		cli_list_release(&rest);
		cli_list_release(&cmp);
		return status;
	}
	rc = 1;
	/* DB [A2.db ...] KIND: the kind is the last; the databases before it are side A's */
	if (rest.n) {
		kind_name = rest.items[rest.n - 1];
		ngroup[0] = rest.n;
	}
	ngroup[1] = cmp.n;
	compare = cmp.n ? cmp.items[0] : NULL;
	groups = ngroup[0] > 1 || ngroup[1] > 1;
	if (ngroup[0] + ngroup[1] <= PLOT_RUNS_MAX) {	/* the strings are argv's */
		rpath[0] = path;
		for (int i = 1; i < ngroup[0]; i++)
			rpath[i] = rest.items[i - 1];
		for (int i = 0; i < ngroup[1]; i++)
			rpath[ngroup[0] + i] = cmp.items[i];
	}
	cli_list_release(&rest);
	cli_list_release(&cmp);
	if (!list && !kind_name)
		return cli_usage_error(opts, &plot_help, "no plot kind given (see vmscope plot --list)");
	if (ngroup[0] + ngroup[1] > PLOT_RUNS_MAX)
		return cli_usage_error(opts, &plot_help, "at most %d runs in one figure", PLOT_RUNS_MAX);
	if (list) {
		for (int k = 0; k < plot_nkinds; k++)
			printf("%-10s %s\n", plot_kinds[k]->name, plot_kinds[k]->summary);
		return 0;
	}
	width = size.width;
	height = size.height;
	kind = plot_kind_find(kind_name);
	if (!kind)
		return cli_usage_error(opts, &plot_help, "no plot kind '%s' (see vmscope plot --list)",
				       kind_name);
	if (!output) {
		static char def[64];

		snprintf(def, sizeof(def), "%s.png", kind->name);
		output = def;
	}
	if (format_of(output, &job.fmt))
		return cli_usage_error(opts, &plot_help, "cannot tell the format of '%s': name it"
				       " .png, .svg or .txt", output);
	if (job.fmt == PLOT_TXT) {
		if (size.given)
			return cli_usage_error(opts, &plot_help, "--size is for .png and .svg: text"
					       " plots are %dx%d characters", TEXT_WIDTH, TEXT_HEIGHT);
		width = text_width ? text_width : TEXT_WIDTH;
		height = TEXT_HEIGHT;
	} else if (text_width) {
		return cli_usage_error(opts, &plot_help, "--width is for .txt plots: give .png and"
				       " .svg a size in pixels with --size");
	}
	/* as record and import: an existing file is replaced only when asked */
	if (!force && !lstat(output, &st))
		return error("'%s' already exists (use --force to replace it)", output);

	gnuplot = find_in_path("gnuplot");
	if (!gnuplot)
		return error("gnuplot is not installed (no 'gnuplot' in PATH): install it with"
			     " 'apt-get install gnuplot-nox' (Debian, Ubuntu) or your"
			     " distribution's gnuplot package");
	plotdir = find_plotdir(kind->name);
	if (!plotdir) {
		rc = error_last();
		goto out;
	}

	if (groups && !kind->groups) {
		free(gnuplot);
		free(plotdir);
		return cli_usage_error(opts, &plot_help, "several runs a side: the %s figure does not"
				       " take groups (scan, stalls, refaults and ratio do)", kind->name);
	}
	if (groups) {
		for (int i = 0; i < ngroup[0] + ngroup[1]; i++) {
			if (plot_run_open(&runs[i], rpath[i], win.from, win.to, win.has_from,
					  win.has_to)) {
				rc = error("%s: %s", i < ngroup[0] ? "A" : "B", vms_last_error());
				goto out;
			}
			job.run[job.nruns++] = &runs[i];
		}
		for (int k = 0; k < 2; k++) {
			char buf[PLOT_LABEL_MAX + 1];

			snprintf(buf, sizeof(buf), "%c:mean_of_%d_run%s", 'A' + k, ngroup[k],
				 ngroup[k] == 1 ? "" : "s");
			plot_sanitize(side_label[k], sizeof(side_label[k]), buf);
		}
	} else if (plot_run_open(&runs[0], path, win.from, win.to, win.has_from, win.has_to)) {
		rc = error_last();
		goto out;
	}
	if (!groups)
		job.run[job.nruns++] = &runs[0];
	if (compare && !groups) {
		if (plot_run_open(&runs[1], compare, win.from, win.to, win.has_from,
				  win.has_to)) {
			rc = error_last();
			goto out;
		}
		job.run[job.nruns++] = &runs[1];
		if (!strcmp(runs[0].label, runs[1].label)) {
			/* same file name in two directories: name them by the paths given */
			plot_sanitize(runs[0].label, sizeof(runs[0].label), path);
			plot_sanitize(runs[1].label, sizeof(runs[1].label), compare);
		}
	}

	if (keep) {
		if (mkdir(keep, 0777) && errno != EEXIST) {
			rc = error("cannot create the directory '%s': %s", keep, strerror(errno));
			goto out;
		}
		workdir = strdup(keep);
	} else {
		const char *tmp = getenv("TMPDIR");

		snprintf(tmpl, sizeof(tmpl), "%s/vmscope-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(tmpl)) {
			rc = error("cannot create a temporary directory '%s': %s", tmpl,
				   strerror(errno));
			goto out;
		}
		workdir = strdup(tmpl);
	}
	if (!workdir || asprintf(&script, "%s.gp", kind->name) < 0 ||
	    asprintf(&made, "%s/%s.%s", workdir, kind->name, format_ext[job.fmt]) < 0) {
		rc = error("out of memory");
		goto out;
	}
	if (copy_into(plotdir, script, workdir) || copy_into(plotdir, "common.gp", workdir)) {
		rc = error_last();
		goto out;
	}

	job.dir = workdir;
	job.grouped = groups;
	if (plot_write_data(kind, &job)) {
		rc = error_last();
		goto out;
	}
	if (groups && (dat_merge_group(&job, kind->name, 0, ngroup[0], 'A', side_label[0]) ||
		       (ngroup[1] && dat_merge_group(&job, kind->name, ngroup[0], ngroup[1], 'B',
						     side_label[1])))) {
		rc = error_last();
		goto out;
	}
	/* only names and numbers chosen here: nothing from the user or the trace */
	if (vms_buf_addf(&vars, "kind='%s'; outfmt='%s'; width=%d; height=%d; outfile='%s.%s';"
			 " data_a='%s-%s.dat'; data_b='%s%s'; xmin=%.9g; xmax=%.9g; spread=%d; %s",
			 kind->name, format_ext[job.fmt], width, height, kind->name,
			 format_ext[job.fmt], kind->name, groups ? "sideA" : "a",
			 compare ? kind->name : "", !compare ? "" : groups ? "-sideB.dat" : "-b.dat",
			 job.xmin, job.xmax, groups, job.vars.buf ? job.vars.buf : "")) {
		rc = error("out of memory");
		goto out;
	}
	unlink(made);
	status = run_gnuplot(gnuplot, workdir, vars.buf, script, &out);
	if (status < 0) {
		print_output(&out);
		rc = error_last();
		goto out;
	}
	if (status) {
		/*
		 * Its messages only matter when it fails: on success they are
		 * warnings such as "empty y range" for a series that is all zero.
		 */
		print_output(&out);
		rc = error("gnuplot failed (exit status %d) on %s%s", status, script,
			   keep ? "" : " (--keep DIR keeps the script and its data to look at)");
		goto out;
	}
	if (access(made, R_OK)) {
		rc = error("gnuplot wrote no figure ('%s' is missing)", made);
		goto out;
	}
	if ((job.fmt == PLOT_TXT && tidy_text(made)) || deliver(made, output, keep != NULL)) {
		rc = error_last();
		goto out;
	}
	if (keep) {
		struct vms_buf dir = { 0 };

		/* a command to paste into a shell: the directory quoted for sh */
		vms_buf_add(&dir, "'", 1);
		for (const char *p = keep; *p; p++)
			vms_buf_add(&dir, *p == '\'' ? "'\\''" : p, *p == '\'' ? 4 : 1);
		vms_buf_add(&dir, "'", 1);
		note("script and data kept in '%s'; to draw again: cd %s && gnuplot -e \"%s\" %s",
		     keep, dir.buf ? dir.buf : "DIR", vars.buf, script);
		vms_buf_release(&dir);
	}
	rc = 0;
out:
	if (workdir && !keep)
		remove_tmpdir(workdir);
	for (int i = 0; i < PLOT_RUNS_MAX; i++)
		plot_run_close(&runs[i]);
	vms_buf_release(&vars);
	vms_buf_release(&out);
	vms_buf_release(&job.vars);
	free(gnuplot);
	free(plotdir);
	free(workdir);
	free(made);
	free(script);
	return rc;
}
