// SPDX-License-Identifier: GPL-2.0
/*
 * whatif-rerun.c - `vmscope whatif --rerun DB`: set a prediction beside a
 * real rerun of the workload under the changes (another recording), with
 * the error of the prediction, of the prediction scaled by the model's
 * error on the recording, and of the trivial predictor (nothing changes:
 * the recording itself), and whether the predicted change has the real
 * change's direction. The same comparison samples/whatif-pairs makes for
 * the proof in docs/whatif.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "vms.h"
#include "vms-window.h"
#include "vms-table.h"
#include "replay.h"
#include "sim.h"
#include "whatif-rerun.h"

#define WITHIN_PCT 25.0

int whatif_rerun_load(const char *path, double from_s, double to_s, int has_from, int has_to,
		      struct whatif_rerun *rr)
{
	struct vms_window w = { 0 };
	struct whatif_rec rec = { 0 };
	int rc = -1, k;

	memset(rr, 0, sizeof(*rr));
	rr->path = path;
	w.db = vms_db_open(path, VMS_OPEN_READONLY);
	if (!w.db)
		return -1;
	/* the same window, in seconds from the start of each run */
	if (vms_window_open(&w, from_s, to_s, has_from, has_to) ||
	    whatif_rec_load_outcome(&w, &rec)) {
		vms_error("the rerun '%s': %s", path, vms_last_error());
		goto out;
	}
	memcpy(rr->real, rec.recorded, sizeof(rr->real));
	memcpy(rr->has, rec.has_recorded, sizeof(rr->has));
	for (k = 0; k < K_NKNOBS; k++) {
		rr->knob[k] = rec.knob[k].v;
		rr->known[k] = rec.knob[k].known;
	}
	rr->memcg = rec.memcg;
	rc = 0;
out:
	whatif_rec_release(&rec);
	vms_db_close(w.db);
	return rc;
}

/* The sign of a change against @ref: 0 within 5% of it (at least 64 pages). */
static int change_sign(double change, double ref)
{
	double band = fabs(ref) * 0.05;

	if (band < 64)
		band = 64;
	return change > band ? 1 : change < -band ? -1 : 0;
}

/* A metric counted in pages, for which the 64-page floor of a direction means something. */
static int in_pages(int m)
{
	return m == M_REFAULT_FILE || m == M_REFAULT_ANON || m == M_RECLAIMED_FILE ||
	       m == M_RECLAIMED_ANON || m == M_SWAPOUT;
}

static double error_pct(double predicted, double real)
{
	return real > 0 ? 100.0 * (predicted - real) / real : NAN;
}

static void cell(struct table *t, double v, int dec)
{
	if (isnan(v))
		table_null(t);
	else if (dec)
		table_real(t, v);
	else
		table_int(t, (long long)llround(v));
}

void whatif_rerun_compare(const struct whatif_rerun *rr, const struct whatif_rec *r,
			  const double *base, const double *wi, int changed,
			  struct whatif_rerun_row *rows)
{
	int m;

	for (m = 0; m < M_NMETRICS; m++) {
		struct whatif_rerun_row *x = &rows[m];
		double real = rr->real[m];

		memset(x, 0, sizeof(*x));
		x->usable = rr->has[m] && r->has_recorded[m];
		if (!x->usable)
			continue;
		x->rerun = real;
		/* where the baseline is 0 there is no error to divide out: the raw prediction */
		x->scaled = base[m] > 0 ? r->recorded[m] * wi[m] / base[m] : wi[m];
		x->whatif_err = error_pct(wi[m], real);
		x->scaled_err = error_pct(x->scaled, real);
		x->trivial_err = error_pct(r->recorded[m], real);
		x->direction = !changed || !in_pages(m) ? NULL :
			       change_sign(wi[m] - base[m], base[m]) ==
			       change_sign(real - r->recorded[m], r->recorded[m]) ? "right" : "wrong";
	}
}

static int within(double err, double predicted, double real)
{
	return isnan(err) ? predicted == 0 && real == 0 : fabs(err) <= WITHIN_PCT;
}

