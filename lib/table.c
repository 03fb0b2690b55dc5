// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - result tables of the analyzers and their text, CSV and JSON
 * output (see table.h). Every string goes through one escaper per format:
 * text and CSV replace control characters with '?' (vms_control_len()), so a
 * comm holding a newline or an escape sequence cannot break a table, a CSV
 * row or a terminal, and CSV quotes fields with commas or quotes; JSON
 * escapes through vms_json_append_string().
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "vms-table.h"

enum cell_kind { CELL_NULL, CELL_INT, CELL_REAL, CELL_TEXT };

struct cell {
	enum cell_kind kind;
	long long i;
	double r;
	char *s;
};

struct column {
	char *name;
	char *unit;
	int decimals;
};

struct table {
	char *section, *name, *title;
	struct column *cols;
	int ncols;
	struct cell *cells;	/* row-major */
	int ncells, alloc;
	char **notes;
	int nnotes;
	int oom;		/* an allocation failed: cells may be missing, out_table() refuses it */
};

struct out {
	FILE *f;
	enum out_format fmt;
	int tables;
	int metas;
	const char *only;	/* print only the tables of this name */
	int only_found;		/* a table of that name came */
	struct vms_buf names;	/* ", "-separated names of the tables that came, once each */
	int failed;		/* a table could not be written: out_close() fails */
};

struct table *table_new(const char *section, const char *name, const char *title)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->section = strdup(section);
	t->name = strdup(name);
	t->title = strdup(title);
	if (!t->section || !t->name || !t->title) {
		table_free(t);
		return NULL;
	}
	return t;
}

void table_free(struct table *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->ncols; i++) {
		free(t->cols[i].name);
		free(t->cols[i].unit);
	}
	for (i = 0; i < t->ncells; i++)
		free(t->cells[i].s);
	for (i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->cols);
	free(t->cells);
	free(t->notes);
	free(t->section);
	free(t->name);
	free(t->title);
	free(t);
}

void table_column(struct table *t, const char *name, const char *unit, int decimals)
{
	struct column *c = realloc(t->cols, (t->ncols + 1) * sizeof(*c));

	/* a column left out would shift every later cell: the table is marked broken instead */
	if (!c) {
		t->oom = 1;
		return;
	}
	t->cols = c;
	c[t->ncols].name = strdup(name);
	c[t->ncols].unit = unit ? strdup(unit) : NULL;
	c[t->ncols].decimals = decimals;
	if (!c[t->ncols].name || (unit && !c[t->ncols].unit))
		t->oom = 1;
	t->ncols++;
}

static struct cell *add_cell(struct table *t)
{
	if (t->ncells == t->alloc) {
		int n = t->alloc ? t->alloc * 2 : 64;
		struct cell *c = realloc(t->cells, n * sizeof(*c));

		if (!c) {
			t->oom = 1;
			return NULL;
		}
		t->cells = c;
		t->alloc = n;
	}
	memset(&t->cells[t->ncells], 0, sizeof(struct cell));
	return &t->cells[t->ncells++];
}

void table_row(struct table *t)
{
	/* pad an incomplete previous row so that cells stay aligned */
	while (t->ncols && t->ncells % t->ncols)
		if (!add_cell(t))
			return;
}

void table_int(struct table *t, long long v)
{
	struct cell *c = add_cell(t);

	if (c) {
		c->kind = CELL_INT;
		c->i = v;
	}
}

void table_real(struct table *t, double v)
{
	struct cell *c = add_cell(t);

	if (c && !isnan(v) && !isinf(v)) {
		c->kind = CELL_REAL;
		c->r = v;
	}
}

void table_text(struct table *t, const char *s)
{
	struct cell *c = add_cell(t);

	if (c && s) {
		c->kind = CELL_TEXT;
		c->s = strdup(s);
		if (!c->s)
			t->oom = 1;
	}
}

void table_null(struct table *t)
{
	add_cell(t);
}

void table_note(struct table *t, const char *fmt, ...)
{
	char **n = realloc(t->notes, (t->nnotes + 1) * sizeof(*n));
	va_list ap;

	if (!n) {
		t->oom = 1;
		return;
	}
	t->notes = n;
	va_start(ap, fmt);
	if (vasprintf(&n[t->nnotes], fmt, ap) >= 0)
		t->nnotes++;
	else
		t->oom = 1;
	va_end(ap);
}

