// SPDX-License-Identifier: GPL-2.0
/*
 * sim-recording.c - what `vmscope whatif` reads from a recording before it
 * simulates: which lruvec was reclaimed (the memcg that record -m sampled,
 * else the node), its counter samples (LRU sizes, page cache and anon
 * charged, cumulative refaults), the recorded reclaim (events), page-cache
 * insertions and removals if filemap events were recorded, the knobs the
 * recording ran with, and the recorded outcome that the simulation is
 * compared with. Reading only; the simulation is sim-run.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "vms-window.h"
#include "replay.h"
#include "sim.h"

const char *const whatif_knob_names[K_NKNOBS] = {
	"vm.swappiness", "memcg.swappiness", "memcg.limit", "vm.watermark_scale_factor",
	"vm.watermark_boost_factor", "vm.vfs_cache_pressure", "vm.min_free_kbytes",
};

const char *const whatif_metric_names[M_NMETRICS] = {
	"refault_file", "refault_anon", "reclaimed_file", "reclaimed_anon", "swapout",
	"reclaim_episodes", "reclaim_seconds", "kswapd_failures",
};

/* memory.stat (v1 hierarchical name, v2 name; bytes) or /proc/vmstat (pages) fields */
enum sfield { F_IA, F_AA, F_IF, F_AF, F_FILE, F_ANON, F_RF_ANON, F_RF_FILE, F_KMEM, F_FREE,
	      F_SWAP, F_SWAPCACHED, F_NFIELDS };

/* kmem: v1 memory.kmem.usage_in_bytes as record stores it, v2 memory.stat slab */
static const char *const memcg_v1_names[F_NFIELDS] = {
	"total_inactive_anon", "total_active_anon", "total_inactive_file", "total_active_file",
	"total_cache", "total_rss", "total_workingset_refault_anon", "total_workingset_refault_file",
	"kmem_usage_in_bytes", "", "total_swap", "total_swapcached",
};
static const char *const memcg_v2_names[F_NFIELDS] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file",
	"file", "anon", "workingset_refault_anon", "workingset_refault_file", "slab", "",
	"", "swapcached",	/* v2 swap use is memory.swap.current, not sampled */
};
static const char *const vmstat_names[F_NFIELDS] = {
	"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
	"nr_file_pages", "nr_anon_pages", "workingset_refault_anon", "workingset_refault_file",
	"", "nr_free_pages", "", "nr_swapcached",	/* node swap use: meminfo (sim-swap.c) */
};

