// SPDX-License-Identifier: GPL-2.0
/*
 * evaluate.c - run the decision records through a policy and compare each
 * answer with what the kernel did. Writes replay_result rows.
 *
 * Questions and what the recording shows for each:
 *  scan_balance     which LRU types got a scan target: inactive anon and/or
 *                   file scanned in the pass (exact). Asked for passes that
 *                   scanned any LRU and whose list sizes are known.
 *  deactivate_file  the active file list aged (lru_shrink_active of file
 *  deactivate_anon  pages) in a pass that scanned that type, where the active
 *                   list had a target at this priority.
 *  shrink_slab      shrinkers called in the pass. "Not called" cannot be
 *                   told from "called with nothing to free" (no event then):
 *                   a policy that shrinks, in a pass without slab events, is
 *                   counted undecidable, not as agreeing or differing.
 *  kswapd_retry     a kswapd run that reclaimed nothing: did its priority
 *                   loop restart (6.9+ cache-trim retry) or not.
 * The anon/file cost of the 5.8+ scan balance is latent kernel state; it is
 * modelled from the recording (rotated = scanned - reclaimed per type,
 * halved when it exceeds a quarter of the list), so it is 'inferred'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "replay.h"

const char *const question_names[5] = {
	"scan_balance", "deactivate_file", "deactivate_anon", "shrink_slab", "kswapd_retry",
};
enum { Q_SCAN, Q_DEACT_FILE, Q_DEACT_ANON, Q_SLAB, Q_RETRY };

extern const struct vms_policy policy_v6_18;

static enum vms_prov prov_of(const char *json, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = json ? strstr(json, pat) : NULL;
	if (!p)
		return VMS_PROV_UNKNOWN;
	p += strlen(pat);
	return !strncmp(p, "exact", 5) ? VMS_PROV_EXACT : !strncmp(p, "sampled", 7) ? VMS_PROV_SAMPLED :
	       !strncmp(p, "inferred", 8) ? VMS_PROV_INFERRED : VMS_PROV_UNKNOWN;
}

static const char *prov_name(enum vms_prov p)
{
	static const char *const names[] = { "exact", "sampled", "inferred", "unknown" };

	return names[p];
}

static enum vms_prov weakest(enum vms_prov a, enum vms_prov b)
{
	return a > b ? a : b;
}

static void value(sqlite3_stmt *st, int col, const char *prov_json, const char *key,
		  struct vms_value *v)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL) {
		v->v = 0;
		v->prov = VMS_PROV_UNKNOWN;
	} else {
		v->v = sqlite3_column_int64(st, col);
		v->prov = prov_of(prov_json, key);
	}
}

static const char *types_name(int bits)
{
	static const char *const names[] = { "none", "anon", "file", "anon+file" };

	return names[bits & 3];
}

struct cost_model {
	long long anon, file;
};

/* lru_note_cost() of 6.2+ with the recording's outcome; halve when above a quarter of the LRUs */
static void cost_update(struct cost_model *c, const struct decision *d)
{
	long long rot_anon = d->scanned[0] > d->reclaimed ? 0 : 0;
	long long anon_size = d->in.inactive_anon.v + d->in.active_anon.v;
	long long file_size = d->in.inactive_file.v + d->in.active_file.v;
	long long scanned_anon = d->scanned[0], scanned_file = d->scanned[2];
	long long total = scanned_anon + scanned_file;

	/* reclaimed pages are not split by type in the events: share them by scans */
	if (total > 0) {
		long long rec_anon = d->reclaimed * scanned_anon / total;

		rot_anon = scanned_anon - rec_anon;
		c->anon += rot_anon > 0 ? rot_anon : 0;
		c->file += scanned_file - (d->reclaimed - rec_anon) > 0 ?
			   scanned_file - (d->reclaimed - rec_anon) : 0;
	}
	if (c->anon + c->file > (anon_size + file_size) / 4) {
		c->anon /= 2;
		c->file /= 2;
	}
}

