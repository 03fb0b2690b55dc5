/* SPDX-License-Identifier: GPL-2.0 */
/*
 * db-local.h - what lib/db.c shares with lib/upgrade.c: the database handle
 * and the two steps of opening and of applying the schema that upgrading
 * needs apart. Not part of the public interface: see vms.h.
 *
 * The handle's transaction: db->writing is 1 while a write transaction is
 * open (vms_db_create(), vms_db_resume(), db_begin()); vms_db_finish() and
 * db_end() commit it; vms_db_close() rolls back one still open.
 */
#ifndef VMS_DB_LOCAL_H
#define VMS_DB_LOCAL_H

#include <sqlite3.h>

struct vms_db {
	sqlite3 *sql;
	char *path;
	int writing;		/* a write transaction is open */
};

/*
 * db_open() - vms_db_open() without its schema-version check
 * @version: out, the file's PRAGMA user_version
 * Return: handle (caller frees with vms_db_close()), or NULL with vms_error set.
 */
struct vms_db *db_open(const char *path, int flags, long long *version);
/*
 * db_check_version() - whether this vmscope reads schema version @ver
 * @older_ok: accept the older versions too (the upgrade's)
 * Return: 0, or -1 with vms_error set: the message names `vmscope upgrade`
 * for an older version, a newer vmscope for a newer one.
 */
int db_check_version(const char *path, long long ver, int older_ok);
/* Run the schema files applied at creation (@at_finish 0) or at finish (1) on @sql. */
int db_apply_schema(sqlite3 *sql, const char *path, int at_finish);
/* BEGIN / COMMIT of the handle's write transaction. Return: 0, or -1 with vms_error set. */
int db_begin(struct vms_db *db);
int db_end(struct vms_db *db);

#endif
