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
 * each reclaim cycle is approximated by the sample at the end of the
 * previous cycle of the same reclaim root (inferred). kswapd_failures is
 * modelled as consecutive zero-reclaim runs of the node's kswapd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "replay.h"

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
	"workingset_activate",
};
enum { V_IA, V_AA, V_IF, V_AF, V_FREE, V_ACT_FILE, V_ACT_ANON, V_ACT_OLD, V_N };

struct builder {
	struct vms_db *db;
	sqlite3 *sql;
	sqlite3_stmt *vmstat_at, *values_of, *zone_sum, *meminfo_at, *insert;
	sqlite3_stmt *memcg_at;		/* LRU sizes of the recorded memcg (memory.stat) */
	int have_memcg;			/* the run sampled exactly one memcg */
	char memcg_scope[512];
	double memcg_age_ms;
	struct sample_cache vm;
	long long swappiness;
	int have_swappiness;
	long long memcg_swappiness;	/* cgroup v1 memory.swappiness of the recorded memcg */
	int have_memcg_swappiness;
	long long page_kb;
	long records;
	/* per node: refault snapshot at the end of the previous cycle */
	long long snap_file[64], snap_anon[64];
	int have_snap[64];
	int runs_since_success[64];
};

struct pass {
	int open;
	int priority;
	int nid;
	long long ts, ts_end;
	long long scanned[4];
	long long reclaimed, slab_calls, slab_freed;
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
	struct pass pass;
	struct vms_pass_input last_in;
	int have_last_in;
};

static int sql_fail(struct builder *b, const char *what)
{
	return vms_error("%s: %s: %s", vms_db_path(b->db), what, sqlite3_errmsg(b->sql));
}

/* Load the vmstat values of the last sample at or before @ts into b->vm. */
static int load_vmstat(struct builder *b, long long ts)
{
	long long id;
	int i;

	sqlite3_reset(b->vmstat_at);
	sqlite3_bind_int64(b->vmstat_at, 1, ts);
	if (sqlite3_step(b->vmstat_at) != SQLITE_ROW) {
		b->vm.id = -1;
		memset(b->vm.have, 0, sizeof(b->vm.have));
		return 0;
	}
	id = sqlite3_column_int64(b->vmstat_at, 0);
	b->vm.ts = sqlite3_column_int64(b->vmstat_at, 1);
	if (id == b->vm.id)
		return 0;
	b->vm.id = id;
	for (i = 0; i < V_N; i++) {
		sqlite3_reset(b->values_of);
		sqlite3_bind_int64(b->values_of, 1, id);
		sqlite3_bind_text(b->values_of, 2, vmstat_names[i], -1, SQLITE_STATIC);
		b->vm.have[i] = sqlite3_step(b->values_of) == SQLITE_ROW;
		b->vm.v[i] = b->vm.have[i] ? sqlite3_column_int64(b->values_of, 0) : 0;
	}
	return 0;
}