int table_rows(const struct table *t)
{
	return t->ncols ? (t->ncells + t->ncols - 1) / t->ncols : 0;
}

/* Printable on a terminal: control bytes become '?'. */
static void sanitize(char *s)
{
	vms_make_printable(s);
}

/*
 * @r with @dec decimals into @buf (64 bytes), as "%.*f" prints it. Fast path:
 * |r| * 10^dec below 10^9 and not within 10^-6 of a rounding tie, where the
 * product's rounding error (under 10^-7) cannot change the digits; anything
 * else goes to snprintf().
 */
static const char *fmt_fixed(char *buf, double r, int dec)
{
	static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	unsigned long long v;
	double x, fl;
	char *p = buf + 63;
	int i;

	if (dec < 0 || dec > 9 || !(fabs(r) * p10[dec] < 1e9))
		goto slow;
	x = fabs(r) * p10[dec];
	fl = floor(x);
	if (fabs(x - fl - 0.5) < 1e-6)
		goto slow;
	v = (unsigned long long)fl + (x - fl > 0.5);
	*p = '\0';
	for (i = 0; i < dec; i++) {
		*--p = (char)('0' + v % 10);
		v /= 10;
	}
	if (dec)
		*--p = '.';
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10));
	if (signbit(r))
		*--p = '-';
	return p;
slow:
	snprintf(buf, 64, "%.*f", dec, r);
	return buf;
}

/* A cell as text into @buf (64 bytes) or, for text cells, the cell's own string. */
static const char *cell_text(const struct table *t, int idx, char *buf)
{
	const struct cell *c = idx < t->ncells ? &t->cells[idx] : NULL;
	unsigned long long v;
	char *p = buf + 63;

	if (!c || c->kind == CELL_NULL)
		return "";
	if (c->kind == CELL_TEXT)
		return c->s ? c->s : "";
	if (c->kind == CELL_REAL)
		return fmt_fixed(buf, c->r, t->cols[idx % t->ncols].decimals);
	/* integers: by hand, the report prints hundreds of thousands of them */
	*p = '\0';
	v = c->i < 0 ? 0ULL - (unsigned long long)c->i : (unsigned long long)c->i;
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10));
	if (c->i < 0)
		*--p = '-';
	return p;
}

/* Write @s with control bytes shown as '?'; Return: its length in bytes. */
static int put_sanitized(FILE *f, const char *s)
{
	const char *p;
	size_t n;

	for (p = s; *p; p += n ? n : 1) {
		n = vms_control_len(p);
		if (n)
			fwrite_unlocked("??", 1, n, f);
		else
			putc_unlocked(*p, f);
	}
	return (int)(p - s);
}

static void pad(FILE *f, int n)
{
	static const char spaces[] = "                                                                ";

	for (; n > 0; n -= 64)
		fwrite_unlocked(spaces, 1, n < 64 ? n : 64, f);
}

/* Column widths: the longest cell of each column. */
static void text_widths(const struct table *t, int *w)
{
	int rows = table_rows(t), i, r;
	char buf[64];

	for (r = 0; r < rows; r++)
		for (i = 0; i < t->ncols; i++) {
			int len = (int)strlen(cell_text(t, r * t->ncols + i, buf));

			if (len > w[i])
				w[i] = len;
		}
}

