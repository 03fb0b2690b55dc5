/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vms-exact-inputs.h - where a database's reclaim decision inputs come from:
 * exact (a BPF program on the memcg tracepoints kept them while recording,
 * tables exact_input*) or sampled (counter samples only). For `vmscope
 * info`; record/exact-inputs-info.c.
 */
#ifndef VMS_EXACT_INPUTS_PUBLIC_H
#define VMS_EXACT_INPUTS_PUBLIC_H

struct sqlite3;
struct vms_buf;

/*
 * vms_exact_inputs_describe() - one line on the input source of the run in
 * @sql, appended to @out: "exact (...)" or "sampled (...)", saying why when
 * sampled. A database without the exact_input tables is "sampled".
 * Return: 0, or -1 (out of memory).
 */
int vms_exact_inputs_describe(struct sqlite3 *sql, struct vms_buf *out);

#endif
