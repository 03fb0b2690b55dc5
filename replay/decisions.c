// SPDX-License-Identifier: GPL-2.0
/*
 * decisions.c - rebuild the reclaim decisions of a run: one record per
 * reclaim pass (one priority step of one reclaimer in one episode) and one
 * per kswapd run (balance_pgdat), with the inputs the policies need and what
 * the kernel did. Part of record -> replay -> analyze: replay reads what
 * import/record stored and writes the decision table.
 *
 * How it works: the LRU, slab and episode events of every task are walked
 * in time order. A direct/memcg reclaim begin opens an episode, a kswapd
 * wake opens a kswapd run; inside, a pass is the run of LRU and slab events
 * at one priority. What the kernel did is exact (event counts). The inputs
 * come from the counter samples taken just before the pass (sampled), or
 * from a model: the refault snapshot that the kernel takes at the end of
 * each reclaim cycle (and of each retry sweep) is approximated by the
 * sample at that time (inferred). kswapd_failures is modelled as
 * consecutive zero-reclaim runs of the node's kswapd. Each sampled input
 * also gets the range it may have had at the pass: the samples before and
 * after it. The priority sequence gives each pass its sweep (the restarts
 * of do_try_to_free_pages() and of balance_pgdat()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "replay.h"
#include "decisions-local.h"
#include "exact-inputs.h"
#include "trace-inference.h"

enum { IA, AA, IF, AF };	/* LRU index: inactive/active anon/file */

struct sample_cache {
	long long id, ts;
	long long v[16];
	int have[16];
};

/* vmstat names read for every pass, in this order */
static const char *const vmstat_names[] = {
	"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
	"nr_free_pages", "workingset_activate_file", "workingset_activate_anon",
	"workingset_activate", "workingset_restore_anon", "workingset_restore_file",
};
enum { V_IA, V_AA, V_IF, V_AF, V_FREE, V_ACT_FILE, V_ACT_ANON, V_ACT_OLD, V_RESTORE_ANON,
       V_RESTORE_FILE, V_N };

/* zoneinfo values summed over a node's zones, in this order */
static const char *const zone_names[] = { "free", "high", "boost" };
/* memory.stat LRU sizes: the hierarchical total_* first (reclaim targets the whole subtree) */
static const char *const memcg_names[] = {
	"total_inactive_anon", "inactive_anon", "total_active_anon", "active_anon",
	"total_inactive_file", "inactive_file", "total_active_file", "active_file",
};
static const char *const swap_free_name[] = { "SwapFree" };

struct builder {
	struct vms_db *db;
	sqlite3 *sql;
	sqlite3_stmt *insert;
	struct dc_writer *writer;	/* stores the rows on a second thread (decision-writer.c) */
	/*
	 * The counter samples, read into memory when first needed (a failure
	 * to read them is kept in series_failed and reported at the end).
	 */
	struct dc_series vmstat[64];	/* per node (node_vmstat), or [0]: /proc/vmstat */
	struct dc_series zone[64];	/* per node: zone_names summed over its zones */
	struct dc_series meminfo;	/* the samples with SwapFree */
	struct dc_series memcg;		/* memory.stat of the recorded memcg: memcg_names */
	int series_failed;
	int have_memcg;			/* the run sampled exactly one memcg */
	char memcg_scope[512];
	double memcg_age_ms;
	struct sample_cache vm, vm_next;
	int per_node;			/* the run has node_vmstat samples: use the node's own */
	long long swap_total;		/* SwapTotal of the first meminfo sample, pages; -1 unknown */
	long long swappiness;
	int have_swappiness;
	long long memcg_swappiness;	/* cgroup v1 memory.swappiness of the recorded memcg */
	int have_memcg_swappiness;
	long long page_kb;
	long records;
	int keep;			/* also keep the records in memory: */
	struct decision *kept;
	long kept_alloc;
	struct decision_texts texts;	/* the records' JSON texts, each once */
	/* per node: refault snapshot at the end of the previous cycle */
	long long snap_file[64], snap_anon[64];
	int have_snap[64];
	int runs_since_success[64];
	/*
	 * The zoneinfo and meminfo inputs of the last pass, reused while the
	 * vmstat samples around the pass are the same (the recorder reads every
	 * source at each tick): these queries are most of the build's time.
	 */
	struct {
		int nid;
		long long before, after;
		struct vms_value free_pages, high_wmark, boost, swap_free;
	} tick;
	/* per node: the vmstat sample whose restore refaults were last handed to a pass */
	long long restore_sample[64], restore_last[64][2];
	struct exact_view *exact;	/* the run's exact inputs (exact-inputs.c), or NULL */
	int bare;			/* no counter sample at all: inputs from the events alone */
	struct trace_facts facts;	/* what the whole trace shows, for a bare one */
};

struct pass {
	int open;
	int priority;
	int nid;
	long long ts, ts_end;
	long long scanned[4];
	long long reclaimed, slab_calls, slab_freed;
	long long reclaimed_type[2], activated[2], rotated[2], pageout[2];	/* [0] anon, [1] file */
	long long restored[2];		/* workingset_restore_* of a new vmstat sample, once */
	long long ref_keep[2];		/* nr_ref_keep: pages kept inactive by their references */
};

