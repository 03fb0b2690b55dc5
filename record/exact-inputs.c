// SPDX-License-Identifier: GPL-2.0
/*
 * exact-inputs.c - the user half of `vmscope record`'s exact decision
 * inputs: loads record/bpf/exact-inputs.bpf.c (built into the binary as a
 * libbpf skeleton), tells it which memcg to track and which kernel items
 * go in which slot, and stores what it emits in the exact_input tables
 * (schema/008-exact-inputs.sql), which replay/exact-inputs.c reads. Part
 * of record -> replay -> analyze.
 *
 * How it works: item numbers come from the running kernel's BTF (enum
 * node_stat_item, memcg_stat_item, vm_event_item), so no number is written
 * here. The program counts deltas from the moment it is attached; the start
 * values come from one memory.stat read right after attaching. That read
 * makes the kernel flush the memcg's stats when enough updates are
 * pending, and the program sees the flush: then memory.stat shows exactly
 * start + the deltas at that flush, and the start is exact. Without such a
 * flush the start misses the updates pending at the read (at most
 * MEMCG_CHARGE_BATCH per CPU): 'start-offset'. Items memory.stat does not
 * print (cgroup v1 has no workingset_activate_*) are 'delta-only'.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "vms.h"
#include "exact-inputs.h"


int exact_inputs_store_unavailable(struct vms_db *db, const char *reason)
{
	sqlite3 *sql = vms_db_sql(db);
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(sql, "INSERT OR REPLACE INTO exact_input_run (id, source, reason)"
			       " VALUES (1, 'sampled', ?)", -1, &st, NULL))
		return vms_error("%s: cannot store the input source: %s", vms_db_path(db),
				 sqlite3_errmsg(sql));
	sqlite3_bind_text(st, 1, reason, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s: cannot store the input source: %s",
						 vms_db_path(db), sqlite3_errmsg(sql));
}

#ifndef VMS_HAVE_BPF

int exact_inputs_built(void)
{
	return 0;
}

struct exact_inputs *exact_inputs_open(struct vms_db *db, const char *memcg_dir)
{
	vms_error("vmscope was built without the BPF program (BPF=0, or clang, bpftool or "
		  "libbpf-dev missing at build time)");
	return NULL;
}

long exact_inputs_poll(struct exact_inputs *x)
{
	return 0;
}

int exact_inputs_finish(struct exact_inputs *x)
{
	return 0;
}

void exact_inputs_close(struct exact_inputs *x)
{
}

#else

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "bpf/exact-inputs.h"
#include "bpf/exact-inputs.skel.h"

#define STRINGIFY(x) #x
#define TEXT_OF(x) STRINGIFY(x)
#define MAX_CPUS_TEXT TEXT_OF(EXACT_MAX_CPUS)

/* A tracked item: its exact_input column, kernel enumerator, memory.stat names (v1, v2). */
struct item_spec {
	const char *col, *kernel_name, *enum_name;
	const char *stat_v1, *stat_v2;
	int bytes;			/* memory.stat prints bytes: divide by the page size */
};

static const struct item_spec items[] = {
	{ "inactive_anon", "NR_INACTIVE_ANON", "node_stat_item", "inactive_anon", "inactive_anon", 1 },
	{ "active_anon", "NR_ACTIVE_ANON", "node_stat_item", "active_anon", "active_anon", 1 },
	{ "inactive_file", "NR_INACTIVE_FILE", "node_stat_item", "inactive_file", "inactive_file", 1 },
	{ "active_file", "NR_ACTIVE_FILE", "node_stat_item", "active_file", "active_file", 1 },
	{ "unevictable", "NR_UNEVICTABLE", "node_stat_item", "unevictable", "unevictable", 1 },
	{ "workingset_activate_anon", "WORKINGSET_ACTIVATE_ANON", "node_stat_item", NULL,
	  "workingset_activate_anon", 0 },
	{ "workingset_activate_file", "WORKINGSET_ACTIVATE_FILE", "node_stat_item", NULL,
	  "workingset_activate_file", 0 },
	{ "workingset_refault_anon", "WORKINGSET_REFAULT_ANON", "node_stat_item",
	  "workingset_refault_anon", "workingset_refault_anon", 0 },
	{ "workingset_refault_file", "WORKINGSET_REFAULT_FILE", "node_stat_item",
	  "workingset_refault_file", "workingset_refault_file", 0 },
	{ "workingset_restore_anon", "WORKINGSET_RESTORE_ANON", "node_stat_item", NULL,
	  "workingset_restore_anon", 0 },
	{ "workingset_restore_file", "WORKINGSET_RESTORE_FILE", "node_stat_item", NULL,
	  "workingset_restore_file", 0 },
	{ "pgscan_direct", "PGSCAN_DIRECT", "vm_event_item", NULL, "pgscan_direct", 0 },
	{ "pgsteal_direct", "PGSTEAL_DIRECT", "vm_event_item", NULL, "pgsteal_direct", 0 },
	{ "pgrefill", "PGREFILL", "vm_event_item", NULL, "pgrefill", 0 },
	{ "swap", "MEMCG_SWAP", "memcg_stat_item", "swap", NULL, 1 },
};
#define N_ITEMS ((int)(sizeof(items) / sizeof(items[0])))

