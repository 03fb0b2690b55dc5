// SPDX-License-Identifier: GPL-2.0
/*
 * exact-inputs.bpf.c - the kernel half of `vmscope record`'s exact decision
 * inputs: keeps the running values of a memcg's LRU list sizes and
 * workingset counters from every update the kernel makes to them, and emits
 * a snapshot of them at each reclaim decision point of a task in the memcg
 * (memcg reclaim: the memcg is the target) and at each stats flush
 * that refreshes the memcg's view. Loaded by record/exact-inputs.c; built
 * with clang against the running kernel's BTF (CO-RE).
 *
 * How it works: the memcg rstat tracepoints (6.13+) report every per-memcg
 * update: mod_memcg_lruvec_state (node stat items: LRU sizes,
 * WORKINGSET_*), mod_memcg_state (memcg stat items) and count_memcg_events
 * (vm events). The updates of the target memcg whose item has a slot are
 * added to running[] atomically. Reclaim reads these counters through the
 * rstat-flushed copy (lruvec_page_state()), which changes only at a flush:
 * memcg_flush_stats of the target or an ancestor with force or needs_flush
 * set copies every pending update into it, so the running values at that
 * record are what the kernel sees until the next one, roughly: the flush
 * itself (6.18 css_rstat_flush()) takes one CPU at a time, dropping the
 * rstat lock and rescheduling between CPUs, and each CPU's part enters the
 * view when its turn comes. So the program also keeps each CPU's running
 * values (the kernel's per-CPU counters; the update tracepoints fire on the
 * CPU whose counter changed, preemption off) and, at each
 * cgroup_rstat_locked of a task doing an effective flush in scope, moves
 * that CPU's deltas since its last flush into the view and emits it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "exact-inputs.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct exact_config);
} exact_config SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, EXACT_ITEMS);
	__type(key, __u32);
	__type(value, __u32);		/* slot + 1; 0: not tracked */
} slot_of SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct exact_values);
} exact_running SEC(".maps");

/* per CPU: the running values of the target's per-CPU counters, and their values at that CPU's last flush */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, EXACT_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct exact_values);
} exact_cpu_running SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, EXACT_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct exact_values);
} exact_cpu_flushed SEC(".maps");

/* the kernel's flushed view of the target (deltas): the sum of exact_cpu_flushed */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct exact_values);
} exact_view SEC(".maps");

/* tasks inside an effective flush in scope (pid -> its memcg_flush_stats time) */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} flushing SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, EXACT_C_N);
	__type(key, __u32);
	__type(value, __u64);
} exact_counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20);
} exact_records SEC(".maps");

static void count(__u32 which)
{
	__u64 *c = bpf_map_lookup_elem(&exact_counters, &which);

	if (c)
		__sync_fetch_and_add(c, 1);
}

static struct exact_config *get_config(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&exact_config, &zero);
}

/* Add @val to the slot of item @index when @id is the target. */
static void update(__u64 id, __u32 index, __s64 val)
{
	struct exact_config *cfg = get_config();
	struct exact_values *run, *mine;
	__u32 zero = 0, *slot, cpu = bpf_get_smp_processor_id();

	if (!cfg || id != cfg->target || index >= EXACT_ITEMS)
		return;
	slot = bpf_map_lookup_elem(&slot_of, &index);
	run = bpf_map_lookup_elem(&exact_running, &zero);
	if (!slot || !run)
		return;
	if (*slot == 0 || *slot > EXACT_SLOTS) {
		count(EXACT_C_UNTRACKED);
		return;
	}
	__sync_fetch_and_add(&run->value[(*slot - 1) & (EXACT_SLOTS - 1)], val);
	mine = bpf_map_lookup_elem(&exact_cpu_running, &cpu);
	if (mine)
		__sync_fetch_and_add(&mine->value[(*slot - 1) & (EXACT_SLOTS - 1)], val);
	count(EXACT_C_UPDATES);
}

/* A record of @kind with @values (NULL: the running values); NULL when the ring buffer is full (counted). */
static struct exact_record *emit_values(__u32 kind, __u64 memcg_id, struct exact_values *values)
{
	struct exact_values *run = values;
	struct exact_record *r;
	__u32 zero = 0;
	int i;

	if (!run)
		run = bpf_map_lookup_elem(&exact_running, &zero);
	if (!run)
		return NULL;
	r = bpf_ringbuf_reserve(&exact_records, sizeof(*r), 0);
	if (!r) {
		count(EXACT_C_DROPPED);
		return NULL;
	}
	r->ts = bpf_ktime_get_ns();
	r->memcg_id = memcg_id;
	r->stats_updates = 0;
	r->kind = kind;
	r->pid = (__u32)bpf_get_current_pid_tgid();
	r->cpu = bpf_get_smp_processor_id();
	r->force = r->needs_flush = r->lru = r->reclaimer = 0;
	for (i = 0; i < EXACT_SLOTS; i++)
		r->value[i] = run->value[i];
	return r;
}

static struct exact_record *emit(__u32 kind, __u64 memcg_id)
{
	return emit_values(kind, memcg_id, NULL);
}

SEC("tp/memcg/mod_memcg_lruvec_state")
int on_lruvec_state(struct trace_event_raw_memcg_rstat_stats *ctx)
{
	update(ctx->id, (__u32)ctx->item, ctx->val);
	return 0;
}

SEC("tp/memcg/mod_memcg_state")
int on_memcg_state(struct trace_event_raw_memcg_rstat_stats *ctx)
{
	update(ctx->id, (__u32)ctx->item, ctx->val);
	return 0;
}

