// SPDX-License-Identifier: GPL-2.0
/*
 * sink-schema.c - the sink's picture of the schema, read from the schema's
 * own description of itself: which table stores each event (event_table),
 * the columns of each typed table (PRAGMA table_info), the other names a
 * field goes by (field_alias) and the names a numeric column's text form may
 * use (vocab, column_vocab). Each table gets its INSERT and the writer's
 * multi-row INSERT here. See sink-local.h.
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sink-local.h"

static void free_vocab(void *p)
{
	struct vocab *v = p;
	int i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++)
		free(v->entries[i].name);
	free(v->entries);
	free(v);
}

static void free_table(void *p)
{
	struct vms_table *t = p;
	int i;

	if (!t)
		return;
	for (i = 0; i < t->ncols; i++)
		free(t->cols[i].name);
	for (i = 0; i < t->naliases; i++)
		free(t->aliases[i].alias);
	free(t->cols);
	free(t->aliases);
	free(t->name);
	sqlite3_finalize(t->insert);
	sqlite3_finalize(t->insert_n);
	free(t);
}

static int load_vocabs(struct vms_sink *s)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(vms_db_sql(s->db), "SELECT domain, name, value FROM vocab",
			       -1, &st, NULL))
		return sink_sql_fail(s, "cannot read the vocab table");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *domain = (const char *)sqlite3_column_text(st, 0);
		struct strmap_entry *e = strmap_get(&s->vocabs, domain, strlen(domain));
		struct vocab *v;
		struct vocab_entry *n;

		if (!e)
			goto oom;
		if (!e->value && !(e->value = calloc(1, sizeof(struct vocab))))
			goto oom;
		v = e->value;
		n = realloc(v->entries, (v->n + 1) * sizeof(*n));
		if (!n)
			goto oom;
		v->entries = n;
		n[v->n].name = strdup((const char *)sqlite3_column_text(st, 1));
		n[v->n].value = sqlite3_column_int64(st, 2);
		if (!n[v->n].name)
			goto oom;
		v->n++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sink_sql_fail(s, "cannot read the vocab table");
oom:
	sqlite3_finalize(st);
	return vms_error("out of memory");
}

/* Build the table description and its INSERT from PRAGMA table_info. */
/*
 * The columns of @t that table required_field lists (a database made before
 * that table existed lists none). Return: 0, or -1 with vms_error set.
 */
static int table_required_fields(struct vms_sink *s, struct vms_table *t)
{
	sqlite3 *db = vms_db_sql(s->db);
	sqlite3_stmt *st;
	char *q;
	int rc;

	if (sqlite3_table_column_metadata(db, NULL, "required_field", "col", NULL, NULL,
					  NULL, NULL, NULL) != SQLITE_OK)
		return 0;
	q = sqlite3_mprintf("SELECT col FROM required_field WHERE tbl = %Q", t->name);
	if (!q)
		return vms_error("out of memory");
	rc = sqlite3_prepare_v2(db, q, -1, &st, NULL);
	sqlite3_free(q);
	if (rc)
		return sink_sql_fail(s, "cannot read the schema");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 0);
		int ci = col ? vms_table_column(t, col) : -1;

		if (ci < 0 || ci >= 64) {
			sqlite3_finalize(st);
			return vms_error("schema: required_field names column '%s' that table "
					 "'%s' lacks", col ? col : "(null)", t->name);
		}
		t->required |= 1ULL << ci;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sink_sql_fail(s, "cannot read the schema");
}

struct vms_table *sink_load_table(struct vms_sink *s, const char *name)
{
	struct strmap_entry *e = strmap_get(&s->tables, name, strlen(name));
	struct vms_buf sql = { 0 };
	struct vms_table *t, **by_id;
	sqlite3_stmt *st = NULL;
	char *q = NULL;
	int rc;