struct exact_inputs {
	struct vms_db *db;
	struct exact_inputs_bpf *skel;
	struct ring_buffer *rb;
	sqlite3_stmt *insert;
	long long start[EXACT_SLOTS];
	int started;			/* start values known: records can be stored */
	struct exact_record *pending;	/* records read, not yet stored */
	int npending, alloc;
	long long records;
	int failed;			/* out of memory in the ring-buffer callback */
};

int exact_inputs_built(void)
{
	return 1;
}

static int silent_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/* The value of enumerator @name of enum @type in @btf. Return: 0, or -1 when absent. */
static int btf_enum_value(const struct btf *btf, const char *type, const char *name,
			  long long *out)
{
	const struct btf_type *t;
	const struct btf_enum *e;
	int id, i;

	id = btf__find_by_name_kind(btf, type, BTF_KIND_ENUM);
	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, id);
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, e[i].name_off), name)) {
			*out = e[i].val;
			return 0;
		}
	return -1;
}

/* Slot of every item from the kernel's BTF into @slot_of (index: item, events offset). */
static int map_items(struct exact_inputs *x, long long *number)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int fd = bpf_map__fd(x->skel->maps.slot_of), i, rc = 0;

	if (!btf)
		return vms_error("cannot read the kernel's BTF (/sys/kernel/btf/vmlinux): %s",
				 strerror(errno));
	for (i = 0; i < N_ITEMS && !rc; i++) {
		__u32 key, slot = i + 1;

		if (btf_enum_value(btf, items[i].enum_name, items[i].kernel_name, &number[i])) {
			rc = vms_error("the kernel's BTF has no %s in enum %s", items[i].kernel_name,
				       items[i].enum_name);
			break;
		}
		key = (__u32)number[i] + (strcmp(items[i].enum_name, "vm_event_item") ? 0 :
					  EXACT_EVENT_BASE);
		if (number[i] < 0 || key >= EXACT_ITEMS)
			rc = vms_error("%s is item %lld: beyond the program's table", items[i].kernel_name,
				       number[i]);
		else if (bpf_map_update_elem(fd, &key, &slot, BPF_ANY))
			rc = vms_error("cannot configure the BPF program: %s", strerror(errno));
	}
	btf__free(btf);
	return rc;
}

/* The memcg's cgroup id and those of its ancestors, up to the hierarchy's root. */
static int memcg_scope(const char *memcg_dir, struct exact_config *cfg, struct vms_buf *text)
{
	char path[4096], probe[4200];
	struct stat st, top;

	if (stat(memcg_dir, &top))
		return vms_error("cannot use memcg '%s': %s", memcg_dir, strerror(errno));
	if (!S_ISDIR(top.st_mode))
		return vms_error("cannot use memcg '%s': not a directory", memcg_dir);
	snprintf(path, sizeof(path), "%s", memcg_dir);
	cfg->target = top.st_ino;
	while (cfg->nscope < EXACT_SCOPE) {
		snprintf(probe, sizeof(probe), "%s/cgroup.procs", path);
		if (stat(path, &st) || st.st_dev != top.st_dev || access(probe, F_OK))
			break;
		cfg->scope[cfg->nscope++] = st.st_ino;
		vms_buf_addf(text, "%s%llu", cfg->nscope > 1 ? " " : "", (unsigned long long)st.st_ino);
		if (!strcmp(path, "/"))
			break;
		snprintf(probe, sizeof(probe), "%s", path);
		snprintf(path, sizeof(path), "%s", dirname(probe));
	}
	if (!cfg->nscope)
		return vms_error("'%s' is not a cgroup directory", memcg_dir);
	return 0;
}

