// SPDX-License-Identifier: GPL-2.0
/*
 * upgrade.c - bring a database written by an older vmscope to this schema
 * version, in place (`vmscope upgrade`, docs/upgrade.md). The events and
 * counters of a run are kept as they are; what a later vmscope derives from
 * them differently (the tables of the schema files applied at finish,
 * schema/9NN-*.sql) is dropped and derived again. That is also what
 * `vmscope upgrade --rederive` does on a current database whose events were
 * changed by hand.
 *
 * How it works: in one write transaction (a rollback journal, so that a
 * failure or a crash leaves the file as it was):
 *  1. the migration step of each version passed (steps[] below; none of the
 *     versions so far changed a table that an import writes: version 2 adds
 *     the replay tables where they are missing);
 *  2. for a finished run, every table and view the 9NN files create is
 *     dropped: which ones is found by applying the schema to an empty
 *     in-memory database, so a new 9NN file needs nothing here. Then the
 *     9NN files are applied and vms_derive() fills their tables. A run still
 *     being recorded ('recording') is derived when it is finished;
 *  3. PRAGMA user_version is set, and the transaction committed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "db-local.h"

/*
 * Migrations of the tables an import writes, from version .to - 1 to .to;
 * NULL when the version changed only derived tables (step 2 does those).
 */
static int to_v2(struct vms_db *db)
{
	/* the replay tables, which version 1 databases of the first builds lack */
	return vms_db_apply_schema_file(db, "007-replay.sql");
}

static const struct upgrade_step {
	int to;
	int (*run)(struct vms_db *db);
} steps[] = {
	/* 2: shrinker_name, shrink_bucket.name, episode.nodes and .lost; the views of
	 * 006-views.sql replaced by the tables of 910-derived.sql (step 2) */
	{ 2, to_v2 },
};

/*
 * The tables and views the schema files applied at finish create, as an
 * SQL list of quoted names ('a', 'b'), from an empty in-memory database.
 * Return: the list (caller frees with sqlite3_free()), or NULL with vms_error set.
 */
static char *derived_names(void)
{
	static const char list_sql[] =
		"SELECT group_concat(quote(name), ', ') FROM sqlite_schema"
		" WHERE type IN ('table', 'view') AND (type, name) NOT IN"
		" (SELECT type, name FROM temp.before)";
	sqlite3_stmt *st = NULL;
	char *names = NULL;
	sqlite3 *mem = NULL;

	if (sqlite3_open(":memory:", &mem) != SQLITE_OK) {
		vms_error("cannot open an in-memory database: %s", sqlite3_errmsg(mem));
		goto out;
	}
	if (db_apply_schema(mem, ":memory:", 0))
		goto out;
	if (sqlite3_exec(mem, "CREATE TEMP TABLE before AS SELECT type, name FROM sqlite_schema",
			 NULL, NULL, NULL) != SQLITE_OK)
		goto sql_fail;
	if (db_apply_schema(mem, ":memory:", 1))
		goto out;
	if (sqlite3_prepare_v2(mem, list_sql, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		goto sql_fail;
	names = sqlite3_mprintf("%s", sqlite3_column_text(st, 0) ?
				(const char *)sqlite3_column_text(st, 0) : "''");
	if (!names)
		vms_error("out of memory");
	goto out;
sql_fail:
	vms_error("cannot list the derived tables: %s", sqlite3_errmsg(mem));
out:
	sqlite3_finalize(st);
	sqlite3_close(mem);
	return names;
}

/* Drop the tables and views of the 9NN schema files that @db holds. Return: 0 or -1. */
static int drop_derived(struct vms_db *db)
{
	char *names = derived_names(), *q;
	sqlite3_stmt *st = NULL;
	struct vms_buf drop = { 0 };
	int rc;

	if (!names)
		return -1;
	q = sqlite3_mprintf("SELECT type, name FROM main.sqlite_schema WHERE type IN"
			    " ('table', 'view') AND name IN (%s)", names);
	sqlite3_free(names);
	if (!q)
		return vms_error("out of memory");
	rc = sqlite3_prepare_v2(db->sql, q, -1, &st, NULL);
	sqlite3_free(q);
	if (rc != SQLITE_OK)
		return vms_error("%s: %s", db->path, sqlite3_errmsg(db->sql));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		char *one = sqlite3_mprintf("DROP %s \"%w\";", strcmp(type, "view") ? "TABLE" : "VIEW",
					    (const char *)sqlite3_column_text(st, 1));

		if (!one || vms_buf_add(&drop, one, strlen(one))) {
			sqlite3_free(one);
			rc = SQLITE_NOMEM;
			break;
		}
		sqlite3_free(one);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		vms_buf_release(&drop);
		return rc == SQLITE_NOMEM ? vms_error("out of memory")
					  : vms_error("%s: %s", db->path, sqlite3_errmsg(db->sql));
	}
	rc = drop.len ? vms_db_exec(db, drop.buf) : 0;
	vms_buf_release(&drop);
	return rc;
}

/* Return: 1 when the run is finished (its status is not 'recording'), 0 not, -1 on error. */
static int run_finished(struct vms_db *db)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->sql, "SELECT status FROM run WHERE id = 1", -1, &st, NULL))
		return vms_error("'%s' is corrupt: %s", db->path, sqlite3_errmsg(db->sql));
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *status = (const char *)sqlite3_column_text(st, 0);

		rc = !status || strcmp(status, "recording");
	} else {
		rc = vms_error("'%s' has no run row: it is corrupt or was never written", db->path);
	}
	sqlite3_finalize(st);
	return rc;
}

int vms_db_upgrade(const char *path, int flags, int *old_version)
{
	struct vms_db *db;
	long long ver;
	int rc = -1, finished;
	size_t i;

	db = db_open(path, VMS_OPEN_ANY_STATUS, &ver);
	if (!db)
		return -1;
	if (old_version)
		*old_version = (int)ver;
	if (db_check_version(path, ver, 1))
		goto out;
	if (ver == VMS_SCHEMA_VERSION && !(flags & VMS_UPGRADE_REDERIVE)) {
		rc = 1;
		goto out;
	}
	/* a finished run is in rollback-journal mode already; a recording keeps its WAL */
	if ((finished = run_finished(db)) < 0 ||
	    (finished && vms_db_exec(db, "PRAGMA journal_mode = DELETE")) || db_begin(db))
		goto out;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i].to > ver && steps[i].run && steps[i].run(db))
			goto out;
	if (finished && (drop_derived(db) || db_apply_schema(db->sql, db->path, 1) ||
			 vms_derive(db)))
		goto out;
	{
		char q[64];

		snprintf(q, sizeof(q), "PRAGMA user_version = %d", VMS_SCHEMA_VERSION);
		if (vms_db_exec(db, q) || db_end(db))
			goto out;
	}
	rc = 0;
out:
	vms_db_close(db);	/* rolls back what a failure left open */
	return rc;
}
