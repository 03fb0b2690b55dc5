/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec-maps.h - the file ranges a memcg's tasks map executable, read from
 * /proc/PID/maps for `vmscope record -m` (see exec-maps.c). Protocol:
 * exec_maps_new(), exec_maps_poll() at each interval (it reads every
 * 100 ms, or 3 ms per task when there are more), exec_maps_free().
 */
#ifndef VMS_RECORD_EXEC_MAPS_H
#define VMS_RECORD_EXEC_MAPS_H

#include <stdint.h>

struct vms_db;
struct exec_maps;

/* @memcg_dir: the memory cgroup whose tasks (cgroup.procs) are read. */
struct exec_maps *exec_maps_new(struct vms_db *db, const char *memcg_dir);
void exec_maps_free(struct exec_maps *em);
/* Read the tasks' maps if their period has passed (@force: now). Return: 0 or -1 (vms_error set). */
int exec_maps_poll(struct exec_maps *em, int force);
/* Rows stored (mappings seen for the first time). */
uint64_t exec_maps_rows(const struct exec_maps *em);

#endif
