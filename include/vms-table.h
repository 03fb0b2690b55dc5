/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h - result tables of the analyzers and their output as aligned text
 * (for terminals, email and changelogs), CSV (for spreadsheets and
 * `sqlite3 .import`) or JSON. Text from the trace (comm, shrinker names) is
 * escaped for each format by the emitter, never by the section.
 *
 * Protocol:
 *  1. table_new(section, name, title); table_column() for each column.
 *  2. For each row: table_row(), then one table_int/real/text/null per column.
 *  3. table_note() for remarks printed under the table (unavailable rows,
 *     provenance, caveats).
 *  4. out_table() writes it in the chosen format; table_free().
 */
#ifndef VMS_ANALYZE_TABLE_H
#define VMS_ANALYZE_TABLE_H

#include <stdio.h>

enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON };

struct table;

/* Return: a table (caller frees with table_free()), or NULL when out of memory. */
struct table *table_new(const char *section, const char *name, const char *title);
void table_free(struct table *t);
/* @unit: shown in the text header and in JSON, may be NULL; @decimals for reals. */
void table_column(struct table *t, const char *name, const char *unit, int decimals);
void table_row(struct table *t);
void table_int(struct table *t, long long v);
void table_real(struct table *t, double v);
void table_text(struct table *t, const char *s);
void table_null(struct table *t);
void table_note(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int table_rows(const struct table *t);

struct out;
/* Return: writer to @f (caller frees with out_close()), or NULL. */
/* "text", "csv" or "json" as given to --format. Return: 0, or -1 for anything else. */
int out_format_parse(const char *name, enum out_format *fmt);
struct out *out_open(FILE *f, enum out_format fmt);
/* JSON: the run description that heads the document (key/value text pairs). */
void out_meta(struct out *o, const char *key, const char *value);
/*
 * Return: 0, or -1 (vms_error set) when @t lost a column, cell or note to an
 * allocation failure: it is not written, and out_close() fails too.
 */
int out_table(struct out *o, const struct table *t);
/* Print only the tables called @table (for CSV: one table per file). */
void out_only(struct out *o, const char *table);
/* Did a table of the out_only() name come? */
int out_only_found(const struct out *o);
/* The format given to out_open(). */
enum out_format out_format_of(const struct out *o);
/* The out_only() name, or NULL: a section may print a long table only when asked for it. */
const char *out_only_name(const struct out *o);
/* The names of all tables that came to out_table(), ", "-separated ("none"); valid until out_close(). */
const char *out_table_names(const struct out *o);
/* Finish the document (JSON closing brackets). Return: 0, or -1 on a write error or a table out_table() refused. */
int out_close(struct out *o);

#endif
