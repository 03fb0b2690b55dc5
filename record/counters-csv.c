// SPDX-License-Identifier: GPL-2.0
/*
 * counters-csv.c - a wide CSV of counters: the first column a time in
 * seconds (header `time`, `ts`, `timestamp`, `seconds` or `epoch`,
 * optionally naming its clock: `time.mono`, `time(realtime)`), the others
 * counters named `vmstat.NAME`, `meminfo.NAME`, `zone.ZONE.FIELD`
 * (`zone.Normal.min`, `zone.node1.Normal.min`), `memcg.NAME`, or a bare
 * vmstat name (`pgscan_kswapd`). A column vmscope does not know is kept
 * under its own name as source 'csv', with a warning; a cell that is not a
 * whole number is left out, with a warning per column. Each row is one
 * sample per source and scope.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "counters-set.h"

struct column {
	const char *source;	/* static */
	const char *scope;	/* interned */
	const char *name;	/* interned */
	int group;		/* columns of one source and scope share a sample */
	int warned;		/* a cell that is not a number was reported */
};

static const char *const time_names[] = { "time", "ts", "timestamp", "seconds", "epoch" };

/* Vmstat counters by their prefixes, for bare names. */
static const char *const vmstat_prefixes[] = {
	"nr_", "pg", "pswp", "workingset_", "allocstall", "compact_", "thp_", "slabs_scanned",
	"kswapd_", "drop_", "oom_kill", "numa_", "unevictable_", "balloon_", "swap_ra",
	"zone_reclaim_", "htlb_", "direct_map_", "nr_unstable", "pageoutrun",
};

/* Split off the next comma-separated field of [*p, end), trimmed of spaces and quotes. */
static void next_field(const char **p, const char *end, const char **f, size_t *len)
{
	const char *s = *p, *e;

	e = memchr(s, ',', end - s);
	if (!e)
		e = end;
	*p = e < end ? e + 1 : end + 1;
	while (s < e && (*s == ' ' || *s == '"'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '"' || e[-1] == '\r'))
		e--;
	*f = s;
	*len = e - s;
}

/* The time column's header: "time", "time.CLOCK", "time(CLOCK)". Return: 1, *clock (or NULL). */
static int time_header(const char *s, size_t len, const char **clock, size_t *clock_len)
{
	size_t i;

	for (i = 0; i < sizeof(time_names) / sizeof(*time_names); i++) {
		size_t n = strlen(time_names[i]);

		if (len < n || strncasecmp(s, time_names[i], n))
			continue;
		*clock = NULL;
		*clock_len = 0;
		if (len == n)
			return 1;
		if (s[n] == '.' || s[n] == '(' || s[n] == '[' || s[n] == '_') {
			*clock = s + n + 1;
			*clock_len = len - n - 1;
			if (s[n] != '.' && s[n] != '_' && *clock_len && strchr(")]", s[len - 1]))
				(*clock_len)--;
			return 1;
		}
	}
	return 0;
}

int cset_is_csv_header(const char *line, size_t len)
{
	const char *p = line, *end = line + len, *f, *clock;
	size_t n, cl;

	if (!memchr(line, ',', len))
		return 0;
	next_field(&p, end, &f, &n);
	return time_header(f, n, &clock, &cl);
}

static int is_vmstat_name(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(vmstat_prefixes) / sizeof(*vmstat_prefixes); i++) {
		size_t n = strlen(vmstat_prefixes[i]);

		if (len >= n && !strncmp(s, vmstat_prefixes[i], n))
			return 1;
	}
	return 0;
}

/* Classify one header cell. Return: 1 kept, 0 skipped, -1 out of memory. */
static int classify(struct cset_file *f, const char *display, const char *s, size_t len,
		    struct column *c)
{
	char scope[128];
	const char *dot;

	c->scope = cset_intern(f, "", 0);
	if (!c->scope)
		return -1;
	if (!len) {
		vms_warning("%s:1: a column without a name is skipped", display);
		return 0;
	}
	if (len > 7 && !strncmp(s, "vmstat.", 7)) {
		c->source = "vmstat";
		s += 7, len -= 7;
	} else if (len > 8 && !strncmp(s, "meminfo.", 8)) {
		c->source = "meminfo";
		s += 8, len -= 8;
	} else if (len > 6 && !strncmp(s, "memcg.", 6)) {
		c->source = "memcg";
		c->scope = f->memcg_scope;
		s += 6, len -= 6;
	} else if (len > 5 && !strncmp(s, "zone.", 5) &&
		   (dot = memrchr(s + 5, '.', len - 5)) && dot > s + 5 && dot < s + len - 1) {
		size_t zl = dot - (s + 5), i;
		int has_node = zl > 4 && !strncmp(s + 5, "node", 4);

		if (zl + 8 >= sizeof(scope))
			zl = sizeof(scope) - 9;
		snprintf(scope, sizeof(scope), "%s%.*s", has_node ? "" : "node0/", (int)zl, s + 5);
		for (i = 0; scope[i]; i++)
			if (scope[i] == '.')
				scope[i] = '/';
		c->source = "zoneinfo";
		c->scope = cset_intern(f, scope, strlen(scope));
		if (!c->scope)
			return -1;
		len -= dot + 1 - s;
		s = dot + 1;
	} else if (is_vmstat_name(s, len)) {
		c->source = "vmstat";
	} else {
		vms_warning("%s:1: column '%.*s' is not a counter vmscope knows: kept as source 'csv'",
			    display, (int)len, s);
		c->source = "csv";
	}
	c->name = cset_intern(f, s, len);
	return c->name ? 1 : -1;
}