struct task_state {
	int pid;
	const char *reclaimer;	/* of the open episode or run, NULL when none */
	long long episode_ts;
	int order;
	int in_run;		/* a kswapd run is open */
	int run_nid;
	long long run_ts, run_reclaimed;
	int run_lowest, run_prev_priority, run_swept_twice;
	/* the priority loop: sweeps of the open episode or run */
	int sweep, sweep_lowest, prev_priority, retry_sweep, skipped_deactivate;
	long long sweep_reclaimed, sweep_slab_freed;
	int first_lowest, run_retried;
	long long first_reclaimed, first_slab_freed;
	int no_cache_trim_mode, force_deactivate;
	int loop_passes;	/* passes closed since the loop started */
	long long last_pass_end;	/* the last event of the last of them */
	struct pass pass;
	struct vms_pass_input last_in;
	int have_last_in;
};

static int sql_fail(struct builder *b, const char *what)
{
	return vms_error("%s: %s: %s", vms_db_path(b->db), what, sqlite3_errmsg(b->sql));
}

/*
 * While the writer stores rows (decision-writer.c), the build takes the
 * connection in turn to load a counter series (the only reads of the walk).
 */
static void sql_turn(struct builder *b)
{
	if (b->writer)
		dc_writer_lock(b->writer);
}

/* Return: @rc, the loader's. */
static int sql_turn_done(struct builder *b, int rc)
{
	if (b->writer)
		dc_writer_unlock(b->writer);
	return rc;
}

/*
 * Whether @series is in memory: the first time, @rc is its loader's return
 * (a failure is kept in b->series_failed and reported once at the end).
 */
#define SERIES_READY(b, series, load) \
	((series)->loaded || (!(b)->series_failed && \
			      (sql_turn(b), sql_turn_done((b), (load))) ? ((b)->series_failed = 1, 0) : 1))

/* The sample at or before @ts (or with @after, the first after it), or NULL. */
static const struct dc_sample *find(const struct dc_series *series, int after, long long ts)
{
	return after ? dc_after(series, ts) : dc_at(series, ts);
}

/* Load into @c the vmstat values of the sample at or before @ts (with @after, first after). */
static void load_sample(struct builder *b, int after, struct sample_cache *c, long long ts, int nid)
{
	struct dc_series *series = &b->vmstat[b->per_node ? nid : 0];
	const struct dc_sample *smp = NULL;
	char scope[16] = "";
	int i;

	if (b->per_node && !series->loaded)	/* the name is needed for the load only */
		snprintf(scope, sizeof(scope), "node%d", nid);
	if (SERIES_READY(b, series, dc_series_load(b->sql, b->per_node ? "node_vmstat" : "vmstat",
						   scope, vmstat_names, V_N, 0, series)))
		smp = find(series, after, ts);
	if (!smp) {
		c->id = -1;
		memset(c->have, 0, sizeof(c->have));
		return;
	}
	c->ts = smp->ts;
	if (smp->id == c->id)
		return;
	c->id = smp->id;
	for (i = 0; i < V_N; i++) {
		c->have[i] = (smp->have >> i) & 1;
		c->v[i] = c->have[i] ? smp->v[i] : 0;
	}
}

/*
 * The vmstat sample of node @nid at or before @ts into b->vm, and the one
 * after it into b->vm_next: the node's own (node_vmstat) when the run has
 * them, else /proc/vmstat.
 */
static void load_vmstat(struct builder *b, long long ts, int nid)
{
	load_sample(b, 0, &b->vm, ts, nid);
	load_sample(b, 1, &b->vm_next, ts, nid);
}

/* The sum of zone_names[@name] over node @nid's zones, read at or before @ts (@after: after). */
static int zone_sum_of(struct builder *b, int after, long long ts, int nid, int name,
		       long long *out)
{
	struct dc_series *series = &b->zone[nid];
	const struct dc_sample *smp;

	if (!SERIES_READY(b, series, dc_zone_load(b->sql, nid, zone_names, 3, series)))
		return 0;
	smp = find(series, after, ts);
	if (!smp || !((smp->have >> name) & 1))
		return 0;
	*out = smp->v[name];
	return 1;
}

static void set(struct vms_value *v, long long value, enum vms_prov prov)
{
	v->v = v->lo = v->hi = value;
	v->prov = prov;
}

/* Widen @v's range to hold @other (the value of the sample on the other side of the pass). */
static void widen(struct vms_value *v, long long other)
{
	if (v->prov == VMS_PROV_UNKNOWN)
		return;
	if (other < v->lo)
		v->lo = other;
	if (other > v->hi)
		v->hi = other;
}

/* The zone sums of @name around @ts into @v: the sample before, widened by the one after. */
static void zone_input(struct builder *b, long long ts, int nid, int name, struct vms_value *v)
{
	long long x;

	if (zone_sum_of(b, 0, ts, nid, name, &x))
		set(v, x, VMS_PROV_SAMPLED);
	else
		set(v, 0, VMS_PROV_UNKNOWN);
	if (zone_sum_of(b, 1, ts, nid, name, &x))
		widen(v, x);
}

/* Free swap (meminfo SwapFree, kB) at or before @ts (@after: after it), in pages. Return: 1 when found. */
static int meminfo_pages(struct builder *b, int after, long long ts, long long *out)
{
	const struct dc_sample *smp;

	if (!SERIES_READY(b, &b->meminfo, dc_series_load(b->sql, "meminfo", NULL, swap_free_name, 1,
							 1, &b->meminfo)))
		return 0;
	smp = find(&b->meminfo, after, ts);
	if (!smp)
		return 0;
	*out = smp->v[0] / b->page_kb;
	return 1;
}

