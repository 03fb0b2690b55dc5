// SPDX-License-Identifier: GPL-2.0
/*
 * exact-inputs.c - the exact decision inputs of a live recording for
 * replay: reads what record/exact-inputs.c stored (the BPF program's
 * snapshots of a memcg's LRU sizes and workingset counters) and gives each
 * memcg reclaim pass the values the kernel itself read, instead of the
 * counter samples. Part of record -> replay -> analyze; used by
 * decisions.c.
 *
 * How it works (6.18 mm/vmscan.c, mm/memcontrol.c): prepare_scan_control()
 * reads the target lruvec through lruvec_page_state(), the rstat-flushed
 * copy of the counters, which changes only when the stats are flushed
 * (memcg_flush_stats with force or needs_flush), one CPU at a time
 * (cgroup_rstat_locked; recordings of kernels without that event: the whole
 * flush at once). So the kernel's view at a decision is the flushed view of
 * the last such CPU turn before it (or the running values at the last such
 * flush); before
 * the first flush of the recording it is what memory.stat showed at the
 * start (the read shows the flushed copy). The decision point of a pass is
 * the isolate record (mm_vmscan_lru_isolate) just before its first event:
 * prepare_scan_control() runs right before the first batch is isolated.
 * The refault snapshot the kernel compares with (lruvec->refaults[], set by
 * snapshot_refaults() at the end of do_try_to_free_pages(), just before
 * mm_vmscan_memcg_reclaim_end) is the view at the last reclaim end of the
 * memcg before the decision, by any task.
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "exact-inputs.h"

/* Columns read, in this order: the flushed view of each. */
enum { X_IA, X_AA, X_IF, X_AF, X_ACT_ANON, X_ACT_FILE, X_N };
static const char *const cols[X_N] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file",
	"workingset_activate_anon", "workingset_activate_file",
};

struct flush {
	long long ts;
	long long v[X_N];
};

struct point {
	long long ts;
	int pid;
	int other_memcg;		/* reclaim begin: the task was not in the recorded memcg */
	long long lru[4];		/* isolate: the running list sizes before the batch left them;
					 * reclaim begin: as the reclaim found them */
	long long restore[2];		/* isolate: workingset_restore_anon, _file (running) */
};

struct exact_view {
	struct flush *flush;		/* effective flushes, by time */
	int nflush, aflush;
	struct flush start;		/* the view before the first flush (memory.stat at the start) */
	int have_start[X_N];		/* start value known (not delta-only) */
	struct point *isolate;		/* decision points, by pid then time */
	int nisolate, aisolate;
	sqlite3_stmt *pass_of;		/* pid, ts and reclaimer of a decision record */
	long long last_restore[2];	/* exact_view_sizes(): restores at the previous exact pass */
	int have_last_restore;
	long long *end;			/* reclaim ends of the memcg (snapshot_refaults), by time */
	int nend, aend;
	struct point *foreign;		/* memcg reclaim begins by tasks of other memcgs, by pid, time */
	int nforeign, aforeign;
};

/*
 * A pass's first event (the end of its first batch) follows the batch's
 * isolate record by this much at most when nothing else places the record
 * in the pass; a task preempted inside the batch can take longer, so a
 * record after the task's previous pass is the pass's own up to the
 * sanity bound.
 */
static long long max_gap_ns = 5000000;
static long long max_preempted_ns = 1000000000;

static int load_start(sqlite3 *sql, struct exact_view *v)
{
	sqlite3_stmt *st;
	int i;

	for (i = 0; i < X_N; i++) {
		if (sqlite3_prepare_v2(sql, "SELECT start_value FROM exact_input_item WHERE col = ?",
				       -1, &st, NULL))
			return vms_error("cannot read exact_input_item: %s", sqlite3_errmsg(sql));
		sqlite3_bind_text(st, 1, cols[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
			v->start.v[i] = sqlite3_column_int64(st, 0);
			v->have_start[i] = 1;
		}
		sqlite3_finalize(st);
	}
	return 0;
}

static int load_flushes(sqlite3 *sql, struct exact_view *v)
{
	sqlite3_stmt *st;
	int i, rc = 0;

	/* the flushed view after each CPU's turn, where recorded; else each whole flush */
	if (sqlite3_prepare_v2(sql, "SELECT ts, inactive_anon, active_anon, inactive_file, active_file,"
			       " workingset_activate_anon, workingset_activate_file FROM exact_input"
			       " WHERE CASE WHEN EXISTS (SELECT 1 FROM exact_input WHERE kind = 'flush_cpu')"
			       " THEN kind = 'flush_cpu' ELSE kind = 'flush' AND (flush_force OR flush_needed)"
			       " END ORDER BY ts", -1, &st, NULL))
		return vms_error("cannot read exact_input: %s", sqlite3_errmsg(sql));
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		if (vms_array_reserve(&v->flush, &v->aflush, v->nflush, 256, sizeof(*v->flush))) {
			rc = -1;
			break;
		}
		v->flush[v->nflush].ts = sqlite3_column_int64(st, 0);
		for (i = 0; i < X_N; i++)
			v->flush[v->nflush].v[i] = sqlite3_column_int64(st, 1 + i);
		v->nflush++;
	}
	sqlite3_finalize(st);
	return rc;
}

