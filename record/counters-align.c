// SPDX-License-Identifier: GPL-2.0
/*
 * counters-align.c - counters_align(): put the counters read from files on
 * the trace clock. Each file gets the offset (ns) added to its times, found
 * in this order:
 *  1. the trace's own offset: a trace-cmd --date trace is read with its
 *     stored offset applied by libtracecmd, so its timestamps are epoch
 *     times already, and counters on the realtime clock (or epoch-looking
 *     times of an unsaid clock) need none;
 *  2. --counters-offset, or a clock named the same as the trace's
 *     (--counters-clock trace, or mono/boot on a mono/boot trace): that offset;
 *  3. automatic: the trace's cumulative reclaim (nr_scanned, nr_reclaimed of
 *     mm_vmscan_lru_shrink_inactive: kswapd, every reclaimer, and memcg
 *     reclaim when only a memory.stat is given) set against the pgscan and
 *     pgsteal counters of the files, the offset whose sampling intervals
 *     hold the same reclaim chosen, coarse to fine. The residual (reclaim
 *     in the wrong interval or in none, relative to the trace's) says how
 *     well it fits; too little reclaim, or a residual above
 *     ALIGN_MAX_RESIDUAL, is refused with the other ways as a hint.
 * Files of one clock share one automatic offset.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "counters-set.h"
#include "counters-align.h"

#define ALIGN_MAX_RESIDUAL 0.25	/* a quarter of the reclaim unmatched: not the same run */
#define ALIGN_MIN_PAGES 256	/* less reclaim than this on either side: nothing to align on */
#define EPOCH_2000_NS 946684800000000000LL

enum trace_kind { T_KSWAPD, T_ALL, T_GLOBAL, T_MEMCG, T_N };

/* One trace-side cumulative series: event times and running sums. */
struct tseries {
	long long *ts, *scan, *steal;	/* steal and scan summed to and with event i */
	int n, alloc;
};

/* One series fitted: the counter's samples against a trace series. */
struct fit_series {
	const long long *ts;		/* sample times, file clock (shared) */
	long long *value;		/* counter value per sample (scan or steal) */
	int n;
	const struct tseries *t;
	int steal;			/* the trace sums to use */
	const char *what;
};

struct fit {
	struct fit_series s[8];
	int n;
	long long t0, t1;		/* the trace's span */
	double median_ns;		/* median sampling interval */
};

static void tseries_free(struct tseries *t)
{
	free(t->ts);
	free(t->scan);
	free(t->steal);
}

static int tseries_add(struct tseries *t, long long ts, long long scan, long long steal)
{
	int a = t->alloc;

	if (vms_array_reserve(&t->ts, &a, t->n, 4096, sizeof(*t->ts)))
		return -1;
	a = t->alloc;
	if (vms_array_reserve(&t->scan, &a, t->n, 4096, sizeof(*t->scan)))
		return -1;
	a = t->alloc;
	if (vms_array_reserve(&t->steal, &a, t->n, 4096, sizeof(*t->steal)))
		return -1;
	t->alloc = a;
	t->ts[t->n] = ts;
	t->scan[t->n] = (t->n ? t->scan[t->n - 1] : 0) + scan;
	t->steal[t->n] = (t->n ? t->steal[t->n - 1] : 0) + steal;
	t->n++;
	return 0;
}

