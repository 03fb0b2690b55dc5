// SPDX-License-Identifier: GPL-2.0
/*
 * kind-stalls.c - `vmscope plot DB stalls`: the latency distribution of reclaim calls and
 * throttling, in logarithmic bins.
 * Writes stalls-a.dat (-b.dat) for plots/stalls.gp; docs/plot.md shows the figure.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms.h"
#include "plot-local.h"

#define STALL_BINS_PER_DECADE 5
#define STALL_MAX_BIN (STALL_BINS_PER_DECADE * 9)	/* 1 µs .. 1000 s */
#define STALL_SERIES 4

static const char *const stall_names[STALL_SERIES] = { "direct", "memcg", "node", "throttled" };

static int stall_bin(double us)
{
	int b = us <= 1 ? 0 : (int)floor(log10(us) * STALL_BINS_PER_DECADE);

	return b < 0 ? 0 : b > STALL_MAX_BIN ? STALL_MAX_BIN : b;
}

struct stalls {
	long long count[STALL_MAX_BIN + 1][STALL_SERIES];
	double worst_us[STALL_SERIES];
	int worst_pid[STALL_SERIES];
	long long n[STALL_SERIES];
};

static int stalls_read(struct plot_run *r, struct stalls *s)
{
	/* reclaim calls that began in the window and ended; throttling in the window */
	sqlite3_stmt *st = vms_window_prepare(&r->ctx,
		"SELECT CASE kind WHEN 'direct' THEN 0 WHEN 'node' THEN 2 ELSE 1 END, pid,"
		" duration_ns / 1e3 FROM reclaim_interval"
		" WHERE begin_ts BETWEEN ?1 AND ?2 AND duration_ns IS NOT NULL"
		" UNION ALL SELECT 3, pid, usec_delayed FROM mm_vmscan_throttled"
		" WHERE ts BETWEEN ?1 AND ?2 AND usec_delayed IS NOT NULL"
		" UNION ALL SELECT 3, pid, usec_delayed FROM writeback_congest_wait"
		" WHERE ts BETWEEN ?1 AND ?2 AND usec_delayed IS NOT NULL");
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int k = sqlite3_column_int(st, 0);
		double us = sqlite3_column_double(st, 2);

		s->count[stall_bin(us)][k]++;
		s->n[k]++;
		if (us > s->worst_us[k] || s->n[k] == 1) {
			s->worst_us[k] = us;
			s->worst_pid[k] = sqlite3_column_int(st, 1);
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : plot_sql_error(r);
}

static void fmt_duration(char *buf, size_t size, double us)
{
	if (us >= 1e6)
		snprintf(buf, size, "%.2fs", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, size, "%.1fms", us / 1e3);
	else
		snprintf(buf, size, "%.0fus", us);
}

static int stalls_run(struct plot_job *job, int i, int lo, int hi, struct stalls *s,
		      long long ymax, int *rank)
{
	struct plot_run *r = job->run[i];
	struct dat d;
	int b, k;

	if (dat_open(&d, job, "stalls", i))
		return -1;
	dat_block(&d, "latency distribution: episodes per logarithmic bin (5 per decade)",
		  "center_us bin_lo_us bin_hi_us direct memcg node throttled");
	dat_comment(&d, "direct, memcg (memcg limit and soft limit), node: reclaim_interval"
		    " duration_ns of the calls that began in the window and ended (%lld, %lld, %lld);"
		    " throttled: mm_vmscan_throttled and writeback_congest_wait usec_delayed (%lld);"
		    " durations under 1 us count in the first bin", s->n[0], s->n[1], s->n[2],
		    s->n[3]);
	for (b = lo; b <= hi; b++) {
		double blo = pow(10, (double)b / STALL_BINS_PER_DECADE);
		double bhi = pow(10, (double)(b + 1) / STALL_BINS_PER_DECADE);

		dat_num(&d, 1, 1, sqrt(blo * bhi));
		dat_num(&d, 0, 1, blo);
		dat_num(&d, 0, 1, bhi);
		for (k = 0; k < STALL_SERIES; k++)
			dat_num(&d, 0, 1, s->count[b][k]);
		dat_row_end(&d);
	}
	dat_block(&d, "the longest episode of each series, labelled with its task",
		  "duration_us label_y label series");
	dat_comment(&d, "label_y: the count of the episode's bin, raised by 7%% of the highest"
		    " count per label drawn before it so that labels do not overlap; series:"
		    " 1 direct, 2 memcg, 3 node, 4 throttled");
	for (k = 0; k < STALL_SERIES; k++) {
		char task[PLOT_LABEL_MAX + 1], dur[32], label[3 * PLOT_LABEL_MAX];
		double us = s->worst_us[k];

		if (!s->n[k])
			continue;
		plot_task_label(r, s->worst_pid[k], task, sizeof(task));
		fmt_duration(dur, sizeof(dur), us);
		snprintf(label, sizeof(label), "%s%s:%s:%s", job->nruns > 1 ? (r->tag == 'A' ?
			 "A:" : "B:") : "", stall_names[k], task, dur);
		plot_sanitize(task, sizeof(task), label);
		dat_num(&d, 1, 1, us < 1 ? 1 : us);
		dat_num(&d, 0, 1, s->count[stall_bin(us)][k] + 0.07 * ymax * (*rank)++);
		fprintf(d.f, " %s %d", task, k + 1);
		dat_row_end(&d);
	}
	return dat_close(&d, 0);
}

static int write_stalls(struct plot_job *job)
{
	struct stalls *s = calloc(job->nruns, sizeof(*s));
	int lo = STALL_MAX_BIN, hi = 0, rc = 0, rank = 1, i, b, k;
	long long ymax = 1;

	if (!s)
		return vms_error("out of memory");
	for (i = 0; i < job->nruns && !rc; i++)
		rc = stalls_read(job->run[i], &s[i]);
	for (i = 0; i < job->nruns && !rc; i++)
		for (b = 0; b <= STALL_MAX_BIN; b++)
			for (k = 0; k < STALL_SERIES; k++)
				if (s[i].count[b][k]) {
					lo = b < lo ? b : lo;
					hi = b > hi ? b : hi;
					ymax = s[i].count[b][k] > ymax ? s[i].count[b][k] : ymax;
				}
	if (lo > hi) {
		/* nothing stalled: zero lines over 1 us .. 1 s */
		lo = 0;
		hi = STALL_BINS_PER_DECADE * 6 - 1;
	} else {
		/* a zero bin either side */
		lo = lo > 0 ? lo - 1 : 0;
		hi = hi < STALL_MAX_BIN ? hi + 1 : hi;
	}
	for (i = 0; i < job->nruns && !rc; i++)
		rc = stalls_run(job, i, lo, hi, &s[i], ymax, &rank);
	if (!rc) {
		job->xmin = pow(10, (double)lo / STALL_BINS_PER_DECADE);
		job->xmax = pow(10, (double)(hi + 1) / STALL_BINS_PER_DECADE);
	}
	free(s);
	return rc;
}

const struct plot_kind plot_kind_stalls = {
	.name = "stalls",
	.summary = "latency distribution of reclaim calls and throttling (trace)",
	.write = write_stalls,
	.groups = 1,
};