	if (!e)
		goto oom;
	if (e->value)
		return e->value;
	/* in s->tables at once, so that free_table() releases it on any failure below */
	if (!(e->value = t = calloc(1, sizeof(*t))) || !(t->name = strdup(name)))
		goto oom;
	by_id = realloc(s->by_id, (s->ntables + 1) * sizeof(*by_id));
	if (!by_id)
		goto oom;
	s->by_id = by_id;
	t->id = s->ntables;
	by_id[s->ntables++] = t;
	t->event_col = t->system_col = t->json_col = t->payload_col = -1;
	t->generic = !strcmp(name, "event_generic");

	/* the names come from the database file, which is foreign input: quoted */
	q = sqlite3_mprintf("SELECT name, type FROM pragma_table_info(%Q) ORDER BY cid", name);
	if (!q)
		goto oom;
	if (sqlite3_prepare_v2(vms_db_sql(s->db), q, -1, &st, NULL)) {
		sink_sql_fail(s, "cannot read the schema");
		goto err;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *cname = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);
		struct column *c = realloc(t->cols, (t->ncols + 1) * sizeof(*c));

		if (!c)
			goto oom;
		t->cols = c;
		c = &t->cols[t->ncols];
		memset(c, 0, sizeof(*c));
		if (!(c->name = strdup(cname)))
			goto oom;
		c->is_text = type && !strcasecmp(type, "TEXT");
		if (!strcmp(cname, "event"))
			t->event_col = t->ncols;
		else if (t->generic && !strcmp(cname, "system"))
			t->system_col = t->ncols;
		else if (!strcmp(cname, "extra") || (t->generic && !strcmp(cname, "fields")))
			t->json_col = t->ncols;
		else if (t->generic && !strcmp(cname, "payload"))
			t->payload_col = t->ncols;
		t->ncols++;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (t->ncols <= COMMON_COLUMNS || t->json_col < 0) {
		vms_error("%s: table '%s' is missing or lacks the common columns",
			  vms_db_path(s->db), name);
		goto err;
	}

	/* Aliases and vocabularies of this table. */
	sqlite3_free(q);
	q = sqlite3_mprintf("SELECT alias, col, NULL, NULL FROM field_alias WHERE tbl = %Q"
			    " UNION ALL SELECT NULL, col, domain, is_flags FROM column_vocab"
			    " WHERE tbl = %Q", name, name);
	if (!q)
		goto oom;
	if (sqlite3_prepare_v2(vms_db_sql(s->db), q, -1, &st, NULL)) {
		sink_sql_fail(s, "cannot read the schema");
		goto err;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *alias = (const char *)sqlite3_column_text(st, 0);
		const char *col = (const char *)sqlite3_column_text(st, 1);
		int ci = vms_table_column(t, col);

		if (ci < 0) {
			vms_error("schema: '%s' names column '%s' that table '%s' lacks",
				  alias ? "field_alias" : "column_vocab", col, name);
			goto err;
		}
		if (alias) {
			struct alias *a = realloc(t->aliases, (t->naliases + 1) * sizeof(*a));

			if (!a)
				goto oom;
			t->aliases = a;
			a[t->naliases].col = ci;
			if (!(a[t->naliases].alias = strdup(alias)))
				goto oom;
			t->naliases++;
		} else {
			const char *domain = (const char *)sqlite3_column_text(st, 2);
			struct strmap_entry *v = strmap_find(&s->vocabs, domain, strlen(domain));

			if (!v) {
				vms_error("schema: vocabulary '%s' is empty", domain);
				goto err;
			}
			t->cols[ci].vocab = v->value;
			t->cols[ci].is_flags = sqlite3_column_int(st, 3);
		}
	}
	sqlite3_finalize(st);
	st = NULL;

	if (table_required_fields(s, t))
		goto err;

