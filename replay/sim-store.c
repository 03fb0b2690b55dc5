// SPDX-License-Identifier: GPL-2.0
/*
 * sim-store.c - the results of `vmscope whatif` into the tables of
 * schema/930-whatif.sql: the outcome per metric, the time series of each
 * counter sample, and the assumptions. A scenario's old rows are replaced.
 */
#include <math.h>

#include <sqlite3.h>

#include "vms.h"
#include "replay.h"
#include "sim.h"

static const char *const metric_firmness[M_NMETRICS] = {
	"sampled", "sampled", "exact", "exact", "machine-wide", "exact", "exact", "exact",
};

double whatif_change_pct(double recorded, double whatif)
{
	return recorded ? 100.0 * (whatif - recorded) / recorded : NAN;
}

static int exec_bound(sqlite3 *db, const char *sql, const char *scenario)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return vms_error("storing whatif results: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, scenario, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("storing whatif results: %s", sqlite3_errmsg(db));
}

int whatif_store(struct vms_db *db, const char *scenario, const struct whatif_rec *r,
		 const double *base, const double *wi, const struct whatif_point *bs,
		 const struct whatif_point *ws, long np, const struct whatif_assumption *a, int na)
{
	static const char *const clear[] = {
		"DELETE FROM outcome WHERE scenario = ?1",
		"DELETE FROM whatif_series WHERE scenario = ?1",
		"DELETE FROM whatif_assumption WHERE scenario = ?1",
	};
	sqlite3 *sql = vms_db_sql(db);
	sqlite3_stmt *st = NULL;
	const struct whatif_sample *s0 = &r->smp[0];
	long i;
	int m;

	for (i = 0; i < 3; i++)
		if (exec_bound(sql, clear[i], scenario))
			return -1;
	if (sqlite3_prepare_v2(sql, "INSERT INTO outcome VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1,
			       &st, NULL) != SQLITE_OK)
		goto err;
	for (m = 0; m < M_NMETRICS; m++) {
		double c = whatif_change_pct(r->recorded[m], wi[m]);

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, scenario, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, whatif_metric_names[m], -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 3, r->recorded[m]);
		sqlite3_bind_double(st, 4, base[m]);
		sqlite3_bind_double(st, 5, wi[m]);
		if (isnan(c))
			sqlite3_bind_null(st, 6);
		else
			sqlite3_bind_double(st, 6, c);
		sqlite3_bind_text(st, 7, metric_firmness[m], -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto err;
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(sql, "INSERT INTO whatif_series VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
			       "?8, ?9, ?10, ?11, ?12)", -1, &st, NULL) != SQLITE_OK)
		goto err;
	for (i = 1; i < np; i++) {
		const struct whatif_sample *s = &r->smp[i];
		const struct whatif_point *b = &bs[i], *w = &ws[i];

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, scenario, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, s->ts);
		sqlite3_bind_int64(st, 3, s->refault[1] - s0->refault[1]);
		sqlite3_bind_int64(st, 4, b->refault_file);
		sqlite3_bind_int64(st, 5, w->refault_file);
		sqlite3_bind_int64(st, 6, s->reclaimed[0] + s->reclaimed[1]);
		sqlite3_bind_int64(st, 7, b->reclaimed_file + b->reclaimed_anon);
		sqlite3_bind_int64(st, 8, w->reclaimed_file + w->reclaimed_anon);
		sqlite3_bind_int64(st, 9, s->lru[SIM_INACTIVE_FILE] + s->lru[SIM_ACTIVE_FILE]);
		sqlite3_bind_int64(st, 10, w->lru[SIM_INACTIVE_FILE] + w->lru[SIM_ACTIVE_FILE]);
		sqlite3_bind_int64(st, 11, s->lru[SIM_INACTIVE_ANON] + s->lru[SIM_ACTIVE_ANON]);
		sqlite3_bind_int64(st, 12, w->lru[SIM_INACTIVE_ANON] + w->lru[SIM_ACTIVE_ANON]);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto err;
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(sql, "INSERT INTO whatif_assumption VALUES (?1, ?2, ?3, ?4, ?5)", -1,
			       &st, NULL) != SQLITE_OK)
		goto err;
	for (i = 0; i < na; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, scenario, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, a[i].item, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, a[i].value, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 4, a[i].source, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, a[i].firmness, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto err;
	}
	sqlite3_finalize(st);
	return 0;
err:
	vms_error("storing whatif results: %s", sqlite3_errmsg(sql));
	sqlite3_finalize(st);
	return -1;
}