/* Sum of the series up to and with @ts. */
static long long cum_at(const struct tseries *t, int steal, long long ts)
{
	int lo = 0, hi = t->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (t->ts[mid] <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (steal ? t->steal : t->scan)[lo - 1] : 0;
}

static long long total(const struct tseries *t, int steal)
{
	return t->n ? (steal ? t->steal : t->scan)[t->n - 1] : 0;
}

/* The trace's reclaim per kind, from mm_vmscan_lru_shrink_inactive. */
static int load_trace(struct vms_db *db, struct tseries *t)
{
	sqlite3 *sql = vms_db_sql(db);
	struct vms_marks *mk = vms_marks_load(db, NULL, 0);
	sqlite3_stmt *st = NULL;
	int rc = -1, step;

	if (!mk)
		return -1;
	if (sqlite3_prepare_v2(sql, "SELECT e.ts, e.pid, COALESCE(e.nr_scanned, 0),"
			       " COALESCE(e.nr_reclaimed, 0), EXISTS (SELECT 1 FROM task k WHERE"
			       " k.pid = e.pid AND k.comm GLOB 'kswapd*')"
			       " FROM mm_vmscan_lru_shrink_inactive e ORDER BY e.ts, e.seq",
			       -1, &st, NULL)) {
		vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(sql));
		goto out;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		long long ts = sqlite3_column_int64(st, 0), pid = sqlite3_column_int64(st, 1);
		long long scan = sqlite3_column_int64(st, 2), steal = sqlite3_column_int64(st, 3);
		int ksw = sqlite3_column_int(st, 4);
		int memcg = !ksw && vms_marks_inside(mk, 0, pid, ts);

		if (tseries_add(&t[T_ALL], ts, scan, steal) ||
		    (ksw && tseries_add(&t[T_KSWAPD], ts, scan, steal)) ||
		    (!memcg && tseries_add(&t[T_GLOBAL], ts, scan, steal)) ||
		    (memcg && tseries_add(&t[T_MEMCG], ts, scan, steal)))
			goto out;
	}
	if (step != SQLITE_DONE) {
		vms_error("%s: %s", vms_db_path(db), sqlite3_errmsg(sql));
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	vms_marks_free(mk);
	return rc;
}

/*
 * Cost of offset @theta using every @stride-th sample: the reclaim each
 * interval holds on one side and not the other, plus the trace's reclaim
 * outside every interval, relative to the trace's, averaged over the series.
 * Return: the cost, or INFINITY when fewer than two intervals meet the trace.
 */
static double cost(const struct fit *fit, long long theta, int stride, int *intervals)
{
	double sum = 0;
	int k, used = 0;

	for (k = 0; k < fit->n; k++) {
		const struct fit_series *s = &fit->s[k];
		long long tot = total(s->t, s->steal), miss = 0, first = -1, last = -1;
		long long ca, cb;
		int i, j, n = 0;

		for (i = 0; i < s->n - 1; i = j) {
			long long a, b, d;

			j = i + stride < s->n ? i + stride : s->n - 1;
			a = s->ts[i] + theta;
			b = s->ts[j] + theta;
			if (b < fit->t0 || a > fit->t1 || s->value[i] < 0 || s->value[j] < 0)
				continue;
			if (first < 0)
				first = a;
			/* from a itself, not the interval before: one may be skipped */
			ca = cum_at(s->t, s->steal, a);
			cb = cum_at(s->t, s->steal, b);
			d = s->value[j] - s->value[i];
			miss += llabs(d - (cb - ca));
			last = b;
			n++;
		}
		if (n < 2)
			return INFINITY;
		miss += cum_at(s->t, s->steal, first - 1) + tot - cum_at(s->t, s->steal, last);
		sum += (double)miss / tot;
		used++;
		if (intervals)
			*intervals = n;
	}
	return used ? sum / used : INFINITY;
}

/* The best offset in [lo, hi] by steps of @step. Return: it, and *best_cost. */
static long long scan_range(const struct fit *fit, long long lo, long long hi, long long step,
			    int stride, double *best_cost)
{
	long long theta, best = lo, plateau_start = lo, plateau_end = lo;
	double best_c = INFINITY;

	if (step < 1)
		step = 1;
	for (theta = lo; theta <= hi; theta += step) {
		double c = cost(fit, theta, stride, NULL);

		if (c < best_c - 1e-12) {
			best_c = c;
			plateau_start = plateau_end = theta;
		} else if (c <= best_c + 1e-12 && plateau_end == theta - step) {
			plateau_end = theta;	/* the same minimum, next step: the middle is best */
		}
	}
	best = plateau_start + (plateau_end - plateau_start) / 2;
	*best_cost = best_c;
	return best;
}

/*
 * The best offset of the coarse scan further than a few merged intervals
 * from @theta, if it fits nearly as well as @theta (a periodic workload
 * repeats its reclaim pattern): else NO_OTHER.
 */
#define NO_OTHER LLONG_MIN
static long long second_best(const struct fit *fit, long long lo, long long hi, long long step,
			     int stride, long long theta)
{
	long long away = 3 * (long long)fmax(fit->median_ns * stride, (double)step), t, best = NO_OTHER;
	double here = cost(fit, theta, stride, NULL), best_c = INFINITY;

	for (t = lo; t <= hi; t += step > 0 ? step : 1) {
		double c;

		if (llabs(t - theta) < away)
			continue;
		c = cost(fit, t, stride, NULL);
		if (c < best_c) {
			best_c = c;
			best = t;
		}
	}
	return best_c <= here * 1.5 + 0.02 ? best : NO_OTHER;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Offset @files[0..n) (one clock) automatically. Return: 0, or -1 (vms_error set). */
static int align_auto(struct cset_file **files, int n, const struct tseries *t,
		      long long t0, long long t1, long long *offset, double *residual,
		      int *intervals, long long *other)
{
	struct fit fit = { .t0 = t0, .t1 = t1 };
	struct cset_file *vm = NULL, *mc = NULL;
	long long *ts = NULL, *diffs = NULL, lo, hi, theta, step, step0;
	int i, j, ns = 0, stride, stride0, rc = -1;
	double c;
	struct cset_file *src;
	const char *src_kind;

	/* the file with the most vmstat (else memcg) samples carries the series */
	for (i = 0; i < n; i++) {
		int v = 0, m = 0;

		for (j = 0; j < files[i]->nsamples; j++) {
			v += !strcmp(files[i]->samples[j].source, "vmstat") &&
			     !*files[i]->samples[j].scope;
			m += !strcmp(files[i]->samples[j].source, "memcg");
		}
		if (v > 1 && (!vm || v > vm->nsamples))
			vm = files[i];
		if (m > 1 && !mc)
			mc = files[i];
	}
	src = vm ? vm : mc;
	src_kind = vm ? "vmstat" : "memcg";
	if (!src)
		return vms_error("nothing to align on: none of the files has two or more samples of"
				 " /proc/vmstat or memory.stat with pgscan and pgsteal counters");
	ts = malloc(sizeof(*ts) * src->nsamples);
	diffs = malloc(sizeof(*diffs) * src->nsamples);
	if (!ts || !diffs)
		goto oom;
	for (j = 0; j < src->nsamples; j++)
		if (!strcmp(src->samples[j].source, src_kind) && (!vm || !*src->samples[j].scope))
			ts[ns++] = src->samples[j].ts;
	{
		/* counter values for the samples of src_kind, in the order of ts[] */
		static const char *const vm_names[][2] = {
			{ "pgscan_kswapd", "pgsteal_kswapd" },
		};
		long long *all = malloc(sizeof(*all) * src->nsamples * 6);
		int have_anon_file;

		if (!all)
			goto oom;
#define COL(k) (all + (size_t)(k) * src->nsamples)
		if (vm) {
			cset_series(src, vm_names[0][0], COL(0), -1);
			cset_series(src, vm_names[0][1], COL(1), -1);
			cset_series(src, "pgscan_anon", COL(2), -1);
			cset_series(src, "pgscan_file", COL(3), -1);
			cset_series(src, "pgsteal_anon", COL(4), -1);
			cset_series(src, "pgsteal_file", COL(5), -1);
		} else {
			cset_series(src, "pgscan", COL(0), -1);
			cset_series(src, "pgsteal", COL(1), -1);
		}
		have_anon_file = vm && COL(2)[0] >= 0 && COL(3)[0] >= 0;
		if (vm && !have_anon_file) {
			/* before 5.8 no pgscan_anon/file: kswapd + direct, memcg reclaim aside */
			cset_series(src, "pgscan_direct", COL(2), -1);
			cset_series(src, "pgsteal_direct", COL(4), -1);
		}
		for (i = 0; i < (vm ? 4 : 2); i++) {
			struct fit_series *s = &fit.s[fit.n];
			int k = 0;

			s->value = malloc(sizeof(*s->value) * (ns ? ns : 1));
			if (!s->value) {
				free(all);
				goto oom;
			}
			fit.n++;
			s->ts = ts;
			s->n = ns;
			s->steal = i % 2;
			for (j = 0; j < src->nsamples; j++) {
				const struct cset_sample *sm = &src->samples[j];
				long long v;

				if (strcmp(sm->source, src_kind) || (vm && *sm->scope))
					continue;
				if (i < 2) {
					v = COL(i)[j];
				} else if (have_anon_file) {
					long long x = COL(i == 2 ? 2 : 4)[j], y = COL(i == 2 ? 3 : 5)[j];

					v = x < 0 || y < 0 ? -1 : x + y;
				} else {
					long long x = COL(i - 2)[j], y = COL(i == 2 ? 2 : 4)[j];

					v = x < 0 || y < 0 ? -1 : x + y;
				}
				s->value[k++] = v;
			}
			if (!vm) {
				s->t = &t[T_MEMCG];
				s->what = i ? "memcg pgsteal" : "memcg pgscan";
			} else if (i < 2) {
				s->t = &t[T_KSWAPD];
				s->what = i ? "pgsteal_kswapd" : "pgscan_kswapd";
			} else if (have_anon_file) {
				s->t = &t[T_ALL];
				s->what = i == 3 ? "pgsteal_anon+file" : "pgscan_anon+file";
			} else {
				s->t = &t[T_GLOBAL];
				s->what = i == 3 ? "pgsteal_kswapd+direct" : "pgscan_kswapd+direct";
			}
		}
#undef COL
		free(all);
	}
	/* keep the series with enough reclaim on both sides */
	for (i = j = 0; i < fit.n; i++) {
		struct fit_series *s = &fit.s[i];
		long long first = -1, last = -1;
		int k;

		for (k = 0; k < s->n; k++)
			if (s->value[k] >= 0) {
				if (first < 0)
					first = s->value[k];
				last = s->value[k];
			}
		if (first >= 0 && last - first >= ALIGN_MIN_PAGES &&
		    total(s->t, s->steal) >= ALIGN_MIN_PAGES)
			fit.s[j++] = *s;
		else
			free(s->value);
	}
	fit.n = j;
	if (!fit.n || ns < 3) {
		vms_error("too little reclaim to align on: the trace and the %s counters need at"
			  " least %d pages scanned and reclaimed (and 3 samples) in common",
			  src_kind, ALIGN_MIN_PAGES);
		goto out;
	}
	for (i = 0; i + 1 < ns; i++)
		diffs[i] = ts[i + 1] - ts[i];
	qsort(diffs, ns - 1, sizeof(*diffs), cmp_ll);
	fit.median_ns = diffs[(ns - 1) / 2] > 0 ? diffs[(ns - 1) / 2] : 1000000;
	/* every offset that puts some samples inside the trace */
	lo = t0 - ts[ns - 1];
	hi = t1 - ts[0];
	step = (long long)(fit.median_ns / 2);
	if ((hi - lo) / step > 4000)
		step = (hi - lo) / 4000;
	stride = (int)ceil(2.0 * step / fit.median_ns);
	if (stride < 1)
		stride = 1;
	theta = scan_range(&fit, lo, hi, step, stride, &c);
	step0 = step;
	stride0 = stride;
	/* finer around the best: strides of one, steps of a tenth, then a hundredth */
	while (isfinite(c) && (step > fit.median_ns / 200 || stride > 1)) {
		long long span = step * 3 * (stride > 1 ? stride : 1);

		step = stride > 1 ? (long long)(fit.median_ns / 10) : step / 10;
		stride = 1;
		if (step < 1000000 / 10)
			break;
		theta = scan_range(&fit, theta - span, theta + span, step, 1, &c);
	}
	if (!isfinite(c)) {
		vms_error("the counters and the trace do not overlap at any offset with two or more"
			  " sampling intervals");
		goto out;
	}
	*offset = theta;
	*residual = cost(&fit, theta, 1, intervals);
	*other = second_best(&fit, lo, hi, step0, stride0, theta);
	rc = 0;
	goto out;
oom:
	vms_error("out of memory");
out:
	for (i = 0; i < fit.n; i++)
		free(fit.s[i].value);
	free(ts);
	free(diffs);
	return rc;
}

static int set_result(struct cset_file *f, long long offset, const char *by, double residual,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int set_result(struct cset_file *f, long long offset, const char *by, double residual,
		      const char *fmt, ...)
{
	va_list ap;

	f->offset_ns = offset;
	f->residual = residual;
	free(f->aligned_by);
	free(f->detail);
	f->aligned_by = strdup(by);
	va_start(ap, fmt);
	if (vasprintf(&f->detail, fmt, ap) < 0)
		f->detail = NULL;
	va_end(ap);
	return f->aligned_by && f->detail ? 0 : vms_error("out of memory");
}

static int same_clock(const char *trace_clock, enum cset_clock c)
{
	if (c == CLOCK_TRACE_C)
		return 1;
	if (!trace_clock)
		return 0;
	return (c == CLOCK_MONO_C && !strcmp(trace_clock, "mono")) ||
	       (c == CLOCK_BOOT_C && !strcmp(trace_clock, "boot"));
}

int counters_align(struct vms_db *db, struct cset_file *files, int nfiles,
		   const struct counters_align_options *opt)
{
	struct tseries t[T_N] = { 0 };
	struct cset_file **group = NULL;
	long long t0 = 0, t1 = 0;
	char *trace_clock = NULL;
	sqlite3_stmt *st;
	int i, j, rc = -1, date_shifted, loaded = 0;

	if (!sqlite3_prepare_v2(vms_db_sql(db), "SELECT trace_clock, start_ts, end_ts FROM run", -1,
				&st, NULL)) {
		if (sqlite3_step(st) == SQLITE_ROW) {
			if (sqlite3_column_text(st, 0))
				trace_clock = strdup((const char *)sqlite3_column_text(st, 0));
			t0 = sqlite3_column_int64(st, 1);
			t1 = sqlite3_column_int64(st, 2);
		}
		sqlite3_finalize(st);
	}
	if (trace_clock && (!strcmp(trace_clock, "x86-tsc") || !strcmp(trace_clock, "counter"))) {
		vms_error("the trace's clock '%s' counts ticks, not nanoseconds: counters cannot be"
			  " put on it (record with -C mono or local, or -C tsc2nsec)", trace_clock);
		goto out;
	}
		date_shifted = t0 > EPOCH_2000_NS;
	group = calloc(nfiles ? nfiles : 1, sizeof(*group));
	if (!group) {
		vms_error("out of memory");
		goto out;
	}
	for (i = 0; i < nfiles; i++) {
		struct cset_file *f = &files[i];
		int epochish = f->nsamples && f->samples[0].ts > EPOCH_2000_NS;

		if (!f->nsamples) {
			if (set_result(f, 0, "none", -1, "sysctls only"))
				goto out;
		} else if (opt->has_offset) {
			if (set_result(f, opt->offset_ns, "user-offset", -1,
				       "offset %+.6f s given by --counters-offset", opt->offset_ns / 1e9))
				goto out;
		} else if (date_shifted && (f->clock == CLOCK_REALTIME_C ||
					    (f->clock == CLOCK_UNSAID && epochish))) {
			if (set_result(f, 0, "trace-date", -1, "offset 0: the trace's timestamps carry"
				       " its own offset to the wall clock (trace-cmd record --date)"))
				goto out;
		} else if (same_clock(trace_clock, f->clock)) {
			if (set_result(f, 0, "same-clock", -1, "offset 0: clock '%s' is the trace's (%s)",
				       cset_clock_name(f->clock), trace_clock ? trace_clock : "trace"))
				goto out;
		}
	}
	/* the rest, automatically: one offset per clock */
	for (i = 0; i < nfiles; i++) {
		long long offset = 0, other = NO_OTHER;
		double residual = 1;
		int n = 0, intervals = 0;
		char also[160] = "";

		if (files[i].aligned_by)
			continue;
		for (j = i; j < nfiles; j++)
			if (!files[j].aligned_by && files[j].clock == files[i].clock)
				group[n++] = &files[j];
		if (!loaded++ && load_trace(db, t))
			goto out;
		if (align_auto(group, n, t, t0, t1, &offset, &residual, &intervals, &other)) {
			char *why = strdup(vms_last_error());

			vms_error("cannot align the counters of '%s' to the trace automatically: %s;"
				  " give their clock (--counters-clock) or --counters-offset SECONDS",
				  files[i].path, why ? why : "?");
			free(why);
			goto out;
		}
		if (residual > ALIGN_MAX_RESIDUAL) {
			vms_error("cannot align the counters of '%s' to the trace: the best offset,"
				  " %+.3f s, leaves %.0f%% of the reclaim unmatched (at most %.0f%%):"
				  " are they of this run and machine? Give --counters-offset SECONDS"
				  " or --counters-clock if you know them", files[i].path, offset / 1e9,
				  residual * 100, ALIGN_MAX_RESIDUAL * 100);
			goto out;
		}
		if (other != NO_OTHER) {
			snprintf(also, sizeof(also), "; ambiguous: offset %+.3f s fits nearly as well",
				 other / 1e9);
			vms_warning("the counters of '%s' fit the trace nearly as well at offset %+.3f s"
				    " as at %+.3f s (a workload that repeats itself?): check the"
				    " alignment, or give --counters-offset", files[i].path, other / 1e9,
				    offset / 1e9);
		}
		for (j = 0; j < n; j++)
			if (set_result(group[j], offset, "automatic", residual,
				       "offset %+.6f s found from the reclaim counters (residual %.1f%%"
				       " over %d sampling intervals%s)", offset / 1e9, residual * 100,
				       intervals, also))
				goto out;
	}
	rc = 0;
out:
	for (i = 0; i < T_N; i++)
		tseries_free(&t[i]);
	free(group);
	free(trace_clock);
	return rc;
}