static long long activate(const struct sample_cache *c, int file, int *have)
{
	if (c->id >= 0 && file && c->have[V_ACT_FILE]) {
		*have = 1;
		return c->v[V_ACT_FILE];
	}
	if (c->id >= 0 && !file && c->have[V_ACT_ANON]) {
		*have = 1;
		return c->v[V_ACT_ANON];
	}
	if (c->id >= 0 && file && c->have[V_ACT_OLD]) {	/* <= 5.8: file only */
		*have = 1;
		return c->v[V_ACT_OLD];
	}
	*have = 0;
	return 0;
}

/*
 * The memcg's LRU sizes from its last memory.stat sample at or before @ts
 * (@after: the first after it; hierarchical total_* when present: reclaim
 * targets the whole subtree). Return: 1 when found.
 */
static int memcg_lrus(struct builder *b, int after, long long ts, long long *out, double *age_ms)
{
	const struct dc_sample *smp;
	int i, k;

	if (!SERIES_READY(b, &b->memcg, dc_series_load(b->sql, "memcg", b->memcg_scope, memcg_names,
						       8, 0, &b->memcg)))
		return 0;
	smp = find(&b->memcg, after, ts);
	if (!smp)
		return 0;
	for (i = 0; i < 4; i++) {
		for (k = 0; k < 2; k++)
			if ((smp->have >> (2 * i + k)) & 1)
				break;
		if (k == 2)
			return 0;
		out[i] = smp->v[2 * i + k] / (b->page_kb * 1024);
	}
	*age_ms = (ts - smp->ts) / 1e6;
	return 1;
}

static void fill_inputs(struct builder *b, struct task_state *t, struct vms_pass_input *in)
{
	const struct pass *p = &t->pass;
	struct vms_value *lru[4] = { &in->inactive_anon, &in->active_anon, &in->inactive_file,
				     &in->active_file };
	int nid = p->nid >= 0 && p->nid < 64 ? p->nid : 0, have_f, have_a, i;
	long long v, act_f, act_a, sizes[4], next[4];
	double age;

	memset(in, 0, sizeof(*in));
	in->reclaimer = !strcmp(t->reclaimer ? t->reclaimer : "other", "kswapd") ? VMS_KSWAPD :
			!strcmp(t->reclaimer ? t->reclaimer : "", "direct") ? VMS_DIRECT :
			t->reclaimer && !strncmp(t->reclaimer, "memcg", 5) ? VMS_MEMCG : VMS_OTHER;
	in->priority = p->priority;
	in->order = t->order;
	in->sweep = t->sweep;
	in->no_cache_trim_mode = t->no_cache_trim_mode;
	in->force_deactivate = t->force_deactivate;
	load_vmstat(b, p->ts, nid);
	if (in->reclaimer == VMS_MEMCG && b->have_memcg &&
	    memcg_lrus(b, 0, p->ts, sizes, &b->memcg_age_ms)) {
		/* memcg limit reclaim: the memcg's own lists (memory.stat, bytes) */
		for (i = 0; i < 4; i++)
			set(lru[i], sizes[i], VMS_PROV_SAMPLED);
		if (memcg_lrus(b, 1, p->ts, next, &age))
			for (i = 0; i < 4; i++)
				widen(lru[i], next[i]);
		in->sample_age_ms = b->memcg_age_ms;
	} else if (b->vm.id >= 0) {
		enum vms_prov lru_prov = in->reclaimer == VMS_MEMCG ? VMS_PROV_INFERRED : VMS_PROV_SAMPLED;

		/* memcg reclaim: the node's lists stand in for the memcg's (no memcg id in events) */
		for (i = 0; i < 4; i++) {
			set(lru[i], b->vm.v[V_IA + i], b->vm.have[V_IA + i] ? lru_prov : VMS_PROV_UNKNOWN);
			if (b->vm_next.id >= 0 && b->vm_next.have[V_IA + i])
				widen(lru[i], b->vm_next.v[V_IA + i]);
		}
		in->sample_age_ms = (p->ts - b->vm.ts) / 1e6;
	} else {
		for (i = 0; i < 4; i++)
			set(lru[i], 0, VMS_PROV_UNKNOWN);
		in->sample_age_ms = -1;
	}
	if (b->tick.nid == nid && b->tick.before == b->vm.id && b->tick.after == b->vm_next.id &&
	    b->vm.id >= 0) {
		in->free_pages = b->tick.free_pages;
		in->high_wmark = b->tick.high_wmark;
		in->boost = b->tick.boost;
		in->swap_free = b->tick.swap_free;
	} else {
		zone_input(b, p->ts, nid, 0, &in->free_pages);
		zone_input(b, p->ts, nid, 1, &in->high_wmark);
		zone_input(b, p->ts, nid, 2, &in->boost);
		if (meminfo_pages(b, 0, p->ts, &v)) {
			set(&in->swap_free, v, VMS_PROV_SAMPLED);
			if (meminfo_pages(b, 1, p->ts, &v))
				widen(&in->swap_free, v);
		} else {
			set(&in->swap_free, 0, VMS_PROV_UNKNOWN);
		}
		b->tick.nid = nid;
		b->tick.before = b->vm.id;
		b->tick.after = b->vm_next.id;
		b->tick.free_pages = in->free_pages;
		b->tick.high_wmark = in->high_wmark;
		b->tick.boost = in->boost;
		b->tick.swap_free = in->swap_free;
	}
	/*
	 * nr_boost_reclaim is the boost at the run's start, then only falls; the
	 * zone boost is cleared only at the run's end. No boost on either side
	 * of the pass: it was 0. Otherwise the running value is not recorded.
	 */
	if (in->boost.prov != VMS_PROV_UNKNOWN && in->boost.hi == 0)
		set(&in->boost_reclaim, 0, VMS_PROV_SAMPLED);
	else
		set(&in->boost_reclaim, 0, VMS_PROV_UNKNOWN);
	if (in->reclaimer == VMS_MEMCG && b->have_memcg_swappiness)
		set(&in->swappiness, b->memcg_swappiness, VMS_PROV_SAMPLED);	/* v1: the memcg's own */
	else
		set(&in->swappiness, b->have_swappiness ? b->swappiness : 60,
		    b->have_swappiness ? VMS_PROV_SAMPLED : VMS_PROV_UNKNOWN);
	if (b->swap_total >= 0)
		set(&in->swap_total, b->swap_total, VMS_PROV_SAMPLED);
	else	/* older recordings: free swap is a lower bound */
		set(&in->swap_total, in->swap_free.v, VMS_PROV_UNKNOWN);

	/*
	 * Refaults since the snapshot: the sample before the pass minus the
	 * snapshot sample. The kernel's own view lies between none at all (its
	 * counters are flushed lazily) and the sample after the pass minus the
	 * sample before the snapshot.
	 */
	act_f = activate(&b->vm, 1, &have_f);
	act_a = activate(&b->vm, 0, &have_a);
	if (have_f && b->have_snap[nid]) {
		set(&in->refault_file, act_f - b->snap_file[nid], VMS_PROV_INFERRED);
		in->refault_file.lo = 0;
		v = activate(&b->vm_next, 1, &i);
		if (i)
			widen(&in->refault_file, v - b->snap_file[nid]);
	} else {
		set(&in->refault_file, 0, VMS_PROV_UNKNOWN);
	}
	if (have_a && b->have_snap[nid]) {
		set(&in->refault_anon, act_a - b->snap_anon[nid], VMS_PROV_INFERRED);
		in->refault_anon.lo = 0;
		v = activate(&b->vm_next, 0, &i);
		if (i)
			widen(&in->refault_anon, v - b->snap_anon[nid]);
	} else {
		set(&in->refault_anon, 0, VMS_PROV_UNKNOWN);
	}
	if (b->bare)
		trace_infer_inputs(&b->facts, t->pid, p->ts, p->ts_end, in);
	/* what the kernel read, where recorded */
	exact_view_fill(b->exact, t->pid, p->ts, t->loop_passes ? t->last_pass_end : t->episode_ts, in);
}