static int zone_sum(struct builder *b, long long ts, int nid, const char *name, long long *out)
{
	char like[32];

	snprintf(like, sizeof(like), "node%d/%%", nid);
	sqlite3_reset(b->zone_sum);
	sqlite3_bind_int64(b->zone_sum, 1, ts);
	sqlite3_bind_text(b->zone_sum, 2, like, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(b->zone_sum, 3, name, -1, SQLITE_STATIC);
	if (sqlite3_step(b->zone_sum) != SQLITE_ROW || sqlite3_column_type(b->zone_sum, 0) == SQLITE_NULL)
		return 0;
	*out = sqlite3_column_int64(b->zone_sum, 0);
	return 1;
}

static void set(struct vms_value *v, long long value, enum vms_prov prov)
{
	v->v = value;
	v->prov = prov;
}

static long long activate(const struct builder *b, int file, int *have)
{
	if (file && b->vm.have[V_ACT_FILE]) {
		*have = 1;
		return b->vm.v[V_ACT_FILE];
	}
	if (!file && b->vm.have[V_ACT_ANON]) {
		*have = 1;
		return b->vm.v[V_ACT_ANON];
	}
	if (file && b->vm.have[V_ACT_OLD]) {	/* <= 5.8: file only */
		*have = 1;
		return b->vm.v[V_ACT_OLD];
	}
	*have = 0;
	return 0;
}

/*
 * The memcg's LRU sizes from its last memory.stat sample at or before @ts
 * (hierarchical total_* when present: reclaim targets the whole subtree).
 * Return: 1 when found.
 */
static int memcg_lrus(struct builder *b, long long ts, struct vms_pass_input *in)
{
	static const char *const names[4][2] = {
		{ "total_inactive_anon", "inactive_anon" }, { "total_active_anon", "active_anon" },
		{ "total_inactive_file", "inactive_file" }, { "total_active_file", "active_file" },
	};
	struct vms_value *dst[4] = { &in->inactive_anon, &in->active_anon, &in->inactive_file,
				     &in->active_file };
	long long id, sts;
	int i, k;

	sqlite3_reset(b->memcg_at);
	sqlite3_bind_int64(b->memcg_at, 1, ts);
	sqlite3_bind_text(b->memcg_at, 2, b->memcg_scope, -1, SQLITE_STATIC);
	if (sqlite3_step(b->memcg_at) != SQLITE_ROW)
		return 0;
	id = sqlite3_column_int64(b->memcg_at, 0);
	sts = sqlite3_column_int64(b->memcg_at, 1);
	for (i = 0; i < 4; i++) {
		for (k = 0; k < 2; k++) {
			sqlite3_reset(b->values_of);
			sqlite3_bind_int64(b->values_of, 1, id);
			sqlite3_bind_text(b->values_of, 2, names[i][k], -1, SQLITE_STATIC);
			if (sqlite3_step(b->values_of) == SQLITE_ROW)
				break;
		}
		if (k == 2)
			return 0;
		dst[i]->v = sqlite3_column_int64(b->values_of, 0) / (b->page_kb * 1024);
		dst[i]->prov = VMS_PROV_SAMPLED;
	}
	b->memcg_age_ms = (ts - sts) / 1e6;
	return 1;
}

static void fill_inputs(struct builder *b, struct task_state *t, struct vms_pass_input *in)
{
	const struct pass *p = &t->pass;
	int nid = p->nid >= 0 && p->nid < 64 ? p->nid : 0, have_f, have_a;
	long long v, act_f, act_a;

	memset(in, 0, sizeof(*in));
	in->reclaimer = !strcmp(t->reclaimer ? t->reclaimer : "other", "kswapd") ? VMS_KSWAPD :
			!strcmp(t->reclaimer ? t->reclaimer : "", "direct") ? VMS_DIRECT :
			t->reclaimer && !strncmp(t->reclaimer, "memcg", 5) ? VMS_MEMCG : VMS_OTHER;
	in->priority = p->priority;
	in->order = t->order;
	load_vmstat(b, p->ts);
	if (in->reclaimer == VMS_MEMCG && b->have_memcg && memcg_lrus(b, p->ts, in)) {
		/* memcg limit reclaim: the memcg's own lists (memory.stat, bytes) */
		in->sample_age_ms = b->memcg_age_ms;
	} else if (b->vm.id >= 0) {
		enum vms_prov lru_prov = in->reclaimer == VMS_MEMCG ? VMS_PROV_INFERRED : VMS_PROV_SAMPLED;

		/* memcg reclaim: the node's lists stand in for the memcg's (no memcg id in events) */
		set(&in->inactive_anon, b->vm.v[V_IA], b->vm.have[V_IA] ? lru_prov : VMS_PROV_UNKNOWN);
		set(&in->active_anon, b->vm.v[V_AA], b->vm.have[V_AA] ? lru_prov : VMS_PROV_UNKNOWN);
		set(&in->inactive_file, b->vm.v[V_IF], b->vm.have[V_IF] ? lru_prov : VMS_PROV_UNKNOWN);
		set(&in->active_file, b->vm.v[V_AF], b->vm.have[V_AF] ? lru_prov : VMS_PROV_UNKNOWN);
		in->sample_age_ms = (p->ts - b->vm.ts) / 1e6;
	} else {
		set(&in->inactive_anon, 0, VMS_PROV_UNKNOWN);
		set(&in->active_anon, 0, VMS_PROV_UNKNOWN);
		set(&in->inactive_file, 0, VMS_PROV_UNKNOWN);
		set(&in->active_file, 0, VMS_PROV_UNKNOWN);
		in->sample_age_ms = -1;
	}
	if (zone_sum(b, p->ts, nid, "free", &v))
		set(&in->free_pages, v, VMS_PROV_SAMPLED);
	else
		set(&in->free_pages, 0, VMS_PROV_UNKNOWN);
	if (zone_sum(b, p->ts, nid, "high", &v))
		set(&in->high_wmark, v, VMS_PROV_SAMPLED);
	else
		set(&in->high_wmark, 0, VMS_PROV_UNKNOWN);
	if (zone_sum(b, p->ts, nid, "boost", &v))
		set(&in->boost, v, VMS_PROV_SAMPLED);
	else
		set(&in->boost, 0, VMS_PROV_UNKNOWN);
	if (in->reclaimer == VMS_MEMCG && b->have_memcg_swappiness)
		set(&in->swappiness, b->memcg_swappiness, VMS_PROV_SAMPLED);	/* v1: the memcg's own */
	else
		set(&in->swappiness, b->have_swappiness ? b->swappiness : 60,
		    b->have_swappiness ? VMS_PROV_SAMPLED : VMS_PROV_UNKNOWN);
	sqlite3_reset(b->meminfo_at);
	sqlite3_bind_int64(b->meminfo_at, 1, p->ts);
	if (sqlite3_step(b->meminfo_at) == SQLITE_ROW)
		set(&in->swap_free, sqlite3_column_int64(b->meminfo_at, 0) / b->page_kb, VMS_PROV_SAMPLED);
	else
		set(&in->swap_free, 0, VMS_PROV_UNKNOWN);

	act_f = activate(b, 1, &have_f);
	act_a = activate(b, 0, &have_a);
	if (have_f && b->have_snap[nid])
		set(&in->refault_file, act_f - b->snap_file[nid], VMS_PROV_INFERRED);
	else
		set(&in->refault_file, 0, VMS_PROV_UNKNOWN);
	if (have_a && b->have_snap[nid])
		set(&in->refault_anon, act_a - b->snap_anon[nid], VMS_PROV_INFERRED);
	else
		set(&in->refault_anon, 0, VMS_PROV_UNKNOWN);
}

/* The kernel's snapshot_refaults() at the end of a reclaim cycle of node @nid. */
static void snapshot_refaults(struct builder *b, int nid, long long ts)
{
	int have_f, have_a;

	if (nid < 0 || nid >= 64)
		nid = 0;
	load_vmstat(b, ts);
	if (b->vm.id < 0)
		return;
	b->snap_file[nid] = activate(b, 1, &have_f);
	b->snap_anon[nid] = activate(b, 0, &have_a);
	b->have_snap[nid] = have_f || have_a;
}

static const char *prov_name(enum vms_prov p)
{
	static const char *const names[] = { "exact", "sampled", "inferred", "unknown" };

	return names[p];
}

static int insert_record(struct builder *b, struct task_state *t, const char *kind,
			 const struct vms_pass_input *in, long long ts, long long ts_end, int priority,
			 const long long *scanned, long long reclaimed, long long slab_calls,
			 long long slab_freed, int nid, int runs_since_success, int restarted)
{
	sqlite3_stmt *st = b->insert;
	struct vms_buf prov = { 0 };
	int i = 1;

	vms_buf_addf(&prov, "{\"lru\":\"%s\",\"free\":\"%s\",\"high_wmark\":\"%s\",\"boost\":\"%s\","
		     "\"swappiness\":\"%s\",\"swap_free\":\"%s\",\"refault_file\":\"%s\","
		     "\"refault_anon\":\"%s\",\"priority\":\"exact\",\"outcome\":\"exact\"}",
		     prov_name(in->inactive_file.prov), prov_name(in->free_pages.prov),
		     prov_name(in->high_wmark.prov), prov_name(in->boost.prov),
		     prov_name(in->swappiness.prov), prov_name(in->swap_free.prov),
		     prov_name(in->refault_file.prov), prov_name(in->refault_anon.prov));
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	sqlite3_bind_text(st, i++, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, t->reclaimer ? t->reclaimer : "other", -1, SQLITE_STATIC);
	sqlite3_bind_int(st, i++, t->pid);
	if (nid >= 0)
		sqlite3_bind_int(st, i, nid);
	i++;
	if (t->episode_ts)
		sqlite3_bind_int64(st, i, t->episode_ts);
	i++;
	sqlite3_bind_int64(st, i++, ts);
	sqlite3_bind_int64(st, i++, ts_end);
	sqlite3_bind_int(st, i++, priority);
	if (t->order >= 0)
		sqlite3_bind_int(st, i, t->order);
	i++;
#define BIND_VALUE(x) do { if ((x).prov != VMS_PROV_UNKNOWN) sqlite3_bind_int64(st, i, (x).v); i++; } while (0)
	BIND_VALUE(in->inactive_anon);
	BIND_VALUE(in->active_anon);
	BIND_VALUE(in->inactive_file);
	BIND_VALUE(in->active_file);
	if (in->inactive_file.prov != VMS_PROV_UNKNOWN)
		sqlite3_bind_text(st, i, in->reclaimer == VMS_MEMCG && b->have_memcg &&
				  in->inactive_file.prov == VMS_PROV_SAMPLED ? b->memcg_scope : "node",
				  -1, SQLITE_STATIC);
	i++;
	BIND_VALUE(in->free_pages);
	BIND_VALUE(in->high_wmark);
	BIND_VALUE(in->boost);
	BIND_VALUE(in->swappiness);
	BIND_VALUE(in->swap_free);
	BIND_VALUE(in->refault_file);
	BIND_VALUE(in->refault_anon);
#undef BIND_VALUE
	if (in->sample_age_ms >= 0)
		sqlite3_bind_double(st, i, in->sample_age_ms);
	i++;
	sqlite3_bind_text(st, i++, prov.buf, (int)prov.len, SQLITE_TRANSIENT);
	for (int k = 0; k < 4; k++)
		sqlite3_bind_int64(st, i++, scanned[k]);
	sqlite3_bind_int64(st, i++, reclaimed);
	sqlite3_bind_int64(st, i++, slab_calls);
	sqlite3_bind_int64(st, i++, slab_freed);
	if (runs_since_success >= 0)
		sqlite3_bind_int(st, i, runs_since_success);
	i++;
	if (restarted >= 0)
		sqlite3_bind_int(st, i, restarted);
	vms_buf_release(&prov);
	if (sqlite3_step(st) != SQLITE_DONE)
		return sql_fail(b, "cannot store a decision");
	b->records++;
	return 0;
}

static int close_pass(struct builder *b, struct task_state *t)
{
	struct pass *p = &t->pass;
	struct vms_pass_input in;

	if (!p->open)
		return 0;
	p->open = 0;
	fill_inputs(b, t, &in);
	t->last_in = in;
	t->have_last_in = 1;
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
			     p->reclaimed, p->slab_calls, p->slab_freed, p->nid, -1, -1);
}

