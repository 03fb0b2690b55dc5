/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exact-inputs.h - what the BPF program (exact-inputs.bpf.c) and its loader
 * (record/exact-inputs.c) share: the configuration the loader writes before
 * attaching, and the records the program emits into its ring buffer.
 *
 * Invariants:
 *  1. Item numbers are the kernel's (enum node_stat_item and enum
 *     memcg_stat_item share one index space, the items of
 *     mod_memcg_lruvec_state and mod_memcg_state; enum vm_event_item, of
 *     count_memcg_events, is offset by EXACT_EVENT_BASE). The loader maps
 *     names to numbers through the running kernel's BTF; the program knows
 *     no item by number.
 *  2. value[] holds running deltas since the program was attached, of the
 *     target memcg only, in pages (or events); the loader adds the start
 *     values read from memory.stat. In EXACT_FLUSH_CPU records they are the
 *     deltas of the kernel's flushed view (the sum, over CPUs, of each CPU's
 *     deltas at its last flush), in all other records the running deltas.
 */
#ifndef VMS_EXACT_INPUTS_H
#define VMS_EXACT_INPUTS_H

#define EXACT_SLOTS 16		/* items tracked (value[] entries) */
#define EXACT_SCOPE 8		/* memcgs whose flush refreshes the target's view: it and its ancestors */
#define EXACT_ITEMS 512		/* slot_of[] entries: stat items, then vm events */
#define EXACT_EVENT_BASE 256	/* slot_of[] index of vm_event_item 0 */
#define EXACT_MAX_CPUS 256	/* CPUs whose counters are kept apart (per-CPU flush steps) */

enum exact_kind {
	EXACT_ISOLATE = 1,	/* mm_vmscan_lru_isolate: a batch is taken (before the list sizes drop) */
	EXACT_FLUSH,		/* memcg_flush_stats of the target or an ancestor */
	EXACT_RECLAIM_BEGIN,	/* mm_vmscan_memcg_reclaim_begin (memcg_id: the task's memcg) */
	EXACT_RECLAIM_END,	/* mm_vmscan_memcg_reclaim_end */
	EXACT_FLUSH_CPU,	/* cgroup_rstat_locked of an effective flush in scope: one CPU's
				 * deltas enter the view; value[] is the view after it, cpu the
				 * CPU flushed */
};

enum exact_counter {
	EXACT_C_UPDATES,	/* item updates of the target memcg applied */
	EXACT_C_DROPPED,	/* records the ring buffer had no room for */
	EXACT_C_FLUSHES,	/* flushes in scope (effective or not) */
	EXACT_C_UNTRACKED,	/* updates of the target for items without a slot */
	EXACT_C_CPU_STEPS,	/* per-CPU flush steps applied to the view */
	EXACT_C_N,
};

struct exact_config {
	__u64 target;			/* cgroup id (the memcg directory's inode) */
	__u64 scope[EXACT_SCOPE];	/* target, then its ancestors */
	__u32 nscope;
	__u32 pad;
};

struct exact_values {
	__s64 value[EXACT_SLOTS];
};

struct exact_record {
	__u64 ts;			/* bpf_ktime_get_ns(): CLOCK_MONOTONIC, the trace clock 'mono' */
	__u64 memcg_id;			/* flush: the memcg flushed; else the target */
	__s64 stats_updates;		/* flush: pending updates the kernel counted */
	__u32 kind;			/* enum exact_kind */
	__u32 pid;
	__u32 cpu;			/* flush_cpu: the CPU flushed; else the CPU of the event */
	__u8 force, needs_flush;	/* flush: the kernel flushes when either is set */
	__u8 lru;			/* isolate: the list (enum lru_list) */
	__u8 reclaimer;			/* begin/end: 1 memcg */
	__s64 value[EXACT_SLOTS];	/* running deltas of the target (invariant 2) */
};

#endif