/*
 * The restore refaults (lru_note_cost_refault(): IO cost) that happened
 * since the node's previous sample, given to the first pass that sees a
 * new sample. Sampled: they are lumped per sampling interval.
 */
static void restored_since(struct builder *b, struct pass *p)
{
	int nid = p->nid >= 0 && p->nid < 64 ? p->nid : 0;

	p->restored[0] = p->restored[1] = 0;
	if (b->vm.id < 0 || b->vm.id == b->restore_sample[nid] ||
	    !b->vm.have[V_RESTORE_ANON] || !b->vm.have[V_RESTORE_FILE])
		return;
	if (b->restore_sample[nid] > 0) {
		p->restored[0] = b->vm.v[V_RESTORE_ANON] - b->restore_last[nid][0];
		p->restored[1] = b->vm.v[V_RESTORE_FILE] - b->restore_last[nid][1];
	}
	b->restore_sample[nid] = b->vm.id;
	b->restore_last[nid][0] = b->vm.v[V_RESTORE_ANON];
	b->restore_last[nid][1] = b->vm.v[V_RESTORE_FILE];
}

/* The kernel's snapshot_refaults() at the end of a reclaim cycle (or sweep) of node @nid. */
static void snapshot_refaults(struct builder *b, int nid, long long ts)
{
	int have_f, have_a;

	if (nid < 0 || nid >= 64)
		nid = 0;
	load_vmstat(b, ts, nid);
	if (b->vm.id < 0)
		return;
	b->snap_file[nid] = activate(&b->vm, 1, &have_f);
	b->snap_anon[nid] = activate(&b->vm, 0, &have_a);
	b->have_snap[nid] = have_f || have_a;
}

/* A record: a pass (@p set) or a kswapd run (@p NULL; the run fields of @t). */
/* Keep the record of row @r, handed to the writer as row b->records, in memory too. */
static int keep_record(struct builder *b, const struct dc_row *r)
{
	if (b->records > b->kept_alloc) {
		long na = b->kept_alloc ? 2 * b->kept_alloc : 1024;
		struct decision *nk = realloc(b->kept, na * sizeof(*nk));

		if (!nk)
			return vms_error("out of memory");
		b->kept = nk;
		b->kept_alloc = na;
	}
	dc_decision_of_row(r, b->records, &b->kept[b->records - 1]);
	return 0;
}