struct table *whatif_rerun_table(const struct whatif_rerun *rr, const struct whatif_rec *r,
				 const double *wi, const struct whatif_rerun_row *rows)
{
	struct table *t = table_new("whatif", "rerun", "Against the real rerun");
	int m, n = 0, in_raw = 0, in_scaled = 0, in_trivial = 0, right = 0, directed = 0;

	if (!t)
		return NULL;
	table_column(t, "metric", NULL, 0);
	table_column(t, "rerun", NULL, 0);
	table_column(t, "whatif", NULL, 0);
	table_column(t, "whatif_error", "%", 1);
	table_column(t, "scaled", NULL, 0);
	table_column(t, "scaled_error", "%", 1);
	table_column(t, "trivial", "%", 1);
	table_column(t, "direction", NULL, 0);
	for (m = 0; m < M_NMETRICS; m++) {
		const struct whatif_rerun_row *x = &rows[m];
		int dec = m == M_SECONDS;

		if (!x->usable)
			continue;
		table_row(t);
		table_text(t, whatif_metric_names[m]);
		cell(t, x->rerun, dec);
		cell(t, wi[m], dec);
		cell(t, x->whatif_err, 1);
		cell(t, x->scaled, dec);
		cell(t, x->scaled_err, 1);
		cell(t, x->trivial_err, 1);
		if (x->direction)
			table_text(t, x->direction);
		else
			table_null(t);
		if (m != M_REFAULT_FILE && m != M_RECLAIMED_FILE && m != M_RECLAIMED_ANON)
			continue;	/* the three the proof holds (docs/whatif.md) */
		n++;
		in_raw += within(x->whatif_err, wi[m], x->rerun);
		in_scaled += within(x->scaled_err, x->scaled, x->rerun);
		in_trivial += within(x->trivial_err, r->recorded[m], x->rerun);
		directed += x->direction != NULL;
		right += x->direction && !strcmp(x->direction, "right");
	}
	table_note(t, "rerun: %s, the real run with the changes; error: against it; scaled: "
		   "recorded x whatif / baseline (whatif where the baseline is 0); trivial: the error "
		   "of the recording itself as the prediction (nothing changes)", rr->path);
	table_note(t, "refault_file, reclaimed_file, reclaimed_anon within +-%.0f%%: whatif %d, "
		   "scaled %d, trivial %d of %d; direction right %d of %d", WITHIN_PCT, in_raw,
		   in_scaled, in_trivial, n, right, directed);
	table_note(t, "direction (of the page counts): whatif - baseline against rerun - recorded, "
		   "a change within 5%% (or 64 pages) counting as none%s", directed ? "" :
		   "; none here: nothing changed (a repeat shows the spread of the workload)");
	return t;
}

int whatif_rerun_store(struct vms_db *db, const char *scenario, const struct whatif_rerun *rr,
		       const struct whatif_rerun_row *rows)
{
	sqlite3 *sql = vms_db_sql(db);
	sqlite3_stmt *del = NULL, *ins = NULL;
	int m, rc = -1;

	if (sqlite3_prepare_v2(sql, "DELETE FROM whatif_rerun WHERE scenario = ?", -1, &del, NULL) ||
	    sqlite3_prepare_v2(sql, "INSERT INTO whatif_rerun (scenario, metric, rerun_path, rerun, "
			       "whatif_error_pct, scaled, scaled_error_pct, trivial_error_pct, direction) "
			       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &ins, NULL))
		goto fail;
	sqlite3_bind_text(del, 1, scenario, -1, SQLITE_STATIC);
	if (sqlite3_step(del) != SQLITE_DONE)
		goto fail;
	for (m = 0; rr && m < M_NMETRICS; m++) {
		const struct whatif_rerun_row *x = &rows[m];
		const double v[5] = { x->rerun, x->whatif_err, x->scaled, x->scaled_err,
				      x->trivial_err };
		int i;

		if (!x->usable)
			continue;
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, scenario, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, whatif_metric_names[m], -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, rr->path, -1, SQLITE_STATIC);
		for (i = 0; i < 5; i++) {
			if (isnan(v[i]))
				sqlite3_bind_null(ins, 4 + i);
			else
				sqlite3_bind_double(ins, 4 + i, v[i]);
		}
		if (x->direction)
			sqlite3_bind_text(ins, 9, x->direction, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(ins, 9);
		if (sqlite3_step(ins) != SQLITE_DONE)
			goto fail;
	}
	rc = 0;
fail:
	if (rc)
		vms_error("%s: cannot store the rerun comparison: %s", vms_db_path(db),
			  sqlite3_errmsg(sql));
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return rc;
}