static int close_run(struct builder *b, struct task_state *t, long long ts)
{
	static const long long none[4];
	int nid, rc = 0;

	if (close_pass(b, t))
		return -1;
	if (!t->in_run)
		return 0;
	t->in_run = 0;
	nid = t->run_nid >= 0 && t->run_nid < 64 ? t->run_nid : 0;
	if (t->have_last_in)
		rc = insert_record(b, t, "kswapd_run", &t->last_in, t->run_ts, ts, t->run_lowest,
				   none, t->run_reclaimed, 0, 0, t->run_nid,
				   b->runs_since_success[nid], t->run_swept_twice);
	if (t->run_reclaimed > 0)
		b->runs_since_success[nid] = 0;
	else if (t->have_last_in)
		b->runs_since_success[nid]++;
	snapshot_refaults(b, nid, ts);
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

static const char stream_sql[] =
	"SELECT pid, ts, 'N' AS k, reclaim_flags AS a, nr_scanned AS b, nr_reclaimed AS c,"
	"  priority AS p, nid FROM mm_vmscan_lru_shrink_inactive"
	" UNION ALL SELECT pid, ts, 'A', reclaim_flags, nr_taken, 0, priority, nid"
	"  FROM mm_vmscan_lru_shrink_active"
	" UNION ALL SELECT pid, ts, 'S', 0, 0, 0, priority, nid FROM mm_shrink_slab_start"
	" UNION ALL SELECT pid, ts, 'E', 0, retval, 0, NULL, nid FROM mm_shrink_slab_end"
	" UNION ALL SELECT pid, ts, 'W', 0, 0, 0, \"order\", nid FROM mm_vmscan_kswapd_wake"
	" UNION ALL SELECT pid, ts, 'Z', 0, 0, 0, NULL, nid FROM mm_vmscan_kswapd_sleep"
	" UNION ALL SELECT pid, ts, 'B', 0, 0, 0, \"order\", NULL FROM mm_vmscan_direct_reclaim_begin"
	" UNION ALL SELECT pid, ts, 'B', 1, 0, 0, \"order\", NULL FROM mm_vmscan_memcg_reclaim_begin"
	" UNION ALL SELECT pid, ts, 'B', 2, 0, 0, \"order\", NULL FROM mm_vmscan_memcg_softlimit_reclaim_begin"
	" UNION ALL SELECT pid, ts, 'B', 3, 0, 0, \"order\", nid FROM mm_vmscan_node_reclaim_begin"
	" UNION ALL SELECT pid, ts, 'F', 0, 0, 0, NULL, NULL FROM mm_vmscan_direct_reclaim_end"
	" UNION ALL SELECT pid, ts, 'F', 1, 0, 0, NULL, NULL FROM mm_vmscan_memcg_reclaim_end"
	" UNION ALL SELECT pid, ts, 'F', 2, 0, 0, NULL, NULL FROM mm_vmscan_memcg_softlimit_reclaim_end"
	" UNION ALL SELECT pid, ts, 'F', 3, 0, 0, NULL, NULL FROM mm_vmscan_node_reclaim_end"
	" ORDER BY 1, 2";

static int handle(struct builder *b, struct task_state *t, sqlite3_stmt *st)
{
	static const char *const kinds[] = { "direct", "memcg", "memcg_softlimit", "node" };
	long long ts = sqlite3_column_int64(st, 1);
	char k = ((const char *)sqlite3_column_text(st, 2))[0];
	long long a = sqlite3_column_int64(st, 3), bb = sqlite3_column_int64(st, 4);
	long long c = sqlite3_column_int64(st, 5);
	int prio = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 6);
	int nid = sqlite3_column_type(st, 7) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 7);

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
		return 0;
	case 'Z':
		return close_run(b, t, ts);
	case 'B':
		if (close_pass(b, t))
			return -1;
		t->reclaimer = kinds[a & 3];
		t->episode_ts = ts;
		t->order = prio;
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
	}
	/* N, A, S: LRU and slab work at priority prio */
	if (!t->pass.open || t->pass.priority != prio) {
		if (close_pass(b, t))
			return -1;
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
	}
	return 0;
}

