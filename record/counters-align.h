/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters-align.h - put counters read from files on the trace clock
 * (counters-align.c: the order of the ways and the automatic fit).
 */
#ifndef VMS_RECORD_COUNTERS_ALIGN_H
#define VMS_RECORD_COUNTERS_ALIGN_H

struct vms_db;
struct cset_file;

struct counters_align_options {
	int has_offset;			/* --counters-offset given */
	long long offset_ns;		/* its value */
};

/*
 * counters_align() - set offset_ns, aligned_by, residual and detail of each
 * of @files against the trace in @db (its events stored, tasks written).
 * Return: 0, or -1 with vms_error saying which file cannot be aligned and
 * what to give instead.
 */
int counters_align(struct vms_db *db, struct cset_file *files, int nfiles,
		   const struct counters_align_options *opt);

#endif