static int emit_text(struct out *o, const struct table *t)
{
	int rows = table_rows(t), i, r, *w = calloc(t->ncols ? t->ncols : 1, sizeof(int));
	char **hdr = calloc(t->ncols ? t->ncols : 1, sizeof(char *));
	char buf[64];
	int rc = -1;

	if (!w || !hdr)
		goto out;
	for (i = 0; i < t->ncols; i++) {
		if (t->cols[i].unit && *t->cols[i].unit) {
			if (asprintf(&hdr[i], "%s (%s)", t->cols[i].name, t->cols[i].unit) < 0)
				hdr[i] = NULL;
		} else {
			hdr[i] = strdup(t->cols[i].name);
		}
		w[i] = hdr[i] ? (int)strlen(hdr[i]) : 0;
	}
	text_widths(t, w);
	{
		char *title = strdup(t->title);

		sanitize(title);	/* titles may carry run names or kernel releases */
		fprintf(o->f, "%s%s\n", o->tables ? "\n" : "", title ? title : "");
		free(title);
	}
	for (i = 0; i < t->ncols; i++) {
		/* a header sits over its column: left for text columns, right for numbers */
		int text_col = i == 0;

		for (r = 0; r < rows && !text_col; r++)
			if (t->cells[r * t->ncols + i].kind != CELL_NULL) {
				text_col = t->cells[r * t->ncols + i].kind == CELL_TEXT;
				break;
			}
		if (i == t->ncols - 1 && text_col)
			fprintf(o->f, "  %s", hdr[i] ? hdr[i] : "");
		else
			fprintf(o->f, i == 0 ? "%-*s" : text_col ? "  %-*s" : "  %*s", w[i],
				hdr[i] ? hdr[i] : "");
	}
	fputc('\n', o->f);
	for (r = 0; r < rows; r++) {
		for (i = 0; i < t->ncols; i++) {
			int idx = r * t->ncols + i;
			const struct cell *c = &t->cells[idx];
			const char *s = cell_text(t, idx, buf);

			/* first column and text left-aligned, numbers right-aligned */
			if (i == t->ncols - 1 && (c->kind == CELL_TEXT || i == 0)) {
				if (i)
					fputs_unlocked("  ", o->f);
				put_sanitized(o->f, s);		/* no trailing blanks */
			} else if (i == 0 || c->kind == CELL_TEXT) {
				if (i)
					fputs_unlocked("  ", o->f);
				pad(o->f, w[i] - put_sanitized(o->f, s));
			} else {
				if (!*s && c->kind == CELL_NULL)
					s = "-";
				fputs_unlocked("  ", o->f);
				pad(o->f, w[i] - (int)strlen(s));
				put_sanitized(o->f, s);
			}
		}
		putc_unlocked('\n', o->f);
	}
	if (!rows)
		fprintf(o->f, "(no rows)\n");
	for (i = 0; i < t->nnotes; i++) {
		char *n = strdup(t->notes[i]);

		sanitize(n);
		fprintf(o->f, "  note: %s\n", n ? n : "");
		free(n);
	}
	rc = 0;
out:
	for (i = 0; hdr && i < t->ncols; i++)
		free(hdr[i]);
	free(hdr);
	free(w);
	return rc;
}

/* A CSV field: control bytes as '?' as in text, quoted when it holds a comma or a quote. */
static void csv_field(FILE *f, const char *s)
{
	int quote = strpbrk(s, ",\"") != NULL;

	if (quote)
		fputc('"', f);
	size_t n;

	for (; *s; s += n ? n : 1) {
		n = vms_control_len(s);
		if (n)
			fwrite("??", 1, n, f);
		else if (*s == '"')
			fputs("\"\"", f);
		else
			fputc(*s, f);
	}
	if (quote)
		fputc('"', f);
}

static void emit_csv(struct out *o, const struct table *t)
{
	int rows = table_rows(t), i, r;

	if (o->tables)
		fputc('\n', o->f);
	for (i = 0; i < t->ncols; i++) {
		if (i)
			fputc(',', o->f);
		csv_field(o->f, t->cols[i].name);
	}
	fputc('\n', o->f);
	for (r = 0; r < rows; r++) {
		for (i = 0; i < t->ncols; i++) {
			char buf[64];

			if (i)
				fputc(',', o->f);
			csv_field(o->f, cell_text(t, r * t->ncols + i, buf));
		}
		fputc('\n', o->f);
	}
}

static void json_str(FILE *f, const char *s)
{
	struct vms_buf b = { 0 };

	vms_json_append_string(&b, s ? s : "", s ? strlen(s) : 0);
	fputs(b.buf ? b.buf : "\"\"", f);
	vms_buf_release(&b);
}

