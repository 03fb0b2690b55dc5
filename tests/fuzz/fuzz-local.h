/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz-local.h - what the libFuzzer targets of tests/fuzz share: a scratch
 * directory for the inputs that must be files (the importers and SQLite
 * read paths, not buffers), made once per process.
 */
#ifndef VMS_FUZZ_LOCAL_H
#define VMS_FUZZ_LOCAL_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_dir_path[256];

/* At exit: the scratch directory's files (no subdirectories), then itself. */
static inline void fuzz_dir_remove(void)
{
	DIR *d = opendir(fuzz_dir_path);
	struct dirent *e;
	char path[768];

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", fuzz_dir_path, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(fuzz_dir_path);
}

/* The scratch directory, made on first use (in /dev/shm when there is one). */
static inline const char *fuzz_dir(void)
{
	char *dir = fuzz_dir_path;

	if (!dir[0]) {
		const char *base = access("/dev/shm", W_OK) ? (getenv("TMPDIR") ? getenv("TMPDIR") :
							       "/tmp") : "/dev/shm";

		snprintf(dir, sizeof(fuzz_dir_path), "%s/vmscope-fuzz-XXXXXX", base);
		if (!mkdtemp(dir))
			abort();
		atexit(fuzz_dir_remove);
	}
	return dir;
}

/* @path (in fuzz_dir()) holding @size bytes of @data. Aborts on failure: the fuzzer's own fault. */
static inline const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fuzz_dir(), name);
	f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
	return path;
}

#ifdef VMS_IMPORT_H
/* Import @size bytes of @data as the file @name into a scratch database, then remove it. */
static inline void fuzz_import(const char *name, const uint8_t *data, size_t size)
{
	struct vms_import_options opt = { 0 };
	struct vms_import_result res = { 0 };
	char db[512];

	snprintf(db, sizeof(db), "%s/%s.db", fuzz_dir(), name);
	opt.output = db;
	opt.force = 1;
	opt.quiet = 1;
	vms_import(fuzz_file(name, data, size), &opt, &res);
	vms_import_result_release(&res);
	vms_remove_db_files(db);
}
#endif

#endif