static int load_points(sqlite3 *sql, struct exact_view *v)
{
	sqlite3_stmt *st;
	int i, rc = 0;

	if (sqlite3_prepare_v2(sql, "SELECT ts, pid, inactive_anon, active_anon, inactive_file,"
			       " active_file, workingset_restore_anon, workingset_restore_file"
			       " FROM exact_input WHERE kind = 'isolate' ORDER BY pid, ts",
			       -1, &st, NULL))
		return vms_error("cannot read exact_input: %s", sqlite3_errmsg(sql));
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		if (vms_array_reserve(&v->isolate, &v->aisolate, v->nisolate, 1024,
				      sizeof(*v->isolate))) {
			rc = -1;
			break;
		}
		v->isolate[v->nisolate].ts = sqlite3_column_int64(st, 0);
		v->isolate[v->nisolate].pid = sqlite3_column_int(st, 1);
		for (i = 0; i < 4; i++)
			v->isolate[v->nisolate].lru[i] = sqlite3_column_int64(st, 2 + i);
		for (i = 0; i < 2; i++)
			v->isolate[v->nisolate].restore[i] = sqlite3_column_int64(st, 6 + i);
		v->nisolate++;
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(sql, "SELECT e.ts FROM exact_input e, exact_input_run r"
			       " WHERE e.kind = 'reclaim_end' AND e.memcg_id = r.memcg_id ORDER BY e.ts",
			       -1, &st, NULL))
		return vms_error("cannot read exact_input: %s", sqlite3_errmsg(sql));
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		if (vms_array_reserve(&v->end, &v->aend, v->nend, 256, sizeof(*v->end))) {
			rc = -1;
			break;
		}
		v->end[v->nend++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	/*
	 * every task's memcg reclaim begins, to tell which episodes reclaim
	 * another memcg, with the memcg's lists as they stood then
	 */
	if (sqlite3_prepare_v2(sql, "SELECT e.ts, e.pid, e.memcg_id != r.memcg_id, e.inactive_anon,"
			       " e.active_anon, e.inactive_file, e.active_file FROM exact_input e,"
			       " exact_input_run r WHERE e.kind = 'reclaim_begin' ORDER BY e.pid, e.ts",
			       -1, &st, NULL))
		return vms_error("cannot read exact_input: %s", sqlite3_errmsg(sql));
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		if (vms_array_reserve(&v->foreign, &v->aforeign, v->nforeign, 256, sizeof(*v->foreign))) {
			rc = -1;
			break;
		}
		v->foreign[v->nforeign].ts = sqlite3_column_int64(st, 0);
		v->foreign[v->nforeign].pid = sqlite3_column_int(st, 1);
		v->foreign[v->nforeign].other_memcg = sqlite3_column_int(st, 2);
		for (i = 0; i < 4; i++)
			v->foreign[v->nforeign].lru[i] = sqlite3_column_int64(st, 3 + i);
		v->nforeign++;
	}
	sqlite3_finalize(st);
	return rc;
}

int exact_view_open(sqlite3 *sql, struct exact_view **out)
{
	struct exact_view *v;
	sqlite3_stmt *st;
	int bpf = 0;

	*out = NULL;
	/* older databases have no such table: no exact inputs, not an error */
	if (sqlite3_prepare_v2(sql, "SELECT source = 'bpf' FROM exact_input_run WHERE id = 1", -1,
			       &st, NULL))
		return 0;
	bpf = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (!bpf)
		return 0;
	v = calloc(1, sizeof(*v));
	if (!v)
		return vms_error("out of memory");
	if (load_start(sql, v) || load_flushes(sql, v) || load_points(sql, v) ||
	    sqlite3_prepare_v2(sql, "SELECT pid, ts FROM decision WHERE id = ? AND kind = 'pass'"
			       " AND reclaimer = 'memcg'", -1, &v->pass_of, NULL)) {
		exact_view_free(v);
		return -1;
	}
	*out = v;
	return 0;
}

