/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scratch-db.h - a vmscope database for a C unit test that leaves no file:
 * made under /tmp and unlinked at once (SQLite keeps it open). Include
 * after vms.h and tap.h.
 */
#ifndef VMS_SCRATCH_DB_H
#define VMS_SCRATCH_DB_H

#include <stdlib.h>
#include <unistd.h>

/* A new database for test @name; on failure a failed test and the test's end. */
static inline struct vms_db *scratch_db(const char *name)
{
	char path[256];
	struct vms_db *db;
	int fd;

	snprintf(path, sizeof(path), "/tmp/%s-XXXXXX", name);
	fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
	unlink(path);
	db = vms_db_create(path, 1, "test");
	unlink(path);
	if (!db) {
		ok(0, "cannot create a scratch database: %s", vms_last_error());
		exit(done_testing());
	}
	return db;
}

#endif