static int prepare(struct builder *b)
{
	long long v;
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(b->sql, "SELECT id, ts FROM counter_sample WHERE source = 'vmstat'"
			       " AND scope = '' AND ts <= ?1 ORDER BY ts DESC LIMIT 1", -1,
			       &b->vmstat_at, NULL) ||
	    sqlite3_prepare_v2(b->sql, "SELECT value FROM counter_value WHERE sample = ?1 AND name = ?2",
			       -1, &b->values_of, NULL) ||
	    sqlite3_prepare_v2(b->sql, "SELECT SUM(v.value) FROM counter_sample s JOIN counter_value v"
			       " ON v.sample = s.id WHERE s.source = 'zoneinfo' AND s.scope LIKE ?2"
			       " AND v.name = ?3 AND s.ts = (SELECT MAX(ts) FROM counter_sample"
			       " WHERE source = 'zoneinfo' AND scope LIKE ?2 AND ts <= ?1)", -1,
			       &b->zone_sum, NULL) ||
	    sqlite3_prepare_v2(b->sql, "SELECT v.value FROM counter_sample s JOIN counter_value v"
			       " ON v.sample = s.id WHERE s.source = 'meminfo' AND v.name = 'SwapFree'"
			       " AND s.ts <= ?1 ORDER BY s.ts DESC LIMIT 1", -1, &b->meminfo_at, NULL) ||
	    sqlite3_prepare_v2(b->sql, "INSERT INTO decision (kind, reclaimer, pid, nid, episode_ts,"
			       " ts, ts_end, priority, \"order\", inactive_anon, active_anon,"
			       " inactive_file, active_file, lru_scope, free_pages, high_wmark, boost,"
			       " swappiness, swap_free, refault_file, refault_anon, sample_age_ms,"
			       " provenance, scanned_inactive_anon, scanned_active_anon,"
			       " scanned_inactive_file, scanned_active_file, reclaimed, slab_calls,"
			       " slab_freed, runs_since_success, restarted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
			       " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &b->insert, NULL))
		return sql_fail(b, "cannot prepare the decision queries");
	if (sqlite3_prepare_v2(b->sql, "SELECT id, ts FROM counter_sample WHERE source = 'memcg'"
			       " AND scope = ?2 AND ts <= ?1 ORDER BY ts DESC LIMIT 1", -1,
			       &b->memcg_at, NULL))
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
	if (!sqlite3_prepare_v2(b->sql, "SELECT value FROM sysctl WHERE name = 'memcg.swappiness'",
				-1, &st, NULL)) {
		if (sqlite3_step(st) == SQLITE_ROW) {
			b->memcg_swappiness = sqlite3_column_int64(st, 0);
			b->have_memcg_swappiness = 1;
		}
		sqlite3_finalize(st);
	}
	b->vm.id = -2;
	return 0;
}

long decisions_build(struct vms_db *db)
{
	struct builder b = { .db = db, .sql = vms_db_sql(db) };
	struct task_state t = { .pid = -1 };
	sqlite3_stmt *st = NULL;
	long rc = -1;
	int r;

	if (vms_db_exec(db, "DELETE FROM replay_result; DELETE FROM decision") || prepare(&b))
		goto out;
	if (sqlite3_prepare_v2(b.sql, stream_sql, -1, &st, NULL)) {
		sql_fail(&b, "cannot read the reclaim events");
		goto out;
	}
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		int pid = sqlite3_column_int(st, 0);

		if (pid != t.pid) {
			if (t.pid >= 0 && close_run(&b, &t, t.pass.ts_end))
				goto out;
			memset(&t, 0, sizeof(t));
			t.pid = pid;
			t.order = -1;
		}
		if (handle(&b, &t, st))
			goto out;
	}
	if (r != SQLITE_DONE) {
		sql_fail(&b, "cannot read the reclaim events");
		goto out;
	}
	if (t.pid >= 0 && close_run(&b, &t, t.pass.ts_end))
		goto out;
	rc = b.records;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(b.vmstat_at);
	sqlite3_finalize(b.values_of);
	sqlite3_finalize(b.zone_sum);
	sqlite3_finalize(b.meminfo_at);
	sqlite3_finalize(b.memcg_at);
	sqlite3_finalize(b.insert);
	return rc;
}