	sqlite3_free(q);
	q = sqlite3_mprintf("INSERT INTO \"%w\" VALUES (", name);
	if (!q || vms_buf_add(&sql, q, strlen(q)))
		goto oom;
	for (int i = 0; i < t->ncols; i++)
		if (vms_buf_add(&sql, i ? ",?" : "?", i ? 2 : 1))
			goto oom;
	if (vms_buf_add(&sql, ")", 1))
		goto oom;
	if (sqlite3_prepare_v3(vms_db_sql(s->db), sql.buf, -1, SQLITE_PREPARE_PERSISTENT,
			       &t->insert, NULL)) {
		sink_sql_fail(s, "cannot prepare an insert");
		goto err;
	}
	{
		/* "INSERT ... VALUES (?,...)" and ROWS_PER_INSERT - 1 more ",(?,...)" */
		size_t one = strlen(strchr(sql.buf, '('));
		char *group = strdup(strchr(sql.buf, '('));

		if (!group)
			goto oom;
		for (int r = 1; r < ROWS_PER_INSERT; r++)
			if (vms_buf_add(&sql, ",", 1) || vms_buf_add(&sql, group, one)) {
				free(group);
				goto oom;
			}
		free(group);
	}
	if (sqlite3_prepare_v3(vms_db_sql(s->db), sql.buf, -1, SQLITE_PREPARE_PERSISTENT,
			       &t->insert_n, NULL)) {
		sink_sql_fail(s, "cannot prepare an insert");
		goto err;
	}
	sqlite3_free(q);
	vms_buf_release(&sql);
	return t;
oom:
	vms_error("out of memory");
err:
	sqlite3_finalize(st);
	sqlite3_free(q);
	vms_buf_release(&sql);
	return NULL;
}

static int load_event_tables(struct vms_sink *s)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(vms_db_sql(s->db), "SELECT event, tbl FROM event_table", -1, &st, NULL))
		return sink_sql_fail(s, "cannot read the event_table table");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *ev = (const char *)sqlite3_column_text(st, 0);
		struct vms_table *t = sink_load_table(s, (const char *)sqlite3_column_text(st, 1));
		struct strmap_entry *e;

		if (!t)
			goto err;
		e = strmap_get(&s->event_tables, ev, strlen(ev));
		if (!e) {
			vms_error("out of memory");
			goto err;
		}
		e->value = t;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sink_sql_fail(s, "cannot read the event_table table");
	s->generic = sink_load_table(s, "event_generic");
	return s->generic ? 0 : -1;
err:
	sqlite3_finalize(st);
	return -1;
}

int sink_schema_load(struct vms_sink *s)
{
	strmap_init(&s->tables);
	strmap_init(&s->event_tables);
	strmap_init(&s->vocabs);
	return load_vocabs(s) || load_event_tables(s) ? -1 : 0;
}

void sink_schema_release(struct vms_sink *s)
{
	strmap_release(&s->event_tables, NULL);
	strmap_release(&s->tables, free_table);
	strmap_release(&s->vocabs, free_vocab);
	free(s->by_id);
	s->by_id = NULL;
	s->ntables = 0;
	sqlite3_close(s->schema_names);
	s->schema_names = NULL;
}

struct vms_table *vms_sink_table(struct vms_sink *s, const char *event)
{
	struct strmap_entry *e = strmap_find(&s->event_tables, event, strlen(event));

	return e ? e->value : s->generic;
}

int vms_table_is_generic(const struct vms_table *t)
{
	return t->generic;
}

int vms_table_is_lenient(const struct vms_table *t)
{
	return t->lenient;
}

const char *vms_table_name(const struct vms_table *t)
{
	return t->name;
}

int vms_table_columns(const struct vms_table *t)
{
	return t->ncols;
}

const char *vms_table_column_name(const struct vms_table *t, int col)
{
	return t->cols[col].name;
}

int vms_table_column_is_text(const struct vms_table *t, int col)
{
	return t->cols[col].is_text;
}

int sink_column(const struct vms_table *t, const char *name, size_t len)
{
	int i;

	for (i = COMMON_COLUMNS; i < t->ncols; i++)
		if (i != t->json_col && i != t->event_col && sink_name_is(t->cols[i].name, name, len))
			return t->generic ? -1 : i;
	for (i = 0; i < t->naliases; i++)
		if (sink_name_is(t->aliases[i].alias, name, len))
			return t->aliases[i].col;
	return -1;
}

int vms_table_column(const struct vms_table *t, const char *name)
{
	return sink_column(t, name, strlen(name));
}

