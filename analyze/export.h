/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export.h - writing a run for other tools to read (analyze/export-*.c),
 * used by `vmscope export` (analyze/cmd-export.c).
 */
#ifndef VMS_EXPORT_H
#define VMS_EXPORT_H

#include <stdio.h>

struct vms_db;

struct vms_export_stats {
	long long events;	/* trace events written, metadata included */
	long long slices;	/* of them: complete slices */
	long long counters;	/* of them: counter values */
	int skipped;		/* parts skipped because the database lacks their table */
};

/*
 * vms_export_perfetto() - write @db as Chrome/Perfetto trace-event JSON to
 * @out, streaming. Return: 0, or -1 with vms_error set (@out then holds a
 * partial file the caller removes).
 */
int vms_export_perfetto(struct vms_db *db, FILE *out, struct vms_export_stats *stats);

#endif
