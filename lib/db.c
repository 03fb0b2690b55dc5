// SPDX-License-Identifier: GPL-2.0
/*
 * db.c - create and open vmscope databases. The DDL comes only from the
 * schema/NNN-name.sql files, embedded at build time (lib/schema-sql.h). A database
 * is recognised by its application_id and its schema version by
 * user_version; any other file or version is refused with a clear message,
 * never read half-right (an older version with the command that upgrades
 * it, lib/upgrade.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "vms.h"
#include "db-local.h"
#include "schema-sql.h"

/*
 * A full file system is the one SQLite failure a user can fix at once, and
 * SQLite words it vaguely ("database or disk is full", or a plain "disk I/O
 * error"): say it, naming the file. Return: 1 (vms_error set) or 0.
 */
static int disk_full(sqlite3 *sql, const char *path)
{
	int code = sqlite3_errcode(sql);

	if (code != SQLITE_FULL && !((code & 0xff) == SQLITE_IOERR &&
				     sqlite3_system_errno(sql) == ENOSPC))
		return 0;
	vms_error("cannot write '%s': no space left on its file system (%s)", path,
		  sqlite3_errmsg(sql));
	return 1;
}

static int sql_error(struct vms_db *db, const char *what)
{
	if (disk_full(db->sql, db->path))
		return -1;
	return vms_error("%s: %s: %s", db->path, what, sqlite3_errmsg(db->sql));
}

int vms_db_exec(struct vms_db *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db->sql, sql, NULL, NULL, &msg) != SQLITE_OK) {
		if (!disk_full(db->sql, db->path))
			vms_error("%s: %s", db->path, msg ? msg : sqlite3_errmsg(db->sql));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/*
 * Before SQLite's first use: no allocation statistics, whose global mutex
 * every malloc of every connection would take (vmscope never reads them).
 */
static void sqlite_setup(void)
{
	static int done;

	if (!done) {
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
		done = 1;
	}
}

static struct vms_db *db_alloc(const char *path)
{
	struct vms_db *db = calloc(1, sizeof(*db));

	sqlite_setup();
	if (!db || !(db->path = strdup(path))) {
		free(db);
		vms_error("out of memory");
		return NULL;
	}
	return db;
}

void vms_db_close(struct vms_db *db)
{
	if (!db)
		return;
	/* what was not committed is dropped: only vms_db_finish() and db_end() commit */
	if (db->writing)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close_v2(db->sql);	/* closes once the last statement is finalized */
	free(db->path);
	free(db);
}

struct sqlite3 *vms_db_sql(struct vms_db *db)
{
	return db->sql;
}

const char *vms_db_path(const struct vms_db *db)
{
	return db->path;
}

int db_apply_schema(sqlite3 *sql, const char *path, int at_finish)
{
	size_t i;

	for (i = 0; i < sizeof(schema_files) / sizeof(schema_files[0]); i++) {
		char *msg = NULL;

		if (schema_files[i].at_finish != at_finish)
			continue;
		if (sqlite3_exec(sql, schema_files[i].sql, NULL, NULL, &msg) != SQLITE_OK) {
			if (!disk_full(sql, path))
				vms_error("%s: %s (in schema file %s)", path,
					  msg ? msg : sqlite3_errmsg(sql), schema_files[i].name);
			sqlite3_free(msg);
			return -1;
		}
	}
	return 0;
}

int db_begin(struct vms_db *db)
{
	if (vms_db_exec(db, "BEGIN"))
		return -1;
	db->writing = 1;
	return 0;
}

int db_end(struct vms_db *db)
{
	if (vms_db_exec(db, "COMMIT"))
		return -1;
	db->writing = 0;
	return 0;
}

struct vms_db *vms_db_create(const char *path, int overwrite, const char *source_kind)
{
	struct vms_db *db;
	char sql[256];

	if (vms_db_may_replace(path, overwrite, NULL))
		return NULL;
	if (overwrite && unlink(path) && errno != ENOENT) {
		vms_error("cannot replace '%s': %s", path, strerror(errno));
		return NULL;
	}
	/* Leftovers of an earlier database of that name would be misread. */
	for (const char *sfx = "-journal"; sfx; sfx = strcmp(sfx, "-journal") ? NULL : "-wal") {
		char aux[4096];

		snprintf(aux, sizeof(aux), "%s%s", path, sfx);
		unlink(aux);
	}
	db = db_alloc(path);
	if (!db)
		return NULL;
	/* one thread per connection: no SQLite mutexes */
	if (sqlite3_open_v2(path, &db->sql, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL)) {
		vms_error("cannot create '%s': %s", path, sqlite3_errmsg(db->sql));
		goto err;
	}
	snprintf(sql, sizeof(sql),
		 "PRAGMA page_size = 16384; PRAGMA application_id = %d; PRAGMA user_version = %d;"
		 "PRAGMA journal_mode = %s; PRAGMA synchronous = OFF;",
		 VMS_APPLICATION_ID, VMS_SCHEMA_VERSION,
		 /* an import can be re-run; a recording must survive a crash */
		 strcmp(source_kind, "live") ? "OFF" : "WAL");
	if (vms_db_exec(db, sql) || db_begin(db) || db_apply_schema(db->sql, path, 0))
		goto err;
	{
		sqlite3_stmt *st_run;

		if (sqlite3_prepare_v2(db->sql,
				       "INSERT INTO run (id, status, source_kind, tool_version, created_at)"
				       " VALUES (1, ?, ?, ?, ?)", -1, &st_run, NULL)) {
			sql_error(db, "cannot write the run row");
			goto err;
		}
		sqlite3_bind_text(st_run, 1, strcmp(source_kind, "live") ? "importing" : "recording",
				  -1, SQLITE_STATIC);
		sqlite3_bind_text(st_run, 2, source_kind, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st_run, 3, VMS_VERSION, -1, SQLITE_STATIC);
		sqlite3_bind_text(st_run, 4, vms_utc_now(), -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st_run) != SQLITE_DONE) {
			sql_error(db, "cannot write the run row");
			sqlite3_finalize(st_run);
			goto err;
		}
		sqlite3_finalize(st_run);
	}
	return db;
err:
	vms_db_close(db);
	return NULL;
}

