/* SPDX-License-Identifier: GPL-2.0 */
/*
 * whatif-rerun.h - a whatif prediction against a real rerun of the
 * workload (whatif-rerun.c). Protocol: whatif_rerun_load() the rerun's
 * database, whatif_rerun_compare() after both simulations, then
 * whatif_rerun_table() to print and whatif_rerun_store() to keep it.
 */
#ifndef VMS_REPLAY_WHATIF_RERUN_H
#define VMS_REPLAY_WHATIF_RERUN_H

#include "sim.h"

struct vms_db;
struct table;

struct whatif_rerun {
	const char *path;
	double real[M_NMETRICS];	/* what the rerun recorded */
	int has[M_NMETRICS];
	long long knob[K_NKNOBS];	/* the knobs it ran with, where it says */
	int known[K_NKNOBS];
	int memcg;			/* its lruvec is a memcg */
};

struct whatif_rerun_row {
	int usable;			/* both recordings have the metric */
	double rerun, scaled;		/* scaled: recorded x whatif / baseline, or whatif */
	double whatif_err, scaled_err, trivial_err;	/* %, NAN when the rerun recorded 0 */
	const char *direction;		/* "right", "wrong"; NULL without a change, or not pages */
};

/*
 * Read the recorded outcome and knobs of the rerun at @path, over the
 * window of the prediction (the same seconds from the start of its run).
 * Return: 0 or -1 (vms_error).
 */
int whatif_rerun_load(const char *path, double from_s, double to_s, int has_from, int has_to,
		      struct whatif_rerun *rr);
/* Fill @rows (M_NMETRICS); @changed: the whatif changes something (else no direction). */
void whatif_rerun_compare(const struct whatif_rerun *rr, const struct whatif_rec *r,
			  const double *base, const double *wi, int changed,
			  struct whatif_rerun_row *rows);
struct table *whatif_rerun_table(const struct whatif_rerun *rr, const struct whatif_rec *r,
				 const double *wi, const struct whatif_rerun_row *rows);
/*
 * Replace the whatif_rerun rows of @scenario with @rows (none when @rr is
 * NULL: a whatif without --rerun clears its old comparison). The caller
 * holds a transaction. Return: 0 or -1 (vms_error).
 */
int whatif_rerun_store(struct vms_db *db, const char *scenario, const struct whatif_rerun *rr,
		       const struct whatif_rerun_row *rows);

#endif
