/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live.h - a live tracing session in a private tracefs instance, or in a
 * borrowed one or the top-level buffer (live.c, instance.c).
 * Protocol:
 *  1. live_open(): instance created, clock mono, events enabled, formats
 *     stored; tracing still off.
 *  2. live_start(), then live_drain() as often as the buffers need: it
 *     copies pages into a spool file next to the database.
 *  3. live_stop() (tracing off, final drain), live_store_losses(), then
 *     live_decode(): the spooled events into the database.
 *  4. live_close() on every path: events disabled, instance removed (a
 *     borrowed buffer left as it was found), spool deleted.
 */
#ifndef VMS_RECORD_LIVE_H
#define VMS_RECORD_LIVE_H

#include <stdint.h>

struct vms_db;
struct vms_sink;
struct live_session;

struct live_options {
	const char **events;	/* "system" or "system:event"; none: the schema's events */
	int nevents;
	unsigned int buffer_kb;	/* per-CPU ring buffer size, 0: leave as is */
	const char *instance;	/* record into this existing instance, left as found */
	int top_level;		/* record into the top-level buffer, left as found */
};

/* Root and tracefs present? Return: 0, or -1 with vms_error naming what is missing. */
int live_check(void);
struct live_session *live_open(const struct live_options *opt, struct vms_db *db,
			       struct vms_sink *sink);
int live_start(struct live_session *s);
/*
 * Spool what the buffers hold, for at most @budget seconds (0: until empty).
 * Return: pages spooled by this call, or -1 (vms_error set).
 */
long live_drain(struct live_session *s, double budget);
int live_stop(struct live_session *s);
int live_store_losses(struct live_session *s, struct vms_db *db);
/*
 * live_decode() - decode the spooled pages into the database, in timestamp
 * order across CPUs, with a progress line unless @quiet. Return: 0 or -1.
 */
int live_decode(struct live_session *s, int quiet);
/* Events spooled so far; once decoded, events stored. */
uint64_t live_events(const struct live_session *s);
/* Events the spooled pages report as lost (a count the kernel knew). */
uint64_t live_lost_seen(const struct live_session *s);
uint64_t live_spool_bytes(const struct live_session *s);
/* The ring buffer's size per CPU, KiB (-1 unknown). */
long live_buffer_kb(const struct live_session *s);
void live_close(struct live_session *s);

#endif