/* memory.stat of @memcg_dir in pages (or counts): @out[i], @have[i]. */
static int read_memory_stat(const char *memcg_dir, long long *out, int *have)
{
	char path[4200], name[128];
	long long value;
	long page = sysconf(_SC_PAGESIZE);
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/memory.stat", memcg_dir);
	f = fopen(path, "r");
	if (!f)
		return vms_error("cannot read '%s': %s", path, strerror(errno));
	memset(have, 0, sizeof(int) * N_ITEMS);
	while (fscanf(f, "%127s %lld", name, &value) == 2)
		for (i = 0; i < N_ITEMS; i++) {
			const char *want = items[i].stat_v1 && !have[i] ? items[i].stat_v1 : NULL;

			if (!want || strcmp(want, name))
				want = items[i].stat_v2;
			if (want && !strcmp(want, name) && !have[i]) {
				out[i] = items[i].bytes ? value / page : value;
				have[i] = 1;
			}
		}
	fclose(f);
	return 0;
}

/* The running kernel has tracepoint @system:@name (tracefs, mounted by the recorder). */
static int have_event(const char *system, const char *name)
{
	const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[256];
	size_t i;

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s", roots[i], system, name);
		if (!access(path, F_OK))
			return 1;
	}
	return 0;
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct exact_inputs *x = ctx;

	if (size < sizeof(struct exact_record))
		return 0;
	if (vms_array_reserve(&x->pending, &x->alloc, x->npending, 1024, sizeof(*x->pending))) {
		x->failed = 1;
		return -1;
	}
	memcpy(&x->pending[x->npending++], data, sizeof(struct exact_record));
	return 0;
}

static const char *const kind_names[] = {
	[EXACT_ISOLATE] = "isolate", [EXACT_FLUSH] = "flush",
	[EXACT_RECLAIM_BEGIN] = "reclaim_begin", [EXACT_RECLAIM_END] = "reclaim_end",
	[EXACT_FLUSH_CPU] = "flush_cpu",
};

static int store_pending(struct exact_inputs *x)
{
	sqlite3 *sql = vms_db_sql(x->db);
	int i, k;

	for (i = 0; i < x->npending; i++) {
		const struct exact_record *r = &x->pending[i];
		sqlite3_stmt *st = x->insert;

		if (r->kind < EXACT_ISOLATE || r->kind > EXACT_FLUSH_CPU)
			continue;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, (long long)r->ts);
		sqlite3_bind_text(st, 2, kind_names[r->kind], -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, r->pid);
		sqlite3_bind_int64(st, 4, r->cpu);
		sqlite3_bind_int64(st, 5, (long long)r->memcg_id);
		if (r->kind == EXACT_ISOLATE)
			sqlite3_bind_int(st, 6, r->lru);
		else
			sqlite3_bind_null(st, 6);
		if (r->kind == EXACT_FLUSH) {
			sqlite3_bind_int(st, 7, r->force);
			sqlite3_bind_int(st, 8, r->needs_flush);
			sqlite3_bind_int64(st, 9, r->stats_updates);
		} else {
			for (k = 7; k <= 9; k++)
				sqlite3_bind_null(st, k);
		}
		for (k = 0; k < N_ITEMS; k++)
			sqlite3_bind_int64(st, 10 + k, x->start[k] + r->value[k]);
		if (sqlite3_step(st) != SQLITE_DONE)
			return vms_error("%s: cannot store exact inputs: %s", vms_db_path(x->db),
					 sqlite3_errmsg(sql));
		x->records++;
	}
	x->npending = 0;
	return 0;
}

/*
 * The start values: memory.stat read after attaching, less the deltas at
 * the last flush the program saw before the read finished (see the top).
 */
static int take_start(struct exact_inputs *x, const char *memcg_dir, const long long *number)
{
	static const char item_sql[] =
		"INSERT OR REPLACE INTO exact_input_item (col, kernel_name, enum, item, start_value,"
		" start_provenance) VALUES (?, ?, ?, ?, ?, ?)";
	sqlite3 *sql = vms_db_sql(x->db);
	const struct exact_record *flush = NULL;
	long long stat[N_ITEMS];
	int have[N_ITEMS], i, rc = 0;
	sqlite3_stmt *st;

	if (read_memory_stat(memcg_dir, stat, have))
		return -1;
	if (ring_buffer__consume(x->rb) < 0 || x->failed)
		return vms_error("cannot read the BPF ring buffer");
	/* the view after the read's flush: its last CPU step, else its flush record */
	for (i = 0; i < x->npending; i++)
		if ((x->pending[i].kind == EXACT_FLUSH &&
		     (x->pending[i].force || x->pending[i].needs_flush)) ||
		    (x->pending[i].kind == EXACT_FLUSH_CPU && flush))
			flush = &x->pending[i];
	if (sqlite3_prepare_v2(sql, item_sql, -1, &st, NULL))
		return vms_error("%s: cannot store exact inputs: %s", vms_db_path(x->db),
				 sqlite3_errmsg(sql));
	for (i = 0; i < N_ITEMS && !rc; i++) {
		const char *prov = !have[i] ? "delta-only" : flush ? "exact" : "start-offset";

		x->start[i] = !have[i] ? 0 : flush ? stat[i] - flush->value[i] : stat[i];
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, items[i].col, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, items[i].kernel_name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, items[i].enum_name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, number[i]);
		if (have[i])
			sqlite3_bind_int64(st, 5, x->start[i]);
		else
			sqlite3_bind_null(st, 5);
		sqlite3_bind_text(st, 6, prov, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = vms_error("%s: cannot store exact inputs: %s", vms_db_path(x->db),
				       sqlite3_errmsg(sql));
	}
	sqlite3_finalize(st);
	x->started = 1;
	return rc ? rc : store_pending(x);
}