static int query_int(struct vms_db *db, const char *sql, long long *out)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

struct vms_db *db_open(const char *path, int flags, long long *version)
{
	/* one thread per connection (or the sink's threads in turn): no SQLite mutexes */
	int oflags = ((flags & VMS_OPEN_READONLY) ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) |
		     SQLITE_OPEN_NOMUTEX;
	long long app = 0;
	struct vms_db *db;
	struct stat sb;

	*version = 0;
	if (stat(path, &sb) || access(path, R_OK)) {
		vms_error("cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (S_ISDIR(sb.st_mode)) {
		vms_error("'%s' is a directory, not a vmscope database", path);
		return NULL;
	}
	if (sb.st_size == 0) {
		vms_error("'%s' is empty, not a vmscope database", path);
		return NULL;
	}
	db = db_alloc(path);
	if (!db)
		return NULL;
	if (sqlite3_open_v2(path, &db->sql, oflags, NULL)) {
		vms_error("cannot open '%s': %s", path, sqlite3_errmsg(db->sql));
		goto err;
	}
	if (query_int(db, "PRAGMA application_id", &app)) {
		vms_error("'%s' is not a database or is corrupt: %s", path, sqlite3_errmsg(db->sql));
		goto err;
	}
	if (app != VMS_APPLICATION_ID) {
		vms_error("'%s' is an SQLite database but not a vmscope one", path);
		goto err;
	}
	if (query_int(db, "PRAGMA user_version", version)) {
		vms_error("'%s' is corrupt: %s", path, sqlite3_errmsg(db->sql));
		goto err;
	}
	return db;
err:
	vms_db_close(db);
	return NULL;
}

int db_check_version(const char *path, long long ver, int older_ok)
{
	if (ver == VMS_SCHEMA_VERSION || (older_ok && ver >= 1 && ver < VMS_SCHEMA_VERSION))
		return 0;
	if (ver >= 1 && ver < VMS_SCHEMA_VERSION)
		return vms_error("'%s' has schema version %lld, older than this vmscope's (%d): run "
				 "'vmscope upgrade %s' to bring it up to date", path, ver,
				 VMS_SCHEMA_VERSION, path);
	if (ver > VMS_SCHEMA_VERSION)
		return vms_error("'%s' has schema version %lld, newer than this vmscope (%s) reads "
				 "(version %d): use a newer vmscope", path, ver, VMS_VERSION,
				 VMS_SCHEMA_VERSION);
	return vms_error("'%s' has schema version %lld; this vmscope (%s) reads version %d",
			 path, ver, VMS_VERSION, VMS_SCHEMA_VERSION);
}

struct vms_db *vms_db_open(const char *path, int flags)
{
	struct vms_db *db;
	sqlite3_stmt *st;
	const char *status;
	long long ver;

