// SPDX-License-Identifier: GPL-2.0
/*
 * db-replace.c - may a command write its database to this path? A path that
 * does not exist always; an existing one only with --force, and then only
 * when it is a regular file holding a vmscope database (SQLite header and
 * our application_id) and is not the very file being read (same st_dev and
 * st_ino, so a symlink or another name of the input is caught too). This
 * keeps `-o /dev/null -f`, `-o notes.txt -f` and `-o INPUT -f` from
 * destroying what the user did not mean to replace.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vms.h"

/* Does the file at @path start like a vmscope database? */
static int is_vmscope_db(const char *path)
{
	static const char sqlite_magic[16] = "SQLite format 3";
	unsigned char head[72];
	unsigned long app_id;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n != (ssize_t)sizeof(head) || memcmp(head, sqlite_magic, sizeof(sqlite_magic)))
		return 0;
	/* the header's application_id: 4 bytes big-endian at offset 68 */
	app_id = (unsigned long)head[68] << 24 | head[69] << 16 | head[70] << 8 | head[71];
	return app_id == VMS_APPLICATION_ID;
}

int vms_db_may_replace(const char *path, int force, const char *input)
{
	struct stat out, in;

	if (stat(path, &out)) {
		if (errno == ENOENT && lstat(path, &out))
			return 0;	/* nothing there (not even a dangling symlink) */
		if (errno != ENOENT)
			return vms_error("cannot check '%s': %s", path, strerror(errno));
		return vms_error("'%s' is a symbolic link to nothing; --force does not replace it",
				 path);
	}
	if (!force)
		return vms_error("'%s' already exists (use --force to replace it)", path);
	if (input && !stat(input, &in) && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
		return vms_error("'%s' is the input '%s' itself; --force does not replace it",
				 path, input);
	if (!S_ISREG(out.st_mode))
		return vms_error("'%s' is not a regular file; --force only replaces a vmscope "
				 "database", path);
	if (!is_vmscope_db(path))
		return vms_error("'%s' is not a vmscope database; --force only replaces one", path);
	return 0;
}