static int count_nodes(void)
{
	char path[64];
	int n = 0;

	while (n < 1024) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", n);
		if (access(path, F_OK))
			break;
		n++;
	}
	return n;
}

static int store_run(struct exact_inputs *x, const char *memcg_dir, const struct exact_config *cfg,
		     const char *scope, long long attached, const char *left_out)
{
	sqlite3 *sql = vms_db_sql(x->db);
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(sql, "INSERT OR REPLACE INTO exact_input_run (id, source, memcg,"
			       " memcg_id, scope, nodes, attached_ts, records, dropped, updates,"
			       " untracked, flushes, reason)"
			       " VALUES (1, 'bpf', ?, ?, ?, ?, ?, 0, 0, 0, 0, 0, ?)",
			       -1, &st, NULL))
		return vms_error("%s: cannot store the input source: %s", vms_db_path(x->db),
				 sqlite3_errmsg(sql));
	sqlite3_bind_text(st, 1, memcg_dir, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, (long long)cfg->target);
	sqlite3_bind_text(st, 3, scope, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 4, count_nodes());
	sqlite3_bind_int64(st, 5, attached);
	if (left_out)
		sqlite3_bind_text(st, 6, left_out, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 6);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s: cannot store the input source: %s",
						 vms_db_path(x->db), sqlite3_errmsg(sql));
}

struct exact_inputs *exact_inputs_open(struct vms_db *db, const char *memcg_dir)
{
	static const char insert_sql[] =
		"INSERT INTO exact_input (ts, kind, pid, cpu, memcg_id, lru, flush_force,"
		" flush_needed, stats_updates, inactive_anon, active_anon, inactive_file,"
		" active_file, unevictable, workingset_activate_anon, workingset_activate_file,"
		" workingset_refault_anon, workingset_refault_file, workingset_restore_anon,"
		" workingset_restore_file, pgscan_direct, pgsteal_direct, pgrefill, swap)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	struct exact_config cfg = { 0 };
	struct vms_buf scope = { 0 };
	const char *left_out = NULL;
	struct exact_inputs *x;
	long long number[N_ITEMS];
	__u32 zero = 0;
	struct timespec now;
	int err;

