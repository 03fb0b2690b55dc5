// SPDX-License-Identifier: GPL-2.0
/*
 * kind-scan.c - `vmscope plot DB scan`: pages scanned and reclaimed per second from the inactive
 * lists, kswapd against direct, file against anon, in time bins.
 * Writes scan-a.dat (-b.dat) for plots/scan.gp; docs/plot.md shows the figure.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

static int scan_run(struct plot_job *job, const struct plot_bins *b, int i)
{
	struct plot_run *r = job->run[i];
	int n = plot_bins_count(b, r), rc, k;
	double (*v)[8] = calloc(n, sizeof(*v));
	sqlite3_stmt *st = NULL;
	long long events = 0;
	struct dat d = { 0 };

	if (!v)
		return vms_error("out of memory");
	st = vms_window_prepare(&r->ctx,
		"SELECT (ts - ?1) / ?3, pid IN (SELECT pid FROM kswapd_pid), COALESCE(reclaim_flags, 2) & 1,"
		" SUM(nr_scanned), SUM(nr_reclaimed), COUNT(*)"
		" FROM mm_vmscan_lru_shrink_inactive WHERE ts BETWEEN ?1 AND ?2 GROUP BY 1, 2, 3");
	if (!st) {
		rc = -1;
		goto out;
	}
	sqlite3_bind_int64(st, 3, b->width);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int bin = plot_bin_of(b, r, sqlite3_column_int64(st, 0));
		int kswapd = sqlite3_column_int(st, 1), anon = sqlite3_column_int(st, 2);
		int col = (kswapd ? 0 : 2) + (anon ? 1 : 0);

		v[bin][col] += sqlite3_column_int64(st, 3);
		v[bin][col + 4] += sqlite3_column_int64(st, 4);
		events += sqlite3_column_int64(st, 5);
	}
	if (rc != SQLITE_DONE) {
		rc = plot_sql_error(r);
		goto out;
	}
	if (dat_open(&d, job, "scan", i)) {
		rc = -1;
		goto out;
	}
	dat_block(&d, "pages scanned and reclaimed per second from the inactive LRU lists",
		  "time_s kswapd_file_scanned/s kswapd_anon_scanned/s direct_file_scanned/s"
		  " direct_anon_scanned/s kswapd_file_reclaimed/s kswapd_anon_reclaimed/s"
		  " direct_file_reclaimed/s direct_anon_reclaimed/s");
	dat_comment(&d, "sums of mm_vmscan_lru_shrink_inactive nr_scanned and nr_reclaimed (pages)"
		    " per %g ms bin (the last bin runs to the end of the window) divided by the"
		    " bin's length; time is the middle of the bin", b->width / 1e6);
	dat_comment(&d, "kswapd: the event's pid is a kswapd thread; direct: any other task"
		    " (direct, memcg limit and node reclaim); file/anon from reclaim_flags");
	dat_comment(&d, "%lld mm_vmscan_lru_shrink_inactive events in the window", events);
	for (k = 0; k < n; k++) {
		double t0, w;
		int c;

		plot_bin_span(b, r, k, &t0, &w);
		dat_num(&d, 1, 1, t0 + w / 2);
		for (c = 0; c < 8; c++)
			dat_num(&d, 0, 1, v[k][c] / w);
		dat_row_end(&d);
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(v);
	return dat_close(&d, rc);
}

static int write_scan(struct plot_job *job)
{
	struct plot_bins b;
	int i;

	if (plot_bins_choose(job, &b))
		return -1;
	for (i = 0; i < job->nruns; i++)
		if (scan_run(job, &b, i))
			return -1;
	plot_set_xrange(job);
	return 0;
}

const struct plot_kind plot_kind_scan = {
	.name = "scan",
	.summary = "pages scanned and reclaimed per second: kswapd/direct, file/anon (trace)",
	.write = write_scan,
};