static int insert_record(struct builder *b, struct task_state *t, const char *kind,
			 const struct vms_pass_input *in, long long ts, long long ts_end, int priority,
			 const long long *scanned, long long reclaimed, long long slab_calls,
			 long long slab_freed, int nid, int runs_since_success, int restarted,
			 const struct pass *p)
{
	long long prov = decision_provenance_id(&b->texts, in), range = decision_range_id(&b->texts, in);
	/* the row is filled in the writer's queue */
	struct dc_row *r = prov < 0 || range < 0 ? NULL : dc_writer_next(b->writer);

	if (prov < 0 || range < 0)
		return vms_error("out of memory");
	if (!r)
		return -1;
	dc_row_clear(r);
	r->in = in;
	dc_row_text(r, DC_KIND, kind, -1);
	dc_row_text(r, DC_RECLAIMER, t->reclaimer ? t->reclaimer : "other", -1);
	dc_row_int(r, DC_PID, t->pid);
	if (nid >= 0)
		dc_row_int(r, DC_NID, nid);
	if (t->episode_ts)
		dc_row_int(r, DC_EPISODE_TS, t->episode_ts);
	dc_row_int(r, DC_TS, ts);
	dc_row_int(r, DC_TS_END, ts_end);
	dc_row_int(r, DC_PRIORITY, priority);
	if (t->order >= 0)
		dc_row_int(r, DC_ORDER, t->order);
#define ROW_VALUE(col, x) do { if ((x).prov != VMS_PROV_UNKNOWN) dc_row_int(r, col, (x).v); } while (0)
	ROW_VALUE(DC_INACTIVE_ANON, in->inactive_anon);
	ROW_VALUE(DC_ACTIVE_ANON, in->active_anon);
	ROW_VALUE(DC_INACTIVE_FILE, in->inactive_file);
	ROW_VALUE(DC_ACTIVE_FILE, in->active_file);
	if (in->inactive_file.prov != VMS_PROV_UNKNOWN)
		dc_row_text(r, DC_LRU_SCOPE, b->bare ? "trace" :
			    in->reclaimer == VMS_MEMCG && b->have_memcg &&
			    in->inactive_file.prov == VMS_PROV_SAMPLED ? b->memcg_scope : "node", -1);
	ROW_VALUE(DC_FREE_PAGES, in->free_pages);
	ROW_VALUE(DC_HIGH_WMARK, in->high_wmark);
	ROW_VALUE(DC_BOOST, in->boost);
	ROW_VALUE(DC_SWAPPINESS, in->swappiness);
	ROW_VALUE(DC_SWAP_FREE, in->swap_free);
	ROW_VALUE(DC_REFAULT_FILE, in->refault_file);
	ROW_VALUE(DC_REFAULT_ANON, in->refault_anon);
	if (in->sample_age_ms >= 0)
		dc_row_double(r, DC_SAMPLE_AGE_MS, in->sample_age_ms);
	dc_row_int(r, DC_PROVENANCE, prov);
	for (int k = 0; k < 4; k++)
		dc_row_int(r, DC_SCANNED + k, scanned[k]);
	dc_row_int(r, DC_RECLAIMED, reclaimed);
	dc_row_int(r, DC_SLAB_CALLS, slab_calls);
	dc_row_int(r, DC_SLAB_FREED, slab_freed);
	if (runs_since_success >= 0)
		dc_row_int(r, DC_RUNS_SINCE_SUCCESS, runs_since_success);
	if (restarted >= 0)
		dc_row_int(r, DC_RESTARTED, restarted);
	dc_row_int(r, DC_SWEEP, p ? in->sweep : 0);
	dc_row_int(r, DC_NO_CACHE_TRIM_MODE, p ? in->no_cache_trim_mode : 0);
	dc_row_int(r, DC_FORCE_DEACTIVATE, p ? in->force_deactivate : 0);
	for (int k = 0; k < 2 && p; k++) {
		dc_row_int(r, DC_RECLAIMED_TYPE + k, p->reclaimed_type[k]);
		dc_row_int(r, DC_ACTIVATED + k, p->activated[k]);
		dc_row_int(r, DC_ROTATED + k, p->rotated[k]);
		dc_row_int(r, DC_PAGEOUT + k, p->pageout[k]);
		dc_row_int(r, DC_RESTORED + k, p->restored[k]);
		dc_row_int(r, DC_REF_KEEP + k, p->ref_keep[k]);
	}
	ROW_VALUE(DC_SWAP_TOTAL, in->swap_total);
	ROW_VALUE(DC_BOOST_RECLAIM, in->boost_reclaim);
#undef ROW_VALUE
	dc_row_int(r, DC_INPUT_RANGE, range);
	if (!p) {
		dc_row_int(r, DC_FIRST_SWEEP_LOWEST, t->first_lowest);
		dc_row_int(r, DC_FIRST_SWEEP_RECLAIMED, t->first_reclaimed);
		dc_row_int(r, DC_FIRST_SWEEP_SLAB_FREED, t->first_slab_freed);
		dc_row_int(r, DC_RETRIED, t->run_retried);
	}
	b->records++;
	if (b->keep && keep_record(b, r))
		return -1;
	/* the table was emptied: the rows get ids 1, 2, ... in this order */
	return dc_writer_push(b->writer, b->records);
}

/*
 * The first recorded pass of a memcg reclaim that found nothing to isolate
 * (exact inputs: exact_view_nothing_to_isolate()) is in the third sweep,
 * the force_deactivate retry: the two sweeps before it left no event.
 * Anon is scanned unless the pass's swappiness or free swap is known 0.
 */