struct eval_ctx {
	sqlite3 *sql;
	sqlite3_stmt *insert;
	struct policy_instance *p;
	struct eval_totals *tot;
	const char *label;
};

static int store(struct eval_ctx *e, long long id, int q, const char *kernel, const char *answer,
		 int agrees, long long pages, int has_pages, enum vms_prov firm, int undecidable)
{
	sqlite3_stmt *st = e->insert;

	e->tot->asked[q]++;
	if (undecidable)
		e->tot->undecidable[q]++;
	else if (agrees)
		e->tot->agreed[q]++;
	else
		e->tot->pages_changed[q] += has_pages ? pages : 0;
	if (!st)
		return 0;	/* benchmark: count only */
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, e->label, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_text(st, 3, question_names[q], -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, kernel, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, answer, -1, SQLITE_TRANSIENT);
	if (undecidable)
		sqlite3_bind_null(st, 6);
	else
		sqlite3_bind_int(st, 6, agrees);
	if (has_pages)
		sqlite3_bind_int64(st, 7, pages);
	else
		sqlite3_bind_null(st, 7);
	sqlite3_bind_text(st, 8, undecidable ? "undecidable" : prov_name(firm), -1, SQLITE_STATIC);
	return sqlite3_step(st) == SQLITE_DONE ? 0 : vms_error("cannot store a replay result: %s",
								sqlite3_errmsg(e->sql));
}

/* The policy's hook, or the baseline's when it has none or defers. */
static int ask_deactivate(struct eval_ctx *e, const struct vms_pass_input *in, int file)
{
	const struct vms_policy *p = e->p->policy;
	int r = p->deactivate ? p->deactivate(e->p->priv, in, file) : VMS_DEFER;

	return r == VMS_DEFER ? policy_v6_18.deactivate(NULL, in, file) : r;
}

static void ask_scan(struct eval_ctx *e, const struct vms_pass_input *in,
		     struct vms_scan_decision *d)
{
	const struct vms_policy *p = e->p->policy;

	if (!p->scan_balance || p->scan_balance(e->p->priv, in, d) == VMS_DEFER)
		policy_v6_18.scan_balance(NULL, in, d);
}

static int ask_slab(struct eval_ctx *e, const struct vms_pass_input *in)
{
	const struct vms_policy *p = e->p->policy;
	int r = p->shrink_slab ? p->shrink_slab(e->p->priv, in) : VMS_DEFER;

	return r == VMS_DEFER ? policy_v6_18.shrink_slab(NULL, in) : r;
}

static int ask_retry(struct eval_ctx *e, const struct vms_kswapd_run *run)
{
	const struct vms_policy *p = e->p->policy;
	int r = p->kswapd_retry ? p->kswapd_retry(e->p->priv, run) : VMS_DEFER;

	return r == VMS_DEFER ? policy_v6_18.kswapd_retry(NULL, run) : r;
}

