// SPDX-License-Identifier: GPL-2.0
/*
 * compare-run.c - one run's values for `vmscope compare ... --vs ...`: what
 * the workload measured (table run_result, when its runner stored it), the
 * memcg's own memory.stat deltas, the /proc/vmstat metrics (vmstat-metrics.c,
 * the report's vmstat section), the reclaim the trace shows, and the reclaim
 * episodes. Each value says its scope: the workload, the memcg, the whole
 * machine or the trace.
 *
 * Totals are kept as totals (CMP_COUNT) with the seconds they cover, so that
 * --rates can divide them later. A value this run cannot give (a counter its
 * kernel or memcg lacks, no counters at all, an efficiency of nothing) is not
 * available, never 0. The short labels of the brief table are chosen here,
 * with each metric; docs/compare.md lists them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "compare.h"
#include "vmstat-metrics.h"

const char *const cmp_scope_name[] = { "run", "memcg", "system", "trace" };

/* The brief rows of the metric lists, by their full label. */
struct brief_pick {
	const char *label;	/* vmstat-metrics label */
	const char *brief;	/* short label (at most 27 characters) */
	int order;
};

static const struct brief_pick memcg_brief[] = {
	{ "Refaults file", "File refaults", 20 },
	{ "Refaults anon", "Anon refaults", 21 },
	{ "Refault activations file", "File refault activations", 22 },
	{ "Major faults", "Major faults", 23 },
	{ "Pages scanned", "Pages scanned", 24 },
	{ "Pages reclaimed", "Pages reclaimed", 25 },
	{ "Swap outs", "Swap outs", 26 },
	{ NULL, NULL, 0 },
};

static const struct brief_pick vmstat_brief[] = {
	{ "Kswapd pages scanned", "Kswapd pages scanned", 40 },
	{ "Direct pages scanned", "Direct pages scanned", 41 },
	{ "Pages scanned by other reclaim (memcg limit)", "Memcg-limit pages scanned", 42 },
	{ "Pages scanned anon (all reclaimers)", "Anon pages scanned", 43 },
	{ "Pages scanned file (all reclaimers)", "File pages scanned", 44 },
	{ "Kswapd efficiency %", "Kswapd efficiency %", 45 },
	{ "Swap outs", "Swap outs", 46 },
	{ "Swap ins", "Swap ins", 47 },
	{ "Refaults file", "File refaults", 48 },
	{ "Refaults anon", "Anon refaults", 49 },
	{ "Allocation stalls", "Allocation stalls", 50 },
	{ "Slabs scanned", "Slabs scanned", 51 },
	{ NULL, NULL, 0 },
};

/* Return: a new value (its key duplicated) at the end of r->val, or NULL. */
static struct cmp_value *add_value(struct cmp_run *r, enum cmp_scope scope, const char *key,
				   enum cmp_unit unit)
{
	struct cmp_value *v;

	if (vms_array_reserve(&r->val, &r->alloc, r->n, 64, sizeof(*r->val)))
		return NULL;
	v = &r->val[r->n];
	memset(v, 0, sizeof(*v));
	if (!(v->key = strdup(key))) {
		vms_error("out of memory");
		return NULL;
	}
	r->n++;
	v->scope = scope;
	v->unit = unit;
	v->lower_is_better = 1;
	return v;
}

static const struct brief_pick *pick(const struct brief_pick *p, const char *label)
{
	for (; p && p->label; p++)
		if (!strcmp(p->label, label))
			return p;
	return NULL;
}

/* A list of vmstat-metrics.c as values of @scope; keys "<prefix><label>". */
static int add_metrics(struct cmp_run *r, enum cmp_scope scope, const char *prefix,
		       const struct vmstat_metrics *m, const struct brief_pick *picks)
{
	static const enum cmp_unit unit_of[] = {
		[VMSTAT_COUNT] = CMP_COUNT, [VMSTAT_PERCENT] = CMP_PERCENT,
		[VMSTAT_RATE] = CMP_RATE, [VMSTAT_SECONDS] = CMP_SECONDS,
	};
	char key[200];

	for (int i = 0; i < m->n; i++) {
		const struct vmstat_metric *x = &m->m[i];
		const struct brief_pick *b = pick(picks, x->label);
		struct cmp_value *v;

		snprintf(key, sizeof(key), "%s%s", prefix,
			 x->kind == VMSTAT_SECONDS ? "Counter sample span (T, s)" : x->label);
		if (!(v = add_value(r, scope, key, unit_of[x->kind])))
			return -1;
		v->have = x->available;
		v->v = x->value;
		v->span = m->span;
		v->undefined = x->undefined;
		if (x->kind == VMSTAT_COUNT && !(m->span > 0))
			v->span = 0;
		if (b) {
			v->brief = b->brief;
			v->order = b->order;
		}
	}
	return 0;
}

