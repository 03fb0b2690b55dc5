/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup-run.h - the memory cgroup a recorded command runs in
 * (record --cgroup, --memory-limit, --swappiness): record/cgroup-run.c.
 */
#ifndef VMS_CGROUP_RUN_H
#define VMS_CGROUP_RUN_H

struct memcg_run;

/*
 * memcg_run_open() - the memcg for `record -- COMMAND`:
 * @path: an existing memcg directory (absolute, or relative to the memory
 *	controller's root), used and left as found; or NULL to create a
 *	temporary one, vmscope-record-PID under the root, removed by
 *	memcg_run_close()
 * @limit_bytes: the temporary memcg's limit (memory.limit_in_bytes on v1,
 *	memory.max on v2), or 0 for none; only without @path
 * @swappiness: its memory.swappiness (cgroup v1 only), or -1
 * Return: the memcg, or NULL with vms_error set (nothing left behind).
 */
struct memcg_run *memcg_run_open(const char *path, long long limit_bytes, int swappiness);
/* The memcg's directory, for sampling its memory.stat. */
const char *memcg_run_path(const struct memcg_run *m);
/*
 * memcg_run_enter() - move the calling process into the memcg. For the
 * child between fork() and exec(): only open/write/close. Return: 0 or -1 (errno set).
 */
int memcg_run_enter(const struct memcg_run *m);
/*
 * memcg_run_close() - remove a temporary memcg: the tasks still in it (a
 * command's children that outlived it) are killed first. Leaves an existing
 * one alone. Accepts NULL. Return: 0, or -1 with vms_error set.
 */
int memcg_run_close(struct memcg_run *m);

#endif