static void invisible_sweeps(struct builder *b, struct task_state *t, struct vms_pass_input *in)
{
	int anon = !((in->swappiness.prov != VMS_PROV_UNKNOWN && in->swappiness.hi == 0) ||
		     (in->swap_free.prov != VMS_PROV_UNKNOWN && in->swap_free.hi == 0));

	if (in->reclaimer != VMS_MEMCG || t->sweep ||
	    !exact_view_nothing_to_isolate(b->exact, t->pid, t->pass.ts, anon))
		return;
	t->sweep = in->sweep = 2;
	t->retry_sweep = 2;
	t->force_deactivate = in->force_deactivate = 1;
	t->skipped_deactivate = 0;
}

static int close_pass(struct builder *b, struct task_state *t)
{
	struct pass *p = &t->pass;
	struct vms_pass_input in;

	if (!p->open)
		return 0;
	p->open = 0;
	fill_inputs(b, t, &in);
	if (!t->loop_passes++ && !t->in_run)
		invisible_sweeps(b, t, &in);
	t->last_pass_end = p->ts_end;
	restored_since(b, p);
	if (t->sweep == 0 || !t->in_run) {
		t->last_in = in;	/* a run's inputs: its first sweep's last pass */
		t->have_last_in = 1;
	}
	/* shrink_list() skipped an active list that had a target: do_try_to_free_pages retries */
	for (int file = 0; file <= 1; file++) {
		long long active = file ? in.active_file.v : in.active_anon.v;

		if (p->scanned[2 * file] > 0 && (active >> p->priority) > 0 && !p->scanned[2 * file + 1])
			t->skipped_deactivate = 1;
	}
	t->sweep_reclaimed += p->reclaimed;
	t->sweep_slab_freed += p->slab_freed;
	if (p->priority < t->sweep_lowest)
		t->sweep_lowest = p->priority;
	if (t->in_run) {
		t->run_reclaimed += p->reclaimed;
		if (p->priority < t->run_lowest)
			t->run_lowest = p->priority;
		if (t->run_prev_priority >= 0 && p->priority > t->run_prev_priority)
			t->run_swept_twice = 1;	/* the loop restarted at a higher priority */
		t->run_prev_priority = p->priority;
		t->run_nid = p->nid;
	}
	return insert_record(b, t, "pass", &in, p->ts, p->ts_end, p->priority, p->scanned,
			     p->reclaimed, p->slab_calls, p->slab_freed, p->nid, -1, -1, p);
}

/* A new episode or kswapd run: its priority loop starts at its first sweep. */
static void start_loop(struct task_state *t)
{
	t->sweep = t->retry_sweep = t->skipped_deactivate = 0;
	t->no_cache_trim_mode = t->force_deactivate = 0;
	t->loop_passes = 0;
	t->prev_priority = -1;
	t->sweep_lowest = 12;
	t->sweep_reclaimed = t->sweep_slab_freed = 0;
	t->first_lowest = -1;
	t->first_reclaimed = t->first_slab_freed = 0;
	t->run_retried = 0;
}

/* Keep the first sweep's outcome (a kswapd run's retry question is about it). */
static void end_first_sweep(struct task_state *t)
{
	if (t->sweep || t->first_lowest >= 0)
		return;
	t->first_lowest = t->sweep_lowest;
	t->first_reclaimed = t->sweep_reclaimed;
	t->first_slab_freed = t->sweep_slab_freed;
}

/*
 * A pass at @prio follows: a priority above the last one restarts the loop.
 * kswapd (6.18 balance_pgdat): after a sweep that ran to priority 1 and
 * reclaimed nothing, the restart is the 6.9+ cache-trim retry (no
 * cache_trim_mode from then on); any other restart is a boost restart.
 * Direct and memcg reclaim (6.18 do_try_to_free_pages): the sweep failed;
 * retry 1 walks all memcgs, later ones force deactivation when a pass
 * skipped an active list, else reclaim below memory.low (force off), and
 * refaults are snapshot at the end of every sweep.
 */
static void next_priority(struct builder *b, struct task_state *t, int prio)
{
	if (t->prev_priority >= 0 && prio > t->prev_priority) {
		int kswapd = t->in_run;

		end_first_sweep(t);
		if (kswapd && t->sweep_lowest <= 1 && t->sweep_reclaimed == 0) {
			t->no_cache_trim_mode = 1;
			t->run_retried = 1;
		} else if (!kswapd) {
			snapshot_refaults(b, t->pass.nid, t->pass.ts_end);
			t->retry_sweep++;
			if (t->retry_sweep >= 2) {
				t->force_deactivate = t->skipped_deactivate;
				t->skipped_deactivate = 0;
			}
		}
		t->sweep++;
		t->sweep_lowest = 12;
		t->sweep_reclaimed = t->sweep_slab_freed = 0;
	}
	t->prev_priority = prio;
}

static int close_run(struct builder *b, struct task_state *t, long long ts)
{
	static const long long none[4];
	int nid, rc = 0;

	if (close_pass(b, t))
		return -1;
	if (!t->in_run)
		return 0;
	end_first_sweep(t);
	t->in_run = 0;
	nid = t->run_nid >= 0 && t->run_nid < 64 ? t->run_nid : 0;
	if (t->have_last_in)
		rc = insert_record(b, t, "kswapd_run", &t->last_in, t->run_ts, ts, t->run_lowest,
				   none, t->run_reclaimed, 0, 0, t->run_nid,
				   b->runs_since_success[nid], t->run_swept_twice, NULL);
	if (t->run_reclaimed > 0)
		b->runs_since_success[nid] = 0;
	else if (t->have_last_in)
		b->runs_since_success[nid]++;
	/* snapshot_refaults() runs at the end of balance_pgdat(), before kswapd naps */
	snapshot_refaults(b, nid, t->have_last_in ? t->pass.ts_end : ts);
	t->have_last_in = 0;
	t->reclaimer = NULL;
	return rc;
}

