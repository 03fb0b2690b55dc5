// SPDX-License-Identifier: GPL-2.0
/*
 * sink-generate.c - a typed table for an event the schema does not know,
 * made from the event's own format on first sight (vms_sink_table_for_format()):
 * the common columns (seq, ts, cpu, pid), one column per field, named by the
 * field (INTEGER for numbers, TEXT for strings and for other arrays, as hex),
 * and `extra` for what a later record carries beyond the format. The table
 * is listed in event_table, so every reader of the schema finds it as it
 * finds the schema's own, and in generated_table with where its format came
 * from. Nothing of such an event is stored as JSON.
 *
 * In a reader process (sink-reader.c) the table is only described: the
 * reader has no database connection, so it keeps the columns for
 * serializing its rows and sends the description; the parent makes the
 * table, under the same id, and chooses its name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sink-local.h"
#include "db-local.h"

#define NAME_MAX_LEN 64		/* of a generated table or column name */

static const char *const reserved[] = { "seq", "ts", "cpu", "pid", "extra" };

static int is_reserved(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (!strcasecmp(name, reserved[i]))
			return 1;
	return 0;
}

#define COLNAME (NAME_MAX_LEN + 32)

static int name_taken(char (*cols)[COLNAME], int n, const char *name)
{
	int j;

	if (is_reserved(name))
		return 1;
	for (j = 0; j < n; j++)
		if (!strcasecmp(cols[j], name))
			return 1;
	return 0;
}

/*
 * The columns of the @n fields: each field's name; field_NAME when that is
 * a common column's name (pid, cpu, ...) or an earlier column's (SQLite
 * names are case-insensitive); field_NAME_I when even that is taken.
 * Return: the names (caller frees), or NULL with vms_error set.
 */
static char (*column_names(const struct vms_field_desc *f, int n))[COLNAME]
{
	char (*cols)[COLNAME] = calloc(n ? n : 1, COLNAME);
	int i, k;

	if (!cols) {
		vms_error("out of memory");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		snprintf(cols[i], COLNAME, "%.*s", NAME_MAX_LEN, f[i].name);
		if (!name_taken(cols, i, cols[i]))
			continue;
		snprintf(cols[i], COLNAME, "field_%.*s", NAME_MAX_LEN, f[i].name);
		for (k = i; name_taken(cols, i, cols[i]); k++)
			snprintf(cols[i], COLNAME, "field_%.*s_%d", NAME_MAX_LEN, f[i].name, k);
	}
	return cols;
}

/* A field name from a format (foreign input): printable, no quote games, not empty. */
static int valid_field_name(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (!*p)
		return 0;
	for (; *p; p++)
		if (*p < 0x21 || *p > 0x7e)
			return 0;
	return 1;
}

/* Is field @i the first of its exact name? 1: no earlier field has it. */
static int is_first_of_name(const struct vms_field_desc *f, int i)
{
	int j;

	for (j = 0; j < i; j++)
		if (!strcmp(f[j].name, f[i].name))
			return 0;
	return 1;
}

/* Table @t, not in the database: just its columns (a reader's view of it). */
static struct vms_table *describe(struct vms_sink *s, const char *key, const char *event,
				  const struct vms_field_desc *f, int n)
{
	struct strmap_entry *e = strmap_get(&s->tables, key, strlen(key));
	struct vms_table *t, **by_id = NULL;
	int i, ncols = COMMON_COLUMNS + n + 1;
	char (*cols)[COLNAME] = column_names(f, n);

	if (!cols)
		return NULL;
	if (!e || e->value || !(t = calloc(1, sizeof(*t))))
		goto oom;
	e->value = t;		/* released with the other tables */
	t->cols = calloc(ncols, sizeof(*t->cols));
	by_id = realloc(s->by_id, (s->ntables + 1) * sizeof(*by_id));
	if (!t->cols || !by_id || !(t->name = strdup(event)))
		goto oom_table;
	s->by_id = by_id;
	t->event_col = t->system_col = t->payload_col = -1;
	for (i = 0; i < ncols; i++) {
		const char *cname = i < COMMON_COLUMNS ? reserved[i] :
				    i < ncols - 1 ? cols[i - COMMON_COLUMNS] : "extra";

		if (i >= COMMON_COLUMNS && i < ncols - 1)
			t->cols[i].is_text = f[i - COMMON_COLUMNS].is_text;
		if (!(t->cols[i].name = strdup(cname)))
			goto oom_table;
		t->ncols++;
	}
	t->json_col = ncols - 1;
	/* the aliases create() writes, so that fields are bound to the same columns */
	t->aliases = calloc(n ? n : 1, sizeof(*t->aliases));
	if (!t->aliases)
		goto oom_table;
	for (i = 0; i < n; i++) {
		if (!strcmp(cols[i], f[i].name) || !is_first_of_name(f, i))
			continue;
		if (!(t->aliases[t->naliases].alias = strdup(f[i].name)))
			goto oom_table;
		t->aliases[t->naliases++].col = COMMON_COLUMNS + i;
	}
	t->id = s->ntables;
	by_id[s->ntables++] = t;
	free(cols);
	return t;
oom_table:
	if (by_id)
		s->by_id = by_id;
oom:
	free(cols);
	vms_error("out of memory");
	return NULL;
}

