/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live.h - a live tracing session in a private tracefs instance (live.c).
 * Protocol:
 *  1. live_open(): instance created, clock mono, events enabled, formats
 *     stored; tracing still off.
 *  2. live_start(), then live_drain() as often as the buffers need.
 *  3. live_stop() (tracing off, final drain), live_store_losses().
 *  4. live_close() on every path: events disabled, instance removed.
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
};

/* Root and tracefs present? Return: 0, or -1 with vms_error naming what is missing. */
int live_check(void);
struct live_session *live_open(const struct live_options *opt, struct vms_db *db,
			       struct vms_sink *sink);
int live_start(struct live_session *s);
/*
 * Store what the buffers hold, for at most @budget seconds (0: until empty).
 * Return: events stored by this call, or -1 (vms_error set).
 */
long live_drain(struct live_session *s, double budget);
int live_stop(struct live_session *s);
int live_store_losses(struct live_session *s, struct vms_db *db);
uint64_t live_events(const struct live_session *s);
void live_close(struct live_session *s);

#endif