static int eval_pass(struct eval_ctx *e, const struct decision *d)
{
	const struct vms_pass_input *in = &d->in;
	int lru_known = in->inactive_file.prov != VMS_PROV_UNKNOWN;
	enum vms_prov firm;
	int seen, bits;

	if (d->scanned[0] + d->scanned[2] > 0 && lru_known) {
		struct vms_scan_decision sd;
		long long pages = 0;

		ask_scan(e, in, &sd);
		bits = kl_scan_types(in, &sd);
		seen = (d->scanned[0] > 0 ? 1 : 0) | (d->scanned[2] > 0 ? 2 : 0);
		if ((bits & 1) && !(seen & 1))	/* anon it would have scanned instead of file */
			pages = in->inactive_anon.v >> in->priority;
		else if (!(bits & 1) && (seen & 1))
			pages = d->scanned[0];
		firm = weakest(weakest(in->inactive_file.prov, in->swap_free.prov),
			       weakest(in->refault_file.prov, in->swappiness.prov));
		if (store(e, d->id, Q_SCAN, types_name(seen), types_name(bits), bits == seen, pages, 1,
			  firm, 0))
			return -1;
	}
	for (int file = 0; file <= 1 && lru_known; file++) {
		long long active = file ? in->active_file.v : in->active_anon.v;
		long long scanned_inactive = d->scanned[file ? 2 : 0];
		int want, did;

		if (!scanned_inactive || (active >> in->priority) == 0)
			continue;	/* the active list had no target in this pass */
		want = ask_deactivate(e, in, file);
		did = d->scanned[file ? 3 : 1] > 0;
		firm = weakest(file ? in->inactive_file.prov : in->inactive_anon.prov,
			       file ? in->refault_file.prov : in->refault_anon.prov);
		if (store(e, d->id, file ? Q_DEACT_FILE : Q_DEACT_ANON, did ? "aged" : "kept",
			  want ? "aged" : "kept", want == did, active >> in->priority, 1, firm, 0))
			return -1;
	}
	{
		int want = ask_slab(e, in), did = d->slab_calls > 0;

		firm = want ? VMS_PROV_EXACT : in->boost.prov;
		if (store(e, d->id, Q_SLAB, did ? "shrink" : "no shrinker call seen",
			  want ? "shrink" : "skip", want == did || (!want && !did), 0, 0, firm,
			  want && !did))
			return -1;
	}
	return 0;
}

static int eval_run(struct eval_ctx *e, const struct decision *d)
{
	struct vms_kswapd_run run = {
		.nid = d->nid,
		.lowest_priority = d->lowest_priority,
		.runs_since_success = d->runs_since_success,
		.last_pass = d->in,
	};
	int want;

	if (d->reclaimed > 0)
		return 0;	/* only failed runs raise the question */
	run.cache_trim_mode = kl_cache_trim_mode(&d->in);
	want = ask_retry(e, &run);
	return store(e, d->id, Q_RETRY, d->swept_twice ? "retried" : "failure counted",
		     want ? "retry" : "failure counted", want == d->swept_twice, 0, 0,
		     weakest(d->in.inactive_file.prov, d->in.refault_file.prov), 0);
}

static const char read_sql[] =
	"SELECT id, kind, reclaimer, nid, ts, priority, \"order\", inactive_anon, active_anon,"
	" inactive_file, active_file, free_pages, high_wmark, boost, swappiness, swap_free,"
	" refault_file, refault_anon, sample_age_ms, provenance, scanned_inactive_anon,"
	" scanned_active_anon, scanned_inactive_file, scanned_active_file, reclaimed, slab_calls,"
	" runs_since_success, restarted FROM decision ORDER BY ts, id";