/*
 * Every table and view of this vmscope's schema, those made when a run is
 * finished included (episode, kswapd_run, ...), in an in-memory database
 * kept for the sink's life: a generated table must not take their names.
 * Return: 0, or -1 with vms_error set.
 */
static int schema_names(struct vms_sink *s)
{
	if (s->schema_names)
		return 0;
	if (sqlite3_open(":memory:", &s->schema_names) != SQLITE_OK) {
		vms_error("cannot open an in-memory database: %s", sqlite3_errmsg(s->schema_names));
		sqlite3_close(s->schema_names);
		s->schema_names = NULL;
		return -1;
	}
	if (db_apply_schema(s->schema_names, ":memory:", 0) ||
	    db_apply_schema(s->schema_names, ":memory:", 1)) {
		sqlite3_close(s->schema_names);
		s->schema_names = NULL;
		return -1;
	}
	return 0;
}

static int schema_has(struct vms_sink *s, const char *name)
{
	sqlite3_stmt *st;
	int found;

	if (sqlite3_prepare_v2(s->schema_names, "SELECT 1 FROM sqlite_schema WHERE lower(name) = lower(?1)",
			       -1, &st, NULL))
		return 1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/*
 * The name of the new table: the event's if free (in the database and in
 * the schema), else SYSTEM_EVENT (text_EVENT for a text trace), else with a number.
 */
static int choose_name(struct vms_sink *s, const char *system, const char *event, char *out,
		       size_t size)
{
	sqlite3_stmt *st;
	int i, taken = 1;

	if (schema_names(s))
		return -1;
	if (sqlite3_prepare_v2(vms_db_sql(s->db),
			       "SELECT 1 FROM sqlite_master WHERE lower(name) = lower(?1)", -1, &st, NULL))
		return sink_sql_fail(s, "cannot read the schema");
	for (i = 0; taken && i < 100; i++) {
		if (!i)
			snprintf(out, size, "%.*s", NAME_MAX_LEN, event);
		else if (i == 1)
			snprintf(out, size, "%.*s_%.*s", NAME_MAX_LEN, *system ? system : "text",
				 NAME_MAX_LEN, event);
		else
			snprintf(out, size, "%.*s_%.*s_%d", NAME_MAX_LEN, *system ? system : "text",
				 NAME_MAX_LEN, event, i);
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, out, -1, SQLITE_STATIC);
		taken = sqlite3_step(st) == SQLITE_ROW || strmap_find(&s->tables, out, strlen(out)) ||
			schema_has(s, out) || !strncmp(out, "sqlite_", 7);
	}
	sqlite3_finalize(st);
	return taken ? vms_error("no free table name for event '%s'", event) : 0;
}

/* Run @sql (an sqlite3_mprintf() result, freed here). Return: 0 or -1. */
static int exec_free(struct vms_sink *s, char *sql)
{
	int rc;

	if (!sql)
		return vms_error("out of memory");
	rc = sqlite3_exec(vms_db_sql(s->db), sql, NULL, NULL, NULL);
	sqlite3_free(sql);
	return rc ? sink_sql_fail(s, "cannot make a table for an event") : 0;
}

