// SPDX-License-Identifier: GPL-2.0
/*
 * counters-mmtests.c - cset_load(): read one counters file, its kind
 * recognised from its content, never its name:
 *  - an mmtests monitor log: frames of a `time: SECONDS` line (integer or
 *    fractional epoch seconds) followed by a copy of /proc/vmstat,
 *    /proc/meminfo, /proc/zoneinfo or a memcg's memory.stat (cgroup v1 or
 *    v2 keys), every frame of one kind, times never going backwards;
 *  - a plain snapshot of one of those files, its time given as FILE@SECONDS
 *    or as a number of seconds in the file name (vmstat-1733050000.txt);
 *  - a `sysctl -a` or `sysctl vm` listing ("name = value" lines; the vm.*
 *    ones are kept);
 *  - a wide CSV (counters-csv.c).
 * gzip, zstd and xz are undone by lib/input.c; a compressed file that ends
 * early is an error, so that nothing is imported from half a file.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vms.h"
#include "counters-set.h"

enum frame_kind { K_NONE, K_VMSTAT, K_MEMINFO, K_ZONEINFO, K_MEMCG_V1, K_MEMCG_V2 };

static const char *const kind_names[] = {
	[K_NONE] = "?", [K_VMSTAT] = "proc-vmstat", [K_MEMINFO] = "proc-meminfo",
	[K_ZONEINFO] = "proc-zoneinfo", [K_MEMCG_V1] = "memory.stat (cgroup v1)",
	[K_MEMCG_V2] = "memory.stat (cgroup v2)",
};

struct reader {
	struct cset_file *f;
	const char *display;	/* the file as given, for messages */
	long long ts;		/* the frame's time, ns */
	long long line;		/* the frame's first line */
};

/* Is @line "time: SECONDS"? Return: 1 and *ns, 0 no, -1 "time:" with no time. */
static int time_line(const char *line, size_t len, long long *ns)
{
	size_t i = 5;

	if (len < 5 || strncmp(line, "time:", 5))
		return 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	while (len > i && isspace((unsigned char)line[len - 1]))
		len--;
	return cset_parse_seconds(line + i, len - i, ns) ? -1 : 1;
}

/* What a frame (or snapshot) holds, from its first lines. */
static enum frame_kind frame_kind(const char *text)
{
	const char *p = text, *nl;
	char word[64];
	int n;

	while (*p == '\n' || *p == ' ')
		p++;
	if (!strncmp(p, "Node ", 5) && strstr(p, ", zone"))
		return K_ZONEINFO;
	n = 0;
	while (p[n] && !isspace((unsigned char)p[n]) && n < (int)sizeof(word) - 1) {
		word[n] = p[n];
		n++;
	}
	word[n] = '\0';
	if (n > 1 && word[n - 1] == ':')
		return K_MEMINFO;	/* "MemTotal:  16318480 kB" */
	if (!strcmp(word, "cache"))
		return K_MEMCG_V1;	/* v1 memory.stat starts with cache, rss, rss_huge */
	if (!strcmp(word, "anon"))
		return K_MEMCG_V2;	/* v2 with anon, file, kernel ... */
	for (; *p; p = nl + 1) {
		if (!strncmp(p, "nr_free_pages ", 14))
			return K_VMSTAT;
		nl = strchr(p, '\n');
		if (!nl)
			break;
	}
	return K_NONE;
}

static long long store_begin(void *arg, const char *source, const char *scope)
{
	struct reader *r = arg;

	return cset_begin(r->f, r->ts, source, scope, strlen(scope), r->line);
}

static int store_value(void *arg, long long sample, const char *name, size_t len, long long v)
{
	struct reader *r = arg;

	return cset_value(r->f, (int)sample, name, len, v);
}

/* Store the frame of @kind in @text (modified). Return: 0 or -1. */
static int store_frame(struct reader *r, enum frame_kind kind, char *text)
{
	const struct proc_parse_cb cb = { store_begin, store_value, r };

	switch (kind) {
	case K_VMSTAT:
		return proc_parse_name_value(text, "vmstat", "", &cb);
	case K_MEMINFO:
		return proc_parse_name_value(text, "meminfo", "", &cb);
	case K_ZONEINFO:
		return proc_parse_zoneinfo(text, &cb);
	case K_MEMCG_V1:
	case K_MEMCG_V2:
		return proc_parse_name_value(text, "memcg", r->f->memcg_scope, &cb);
	default:
		return vms_error("%s:%lld: not a copy of /proc/vmstat, /proc/meminfo, /proc/zoneinfo"
				 " or a memory.stat", r->display, r->line);
	}
}

