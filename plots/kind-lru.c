// SPDX-License-Identifier: GPL-2.0
/*
 * kind-lru.c - `vmscope plot DB lru`: LRU list sizes, and free pages against the watermarks
 * (/proc/zoneinfo).
 * Writes lru-a.dat (-b.dat) for plots/lru.gp; docs/plot.md shows the figure.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

static int lru_run(struct plot_job *job, int i)
{
	static const char *const names[] = { "nr_active_anon", "nr_inactive_anon", "nr_active_file",
					     "nr_inactive_file", "nr_free_pages" };
	struct plot_run *r = job->run[i];
	sqlite3_stmt *st;
	struct dat d;
	int rc, k, zones = 0;

	if (plot_need_counters(r, "lru", "nr_active_anon, nr_inactive_anon, nr_active_file,"
			  " nr_inactive_file; free, min, low, high from /proc/zoneinfo"))
		return -1;
	st = plot_samples_query(r, "vmstat", names, 5);
	if (!st)
		return -1;
	if (dat_open(&d, job, "lru", i)) {
		sqlite3_finalize(st);
		return -1;
	}
	dat_block(&d, "LRU list sizes, one row per /proc/vmstat sample",
		  "time_s active_anon_MiB inactive_anon_MiB active_file_MiB inactive_file_MiB");
	dat_comment(&d, "nr_active_anon, nr_inactive_anon, nr_active_file, nr_inactive_file from"
		    " /proc/vmstat, MiB with a page size of %lld bytes", r->page_size);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		dat_num(&d, 1, 1, plot_rel(r, sqlite3_column_int64(st, 0)));
		for (k = 1; k <= 4; k++)
			dat_num(&d, 0, plot_col_known(st, k), plot_mib(r, sqlite3_column_int64(st, k)));
		dat_row_end(&d);
	}
	if (rc != SQLITE_DONE) {
		rc = plot_sql_error(r);
		goto out;
	}
	if (!d.rows) {
		rc = plot_no_samples(r, "lru", "no /proc/vmstat sample");
		goto out;
	}
	sqlite3_finalize(st);

	/* free pages against the watermarks, every zone of every node added up */
	st = vms_window_prepare(&r->ctx,
		"SELECT s.ts,"
		" SUM(CASE WHEN v.name = 'free' THEN v.value END),"
		" SUM(CASE WHEN v.name = 'min' THEN v.value END),"
		" SUM(CASE WHEN v.name = 'low' THEN v.value END),"
		" SUM(CASE WHEN v.name = 'high' THEN v.value END),"
		" SUM(CASE WHEN v.name = 'boost' THEN v.value END)"
		" FROM counter_sample s JOIN counter_value v ON v.sample = s.id"
		" WHERE s.source = 'zoneinfo' AND s.scope LIKE 'node%/%' AND s.ts BETWEEN ?1 AND ?2"
		" AND v.name IN ('free', 'min', 'low', 'high', 'boost')"
		" GROUP BY s.ts ORDER BY s.ts");
	if (!st) {
		rc = -1;
		goto out;
	}
	dat_block(&d, "free pages and the watermarks, all zones of all nodes added up, one row"
		  " per /proc/zoneinfo read", "time_s free_MiB min_MiB low_MiB high_MiB boost_MiB");
	dat_comment(&d, "zoneinfo 'pages free', min, low, high, boost summed over the zones (scopes"
		    " nodeN/ZONE); MiB with a page size of %lld bytes", r->page_size);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		zones++;
		dat_num(&d, 1, 1, plot_rel(r, sqlite3_column_int64(st, 0)));
		for (k = 1; k <= 5; k++)
			dat_num(&d, 0, plot_col_known(st, k), plot_mib(r, sqlite3_column_int64(st, k)));
		dat_row_end(&d);
	}
	if (rc != SQLITE_DONE) {
		rc = plot_sql_error(r);
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	rc = 0;
	if (!zones) {
		/* no /proc/zoneinfo: free pages from /proc/vmstat, no watermarks */
		dat_comment(&d, "no /proc/zoneinfo sample in the window: free is nr_free_pages from"
			    " /proc/vmstat, the watermarks are unknown");
		st = plot_samples_query(r, "vmstat", names, 5);
		if (!st) {
			rc = -1;
			goto out;
		}
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			dat_num(&d, 1, 1, plot_rel(r, sqlite3_column_int64(st, 0)));
			dat_num(&d, 0, plot_col_known(st, 5), plot_mib(r, sqlite3_column_int64(st, 5)));
			for (k = 0; k < 4; k++)
				dat_num(&d, 0, 0, 0);
			dat_row_end(&d);
		}
		rc = rc == SQLITE_DONE ? 0 : plot_sql_error(r);
	}
out:
	sqlite3_finalize(st);
	return dat_close(&d, rc);
}

const struct plot_kind plot_kind_lru = {
	.name = "lru",
	.summary = "LRU list sizes; free pages against the watermarks (counters)",
	.write_run = lru_run,
};