static void open_pass(struct task_state *t, int priority, int nid, long long ts)
{
	memset(&t->pass, 0, sizeof(t->pass));
	t->pass.open = 1;
	t->pass.priority = priority;
	t->pass.nid = nid;
	t->pass.ts = t->pass.ts_end = ts;
}

static int handle(struct builder *b, struct task_state *t, const struct stream_event *e)
{
	static const char *const kinds[] = { "direct", "memcg", "memcg_softlimit", "node" };
	long long ts = e->ts, a = e->a, bb = e->b, c = e->c;
	int prio = e->prio, nid = e->nid;
	char k = e->k;

	switch (k) {
	case 'W':
		if (close_run(b, t, ts))
			return -1;
		t->in_run = 1;
		t->reclaimer = "kswapd";
		t->episode_ts = ts;
		t->order = prio;
		t->run_ts = ts;
		t->run_nid = nid;
		t->run_reclaimed = 0;
		t->run_lowest = 12;
		t->run_prev_priority = -1;
		t->run_swept_twice = 0;
		start_loop(t);
		return 0;
	case 'Z':
		return close_run(b, t, ts);
	case 'B':
		if (close_pass(b, t))
			return -1;
		t->reclaimer = kinds[a & 3];
		t->episode_ts = ts;
		t->order = prio;
		start_loop(t);
		return 0;
	case 'F':
		if (close_pass(b, t))
			return -1;
		snapshot_refaults(b, t->pass.nid, ts);
		t->reclaimer = NULL;
		t->episode_ts = 0;
		return 0;
	case 'E':
		if (t->pass.open) {
			t->pass.slab_freed += bb;
			t->pass.ts_end = ts;
		}
		return 0;
	case 'P':	/* a page written out by reclaim (nr_pageout of the cost model) */
		if (t->pass.open)
			t->pass.pageout[(a & 2) != 0]++;
		return 0;
	}
	/* N, A, S: LRU and slab work at priority prio */
	if (!t->pass.open || t->pass.priority != prio) {
		if (close_pass(b, t))
			return -1;
		next_priority(b, t, prio);
		open_pass(t, prio, nid, ts);
	}
	if (nid >= 0)
		t->pass.nid = nid;
	t->pass.ts_end = ts;
	if (k == 'S') {
		t->pass.slab_calls++;
	} else {
		int file = (a & 2) != 0;	/* RECLAIM_WB_FILE */

		t->pass.scanned[(k == 'N' ? 0 : 1) + 2 * file] += bb;
		t->pass.reclaimed += c;
		t->pass.reclaimed_type[file] += c;
		if (k == 'N')
			t->pass.ref_keep[file] += e->keep;	/* a batch is of one LRU type */
		if (k == 'N' && e->per_type) {
			t->pass.activated[0] += e->d;	/* 5.2+: per type */
			t->pass.activated[1] += e->e;
		} else if (k == 'N') {
			t->pass.activated[file] += e->d;	/* <= 5.1 */
		} else {
			t->pass.rotated[file] += e->d;	/* nr_referenced */
		}
	}
	return 0;
}