static int set_format(struct cset_file *f, const char *fmt, enum frame_kind kind)
{
	if (asprintf(&f->format, fmt, kind_names[kind]) < 0) {
		f->format = NULL;
		return vms_error("out of memory");
	}
	return 0;
}

/* A "name = value" line of `sysctl -a`? */
static int sysctl_line(const char *line, size_t len, size_t *name_len, const char **value)
{
	const char *eq = memchr(line, '=', len);
	size_t n;

	if (!eq || eq == line || eq[-1] != ' ' || eq + 1 >= line + len || eq[1] != ' ')
		return 0;
	for (n = 0; line + n < eq - 1; n++)
		if (isspace((unsigned char)line[n]))
			return 0;
	if (!memchr(line, '.', n))
		return 0;
	*name_len = n;
	*value = eq + 2;
	return 1;
}

static int read_sysctl(struct cset_file *f, struct vms_input *in, const char *display,
		       const char *first, size_t first_len)
{
	const char *line = first, *value;
	size_t len = first_len, nlen;
	long long lineno = 1;
	int nl;

	if (!(f->format = strdup("sysctl")))
		return vms_error("out of memory");
	for (;;) {
		if (len && !sysctl_line(line, len, &nlen, &value))
			return vms_error("%s:%lld: not a 'name = value' line of `sysctl -a`", display,
					 lineno);
		/* the reclaim knobs are vm.*: the rest of `sysctl -a` is left out */
		if (len && strncmp(line, "vm.", 3))
			f->sysctls_skipped++;
		else if (len && cset_sysctl(f, line, nlen, value, line + len - value))
			return -1;
		line = vms_input_getline(in, &len, &nl);
		if (!line)
			return len == (size_t)-1 ? -1 : 0;
		lineno++;
	}
}

/* The time of a plain snapshot: the last number of at least 9 digits in its base name. */
static int time_from_name(const char *path, long long *ns)
{
	const char *base = strrchr(path, '/'), *p, *best = NULL;
	size_t best_len = 0;

	base = base ? base + 1 : path;
	for (p = base; *p;) {
		size_t n = 0;

		while (isdigit((unsigned char)p[n]))
			n++;
		if (n >= 9) {
			size_t m = n;

			if (p[m] == '.' && isdigit((unsigned char)p[m + 1]))
				for (m++; isdigit((unsigned char)p[m]); m++)
					;
			best = p;
			best_len = m;
		}
		p += n ? n : 1;
	}
	return best ? cset_parse_seconds(best, best_len, ns) : -1;
}

