/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spool.h - the raw ring-buffer pages of a live recording, kept in a file
 * next to the database while the workload runs and decoded when the
 * recording stops (spool.c). Copying pages is all the recorder does while
 * tracing, like `trace-cmd record`, so that it disturbs the traced machine
 * as little as possible.
 */
#ifndef VMS_RECORD_SPOOL_H
#define VMS_RECORD_SPOOL_H

#include <stddef.h>
#include <stdint.h>

struct spool;
struct vms_db;
struct vms_sink;

/* Pages that are not ring-buffer pages carry one of these instead of a CPU: */
#define SPOOL_SYSTEMS	(-16)	/* the trace event systems enabled, one per line */
#define SPOOL_CMDLINES	(-15)	/* the kernel's saved_cmdlines, when it changed */

/* A page as read back: which CPU's buffer it came from, and its bytes. */
struct spool_page {
	int cpu;
	const void *data;
	size_t len;
};

/* Create the spool file @path (an existing file is replaced). Return: NULL with vms_error set. */
struct spool *spool_create(const char *path);
/* Open the spool @path that a recorder left behind. Return: NULL with vms_error set. */
struct spool *spool_open(const char *path);
/* Append one page of @cpu (or a SPOOL_* record). Return: 0, or -1 (vms_error names the file). */
int spool_append(struct spool *sp, int cpu, const void *page, size_t len);
/* Write out what is buffered. Return: 0 or -1. */
int spool_flush(struct spool *sp);
uint64_t spool_bytes(const struct spool *sp);
const char *spool_path(const struct spool *sp);
/*
 * spool_read() - map the spool for reading, after spool_flush()
 *
 * Return: the number of pages, with *@pages an array in the order they were
 * appended (valid until spool_free()); -1 if the file cannot be read back or
 * is damaged (vms_error names the file and offset).
 */
long spool_read(struct spool *sp, const struct spool_page **pages);
/* Keep the file when spool_free() closes it (it holds events not stored). */
void spool_keep(struct spool *sp, int keep);
/* Close the file and delete it unless kept; @sp may be NULL. */
void spool_free(struct spool *sp);
/*
 * spool_decode() - decode the spooled pages of @sp into @db through @sink
 *
 * The records of all CPUs are merged by timestamp; the event formats are
 * those of the running kernel (the spool must come from this boot). A
 * progress line is shown unless @quiet. *@events: events stored.
 * Return: 0, or -1 (vms_error set; what was stored stays stored).
 */
int spool_decode(struct spool *sp, struct vms_db *db, struct vms_sink *sink, int quiet,
		 uint64_t *events);

#endif