/* Make the table in the database and load it as the schema's own tables are. */
static struct vms_table *create(struct vms_sink *s, const char *system, const char *event,
				const struct vms_field_desc *f, int n, const char *source)
{
	struct vms_buf ddl = { 0 };
	char name[3 * NAME_MAX_LEN];
	char (*cols)[COLNAME];
	struct vms_table *t = NULL;
	int i;

	if (sink_flush(s) || choose_name(s, system, event, name, sizeof(name)))
		return NULL;
	/* a database of an earlier build (record --recover) may lack the catalog */
	if (vms_db_apply_schema_file(s->db, "011-generated.sql"))
		return NULL;
	cols = column_names(f, n);
	if (!cols)
		return NULL;
	if (vms_buf_addf(&ddl, "CREATE TABLE \"%s\" (seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL,"
			 " cpu INTEGER NOT NULL, pid INTEGER NOT NULL", name))
		goto oom;
	for (i = 0; i < n; i++) {
		char *q = sqlite3_mprintf(", \"%w\" %s", cols[i], f[i].is_text ? "TEXT" : "INTEGER");

		if (!q || vms_buf_add(&ddl, q, strlen(q))) {
			sqlite3_free(q);
			goto oom;
		}
		sqlite3_free(q);
	}
	if (vms_buf_addf(&ddl, ", extra TEXT)") || !ddl.buf)
		goto oom;
	/* the table name is ours (an event name is [A-Za-z0-9_]+ here), the columns quoted */
	i = sqlite3_exec(vms_db_sql(s->db), ddl.buf, NULL, NULL, NULL);
	vms_buf_release(&ddl);
	if (i) {
		sink_sql_fail(s, "cannot make a table for an event");
		goto out;
	}
	if (
	    exec_free(s, sqlite3_mprintf("INSERT INTO event_table (event, system, tbl) VALUES (%Q, %Q, %Q);"
					 "INSERT INTO generated_table (tbl, system, event, fields, source)"
					 " VALUES (%Q, %Q, %Q, %d, %Q)", event, system, name, name,
					 system, event, n, source)))
		goto out;
	for (i = 0; i < n; i++) {
		/* a renamed field is found by its name through an alias; a repeated name cannot be */
		if (strcmp(cols[i], f[i].name) && is_first_of_name(f, i) &&
		    exec_free(s, sqlite3_mprintf("INSERT INTO field_alias (tbl, alias, col, note)"
						 " VALUES (%Q, %Q, %Q, 'field renamed: its name is a"
						 " common column''s, or an earlier one''s in another case')",
						 name, f[i].name, cols[i])))
			goto out;
	}
	t = sink_load_table(s, name);
	if (t)
		t->lenient = !strcmp(source, "text fields");
	goto out;
oom:
	vms_buf_release(&ddl);
	vms_error("out of memory");
out:
	free(cols);
	return t;
}

/* An event or system name we make a table name of: [A-Za-z0-9_]+. */
static int valid_event_name(const char *name)
{
	const char *p = name;

	if (!*p || strlen(p) > NAME_MAX_LEN)
		return 0;
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_'))
			return 0;
	return 1;
}

struct vms_table *sink_generate_table(struct vms_sink *s, const char *system, const char *event,
				      const struct vms_field_desc *f, int n, const char *source)
{
	struct strmap_entry *e;
	struct vms_table *t;
	char key[2 * NAME_MAX_LEN + 8];
	int i;

	if (!valid_event_name(event) || (*system && !valid_event_name(system)) || n < 0 || n > 1000)
		return s->generic;	/* not a name to make a table of: kept as JSON, said in docs */
	for (i = 0; i < n; i++)
		if (!valid_field_name(f[i].name))
			return s->generic;
	if (s->reader) {
		snprintf(key, sizeof(key), "\001%s", event);
		t = describe(s, key, event, f, n);
		if (t && sink_reader_table(s, t, system, event, f, n, source))
			t = NULL;
	} else {
		t = create(s, system, event, f, n, source);
	}
	if (!t)
		return NULL;
	e = strmap_get(&s->event_tables, event, strlen(event));
	if (!e) {
		vms_error("out of memory");
		return NULL;
	}
	e->value = t;
	return t;
}

struct vms_table *vms_sink_table_for_format(struct vms_sink *s, const char *system,
					    const char *event, const struct vms_field_desc *fields,
					    int nfields, const char *source)
{
	struct strmap_entry *e = strmap_find(&s->event_tables, event, strlen(event));

	if (e)
		return e->value;
	return sink_generate_table(s, system ? system : "", event, fields, nfields, source);
}
