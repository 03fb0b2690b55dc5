/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - counter sampling for `vmscope record` (see counters.c).
 * Protocol: counters_new(), then counters_sample() at each interval, then
 * counters_free(). counters_store_sysctls() once at the start.
 */
#ifndef VMS_RECORD_COUNTERS_H
#define VMS_RECORD_COUNTERS_H

#include <stdint.h>

struct vms_db;
struct counters;

/* @memcg_dir: a memory cgroup directory to sample memory.stat from, or NULL. */
struct counters *counters_new(struct vms_db *db, const char *memcg_dir);
void counters_free(struct counters *c);
/* Read every counter file once. Return: 0 or -1 (vms_error set). */
int counters_sample(struct counters *c);
uint64_t counters_samples(const struct counters *c);
/* Store the reclaim-shaping sysctls in the sysctl table. Return: 0 or -1. */
int counters_store_sysctls(struct vms_db *db);
/* Store a cgroup v1 memcg's memory.swappiness as 'memcg.swappiness'. Return: 0 or -1. */
int counters_store_memcg_swappiness(struct vms_db *db, const char *memcg_dir);
/* Return: CLOCK_MONOTONIC in ns (the `mono` trace clock). */
uint64_t counters_now_ns(void);

#endif