SEC("tp/memcg/count_memcg_events")
int on_memcg_events(struct trace_event_raw_memcg_rstat_events *ctx)
{
	update(ctx->id, EXACT_EVENT_BASE + (__u32)ctx->item, (__s64)ctx->val);
	return 0;
}

static int in_scope(const struct exact_config *cfg, __u64 id)
{
	int i, found = 0;

	for (i = 0; i < EXACT_SCOPE; i++)
		if (i < cfg->nscope && cfg->scope[i] == id)
			found = 1;
	return found;
}

SEC("tp/memcg/memcg_flush_stats")
int on_flush(struct trace_event_raw_memcg_flush_stats *ctx)
{
	struct exact_config *cfg = get_config();
	struct exact_record *r;
	__u64 id = ctx->id, now = bpf_ktime_get_ns();
	__u32 pid = (__u32)bpf_get_current_pid_tgid();

	if (!cfg || !in_scope(cfg, id))
		return 0;
	count(EXACT_C_FLUSHES);
	if (ctx->force || ctx->needs_flush)
		bpf_map_update_elem(&flushing, &pid, &now, BPF_ANY);
	else
		bpf_map_delete_elem(&flushing, &pid);
	r = emit(EXACT_FLUSH, id);
	if (!r)
		return 0;
	r->stats_updates = ctx->stats_updates;
	r->force = ctx->force;
	r->needs_flush = ctx->needs_flush;
	bpf_ringbuf_submit(r, 0);
	return 0;
}

/*
 * One CPU's turn in a flush (css_rstat_flush() holds the rstat lock while
 * it folds that CPU's counters into the view): of the target's memcg or
 * an ancestor, by a task whose memcg_flush_stats said it flushes (a
 * cgroup's own base-stat flush fires the same tracepoint with the same id).
 * The lock serializes the turns, so the view needs no atomics here.
 */
SEC("tp/cgroup/cgroup_rstat_locked")
int on_rstat_locked(struct trace_event_raw_cgroup_rstat *ctx)
{
	struct exact_config *cfg = get_config();
	struct exact_values *running, *flushed, *view;
	__u32 pid = (__u32)bpf_get_current_pid_tgid(), zero = 0, cpu;
	struct exact_record *r;
	int i;

	if (!cfg || ctx->cpu < 0 || ctx->cpu >= EXACT_MAX_CPUS || !in_scope(cfg, ctx->id) ||
	    !bpf_map_lookup_elem(&flushing, &pid))
		return 0;
	cpu = (__u32)ctx->cpu;
	running = bpf_map_lookup_elem(&exact_cpu_running, &cpu);
	flushed = bpf_map_lookup_elem(&exact_cpu_flushed, &cpu);
	view = bpf_map_lookup_elem(&exact_view, &zero);
	if (!running || !flushed || !view)
		return 0;
	for (i = 0; i < EXACT_SLOTS; i++) {
		__s64 now = running->value[i];

		view->value[i] += now - flushed->value[i];
		flushed->value[i] = now;
	}
	count(EXACT_C_CPU_STEPS);
	r = emit_values(EXACT_FLUSH_CPU, ctx->id, view);
	if (!r)
		return 0;
	r->cpu = cpu;
	bpf_ringbuf_submit(r, 0);
	return 0;
}

/* cgroup id of the current task's memory cgroup (v1 or v2): the memcg it charges to. */
static __u64 current_memcg_id(void)
{
	int id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	struct task_struct *task = (void *)bpf_get_current_task();
	struct cgroup_subsys_state *css = NULL;
	struct css_set *cgroups;

	cgroups = BPF_CORE_READ(task, cgroups);
	if (!cgroups || id < 0 || id >= CGROUP_SUBSYS_COUNT)
		return 0;
	bpf_core_read(&css, sizeof(css), &cgroups->subsys[id]);
	if (!css)
		return 0;
	return BPF_CORE_READ(css, cgroup, kn, id);
}

/*
 * A batch isolated by a task of the target memcg: the first one of a pass
 * is the decision point (prepare_scan_control() ran just before it).
 */
SEC("tp/vmscan/mm_vmscan_lru_isolate")
int on_isolate(struct trace_event_raw_mm_vmscan_lru_isolate *ctx)
{
	struct exact_config *cfg = get_config();
	struct exact_record *r;

	if (!cfg || !cfg->target || current_memcg_id() != cfg->target)
		return 0;
	r = emit(EXACT_ISOLATE, cfg->target);
	if (!r)
		return 0;
	r->lru = (__u8)ctx->lru;
	bpf_ringbuf_submit(r, 0);
	return 0;
}

static int mark(__u32 kind, __u8 reclaimer)
{
	struct exact_config *cfg = get_config();
	struct exact_record *r;

	if (!cfg || !cfg->target)
		return 0;
	r = emit(kind, current_memcg_id());
	if (!r)
		return 0;
	r->reclaimer = reclaimer;
	bpf_ringbuf_submit(r, 0);
	return 0;
}

SEC("tp/vmscan/mm_vmscan_memcg_reclaim_begin")
int on_memcg_begin(void *ctx)
{
	return mark(EXACT_RECLAIM_BEGIN, 1);
}

SEC("tp/vmscan/mm_vmscan_memcg_reclaim_end")
int on_memcg_end(void *ctx)
{
	return mark(EXACT_RECLAIM_END, 1);
}