/* A whole number (an optional sign, digits). Return: 0 and *v, or -1. */
static int cell_number(const char *s, size_t len, long long *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*v = strtoll(buf, &end, 10);
	return *end || end == buf ? -1 : 0;
}

int cset_read_csv(struct cset_file *f, struct vms_input *in, const char *display,
		  const char *header, size_t hlen, enum cset_clock clock)
{
	struct column *cols = NULL;
	const char *p, *end, *cell, *cname;
	char *head = strndup(header, hlen);
	size_t len, clen;
	int ncols = 0, alloc = 0, ngroups = 0, rc = -1, nl, g, j, k;
	long long lineno = 1, ts, prev = 0, rows = 0;
	const char *line;

	if (!head)
		return vms_error("out of memory");
	if (strlen(head) != hlen) {
		free(head);
		return vms_error("%s:1: a NUL byte in the CSV header", display);
	}
	p = head;
	end = head + hlen;
	next_field(&p, end, &cell, &len);
	time_header(cell, len, &cname, &clen);
	if (cname) {
		char name[32];
		int c;

		snprintf(name, sizeof(name), "%.*s", (int)(clen < 31 ? clen : 31), cname);
		for (c = 0; name[c]; c++)
			name[c] = tolower((unsigned char)name[c]);
		c = cset_clock_parse(name);
		if (c < 0) {
			vms_error("%s:1: unknown clock '%.*s' in the time column '%.*s' (known:"
				  " realtime, mono, boot, trace)", display, (int)clen, cname,
				  (int)len, cell);
			goto out;
		}
		if (clock != CLOCK_UNSAID && (int)clock != c)
			vms_warning("%s: its time column says clock '%s', not the --counters-clock"
				    " '%s': the column is believed", display, name,
				    cset_clock_name(clock));
		f->clock = c;
	} else if (!strncasecmp(cell, "epoch", 5)) {
		f->clock = clock != CLOCK_UNSAID ? clock : CLOCK_REALTIME_C;
	}
	while (p <= end) {
		struct column c = { 0 };

		next_field(&p, end, &cell, &len);
		k = classify(f, display, cell, len, &c);
		if (k < 0)
			goto out;
		if (vms_array_reserve(&cols, &alloc, ncols, 32, sizeof(*cols)))
			goto out;
		if (!k)
			c.source = NULL;	/* skipped, but it keeps its place */
		c.group = -1;
		for (j = 0; c.source && j < ncols; j++)
			if (cols[j].source == c.source && cols[j].scope == c.scope)
				c.group = cols[j].group;
		if (c.source && c.group < 0)
			c.group = ngroups++;
		cols[ncols++] = c;
	}
	if (!(f->format = strdup("csv"))) {
		vms_error("out of memory");
		goto out;
	}
	while ((line = vms_input_getline(in, &len, &nl))) {
		lineno++;
		if (!len || (len == 1 && *line == '\r'))
			continue;
		p = line;
		end = line + len;
		next_field(&p, end, &cell, &clen);
		if (cset_parse_seconds(cell, clen, &ts)) {
			vms_error("%s:%lld: '%.*s' is not a time in seconds", display, lineno,
				  (int)(clen < 40 ? clen : 40), cell);
			goto out;
		}
		if (rows && ts < prev) {
			vms_error("%s:%lld: time %.3f goes backwards (the row before has %.3f)",
				  display, lineno, ts / 1e9, prev / 1e9);
			goto out;
		}
		prev = ts;
		rows++;
		{
			const char *cells[ncols ? ncols : 1];
			size_t lens[ncols ? ncols : 1];

			for (j = 0; j < ncols; j++) {
				if (p > end) {
					vms_error("%s:%lld: %d fields, the header has %d", display,
						  lineno, j + 1, ncols + 1);
					goto out;
				}
				next_field(&p, end, &cells[j], &lens[j]);
			}
			if (p <= end) {
				vms_error("%s:%lld: more fields than the header's %d", display, lineno,
					  ncols + 1);
				goto out;
			}
			for (g = 0; g < ngroups; g++) {
				int sample = -1;

				for (j = 0; j < ncols; j++) {
					long long v;

					if (cols[j].group != g || !lens[j])
						continue;
					if (cell_number(cells[j], lens[j], &v)) {
						if (!cols[j].warned++)
							vms_warning("%s:%lld: column '%s' holds '%.*s', not a"
								    " whole number: such cells are left out",
								    display, lineno, cols[j].name,
								    (int)(lens[j] < 40 ? lens[j] : 40),
								    cells[j]);
						continue;
					}
					if (sample < 0 &&
					    (sample = cset_begin(f, ts, cols[j].source, cols[j].scope,
								 strlen(cols[j].scope), lineno)) < 0)
						goto out;
					if (cset_value(f, sample, cols[j].name, strlen(cols[j].name), v))
						goto out;
				}
			}
		}
	}
	if (len == (size_t)-1) {
		char *why = strdup(vms_last_error());

		vms_error("%s after %lld rows: nothing of it is imported", why ? why : "?", rows);
		free(why);
		goto out;
	}
	if (!rows) {
		vms_error("%s: a CSV header and no rows", display);
		goto out;
	}
	rc = 0;
out:
	free(cols);
	free(head);
	return rc;
}
