/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec-maps.h - the file ranges a memcg's tasks map executable, read from
 * /proc/PID/maps for `vmscope record -m` (see exec-maps.c). Protocol:
 * exec_maps_new(), exec_maps_poll() at each sampling interval (a few
 * tasks each time, round-robin), exec_maps_free().
 */
#ifndef VMS_RECORD_EXEC_MAPS_H
#define VMS_RECORD_EXEC_MAPS_H

#include <stdint.h>

struct vms_db;
struct exec_maps;

/* @memcg_dir: the memory cgroup whose tasks (cgroup.procs) are read. */
struct exec_maps *exec_maps_new(struct vms_db *db, const char *memcg_dir);
void exec_maps_free(struct exec_maps *em);
/*
 * Read the maps of the next few tasks (@all: of every task, from pids read
 * now: at the start and the end). Return: 0 or -1 (vms_error set).
 */
int exec_maps_poll(struct exec_maps *em, int all);

#endif