static int field_of(const char *const *names, const char *name)
{
	int i;

	for (i = 0; i < F_NFIELDS; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/* First column of a query on the window (?1, ?2) and text @arg (?3). Return: 0, 1 none, -1. */
static int query_int(struct vms_window *w, const char *sql, const char *arg, long long *out)
{
	sqlite3_stmt *st = vms_window_prepare(w, sql);

	if (!st)
		return -1;
	if (arg)
		sqlite3_bind_text(st, 3, arg, -1, SQLITE_TRANSIENT);
	return vms_window_step_int(w, st, out);
}

int whatif_table_exists(struct vms_window *w, const char *name)
{
	long long n = 0;

	return query_int(w, "SELECT COUNT(*) FROM sqlite_master WHERE name = ?3",
			 name, &n) == 0 && n > 0;
}

static void knob_set(struct whatif_value *k, long long v, const char *source)
{
	k->v = v;
	k->known = 1;
	k->source = source;
}

static int load_knobs(struct vms_window *w, struct whatif_rec *r)
{
	static const char sql[] = "SELECT CAST(value AS INTEGER) FROM sysctl WHERE name = ?3";
	int i;

	for (i = 0; i < K_NKNOBS; i++) {
		long long v;
		int rc = query_int(w, sql, whatif_knob_names[i], &v);

		if (rc < 0)
			return -1;
		if (!rc)
			knob_set(&r->knob[i], v, "recorded sysctl");
	}
	if (r->memcg && r->limit_pages > 0 && !r->knob[K_MEMCG_LIMIT].known)
		knob_set(&r->knob[K_MEMCG_LIMIT], r->limit_pages, "memory.stat hierarchical_memory_limit");
	return 0;
}

static int add_sample(struct whatif_rec *r, long *alloc, long long ts)
{
	if (r->nsmp == *alloc) {
		long n = *alloc ? *alloc * 2 : 256;
		struct whatif_sample *p = realloc(r->smp, n * sizeof(*p));

		if (!p)
			return vms_error("out of memory");
		r->smp = p;
		*alloc = n;
	}
	memset(&r->smp[r->nsmp], 0, sizeof(r->smp[0]));
	r->smp[r->nsmp++].ts = ts;
	return 0;
}

static int load_samples(struct vms_window *w, struct whatif_rec *r, const char *scope,
			long long page_size)
{
	const char *source = r->memcg ? "memcg" : "vmstat";
	const char *const *names = !r->memcg ? vmstat_names :
				   r->cgroup_v1 ? memcg_v1_names : memcg_v2_names;
	char sql[512];
	sqlite3_stmt *st;
	long alloc = 0;
	int rc;

	snprintf(sql, sizeof(sql),
		 "SELECT s.ts, v.name, v.value FROM counter_sample s JOIN counter_value v ON v.sample = s.id "
		 "WHERE s.source = '%s' AND s.scope = ?3 AND s.ts BETWEEN ?1 AND ?2 ORDER BY s.ts, s.id",
		 source);
	st = vms_window_prepare(w, sql);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 3, scope, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long ts = sqlite3_column_int64(st, 0), v = sqlite3_column_int64(st, 2);
		int f = field_of(names, (const char *)sqlite3_column_text(st, 1));
		struct whatif_sample *s;

		if (!strcmp((const char *)sqlite3_column_text(st, 1), "hierarchical_memory_limit") &&
		    r->memcg && v > 0) {
			if (v < (1LL << 60))
				r->limit_pages = v / page_size;
			else
				r->unlimited = 1;	/* cgroup v1 prints 'no limit' as ~2^63 */
		}
		if (f < 0)
			continue;
		if ((!r->nsmp || r->smp[r->nsmp - 1].ts != ts) && add_sample(r, &alloc, ts)) {
			sqlite3_finalize(st);
			return -1;
		}
		s = &r->smp[r->nsmp - 1];
		if (r->memcg && (f <= F_ANON || f == F_KMEM || f == F_SWAP || f == F_SWAPCACHED))
			v /= page_size;		/* memory.stat sizes are bytes */
		if (f == F_KMEM) {
			s->kmem = v;
			r->has_kmem = 1;
		} else if (f == F_FREE) {
			s->free = v;
		} else if (f == F_SWAP) {
			s->swap = v;
			r->swap_samples++;
		} else if (f == F_SWAPCACHED) {
			s->swapcached = v;
		} else if (f <= F_AF)
			s->lru[f] = v;
		else if (f == F_FILE)
			s->file = v;
		else if (f == F_ANON)
			s->anon = v;
		else
			s->refault[f == F_RF_FILE] = v;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vms_error("reading counter samples: %s", sqlite3_errmsg(w->sql));
	return 0;
}

const char *whatif_lruvec_reclaimers(const struct whatif_rec *r)
{
	/* memcg reclaim events do not name the memcg: its reclaimers are the tasks in them */
	return r->memcg ? "pid IN (SELECT pid FROM mm_vmscan_memcg_reclaim_begin)" :
			  "pid NOT IN (SELECT pid FROM mm_vmscan_memcg_reclaim_begin)";
}

/* The recorded reclaim of the lruvec: inactive-list events, cumulative at each sample. */
static int load_reclaim(struct vms_window *w, struct whatif_rec *r)
{
	char sql[512];
	sqlite3_stmt *st;
	long long cum[2] = { 0, 0 }, scanned = 0;
	long i = 0;
	int rc;

	snprintf(sql, sizeof(sql),
		 "SELECT ts, (reclaim_flags & 2) != 0, nr_reclaimed, nr_scanned FROM mm_vmscan_lru_shrink_inactive "
		 "WHERE ts BETWEEN ?1 AND ?2 AND %s ORDER BY ts", whatif_lruvec_reclaimers(r));
	st = vms_window_prepare(w, sql);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long ts = sqlite3_column_int64(st, 0);

		while (i < r->nsmp && r->smp[i].ts < ts) {
			r->smp[i].reclaimed[0] = cum[0];
			r->smp[i++].reclaimed[1] = cum[1];
		}
		cum[sqlite3_column_int(st, 1)] += sqlite3_column_int64(st, 2);
		scanned += sqlite3_column_int64(st, 3);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vms_error("reading reclaim events: %s", sqlite3_errmsg(w->sql));
	for (; i < r->nsmp; i++) {
		r->smp[i].reclaimed[0] = cum[0];
		r->smp[i].reclaimed[1] = cum[1];
	}
	r->recorded[M_RECLAIMED_ANON] = cum[0];
	r->recorded[M_RECLAIMED_FILE] = cum[1];
	r->has_recorded[M_RECLAIMED_ANON] = r->has_recorded[M_RECLAIMED_FILE] = 1;
	r->scanned_recorded = scanned;
	return 0;
}

static int load_outcome(struct vms_window *w, struct whatif_rec *r)
{
	const struct whatif_sample *a = &r->smp[0], *b = &r->smp[r->nsmp - 1];
	long long v, k, episodes;

	r->recorded[M_REFAULT_FILE] = b->refault[1] - a->refault[1];
	r->recorded[M_REFAULT_ANON] = b->refault[0] - a->refault[0];
	r->has_recorded[M_REFAULT_FILE] = r->has_recorded[M_REFAULT_ANON] = 1;
	if (!query_int(w, "SELECT MAX(value) - MIN(value) FROM counter WHERE source = 'vmstat' "
		       "AND name = 'pswpout' AND ts BETWEEN ?1 AND ?2", NULL, &v)) {
		r->recorded[M_SWAPOUT] = v;
		r->has_recorded[M_SWAPOUT] = 1;
	}
	/* shadow entries cleared with their inodes (6.18: pginodesteal counts those, not pages) */
	if (!query_int(w, "SELECT MAX(value) - MIN(value) FROM counter WHERE source = 'vmstat' "
		       "AND name = 'pginodesteal' AND ts BETWEEN ?1 AND ?2", NULL, &v))
		r->inodesteal = v;
	if (r->memcg) {
		if (query_int(w, "SELECT COUNT(*) FROM mm_vmscan_memcg_reclaim_begin WHERE ts BETWEEN ?1 AND ?2",
			      NULL, &v) < 0 ||
		    query_int(w, "SELECT COALESCE(SUM(duration_ns), 0) FROM reclaim_interval "
			      "WHERE kind = 'memcg' AND begin_ts BETWEEN ?1 AND ?2", NULL, &k) < 0)
			return -1;
	} else {
		long long d = 0, kd = 0;

		if (query_int(w, "SELECT (SELECT COUNT(*) FROM mm_vmscan_kswapd_wake WHERE ts BETWEEN ?1 AND ?2) + "
			      "(SELECT COUNT(*) FROM mm_vmscan_direct_reclaim_begin WHERE ts BETWEEN ?1 AND ?2)",
			      NULL, &v) < 0 ||
		    query_int(w, "SELECT COALESCE(SUM(duration_ns), 0) FROM reclaim_interval "
			      "WHERE kind = 'direct' AND begin_ts BETWEEN ?1 AND ?2", NULL, &d) < 0 ||
		    query_int(w, "SELECT COALESCE(SUM(duration_ns), 0) FROM kswapd_interval "
			      "WHERE wake_ts BETWEEN ?1 AND ?2", NULL, &kd) < 0)
			return -1;
		k = d + kd;
	}
	episodes = v;
	r->recorded[M_EPISODES] = v;
	r->recorded[M_SECONDS] = k / 1e9;
	r->has_recorded[M_EPISODES] = r->has_recorded[M_SECONDS] = 1;
	/* balance_pgdat() runs of node 0 that reclaimed no page (kswapd_failures++) */
	if (whatif_table_exists(w, "kswapd_run")) {
		if (query_int(w, "SELECT COUNT(*) FROM kswapd_run WHERE nid = 0 AND failed "
			      "AND wake_ts BETWEEN ?1 AND ?2", NULL, &v) < 0)
			return -1;
		r->recorded[M_KSWAPD_FAILURES] = v;
		r->has_recorded[M_KSWAPD_FAILURES] = 1;
	}
	r->ns_per_scanned = r->scanned_recorded ? (double)k / r->scanned_recorded : 0;
	if (r->memcg && episodes > 0)
		r->charge_batch = (long long)((r->recorded[M_RECLAIMED_FILE] +
					       r->recorded[M_RECLAIMED_ANON]) / episodes + 0.5);
	if (r->charge_batch < 64)
		r->charge_batch = 64;
	return 0;
}

/*
 * Node 0's watermarks (boost removed), and per zone its managed pages, high
 * watermark and pfn range, at the first zoneinfo sample.
 */
static int load_zones(struct vms_window *w, struct whatif_rec *r)
{
	static const char sql[] =
		"SELECT s.scope, v.name, v.value FROM counter_sample s JOIN counter_value v ON v.sample = s.id "
		"WHERE s.source = 'zoneinfo' AND s.scope LIKE 'node0/%' AND v.name IN ('min', 'low', 'high', "
		"'boost', 'managed', 'start_pfn', 'spanned', 'protection_0', 'protection_1', 'protection_2', "
		"'protection_3', 'protection_4') AND s.ts = (SELECT MIN(ts) FROM counter_sample "
		"WHERE source = 'zoneinfo' AND ts BETWEEN ?1 AND ?2) ORDER BY s.scope";
	static const char *const kernel_zones[] = { "DMA", "DMA32", "Normal", "Movable", "Device" };
	sqlite3_stmt *st = vms_window_prepare(w, sql);
	long long boost[8] = { 0 }, zmin[8] = { 0 }, zlow[8] = { 0 }, protection[8][5] = { { 0 } };
	int zone_index[8], top = 0, rc, z, k;
	char last[64] = "";

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *scope = (const char *)sqlite3_column_text(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		long long v = sqlite3_column_int64(st, 2);

		if (strcmp(scope, last)) {
			const char *zname = strchr(scope, '/') ? strchr(scope, '/') + 1 : scope;

			if (r->nzones == 8)
				break;
			snprintf(last, sizeof(last), "%s", scope);
			zone_index[r->nzones] = 0;
			for (k = 0; k < 5; k++)
				if (!strcmp(zname, kernel_zones[k]))
					zone_index[r->nzones] = k;
			r->nzones++;
		}
		z = r->nzones - 1;
		if (!strncmp(name, "protection_", 11)) {
			k = atoi(name + 11);
			if (k >= 0 && k < 5)
				protection[z][k] = v;
			continue;
		}
		if (!strcmp(name, "min"))
			zmin[z] = v;
		else if (!strcmp(name, "low"))
			zlow[z] = v;
		else if (!strcmp(name, "high"))
			r->zone_high[z] = v;
		else if (!strcmp(name, "boost"))
			boost[z] = v;
		else if (!strcmp(name, "start_pfn"))
			r->zone_start[z] = v;
		else if (!strcmp(name, "spanned"))
			r->zone_spanned[z] = v;
		else
			r->managed[z] = v;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return vms_error("reading zoneinfo samples: %s", sqlite3_errmsg(w->sql));
	for (z = 0; z < r->nzones; z++) {
		if (r->managed[z] <= 0) {	/* the kernel's checks skip unmanaged zones */
			r->zone_high[z] = 0;
			continue;
		}
		/* printed min/low/high include the boost (wmark_pages()) */
		r->wmark[0] += zmin[z] - boost[z];
		r->wmark[1] += zlow[z] - boost[z];
		r->zone_high[z] -= boost[z];
		r->wmark[2] += r->zone_high[z];
		if (zone_index[z] > top)
			top = zone_index[z];
	}
	/*
	 * an allocation that may use the highest populated zone finds each
	 * lower zone's lowmem_reserve for it kept back (a zone's own pages at
	 * most): the watermark checks add those to the sums
	 */
	for (z = 0; z < r->nzones; z++)
		r->reserve += protection[z][top] < r->managed[z] ? protection[z][top] : r->managed[z];
	return 0;
}

static int load_memory(struct vms_window *w, struct whatif_rec *r, long long page_size)
{
	const struct whatif_sample *first = &r->smp[0];
	long long kb = 0;
	long i;

	if (query_int(w, "SELECT value FROM counter WHERE source = 'meminfo' AND name = 'SwapTotal' "
		      "AND ts BETWEEN ?1 AND ?2 ORDER BY ts LIMIT 1", NULL, &kb) < 0)
		return -1;
	r->swap_pages = kb * 1024 / page_size;
	if (r->memcg) {
		for (i = 0; i < r->nsmp; i++) {
			const long long *l = r->smp[i].lru;

			if (l[0] + l[1] + l[2] + l[3] > r->max_lru)
				r->max_lru = l[0] + l[1] + l[2] + l[3];
		}
		return 0;
	}
	if (load_zones(w, r))
		return -1;
	r->node_pages = first->free + first->lru[0] + first->lru[1] + first->lru[2] + first->lru[3];
	return 0;
}

void whatif_watermarks(const struct whatif_rec *r, long long min_free_kbytes,
		       long long scale_factor, long long out[3])
{
	long long pages_min = min_free_kbytes / 4, lowmem = 0;
	int i;

	out[0] = out[1] = out[2] = 0;
	for (i = 0; i < r->nzones; i++)
		lowmem += r->managed[i];
	for (i = 0; i < r->nzones && lowmem; i++) {
		long long m = r->managed[i], zmin = pages_min * m / lowmem, tmp;

		tmp = zmin / 4;
		if (m * scale_factor / 10000 > tmp)
			tmp = m * scale_factor / 10000;
		out[0] += zmin;
		out[1] += zmin + tmp;
		out[2] += zmin + 2 * tmp;
	}
}

/*
 * The fields of one filemap event (inode, first page index, device, folio
 * order) from the flat JSON object the recorder writes
 * ({"pfn":1,"i_ino":2,"index":3,"s_dev":4,"order":0}), in one pass: parsed
 * here rather than by SQLite's json_extract(), which cost more than the
 * whole simulation. Members that are not integers are skipped.
 */
static void filemap_fields(const char *json, long long *ino, long long *index, long long *dev,
			   long long *order)
{
	const char *p = json, *key;
	long long ofs = -1;
	int have_index = 0;

	*ino = *index = *dev = *order = 0;
	while (p && (p = strchr(p, '"'))) {
		size_t len;
		long long v = 0;
		int neg = 0, digits = 0;

		key = ++p;
		while (*p && *p != '"')
			p++;
		if (!*p)
			return;
		len = (size_t)(p - key);
		p++;
		if (*p != ':')
			continue;	/* a string value: its closing quote comes next */
		p++;
		if (*p == '-') {
			neg = 1;
			p++;
		}
		for (; *p >= '0' && *p <= '9'; p++, digits++)
			v = v * 10 + (*p - '0');
		if (!digits)
			continue;	/* not an integer (a string value is skipped by the loop) */
		if (neg)
			v = -v;
#define KEY_IS(name) (len == sizeof(name) - 1 && !memcmp(key, name, len))
		if (KEY_IS("i_ino") || (KEY_IS("ino") && !*ino))
			*ino = v;
		else if (KEY_IS("index")) {
			*index = v;
			have_index = 1;
		} else if (KEY_IS("ofs"))
			ofs = v;
		else if (KEY_IS("s_dev") || (KEY_IS("dev") && !*dev))
			*dev = v;
		else if (KEY_IS("order"))
			*order = v;
#undef KEY_IS
	}
	if (!have_index && ofs >= 0)
		*index = ofs / 4096;
}

/* Stable merge sort of @fm by time (rows of equal ts keep their order). Return: 0 or -1. */
static int sort_by_ts(struct whatif_filemap *fm, long n)
{
	struct whatif_filemap *tmp = malloc(n * sizeof(*tmp));
	long width, i;

	if (!tmp)
		return vms_error("out of memory (sorting filemap events)");
	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			long lo = i, mid = i + width < n ? i + width : n;
			long hi = i + 2 * width < n ? i + 2 * width : n, a = lo, b = mid, k = lo;

			while (a < mid && b < hi)
				tmp[k++] = fm[b].ts < fm[a].ts ? fm[b++] : fm[a++];
			while (a < mid)
				tmp[k++] = fm[a++];
			while (b < hi)
				tmp[k++] = fm[b++];
		}
		memcpy(fm, tmp, n * sizeof(*fm));
	}
	free(tmp);
	return 0;
}

/*
 * Page-cache insertions of the lruvec's tasks and removals outside reclaim,
 * in time order. The table is read in seq order (a plain scan: through the
 * index SQLite would look every row up again), then sorted by ts only if
 * seq order is not already time order.
 */
/*
 * Where the filemap events come from: the typed tables mm_filemap_add_to_page_cache
 * and mm_filemap_delete_from_page_cache (010-filemap.sql), each scanned in
 * seq order and merged here by seq; or, in a database of an earlier build,
 * the rows of event_generic with the fields as JSON.
 */
struct filemap_source {
	sqlite3_stmt *add, *del;	/* typed: the two tables; generic: add only */
	int add_row, del_row;		/* the statement holds a row not taken yet */
	int generic;
};

/* One event: ts, pid, removed, ino, index, dev, order. Return: SQLITE_ROW, SQLITE_DONE or an error. */
static int filemap_next(struct filemap_source *src, long long *ts, long long *pid, int *removed,
			long long *ino, long long *index, long long *dev, long long *order)
{
	sqlite3_stmt *st;
	int rc;

	if (src->generic) {
		rc = sqlite3_step(src->add);
		if (rc != SQLITE_ROW)
			return rc;
		*ts = sqlite3_column_int64(src->add, 0);
		*pid = sqlite3_column_int64(src->add, 1);
		*removed = sqlite3_column_int(src->add, 2);
		filemap_fields((const char *)sqlite3_column_text(src->add, 3), ino, index, dev, order);
		return SQLITE_ROW;
	}
	if (!src->add_row && src->add) {
		rc = sqlite3_step(src->add);
		if (rc == SQLITE_ROW)
			src->add_row = 1;
		else if (rc != SQLITE_DONE)
			return rc;
		else
			src->add = NULL;	/* finalized by the caller through its copy */
	}
	if (!src->del_row && src->del) {
		rc = sqlite3_step(src->del);
		if (rc == SQLITE_ROW)
			src->del_row = 1;
		else if (rc != SQLITE_DONE)
			return rc;
		else
			src->del = NULL;
	}
	if (!src->add_row && !src->del_row)
		return SQLITE_DONE;
	/* the smaller seq first: the order the kernel wrote them in */
	if (src->add_row && (!src->del_row ||
			     sqlite3_column_int64(src->add, 0) < sqlite3_column_int64(src->del, 0))) {
		st = src->add;
		src->add_row = 0;
		*removed = 0;
	} else {
		st = src->del;
		src->del_row = 0;
		*removed = 1;
	}
	*ts = sqlite3_column_int64(st, 1);
	*pid = sqlite3_column_int64(st, 2);
	*ino = sqlite3_column_int64(st, 3);
	*index = sqlite3_column_int64(st, 4);
	*dev = sqlite3_column_int64(st, 5);
	*order = sqlite3_column_int64(st, 6);
	return SQLITE_ROW;
}

static int load_filemap(struct vms_window *w, struct whatif_rec *r)
{
	static const char generic_sql[] =
		"SELECT ts, pid, event = 'mm_filemap_delete_from_page_cache', fields "
		"FROM event_generic NOT INDEXED WHERE event IN ('mm_filemap_add_to_page_cache', "
		"'mm_filemap_delete_from_page_cache') AND ts BETWEEN ?1 AND ?2 ORDER BY seq";
	static const char add_sql[] =
		"SELECT seq, ts, pid, i_ino, \"index\", s_dev, \"order\" FROM mm_filemap_add_to_page_cache "
		"WHERE ts BETWEEN ?1 AND ?2 ORDER BY seq";
	static const char del_sql[] =
		"SELECT seq, ts, pid, i_ino, \"index\", s_dev, \"order\" FROM mm_filemap_delete_from_page_cache "
		"WHERE ts BETWEEN ?1 AND ?2 ORDER BY seq";
	struct whatif_pids reclaimers = { 0 }, kswapds = { 0 };
	struct filemap_source src = { 0 };
	sqlite3_stmt *add = NULL, *del = NULL;
	struct vms_marks *mk;
	long alloc = 0, inserted = 0;
	long long last_ts = 0, typed = 0;
	int rc = SQLITE_ERROR, sorted = 1;

	mk = vms_marks_load(w->db, NULL, 0);
	if (!mk)
		return -1;
	/*
	 * the memcg's tasks: those that entered its reclaim, and those record -m
	 * found in it (exec_mapping), which a run without reclaim has alone
	 */
	if (whatif_pids_load(w, &reclaimers, whatif_table_exists(w, "exec_mapping") ?
			     "SELECT pid FROM mm_vmscan_memcg_reclaim_begin UNION "
			     "SELECT pid FROM exec_mapping" :
			     "SELECT DISTINCT pid FROM mm_vmscan_memcg_reclaim_begin") ||
	    whatif_pids_load(w, &kswapds, "SELECT pid FROM task WHERE comm LIKE 'kswapd%'"))
		goto out;
	if (whatif_table_exists(w, "mm_filemap_add_to_page_cache") &&
	    whatif_table_exists(w, "mm_filemap_delete_from_page_cache") &&
	    query_int(w, "SELECT EXISTS (SELECT 1 FROM mm_filemap_add_to_page_cache)", NULL, &typed) < 0)
		goto out;
	if (typed) {
		if (!(add = vms_window_prepare(w, add_sql)) || !(del = vms_window_prepare(w, del_sql)))
			goto out;
		src.add = add;
		src.del = del;
	} else if (whatif_table_exists(w, "event_generic")) {
		if (!(add = vms_window_prepare(w, generic_sql)))
			goto out;
		src.add = add;
		src.generic = 1;
	} else {
		rc = SQLITE_DONE;
		goto out;
	}
	for (;;) {
		long long ts, pid, ino, index, dev, order;
		struct whatif_filemap *f;
		int removed;

		rc = filemap_next(&src, &ts, &pid, &removed, &ino, &index, &dev, &order);
		if (rc != SQLITE_ROW)
			break;
		if (removed && (whatif_pids_has(&kswapds, pid) || vms_marks_inside(mk, 0, pid, ts) ||
				vms_marks_inside(mk, 1, pid, ts)))
			removed = 2;	/* reclaim's own eviction: the simulation decides those */
		if (!removed && r->memcg && !whatif_pids_has(&reclaimers, pid)) {
			r->fm_others++;
			continue;	/* another task's page cache */
		}
		inserted += !removed;
		if (r->nfm == alloc) {
			long na = alloc ? alloc * 2 : 4096;
			struct whatif_filemap *p = realloc(r->fm, na * sizeof(*p));

			if (!p) {
				rc = SQLITE_NOMEM;
				break;
			}
			r->fm = p;
			alloc = na;
		}
		if (ts < last_ts)
			sorted = 0;
		last_ts = ts;
		f = &r->fm[r->nfm++];
		f->ts = ts;
		f->ino = (uint64_t)ino ^ ((uint64_t)dev << 40);
		f->index = (uint64_t)index;
		f->removed = (int8_t)removed;
		f->written = 0;
		f->exec = 0;
		f->pinned = 0;
		f->pages = 1 << (order & 15);
	}
	if (rc != SQLITE_DONE)
		vms_error("reading filemap events: %s", rc == SQLITE_NOMEM ? "out of memory" :
			  sqlite3_errmsg(w->sql));
out:
	sqlite3_finalize(add);
	sqlite3_finalize(del);
	vms_marks_free(mk);
	free(kswapds.pid);
	if (rc != SQLITE_DONE)
		goto fail;
	if (!inserted) {	/* no insertion of the lruvec: no filemap demand */
		free(reclaimers.pid);
		free(r->fm);
		r->fm = NULL;
		r->nfm = 0;
		return 0;
	}
	/* the reads and faults of the same tasks: the hits (sim-access.c) */
	if ((!sorted && sort_by_ts(r->fm, r->nfm)) ||
	    whatif_load_accesses(w, r, r->memcg ? &reclaimers : NULL))
		goto fail;
	whatif_find_sequential_files(r);	/* the files read in rounds (sim-sequential.c) */
	free(reclaimers.pid);
	return 0;
fail:
	free(reclaimers.pid);
	return -1;
}

/* the inode number in a filemap key (which folds the device in above bit 40) */
#define INO_BITS ((1ULL << 40) - 1)

struct dirtied {
	uint64_t ino, index;
	long long ts;		/* first dirtied in the window */
};

static int cmp_dirtied(const void *a, const void *b)
{
	const struct dirtied *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Insertions that a write made: the recording dirtied the page
 * (writeback_dirty_folio) within a second of inserting it. Such a page is
 * not mapped, which decides how reclaim treats its referenced bit.
 */
static int load_written(struct vms_window *w, struct whatif_rec *r)
{
	sqlite3_stmt *st;
	struct dirtied *d = NULL;
	long n = 0, alloc = 0, k;
	int rc;

	if (!r->fm || !whatif_table_exists(w, "writeback_dirty_folio"))
		return 0;
	st = vms_window_prepare(w, "SELECT ino, \"index\", MIN(ts) FROM writeback_dirty_folio "
			       "WHERE ts BETWEEN ?1 AND ?2 GROUP BY ino, \"index\"");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == alloc) {
			struct dirtied *p = realloc(d, (alloc = alloc ? 2 * alloc : 4096) * sizeof(*p));

			if (!p) {
				sqlite3_finalize(st);
				free(d);
				return vms_error("out of memory");
			}
			d = p;
		}
		d[n].ino = (uint64_t)sqlite3_column_int64(st, 0) & INO_BITS;
		d[n].index = (uint64_t)sqlite3_column_int64(st, 1);
		d[n++].ts = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(d);
		return vms_error("reading writeback_dirty_folio: %s", sqlite3_errmsg(w->sql));
	}
	if (n)	/* (qsort() of no rows: d is NULL) */
		qsort(d, n, sizeof(*d), cmp_dirtied);
	for (k = 0; k < r->nfm && n; k++) {
		struct whatif_filemap *f = &r->fm[k];
		struct dirtied key = { f->ino & INO_BITS, f->index, 0 }, *hit;

		if (f->removed)
			continue;
		hit = bsearch(&key, d, n, sizeof(*d), cmp_dirtied);
		if (hit && hit->ts >= f->ts && hit->ts - f->ts <= 1000000000LL) {
			f->written = 1;
			r->written++;
		}
	}
	free(d);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * What the vfs model (sim-vfs.c) needs: the memcg's kernel memory at each
 * sample, its files (the inodes the filemap insertions name), and the slab
 * a file costs: the growth of kernel memory over the files first inserted
 * between the first sample and the last one before any recorded reclaim
 * (nothing freed yet). Sets r->vfs, or r->vfs_why.
 */
static int load_vfs(struct vms_window *w, struct whatif_rec *r)
{
	long i, last = 0, n = 0, k, before, files = 0;
	uint64_t *seen;
	long long v;
	int rc;

	r->vfs_denom = 100;
	rc = query_int(w, "SELECT CAST(value AS INTEGER) FROM sysctl WHERE name = "
		       "'vm.vfs_cache_pressure_denom'", NULL, &v);
	if (rc < 0)
		return -1;
	if (!rc && v > 0)
		r->vfs_denom = v;
	for (i = 0; i < r->nsmp; i++) {
		const long long *l = r->smp[i].lru;

		if (l[0] + l[1] + l[2] + l[3] + r->smp[i].kmem > r->max_lru_kmem)
			r->max_lru_kmem = l[0] + l[1] + l[2] + l[3] + r->smp[i].kmem;
	}
	if (!r->memcg) {
		r->vfs_why = "the lruvec is the node: its slab is the machine's, which the "
			     "simulation does not follow";
		return 0;
	}
	if (!r->has_kmem) {
		r->vfs_why = "the memcg's kernel memory was not sampled (cgroup v1 "
			     "memory.kmem.usage_in_bytes, which vmscope record samples from "
			     "this version on; v2 memory.stat slab)";
		return 0;
	}
	if (!r->fm) {
		r->vfs_why = "no filemap events: the files are not known";
		return 0;
	}
	for (i = 1; i < r->nsmp && !r->smp[i].reclaimed[0] && !r->smp[i].reclaimed[1]; i++)
		last = i;
	seen = malloc((r->nfm ? r->nfm : 1) * sizeof(*seen));
	if (!seen)
		return vms_error("out of memory");
	/* the files inserted into before the calibration interval, sorted ... */
	for (k = 0; k < r->nfm && r->fm[k].ts <= r->smp[0].ts; k++)
		if (!r->fm[k].removed)
			seen[n++] = r->fm[k].ino;
	qsort(seen, n, sizeof(*seen), cmp_u64);
	/* ... then those of the interval, sorted after them: the new ones are counted */
	for (before = n; k < r->nfm && r->fm[k].ts <= r->smp[last].ts; k++)
		if (!r->fm[k].removed)
			seen[n++] = r->fm[k].ino;
	qsort(seen + before, n - before, sizeof(*seen), cmp_u64);
	for (k = before; k < n; k++)
		if ((k == before || seen[k] != seen[k - 1]) &&
		    !bsearch(&seen[k], seen, before, sizeof(*seen), cmp_u64))
			files++;
	free(seen);
	r->calib_files = files;
	if (files < 256 || r->smp[last].kmem <= r->smp[0].kmem) {
		r->vfs_why = "too few files were made before the recorded reclaim to size their "
			     "slab (at least 256 needed, with kernel memory growing)";
		return 0;
	}
	r->file_bytes = (r->smp[last].kmem - r->smp[0].kmem) * 4096 / files;
	/* reclaim calls that may not enter the filesystem (symbolic gfp flags) */
	if (query_int(w, "SELECT COALESCE(1000 * SUM(gfp_flags LIKE '%GFP_NOFS%' OR gfp_flags LIKE "
		      "'%GFP_NOIO%' OR gfp_flags LIKE '%GFP_NOWAIT%' OR gfp_flags LIKE '%GFP_ATOMIC%') "
		      "/ COUNT(*), 0) FROM mm_vmscan_memcg_reclaim_begin WHERE ts BETWEEN ?1 AND ?2",
		      NULL, &v) < 0)
		return -1;
	r->nofs_permille = (int)v;
	r->vfs = 1;
	return 0;
}

static int rec_load(struct vms_window *w, struct whatif_rec *r, int demand);

int whatif_rec_load(struct vms_window *w, struct whatif_rec *r)
{
	return rec_load(w, r, 1);
}

int whatif_rec_load_outcome(struct vms_window *w, struct whatif_rec *r)
{
	return rec_load(w, r, 0);
}

/* @demand: also the filemap demand and what rides on it (written, exec, vfs). */
static int rec_load(struct vms_window *w, struct whatif_rec *r, int demand)
{
	char scope[1024] = "";
	long long page_size = 4096, n = 0;
	sqlite3_stmt *st;
	int acc_off = r->acc_off;	/* the caller's: the accesses are not to be read */

	memset(r, 0, sizeof(*r));
	r->acc_off = acc_off;
	r->from = w->from;
	r->to = w->to;
	if (query_int(w, "SELECT page_size FROM run", NULL, &page_size) < 0)
		return -1;
	if (page_size <= 0)
		page_size = 4096;
	st = vms_window_prepare(w, "SELECT scope FROM counter_sample WHERE source = 'memcg' "
			       "AND ts BETWEEN ?1 AND ?2 GROUP BY scope ORDER BY COUNT(*) DESC LIMIT 1");
	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(scope, sizeof(scope), "%s", (const char *)sqlite3_column_text(st, 0));
		r->memcg = 1;
	}
	sqlite3_finalize(st);
	if (r->memcg) {
		if (query_int(w, "SELECT COUNT(*) FROM counter WHERE source = 'memcg' AND scope = ?3 "
			      "AND name = 'total_inactive_file' AND ts BETWEEN ?1 AND ?2", scope, &n) < 0)
			return -1;
		r->cgroup_v1 = n > 0;
	}
	if (load_samples(w, r, scope, page_size))
		return -1;
	if (r->memcg && !r->limit_pages &&
	    query_int(w, "SELECT COUNT(*) FROM mm_vmscan_memcg_reclaim_begin WHERE ts BETWEEN ?1 AND ?2",
		      NULL, &n) < 0)
		return -1;
	if (r->memcg && !r->limit_pages && (r->unlimited || !n)) {
		/*
		 * a memcg without a limit: v1 says so (the memcg reclaim events
		 * are then other memcgs'), or memory.stat does not show it (v2
		 * does not print memory.max) and there is no memcg reclaim:
		 * reclaimed only as part of the node. With memcg reclaim the v2
		 * limit must be given (--assume).
		 */
		free(r->smp);
		r->smp = NULL;
		r->nsmp = 0;
		r->swap_samples = 0;
		r->memcg = r->cgroup_v1 = 0;
		if (load_samples(w, r, "", page_size))
			return -1;
	}
	if (r->nsmp < 2)
		return vms_error("the window holds %ld counter samples of the %s; a simulation needs "
				 "at least two (record with counters, e.g. 'vmscope record -m CGROUP')",
				 r->nsmp, r->memcg ? "memcg" : "node");
	if (r->memcg && query_int(w, "SELECT COUNT(DISTINCT pid) FROM mm_vmscan_memcg_reclaim_begin "
				  "WHERE ts BETWEEN ?1 AND ?2", NULL, &r->reclaimers) < 0)
		return -1;
	if (load_knobs(w, r) || load_reclaim(w, r) || load_outcome(w, r) ||
	    load_memory(w, r, page_size) || whatif_load_swap(w, r, page_size))
		return -1;
	if (demand && (load_filemap(w, r) || load_written(w, r) || whatif_load_exec(w, r) ||
		       whatif_mark_pinned(w, r) || load_vfs(w, r) || whatif_load_fallbacks(w, r)))
		return -1;
	return 0;
}

void whatif_rec_release(struct whatif_rec *r)
{
	free(r->smp);
	free(r->fm);
	free(r->acc);
	free(r->random_ino);
	free(r->exec);
	free(r->fallback);
	memset(r, 0, sizeof(*r));
}