/* Frames of an mmtests log, or (@framed 0) one snapshot at @snapshot_ns. */
static int read_frames(struct reader *r, struct vms_input *in, const char *first,
		       size_t first_len, int framed, long long snapshot_ns, int have_snapshot_time)
{
	struct vms_buf text = { 0 };
	enum frame_kind file_kind = K_NONE, kind;
	const char *line = first;
	size_t len = first_len;
	long long lineno = 1, frames = 0, prev_ts = 0, prev_line = 0, ns;
	int nl = 1, rc = -1, open = !framed, t;

	r->line = 1;
	r->ts = snapshot_ns;
	for (;;) {
		t = framed && line ? time_line(line, len, &ns) : 0;
		if (t < 0) {
			vms_error("%s:%lld: a 'time:' line without a number of seconds", r->display,
				  lineno);
			goto out;
		}
		if (t > 0 || !line) {
			/* the frame before ends here */
			if (open && text.len) {
				vms_buf_add(&text, "", 1);
				kind = frame_kind(text.buf);
				if (file_kind != K_NONE && kind != file_kind) {
					vms_error("%s:%lld: a %s frame in a log of %s frames",
						  r->display, r->line, kind_names[kind],
						  kind_names[file_kind]);
					goto out;
				}
				if (store_frame(r, kind, text.buf))
					goto out;
				file_kind = kind;
				frames++;
			}
			vms_buf_reset(&text);
			if (!line)
				break;
			if (frames && ns < prev_ts) {
				vms_error("%s:%lld: time %.3f goes backwards (the frame at line %lld has"
					  " %.3f)", r->display, lineno, ns / 1e9, prev_line,
					  prev_ts / 1e9);
				goto out;
			}
			prev_ts = r->ts = ns;
			prev_line = r->line = lineno;
			open = 1;
		} else if (!open) {
			if (len) {
				vms_error("%s:%lld: text before the first 'time:' line", r->display,
					  lineno);
				goto out;
			}
		} else if (vms_buf_add(&text, line, len) || vms_buf_add(&text, "\n", 1)) {
			vms_error("out of memory");
			goto out;
		}
		line = vms_input_getline(in, &len, &nl);
		if (!line && len == (size_t)-1) {
			char *why = strdup(vms_last_error());

			vms_error("%s after %lld frames: nothing of it is imported", why ? why : "?",
				  frames);
			free(why);
			goto out;
		}
		if (line)
			lineno++;
		if (line && !nl && framed) {
			/* a log copied while its monitor still wrote: its last frame is partial */
			vms_warning("%s:%lld: the last line has no newline: its frame (line %lld) is"
				    " left out", r->display, lineno, r->line);
			vms_buf_reset(&text);
			open = 0;
			line = NULL;
		}
	}
	if (!frames) {
		vms_error("%s: no counters in it", r->display);
		goto out;
	}
	if (!framed && !have_snapshot_time) {
		vms_error("%s: a single %s snapshot without a time: give it as %s@SECONDS or put"
			  " its epoch seconds in the file name", r->display, kind_names[file_kind],
			  r->display);
		goto out;
	}
	rc = set_format(r->f, framed ? "mmtests %s" : "snapshot %s", file_kind);
out:
	vms_buf_release(&text);
	return rc;
}

/* "FILE@SECONDS" when FILE exists and FILE@SECONDS does not. */
static char *split_at_time(const char *arg, long long *ns, int *have)
{
	const char *at = strrchr(arg, '@');
	struct stat st;
	char *path;

	*have = 0;
	if (!at || !stat(arg, &st) || cset_parse_seconds(at + 1, strlen(at + 1), ns))
		return strdup(arg);
	path = strndup(arg, at - arg);
	*have = path != NULL;
	return path;
}

static void memcg_scope_of(struct cset_file *f, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 3 && !strcmp(base + n - 3, ".gz"))
		n -= 3;
	f->memcg_scope = cset_intern(f, base, n);
}

int cset_load(struct cset_file *f, const char *arg, enum cset_clock clock)
{
	long long snap_ns = 0;
	int have_time, nl, rc = -1;
	char *path = split_at_time(arg, &snap_ns, &have_time);
	struct reader r = { .f = f, .display = arg };
	struct vms_input *in;
	const char *line;
	size_t len;
	long long ns;

	if (!path)
		return vms_error("out of memory");
	f->clock = clock;
	memcg_scope_of(f, path);
	if (!f->memcg_scope)
		goto out;
	in = vms_input_open(path);
	if (!in)
		goto out;
	while ((line = vms_input_getline(in, &len, &nl)) && !len)
		;	/* blank lines before the content */
	if (!line) {
		if (len != (size_t)-1)
			vms_error("%s: empty: no counters in it", arg);
	} else if (time_line(line, len, &ns) > 0) {
		rc = read_frames(&r, in, line, len, 1, 0, 0);
	} else if (cset_is_csv_header(line, len)) {
		rc = cset_read_csv(f, in, arg, line, len, clock);
	} else if (sysctl_line(line, len, &(size_t){ 0 }, &(const char *){ NULL })) {
		rc = read_sysctl(f, in, arg, line, len);
	} else {
		if (!have_time)
			have_time = !time_from_name(path, &snap_ns);
		rc = read_frames(&r, in, line, len, 0, snap_ns, have_time);
	}
	vms_input_close(in);
out:
	free(path);
	return rc;
}
