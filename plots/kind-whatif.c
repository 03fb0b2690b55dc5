// SPDX-License-Identifier: GPL-2.0
/*
 * kind-whatif.c - `vmscope plot DB whatif`: what `vmscope whatif` simulated
 * against what was recorded, over time: cumulative file refaults and pages
 * reclaimed (recorded, baseline, whatif), and the file and anon LRU sizes
 * (recorded, whatif), one row per counter sample of the simulated lruvec.
 * Reads table whatif_series (schema/930-whatif.sql), the scenario whatif
 * wrote last. Writes whatif-a.dat (-b.dat) for plots/whatif.gp.
 */
#include <stdio.h>

#include "vms.h"
#include "plot-local.h"

/* The blocks of whatif-a.dat: what each draws, its columns, the SELECT list. */
static const struct {
	const char *what, *columns, *select;
	int mib;	/* values are pages, written as MiB */
} blocks[] = {
	{ "file refaults, cumulative (pages): recorded, simulated with the recording's knobs"
	  " (baseline), simulated with the changes (whatif)",
	  "time_s recorded_refault_file baseline_refault_file whatif_refault_file",
	  "recorded_refault_file, baseline_refault_file, whatif_refault_file", 0 },
	{ "pages reclaimed (file + anon), cumulative: recorded, baseline, whatif",
	  "time_s recorded_reclaimed baseline_reclaimed whatif_reclaimed",
	  "recorded_reclaimed, baseline_reclaimed, whatif_reclaimed", 0 },
	{ "LRU sizes (inactive + active), MiB: file recorded and whatif, anon recorded and whatif",
	  "time_s recorded_file_MiB whatif_file_MiB recorded_anon_MiB whatif_anon_MiB",
	  "recorded_file, whatif_file, recorded_anon, whatif_anon", 1 },
};

static int whatif_run(struct plot_job *job, int i)
{
	struct plot_run *r = job->run[i];
	char scenario[PLOT_LABEL_MAX + 1] = "";
	sqlite3_stmt *st = NULL;
	long long n = 0;
	struct dat d;
	size_t b;
	int rc = 0, k, ncols;

	if (vms_window_int(&r->ctx, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'whatif_series'",
			   &n) < 0)
		return -1;
	if (n && vms_window_int(&r->ctx, "SELECT COUNT(*) FROM whatif_series", &n) < 0)
		return -1;
	if (!n)
		return vms_error("'%s' has no whatif results: run 'vmscope whatif %s' first",
				 r->path, r->path);
	if (sqlite3_prepare_v2(r->ctx.sql, "SELECT scenario FROM whatif_series ORDER BY rowid DESC"
			       " LIMIT 1", -1, &st, NULL))
		return plot_sql_error(r);
	if (sqlite3_step(st) == SQLITE_ROW)
		plot_sanitize(scenario, sizeof(scenario), (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	st = NULL;
	if (dat_open(&d, job, "whatif", i))
		return -1;
	for (b = 0; !rc && b < sizeof(blocks) / sizeof(blocks[0]); b++) {
		char sql[512];

		snprintf(sql, sizeof(sql), "SELECT ts, %s FROM whatif_series WHERE ts BETWEEN ?1 AND ?2"
			 " AND scenario = (SELECT scenario FROM whatif_series ORDER BY rowid DESC LIMIT 1)"
			 " ORDER BY ts", blocks[b].select);
		st = vms_window_prepare(&r->ctx, sql);
		if (!st) {
			rc = -1;
			break;
		}
		dat_block(&d, blocks[b].what, blocks[b].columns);
		if (!b)
			dat_comment(&d, "scenario (the last whatif run, sanitized): %s", scenario);
		ncols = sqlite3_column_count(st);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			dat_num(&d, 1, 1, plot_rel(r, sqlite3_column_int64(st, 0)));
			for (k = 1; k < ncols; k++) {
				long long v = sqlite3_column_int64(st, k);

				dat_num(&d, 0, plot_col_known(st, k),
					blocks[b].mib ? plot_mib(r, v) : (double)v);
			}
			dat_row_end(&d);
		}
		rc = rc == SQLITE_DONE ? 0 : plot_sql_error(r);
		sqlite3_finalize(st);
		st = NULL;
		if (!rc && !d.rows)
			rc = plot_no_samples(r, "whatif", "no whatif_series row");
	}
	return dat_close(&d, rc);
}

const struct plot_kind plot_kind_whatif = {
	.name = "whatif",
	.summary = "whatif: recorded against simulated refaults, reclaim and LRU sizes over time",
	.write_run = whatif_run,
};