void exact_view_free(struct exact_view *v)
{
	if (!v)
		return;
	sqlite3_finalize(v->pass_of);
	free(v->flush);
	free(v->isolate);
	free(v->end);
	free(v->foreign);
	free(v);
}

/* Index of the last flush at or before @ts, -1 when none (the start view). */
static int flush_at(const struct exact_view *v, long long ts)
{
	int lo = 0, hi = v->nflush;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (v->flush[mid].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

/* The last of the @n points @p (by pid, then time) of @pid at or before @ts, or -1. */
static int point_at(const struct point *p, int n, int pid, long long ts)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (p[mid].pid < pid || (p[mid].pid == pid && p[mid].ts <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	lo--;
	return lo >= 0 && p[lo].pid == pid ? lo : -1;
}

static int isolate_at(const struct exact_view *v, int pid, long long ts)
{
	return point_at(v->isolate, v->nisolate, pid, ts);
}

/*
 * The episode of @pid at @ts reclaims another memcg: its task was not in
 * the recorded one at its reclaim begin (vmscan events carry no memcg, so
 * without exact inputs such passes are taken for the recorded memcg's).
 */
static int foreign_at(const struct exact_view *v, int pid, long long ts)
{
	int i = point_at(v->foreign, v->nforeign, pid, ts);

	return i >= 0 && v->foreign[i].other_memcg;
}

static void set_unknown(struct vms_value *x)
{
	x->v = x->lo = x->hi = 0;
	x->prov = VMS_PROV_UNKNOWN;
}

/* The last reclaim end strictly before @ts, or -1. */
static int end_before(const struct exact_view *v, long long ts)
{
	int lo = 0, hi = v->nend;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (v->end[mid] < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

static void set_exact(struct vms_value *x, long long value)
{
	x->v = x->lo = x->hi = value;
	x->prov = VMS_PROV_EXACT;
}

/*
 * Refaults between the views of flushes @from and @to (-1: the start view):
 * exact when both are the same view or both are flushes, or when the start
 * value of the item is known. Return: 1 when set.
 */
static int refaults(const struct exact_view *v, int from, int to, int item, struct vms_value *out)
{
	const struct flush *a = from >= 0 ? &v->flush[from] : &v->start;
	const struct flush *b = to >= 0 ? &v->flush[to] : &v->start;

	if (from == to) {
		set_exact(out, 0);
		return 1;
	}
	if ((from < 0 || to < 0) && !v->have_start[item])
		return 0;
	set_exact(out, b->v[item] - a->v[item]);
	return 1;
}

/*
 * The earliest time the kernel can have taken the pass's decision: after
 * the task's previous batch (its previous pass) and after its reclaim began.
 */
static long long decided_after(const struct exact_view *v, int pid, int iso)
{
	int b = point_at(v->foreign, v->nforeign, pid, v->isolate[iso].ts);
	long long t = iso > 0 && v->isolate[iso - 1].pid == pid ? v->isolate[iso - 1].ts : 0;

	return b >= 0 && v->foreign[b].ts > t ? v->foreign[b].ts : t;
}

/* Widen @x to hold @other and make it inferred: the kernel read one of the two. */
static void either(struct vms_value *x, long long other)
{
	if (other < x->lo)
		x->lo = other;
	if (other > x->hi)
		x->hi = other;
	x->prov = VMS_PROV_INFERRED;
}

/*
 * Flush @f ran between the pass's decision window's start and its first
 * isolation: prepare_scan_control() may have read the view before it. The
 * inputs become ranges over both views (inferred).
 */
static void raced(const struct exact_view *v, int f, int e, struct vms_pass_input *in)
{
	struct vms_value *lru[4] = { &in->inactive_anon, &in->active_anon, &in->inactive_file,
				     &in->active_file };
	const struct flush *before = f > 0 ? &v->flush[f - 1] : &v->start;
	struct vms_value alt;
	int i, fe;

	for (i = 0; i < 4; i++)
		if (f > 0 || v->have_start[X_IA + i])
			either(lru[i], before->v[X_IA + i]);
	/* a snapshot taken after flush f began leaves no earlier view to compare with */
	if (e < 0 || (fe = flush_at(v, v->end[e])) >= f)
		return;
	if (in->refault_file.prov == VMS_PROV_EXACT && refaults(v, fe, f - 1, X_ACT_FILE, &alt))
		either(&in->refault_file, alt.v);
	if (in->refault_anon.prov == VMS_PROV_EXACT && refaults(v, fe, f - 1, X_ACT_ANON, &alt))
		either(&in->refault_anon, alt.v);
}

int exact_view_fill(const struct exact_view *v, int pid, long long ts, long long since,
		    struct vms_pass_input *in)
{
	struct vms_value *lru[4] = { &in->inactive_anon, &in->active_anon, &in->inactive_file,
				     &in->active_file };
	const struct flush *seen;
	long long after;
	int i, iso, f, e;

	if (!v || in->reclaimer != VMS_MEMCG)
		return 0;
	if (foreign_at(v, pid, ts)) {
		for (i = 0; i < 4; i++)
			set_unknown(lru[i]);
		set_unknown(&in->refault_file);
		set_unknown(&in->refault_anon);
		return 0;
	}
	iso = isolate_at(v, pid, ts);
	if (iso < 0 || ts - v->isolate[iso].ts > max_preempted_ns ||
	    (since > 0 ? v->isolate[iso].ts <= since : ts - v->isolate[iso].ts > max_gap_ns))
		return 0;
	f = flush_at(v, v->isolate[iso].ts);
	seen = f >= 0 ? &v->flush[f] : &v->start;
	for (i = 0; i < 4; i++)
		if (f < 0 && !v->have_start[X_IA + i])
			return 0;
	for (i = 0; i < 4; i++) {
		set_exact(lru[i], seen->v[X_IA + i]);
		in->lru_size[i] = v->isolate[iso].lru[i];
	}
	in->have_lru_size = 1;
	in->sample_age_ms = (v->isolate[iso].ts - (f >= 0 ? v->flush[f].ts : v->isolate[iso].ts)) / 1e6;
	e = end_before(v, v->isolate[iso].ts);
	if (e >= 0) {
		int fe = flush_at(v, v->end[e]);

		refaults(v, fe, f, X_ACT_FILE, &in->refault_file);
		refaults(v, fe, f, X_ACT_ANON, &in->refault_anon);
	}
	/* the decision came after the task's previous pass ended, if known (later than its isolate) */
	after = decided_after(v, pid, iso);
	if (since > after)
		after = since;
	if (f >= 0 && v->flush[f].ts > after)
		raced(v, f, e, in);
	return 1;
}

int exact_view_nothing_to_isolate(const struct exact_view *v, int pid, long long ts,
				  int anon_scannable)
{
	int b;

	if (!v)
		return 0;
	b = point_at(v->foreign, v->nforeign, pid, ts);
	if (b < 0 || v->foreign[b].other_memcg || ts - v->foreign[b].ts > max_preempted_ns)
		return 0;
	/* enum lru_list order: inactive anon, active anon, inactive file, active file */
	return v->foreign[b].lru[2] == 0 && (!anon_scannable || v->foreign[b].lru[0] == 0) &&
	       (v->foreign[b].lru[3] > 0 || (anon_scannable && v->foreign[b].lru[1] > 0));
}

int exact_view_sizes(struct exact_view *v, long long id, struct vms_pass_input *in,
		     long long *restored)
{
	int iso, i, pid;
	long long ts;

	if (!v)
		return 0;
	sqlite3_reset(v->pass_of);
	sqlite3_bind_int64(v->pass_of, 1, id);
	if (sqlite3_step(v->pass_of) != SQLITE_ROW)
		return 0;
	pid = sqlite3_column_int(v->pass_of, 0);
	ts = sqlite3_column_int64(v->pass_of, 1);
	iso = isolate_at(v, pid, ts);
	/* exact_view_fill() made the record exact: the same isolate record is the pass's */
	if (iso < 0 || ts - v->isolate[iso].ts > max_preempted_ns ||
	    in->inactive_file.prov != VMS_PROV_EXACT)
		return 0;
	for (i = 0; i < 4; i++)
		in->lru_size[i] = v->isolate[iso].lru[i];
	in->have_lru_size = 1;
	/* the memcg's restored refaults since its previous pass (the cost's IO term), exact */
	for (i = 0; i < 2; i++) {
		restored[i] = v->have_last_restore ? v->isolate[iso].restore[i] - v->last_restore[i] : 0;
		if (restored[i] < 0)
			restored[i] = 0;
		v->last_restore[i] = v->isolate[iso].restore[i];
	}
	v->have_last_restore = 1;
	return 1;
}