int decisions_load(struct vms_db *db, struct decision **out, long *n)
{
	sqlite3 *sql = vms_db_sql(db);
	struct cost_model cost[64];
	struct decision *all = NULL;
	sqlite3_stmt *st = NULL;
	long alloc = 0, used = 0;
	int r;

	memset(cost, 0, sizeof(cost));
	if (sqlite3_prepare_v2(sql, read_sql, -1, &st, NULL))
		goto sql_err;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		const char *prov = (const char *)sqlite3_column_text(st, 19);
		const char *who = (const char *)sqlite3_column_text(st, 2);
		struct decision *d;
		int k;

		if (used == alloc) {
			struct decision *na = realloc(all, (alloc ? alloc * 2 : 1024) * sizeof(*na));

			if (!na) {
				vms_error("out of memory");
				goto err;
			}
			all = na;
			alloc = alloc ? alloc * 2 : 1024;
		}
		d = &all[used++];
		memset(d, 0, sizeof(*d));
		d->id = sqlite3_column_int64(st, 0);
		d->is_run = !strcmp((const char *)sqlite3_column_text(st, 1), "kswapd_run");
		d->nid = sqlite3_column_type(st, 3) == SQLITE_NULL ? 0 : sqlite3_column_int(st, 3);
		d->ts = sqlite3_column_int64(st, 4);
		d->in.reclaimer = !strcmp(who, "kswapd") ? VMS_KSWAPD : !strcmp(who, "direct") ? VMS_DIRECT :
				  !strncmp(who, "memcg", 5) ? VMS_MEMCG : VMS_OTHER;
		d->in.priority = sqlite3_column_int(st, 5);
		d->lowest_priority = d->in.priority;
		d->in.order = sqlite3_column_int(st, 6);
		value(st, 7, prov, "lru", &d->in.inactive_anon);
		value(st, 8, prov, "lru", &d->in.active_anon);
		value(st, 9, prov, "lru", &d->in.inactive_file);
		value(st, 10, prov, "lru", &d->in.active_file);
		value(st, 11, prov, "free", &d->in.free_pages);
		value(st, 12, prov, "high_wmark", &d->in.high_wmark);
		value(st, 13, prov, "boost", &d->in.boost);
		value(st, 14, prov, "swappiness", &d->in.swappiness);
		value(st, 15, prov, "swap_free", &d->in.swap_free);
		value(st, 16, prov, "refault_file", &d->in.refault_file);
		value(st, 17, prov, "refault_anon", &d->in.refault_anon);
		if (d->in.swappiness.prov == VMS_PROV_UNKNOWN)
			d->in.swappiness.v = 60;
		d->in.sample_age_ms = sqlite3_column_double(st, 18);
		for (k = 0; k < 4; k++)
			d->scanned[k] = sqlite3_column_int64(st, 20 + k);
		d->reclaimed = sqlite3_column_int64(st, 24);
		d->slab_calls = sqlite3_column_int64(st, 25);
		d->runs_since_success = sqlite3_column_int(st, 26);
		d->swept_twice = sqlite3_column_int(st, 27);
		k = d->nid >= 0 && d->nid < 64 ? d->nid : 0;
		/* the cost the kernel had before this pass; then this pass adds to it */
		d->in.anon_cost.v = cost[k].anon;
		d->in.file_cost.v = cost[k].file;
		d->in.anon_cost.prov = d->in.file_cost.prov = VMS_PROV_INFERRED;
		if (!d->is_run)
			cost_update(&cost[k], d);
	}
	if (r != SQLITE_DONE)
		goto sql_err;
	sqlite3_finalize(st);
	*out = all;
	*n = used;
	return 0;
sql_err:
	vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(sql));
err:
	sqlite3_finalize(st);
	free(all);
	return -1;
}

static int run_all(struct eval_ctx *e, const struct decision *all, long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (all[i].is_run ? eval_run(e, &all[i]) : eval_pass(e, &all[i]))
			return -1;
	return 0;
}

int evaluate_policy(struct vms_db *db, const struct decision *all, long n,
		    struct policy_instance *p, struct eval_totals *tot)
{
	struct eval_ctx e = { .sql = vms_db_sql(db), .p = p, .tot = tot, .label = p->label };
	sqlite3_stmt *st = NULL;
	int rc = -1;

	memset(tot, 0, sizeof(*tot));
	if (sqlite3_prepare_v2(e.sql, "DELETE FROM replay_result WHERE policy = ?1", -1, &st, NULL))
		goto sql_err;
	sqlite3_bind_text(st, 1, p->label, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(e.sql, "INSERT INTO replay_result VALUES (?, ?, ?, ?, ?, ?, ?, ?)", -1,
			       &e.insert, NULL))
		goto sql_err;
	rc = run_all(&e, all, n);
	sqlite3_finalize(e.insert);
	return rc;
sql_err:
	return vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(e.sql));
}

double evaluate_bench(const struct decision *all, long n, struct policy_instance *p, int rounds)
{
	struct eval_totals tot;
	struct eval_ctx e = { .p = p, .tot = &tot, .label = p->label };
	double t0 = vms_now();
	int r;

	for (r = 0; r < rounds; r++) {
		memset(&tot, 0, sizeof(tot));
		if (run_all(&e, all, n))
			return -1;
	}
	return vms_now() - t0;
}
