/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exact-inputs.h - exact decision inputs for `vmscope record` (see
 * exact-inputs.c): a BPF program keeps a memcg's LRU sizes and workingset
 * counters from every update the kernel makes and emits snapshots of them,
 * stored in the exact_input tables (schema/008-exact-inputs.sql).
 * Protocol:
 *  1. exact_inputs_open() after the database exists and before tracing
 *     starts: BTF names mapped, the program loaded and attached, the start
 *     values read from memory.stat. NULL (vms_error set) when BPF is not
 *     available: then exact_inputs_store_unavailable() records why.
 *  2. exact_inputs_poll() at each interval of the recording loop.
 *  3. exact_inputs_finish() when tracing stops: last records, counts.
 *  4. exact_inputs_close() on every path.
 */
#ifndef VMS_RECORD_EXACT_INPUTS_H
#define VMS_RECORD_EXACT_INPUTS_H

struct vms_db;
struct exact_inputs;

/* Was vmscope built with the BPF program (clang and libbpf present at build time)? */
int exact_inputs_built(void);
/* Track memcg directory @memcg_dir. Return: handle, or NULL with vms_error set. */
struct exact_inputs *exact_inputs_open(struct vms_db *db, const char *memcg_dir);
/* Store the records the ring buffer holds. Return: records stored, or -1 (vms_error set). */
long exact_inputs_poll(struct exact_inputs *x);
/* Detach, store the last records and the counts (exact_input_run). Return: 0 or -1. */
int exact_inputs_finish(struct exact_inputs *x);
void exact_inputs_close(struct exact_inputs *x);
/* Record in exact_input_run that the inputs are sampled, and @reason. Return: 0 or -1. */
int exact_inputs_store_unavailable(struct vms_db *db, const char *reason);

#endif