static int prepare(struct builder *b)
{
	long long v;
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(b->sql, "INSERT INTO decision_row (kind, reclaimer, pid, nid, episode_ts,"
			       " ts, ts_end, priority, \"order\", inactive_anon, active_anon,"
			       " inactive_file, active_file, lru_scope, free_pages, high_wmark, boost,"
			       " swappiness, swap_free, refault_file, refault_anon, sample_age_ms,"
			       " provenance_id, scanned_inactive_anon, scanned_active_anon,"
			       " scanned_inactive_file, scanned_active_file, reclaimed, slab_calls,"
			       " slab_freed, runs_since_success, restarted, sweep, no_cache_trim_mode,"
			       " force_deactivate, reclaimed_anon, reclaimed_file, activated_anon,"
			       " activated_file, rotated_anon, rotated_file, pageout_anon, pageout_file,"
			       " restored_anon, restored_file,"
			       " swap_total, boost_reclaim, input_range_id, first_sweep_lowest,"
			       " first_sweep_reclaimed, first_sweep_slab_freed, retried,"
			       " ref_keep_anon, ref_keep_file)"
			       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
			       " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
			       " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &b->insert, NULL))
		return sql_fail(b, "cannot prepare the decision queries");
	if (!sqlite3_prepare_v2(b->sql, "SELECT MIN(scope), COUNT(DISTINCT scope) FROM counter_sample"
				" WHERE source = 'memcg'", -1, &st, NULL)) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 1) == 1) {
			snprintf(b->memcg_scope, sizeof(b->memcg_scope), "%s",
				 (const char *)sqlite3_column_text(st, 0));
			b->have_memcg = 1;
		}
		sqlite3_finalize(st);
	}
	b->page_kb = 4;
	if (!sqlite3_prepare_v2(b->sql, "SELECT page_size FROM run", -1, &st, NULL)) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) >= 1024)
			b->page_kb = sqlite3_column_int64(st, 0) / 1024;
		sqlite3_finalize(st);
	}
	if (!sqlite3_prepare_v2(b->sql, "SELECT value FROM sysctl WHERE name = 'vm.swappiness'", -1,
				&st, NULL)) {
		if (sqlite3_step(st) == SQLITE_ROW) {
			v = sqlite3_column_int64(st, 0);
			b->swappiness = v;
			b->have_swappiness = 1;
		}
		sqlite3_finalize(st);
	}
	/* MGLRU (lru_gen.enabled bit 0) reclaims by generations: none of the classic-LRU logic applies */
	if (!sqlite3_prepare_v2(b->sql, "SELECT value FROM sysctl WHERE name = 'lru_gen.enabled'", -1,
				&st, NULL)) {
		int mglru = sqlite3_step(st) == SQLITE_ROW &&
			    (strtol((const char *)sqlite3_column_text(st, 0), NULL, 0) & 1);

		sqlite3_finalize(st);
		if (mglru)
			return vms_error("%s was recorded with MGLRU on (lru_gen.enabled): replay models "
					 "the classic two-list LRU only", vms_db_path(b->db));
	}
	if (!sqlite3_prepare_v2(b->sql, "SELECT value FROM sysctl WHERE name = 'memcg.swappiness'",
				-1, &st, NULL)) {
		if (sqlite3_step(st) == SQLITE_ROW) {
			b->memcg_swappiness = sqlite3_column_int64(st, 0);
			b->have_memcg_swappiness = 1;
		}
		sqlite3_finalize(st);
	}
	b->vm.id = b->vm_next.id = -2;
	if (!sqlite3_prepare_v2(b->sql, "SELECT 1 FROM counter_sample WHERE source = 'node_vmstat'"
				" AND scope LIKE 'node%' LIMIT 1", -1, &st, NULL)) {
		b->per_node = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	if (exact_view_open(b->sql, &b->exact))
		return -1;
	b->swap_total = -1;
	b->tick.nid = -1;
	b->bare = 1;
	if (!sqlite3_prepare_v2(b->sql, "SELECT 1 FROM counter_sample LIMIT 1", -1, &st, NULL)) {
		b->bare = sqlite3_step(st) != SQLITE_ROW;
		sqlite3_finalize(st);
	}
	if (!sqlite3_prepare_v2(b->sql, "SELECT v.value FROM counter_sample s JOIN counter_value v"
				" ON v.sample = s.id WHERE s.source = 'meminfo' AND v.name = 'SwapTotal'"
				" ORDER BY s.ts LIMIT 1", -1, &st, NULL)) {
		if (sqlite3_step(st) == SQLITE_ROW)
			b->swap_total = sqlite3_column_int64(st, 0) / b->page_kb;
		sqlite3_finalize(st);
	}
	return 0;
}

long decisions_build(struct vms_db *db, struct decision **records)
{
	struct builder b = { .db = db, .sql = vms_db_sql(db), .keep = records != NULL };
	struct task_state t = { .pid = -1 };
	struct decision_stream events = { 0 };
	const struct stream_event *e;
	long rc = -1;
	int i;

	decision_texts_init(&b.texts);
	/* read before the first write: a second connection reads beside this one */
	if (prepare(&b) || decision_stream_read(b.sql, vms_db_path(db), &events) ||
	    vms_db_exec(db, "DELETE FROM replay_result; DELETE FROM decision_row;"
			" DELETE FROM decision_json"))
		goto out;
	/* the trace's facts are read before the writer thread shares the connection */
	if (b.bare && trace_facts_load(b.sql, vms_db_path(db), &events, &b.facts))
		goto out;
	b.writer = dc_writer_start(b.sql, b.insert);
	if (!b.writer)
		goto out;
	while ((e = decision_stream_next(&events))) {
		if (e->pid != t.pid) {
			if (t.pid >= 0 && close_run(&b, &t, t.pass.ts_end))
				goto out;
			memset(&t, 0, sizeof(t));
			t.pid = e->pid;
			t.order = -1;
		}
		if (handle(&b, &t, e))
			goto out;
	}
	if (t.pid >= 0 && close_run(&b, &t, t.pass.ts_end))
		goto out;
	rc = dc_writer_finish(b.writer);	/* the last rows stored */
	b.writer = NULL;
	if (rc < 0 || decision_texts_store(&b.texts, b.sql, vms_db_path(db)))
		goto out;
	rc = -1;
	if (b.series_failed)
		goto out;	/* vms_error set by the failed read */
	decision_stream_release(&events);	/* before the records are ordered: less memory at once */
	if (records && decisions_order(db, b.kept, b.records))
		goto out;
	if (records) {
		*records = b.kept;
		b.kept = NULL;
	}
	rc = b.records;
out:
	/* a failed walk; when the writer failed first, its error is the one reported */
	dc_writer_finish(b.writer);
	free(b.kept);
	decision_stream_release(&events);
	for (i = 0; i < 64; i++) {
		dc_series_release(&b.vmstat[i]);
		dc_series_release(&b.zone[i]);
	}
	dc_series_release(&b.meminfo);
	dc_series_release(&b.memcg);
	trace_facts_release(&b.facts);
	decision_texts_release(&b.texts);
	sqlite3_finalize(b.insert);
	exact_view_free(b.exact);
	return rc;
}