static void emit_json(struct out *o, const struct table *t)
{
	int rows = table_rows(t), i, r;

	if (!o->tables)
		fprintf(o->f, "%s\"tables\": [\n", o->metas ? "},\n" : "{\"run\": {},\n");
	else
		fprintf(o->f, ",\n");
	fprintf(o->f, "{\"section\": ");
	json_str(o->f, t->section);
	fprintf(o->f, ", \"table\": ");
	json_str(o->f, t->name);
	fprintf(o->f, ", \"title\": ");
	json_str(o->f, t->title);
	fprintf(o->f, ",\n \"columns\": [");
	for (i = 0; i < t->ncols; i++) {
		fprintf(o->f, "%s{\"name\": ", i ? ", " : "");
		json_str(o->f, t->cols[i].name);
		fprintf(o->f, ", \"unit\": ");
		if (t->cols[i].unit)
			json_str(o->f, t->cols[i].unit);
		else
			fputs("null", o->f);
		fputc('}', o->f);
	}
	fprintf(o->f, "],\n \"rows\": [");
	for (r = 0; r < rows; r++) {
		fprintf(o->f, "%s[", r ? ",\n  " : "\n  ");
		for (i = 0; i < t->ncols; i++) {
			const struct cell *c = &t->cells[r * t->ncols + i];

			if (i)
				fputs(", ", o->f);
			switch (c->kind) {
			case CELL_NULL:
				fputs("null", o->f);
				break;
			case CELL_INT:
				fprintf(o->f, "%lld", c->i);
				break;
			case CELL_REAL:
				fprintf(o->f, "%.*f", t->cols[i].decimals < 1 ? 1 : t->cols[i].decimals,
					c->r);
				break;
			case CELL_TEXT:
				json_str(o->f, c->s);
				break;
			}
		}
		fputc(']', o->f);
	}
	fprintf(o->f, "],\n \"notes\": [");
	for (i = 0; i < t->nnotes; i++) {
		if (i)
			fputs(", ", o->f);
		json_str(o->f, t->notes[i]);
	}
	fprintf(o->f, "]}");
}

int out_format_parse(const char *name, enum out_format *fmt)
{
	static const char *const names[] = { [OUT_TEXT] = "text", [OUT_CSV] = "csv", [OUT_JSON] = "json" };

	for (int f = OUT_TEXT; f <= OUT_JSON; f++)
		if (!strcmp(name, names[f])) {
			*fmt = (enum out_format)f;
			return 0;
		}
	return -1;
}

struct out *out_open(FILE *f, enum out_format fmt)
{
	struct out *o = calloc(1, sizeof(*o));

	if (o) {
		o->f = f;
		o->fmt = fmt;
	}
	return o;
}

void out_meta(struct out *o, const char *key, const char *value)
{
	if (o->fmt != OUT_JSON || o->tables)
		return;
	fprintf(o->f, o->metas ? ",\n " : "{\"run\": {");
	json_str(o->f, key);
	fputs(": ", o->f);
	if (value)
		json_str(o->f, value);
	else
		fputs("null", o->f);
	o->metas++;
}

void out_only(struct out *o, const char *table)
{
	o->only = table;
}

/* Add @name to o->names unless it is there already; an allocation failure only shortens the list. */
static void note_name(struct out *o, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = o->names.buf; p; p = strstr(p, ", ")) {
		p += *p == ',' ? 2 : 0;
		if (!strncmp(p, name, len) && (!p[len] || p[len] == ','))
			return;
	}
	if (o->names.len)
		vms_buf_add(&o->names, ", ", 2);
	vms_buf_add(&o->names, name, len);
}

int out_table(struct out *o, const struct table *t)
{
	note_name(o, t->name);
	if (o->only && strcmp(o->only, t->name))
		return 0;
	o->only_found = 1;
	if (t->oom || (o->fmt == OUT_TEXT && emit_text(o, t))) {
		o->failed = 1;
		return vms_error("out of memory while building table '%s'", t->name);
	}
	if (o->fmt == OUT_CSV)
		emit_csv(o, t);
	else if (o->fmt == OUT_JSON)
		emit_json(o, t);
	o->tables++;
	return 0;
}

int out_only_found(const struct out *o)
{
	return o->only_found;
}

enum out_format out_format_of(const struct out *o)
{
	return o->fmt;
}

const char *out_only_name(const struct out *o)
{
	return o->only;
}

const char *out_table_names(const struct out *o)
{
	return o->names.len ? o->names.buf : "none";
}

int out_close(struct out *o)
{
	int rc;

	if (o->fmt == OUT_JSON) {
		if (!o->tables)
			fprintf(o->f, "%s\"tables\": []}\n", o->metas ? "},\n" : "{\"run\": {},\n");
		else
			fprintf(o->f, "\n]}\n");
	}
	rc = fflush(o->f) || ferror(o->f) || o->failed ? -1 : 0;
	vms_buf_release(&o->names);
	free(o);
	return rc;
}