	db = db_open(path, flags, &ver);
	if (!db)
		return NULL;
	if (db_check_version(path, ver, 0))
		goto err;
	if (sqlite3_prepare_v2(db->sql, "SELECT status, status_detail FROM run WHERE id = 1",
			       -1, &st, NULL) != SQLITE_OK) {
		vms_error("'%s' is corrupt: %s", path, sqlite3_errmsg(db->sql));
		goto err;
	}
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		vms_error("'%s' has no run row: it is corrupt or was never written", path);
		goto err;
	}
	status = (const char *)sqlite3_column_text(st, 0);
	if (!(flags & VMS_OPEN_ANY_STATUS) && (!status || strcmp(status, "complete"))) {
		const char *detail = (const char *)sqlite3_column_text(st, 1);

		vms_warning("'%s' holds an incomplete run (%s%s%s): numbers may be short", path,
			    status ? status : "no status", detail ? ": " : "", detail ? detail : "");
	}
	sqlite3_finalize(st);
	return db;
err:
	vms_db_close(db);
	return NULL;
}

int vms_db_apply_schema_file(struct vms_db *db, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(schema_files) / sizeof(schema_files[0]); i++)
		if (!strcmp(schema_files[i].name, name)) {
			char *msg = NULL;

			if (sqlite3_exec(db->sql, schema_files[i].sql, NULL, NULL, &msg) == SQLITE_OK)
				return 0;
			if (!disk_full(db->sql, db->path))
				vms_error("%s: %s (in schema file %s)", db->path,
					  msg ? msg : sqlite3_errmsg(db->sql), name);
			sqlite3_free(msg);
			return -1;
		}
	return vms_error("no schema file '%s' in this build", name);
}

int vms_db_set_run_text(struct vms_db *db, const char *column, const char *value)
{
	sqlite3_stmt *st;
	char sql[128];
	int rc;

	sqlite3_snprintf(sizeof(sql), sql, "UPDATE run SET \"%w\" = ? WHERE id = 1", column);
	if (sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL))
		return sql_error(db, "cannot update the run row");
	sqlite3_bind_text(st, 1, value, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_error(db, "cannot update the run row");
}

int vms_db_set_run_int(struct vms_db *db, const char *column, long long value)
{
	sqlite3_stmt *st;
	char sql[128];
	int rc;

	sqlite3_snprintf(sizeof(sql), sql, "UPDATE run SET \"%w\" = ? WHERE id = 1", column);
	if (sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL))
		return sql_error(db, "cannot update the run row");
	sqlite3_bind_int64(st, 1, value);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_error(db, "cannot update the run row");
}

struct vms_db *vms_db_resume(const char *path)
{
	struct vms_db *db = vms_db_open(path, VMS_OPEN_ANY_STATUS);
	char *status = NULL;
	sqlite3_stmt *st;

	if (!db)
		return NULL;
	if (!sqlite3_prepare_v2(db->sql, "SELECT status FROM run", -1, &st, NULL)) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			status = strdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	if (!status || strcmp(status, "recording")) {
		vms_error("'%s' is not a recording that was cut off (its run is '%s')", path,
			  status ? status : "unreadable");
		goto err;
	}
	if (vms_db_exec(db, "PRAGMA synchronous = OFF") || db_begin(db))
		goto err;
	free(status);
	return db;
err:
	free(status);
	vms_db_close(db);
	return NULL;
}

int vms_db_commit(struct vms_db *db)
{
	if (!db->writing)
		return 0;
	return vms_db_exec(db, "COMMIT; BEGIN");
}

int vms_db_finish(struct vms_db *db, const char *detail)
{
	if (db_apply_schema(db->sql, db->path, 1) || vms_derive(db))
		return -1;
	if (vms_db_set_run_text(db, "status", detail ? "incomplete" : "complete") ||
	    vms_db_set_run_text(db, "status_detail", detail) ||
	    vms_db_set_run_text(db, "finished_at", vms_utc_now()))
		return -1;
	if (db->writing && db_end(db))
		return -1;
	/* Leave a single self-contained file behind. */
	return vms_db_exec(db, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;");
}