/* The rows of table run_result (absent in databases older than it: no rows). */
static int add_results(struct cmp_run *r)
{
	static const struct {
		const char *name, *key, *brief;
		int order;
	} known[] = {
		{ "elapsed", "Elapsed (s)", "Elapsed (s)", 2 },
		{ "user", "User time (s)", "User time (s)", 3 },
		{ "system", "System time (s)", "System time (s)", 4 },
	};
	sqlite3_stmt *st;
	long long one;
	int rc;

	if (vms_window_int(&r->ctx, "SELECT 1 FROM sqlite_master WHERE name = 'run_result'", &one))
		return 0;
	st = vms_window_prepare(&r->ctx, "SELECT name, value, unit, lower_is_better FROM run_result"
				" ORDER BY name");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *unit = (const char *)sqlite3_column_text(st, 2);
		char key[160];
		struct cmp_value *v;
		size_t i;

		if (!name)
			continue;
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(known[i].name, name))
				break;
		if (i < sizeof(known) / sizeof(known[0]))
			snprintf(key, sizeof(key), "%s", known[i].key);
		else
			snprintf(key, sizeof(key), "%.100s (%.20s)", name, unit ? unit : "?");
		vms_make_printable(key);
		if (!(v = add_value(r, CMP_SCOPE_WORKLOAD, key, CMP_OTHER))) {
			sqlite3_finalize(st);
			return -1;
		}
		snprintf(v->unit_name, sizeof(v->unit_name), "%s", unit ? unit : "");
		vms_make_printable(v->unit_name);
		v->have = 1;
		v->v = sqlite3_column_double(st, 1);
		v->lower_is_better = sqlite3_column_int(st, 3);
		if (i < sizeof(known) / sizeof(known[0])) {
			v->brief = known[i].brief;
			v->order = known[i].order;
		} else {
			v->brief = v->key;	/* the workload's own result leads the table */
			v->order = 1;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("%s: run_result: %s", r->path,
						  sqlite3_errmsg(r->ctx.sql));
}

static int add_episodes(struct cmp_run *r)
{
	static const struct {
		const char *kind, *name;
		int order;
	} kinds[] = {
		{ "memcg", "Memcg reclaim", 60 },
		{ "direct", "Direct reclaim", 70 },
		{ "kswapd", "Kswapd awake", 80 },
	};
	static const char *const what[] = { "calls", "time (ms)", "p50 (ms)", "p99 (ms)", "max (ms)",
					    "pages reclaimed" };
	static const int brief[] = { 1, 1, 0, 1, 1, 0 };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct cmp_episodes e;
		double val[6];

		if (cmp_episodes_load(&r->ctx, kinds[i].kind, &e))
			return -1;
		val[0] = e.n;
		val[1] = e.total_ms;
		val[2] = e.p50;
		val[3] = e.p99;
		val[4] = e.max;
		val[5] = e.pages;
		for (int k = 0; k < 6; k++) {
			char key[80];
			struct cmp_value *v;

			if (!strcmp(kinds[i].kind, "kswapd") && k == 5)
				continue;	/* kswapd_sleep has no nr_reclaimed */
			snprintf(key, sizeof(key), "%s %s", kinds[i].name,
				 !strcmp(kinds[i].kind, "kswapd") && k == 0 ? "periods" : what[k]);
			if (!(v = add_value(r, CMP_SCOPE_TRACE, key,
					    k == 0 || k == 1 || k == 5 ? CMP_COUNT : CMP_MS)))
				return -1;
			/* percentiles only of complete episodes */
			v->have = k >= 2 && k <= 4 ? e.complete > 0 : 1;
			v->v = val[k];
			v->span = r->window;
			if (brief[k]) {
				v->brief = v->key;
				v->order = kinds[i].order + k;
			}
		}
	}
	return 0;
}

int cmp_run_load(struct cmp_run *r, const char *path, double from_s, double to_s, int has_from,
		 int has_to)
{
	struct vms_window *ctx = &r->ctx;
	struct vmstat_metrics m;
	struct cmp_value *v;
	sqlite3_stmt *st;

	r->path = path;
	if (!(ctx->db = vms_db_open(path, VMS_OPEN_READONLY)))
		return -1;
	r->window = cmp_window_open(ctx, from_s, to_s, has_from, has_to);
	if (r->window < 0 || report_derived(ctx))
		return -1;
	if (!(st = vms_window_prepare(ctx, "SELECT kernel_release FROM run")))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		r->release = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);

	if (add_results(r))
		return -1;
	if (!(v = add_value(r, CMP_SCOPE_TRACE, "Recorded (s)", CMP_SECONDS)))
		return -1;
	v->have = r->window > 0;
	v->v = r->window;
	if (report_memcg_scope(ctx, &r->memcg))
		return -1;
	if (r->memcg) {
		if (vmstat_memcg_metrics(ctx, r->memcg, &m) || add_metrics(r, CMP_SCOPE_MEMCG,
									   "memcg: ", &m, memcg_brief))
			return -1;
	}
	if (vmstat_counter_metrics(ctx, &m) || add_metrics(r, CMP_SCOPE_MACHINE, "", &m, vmstat_brief))
		return -1;
	if (vmstat_trace_metrics(ctx, &m))
		return -1;
	m.span = r->window;
	if (add_metrics(r, CMP_SCOPE_TRACE, "", &m, NULL))
		return -1;
	return add_episodes(r);
}

void cmp_run_release(struct cmp_run *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->val[i].key);
	free(r->val);
	free(r->release);
	free(r->memcg);
	vms_db_close(r->ctx.db);
	memset(r, 0, sizeof(*r));
}