	if (!memcg_dir) {
		vms_error("no memcg to track (-m PATH)");
		return NULL;
	}
	x = calloc(1, sizeof(*x));
	if (!x) {
		vms_error("out of memory");
		return NULL;
	}
	x->db = db;
	libbpf_set_print(silent_print);
	if (memcg_scope(memcg_dir, &cfg, &scope))
		goto fail;
	x->skel = exact_inputs_bpf__open();
	if (!x->skel) {
		vms_error("cannot load the BPF program: %s", strerror(errno));
		goto fail;
	}
	/*
	 * kernels before the per-CPU rstat tracepoints, and machines with more
	 * CPUs than the program keeps apart: the view changes at each flush as
	 * a whole
	 */
	if (!have_event("cgroup", "cgroup_rstat_locked"))
		left_out = "no cgroup:cgroup_rstat_locked event: each flush enters the view at once"
			   " (not one CPU at a time)";
	else if (libbpf_num_possible_cpus() > EXACT_MAX_CPUS)
		left_out = "more possible CPUs than the BPF program keeps apart (" MAX_CPUS_TEXT
			   "): each flush enters the view at once (not one CPU at a time)";
	if (left_out)
		bpf_program__set_autoload(x->skel->progs.on_rstat_locked, false);
	err = exact_inputs_bpf__load(x->skel);
	if (err) {
		vms_error("cannot load the BPF program: %s", strerror(-err));
		goto fail;
	}
	if (map_items(x, number))
		goto fail;
	if (bpf_map_update_elem(bpf_map__fd(x->skel->maps.exact_config), &zero, &cfg, BPF_ANY)) {
		vms_error("cannot configure the BPF program: %s", strerror(errno));
		goto fail;
	}
	x->rb = ring_buffer__new(bpf_map__fd(x->skel->maps.exact_records), on_record, x, NULL);
	if (!x->rb) {
		vms_error("cannot open the BPF ring buffer: %s", strerror(errno));
		goto fail;
	}
	if (sqlite3_prepare_v2(vms_db_sql(db), insert_sql, -1, &x->insert, NULL)) {
		vms_error("%s: cannot store exact inputs: %s (no exact_input table?)",
			  vms_db_path(db), sqlite3_errmsg(vms_db_sql(db)));
		goto fail;
	}
	err = exact_inputs_bpf__attach(x->skel);
	if (err) {
		vms_error("cannot attach the BPF program to the memcg tracepoints: %s", strerror(-err));
		goto fail;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (store_run(x, memcg_dir, &cfg, scope.buf ? scope.buf : "",
		      now.tv_sec * 1000000000LL + now.tv_nsec, left_out) ||
	    take_start(x, memcg_dir, number))
		goto fail;
	vms_buf_release(&scope);
	return x;
fail:
	vms_buf_release(&scope);
	exact_inputs_close(x);
	return NULL;
}

long exact_inputs_poll(struct exact_inputs *x)
{
	long long before;

	if (!x)
		return 0;
	before = x->records;
	if (ring_buffer__consume(x->rb) < 0 || x->failed)
		return vms_error("cannot read the BPF ring buffer");
	if (store_pending(x))
		return -1;
	return (long)(x->records - before);
}

/*
 * The programs' run count and time, which the kernel keeps only while
 * kernel.bpf_stats_enabled is 1: the cost of the exact inputs inside the
 * kernel (charged to the tasks that update the counters). Return: 0 or -1.
 */
static int store_cost(struct exact_inputs *x)
{
	sqlite3 *sql = vms_db_sql(x->db);
	unsigned long long runs = 0, ns = 0;
	struct bpf_program *prog;
	sqlite3_stmt *st;
	int rc;

	bpf_object__for_each_program(prog, x->skel->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			continue;
		runs += info.run_cnt;
		ns += info.run_time_ns;
	}
	if (!runs)
		return 0;	/* stats off: unknown, left NULL */
	if (sqlite3_prepare_v2(sql, "UPDATE exact_input_run SET bpf_runs = ?, bpf_run_ns = ?"
			       " WHERE id = 1", -1, &st, NULL))
		return vms_error("%s: cannot store the input source: %s", vms_db_path(x->db),
				 sqlite3_errmsg(sql));
	sqlite3_bind_int64(st, 1, (long long)runs);
	sqlite3_bind_int64(st, 2, (long long)ns);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s: cannot store the input source: %s",
						 vms_db_path(x->db), sqlite3_errmsg(sql));
}

int exact_inputs_finish(struct exact_inputs *x)
{
	static const int which[] = { EXACT_C_DROPPED, EXACT_C_UPDATES, EXACT_C_UNTRACKED,
				     EXACT_C_FLUSHES };
	sqlite3 *sql;
	sqlite3_stmt *st;
	__u64 c[4] = { 0 };
	int i, rc;

	if (!x)
		return 0;
	exact_inputs_bpf__detach(x->skel);
	if (exact_inputs_poll(x) < 0)
		return -1;
	for (i = 0; i < 4; i++) {
		__u32 key = which[i];

		bpf_map_lookup_elem(bpf_map__fd(x->skel->maps.exact_counters), &key, &c[i]);
	}
	sql = vms_db_sql(x->db);
	if (sqlite3_prepare_v2(sql, "UPDATE exact_input_run SET records = ?, dropped = ?,"
			       " updates = ?, untracked = ?, flushes = ? WHERE id = 1", -1, &st, NULL))
		return vms_error("%s: cannot store the input source: %s", vms_db_path(x->db),
				 sqlite3_errmsg(sql));
	sqlite3_bind_int64(st, 1, x->records);
	for (i = 0; i < 4; i++)
		sqlite3_bind_int64(st, 2 + i, (long long)c[i]);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vms_error("%s: cannot store the input source: %s", vms_db_path(x->db),
				 sqlite3_errmsg(sql));
	return store_cost(x);
}

void exact_inputs_close(struct exact_inputs *x)
{
	if (!x)
		return;
	sqlite3_finalize(x->insert);
	ring_buffer__free(x->rb);
	exact_inputs_bpf__destroy(x->skel);
	free(x->pending);
	free(x);
}

#endif
