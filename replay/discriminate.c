// SPDX-License-Identifier: GPL-2.0
/*
 * discriminate.c - what makes an agreement figure able to fail: for each
 * question, which decisions are decisive (the input that decides the
 * question varies there, so the answer is not settled by the swap state,
 * the list sizes at this priority or the loop structure alone), and the
 * trivial predictors a policy has to beat on those decisions. A policy's
 * agreement is only evidence for its logic where it is above the best
 * trivial predictor on the decisive decisions.
 */
#include <string.h>

#include "replay.h"

enum { Q_SCAN, Q_DEACT_FILE, Q_DEACT_ANON, Q_SLAB, Q_RETRY, Q_MAPPED };

/* mapped_once has none: it has no decisive decision to score them on */
static const char *const trivial_names[N_QUESTIONS][N_TRIVIAL] = {
	{ "file only", "anon+file", "always FRACT", "refault-blind 6.18" },
	{ "refault-blind (ratio only)", "always aged", "always kept" },
	{ "refault-blind (ratio only)", "always aged", "always kept" },
	{ "always shrink", "never shrink" },
	{ "never retry", "always retry", "retry when the loop ran to the end" },
};

const char *trivial_name(int q, int k)
{
	return q >= 0 && q < N_QUESTIONS && k >= 0 && k < N_TRIVIAL ? trivial_names[q][k] : NULL;
}

int question_decisive(int q, const struct decision *d)
{
	const struct vms_pass_input *in = &d->in;

	switch (q) {
	case Q_SCAN:
		/* swap to reclaim into, not the priority-0 rule, and both types have a target */
		return in->swap_free.v > 0 && in->priority > 0 &&
		       (in->inactive_anon.v >> in->priority) > 0 &&
		       (in->inactive_file.v >> in->priority) > 0 &&
		       !(in->reclaimer == VMS_MEMCG && in->swappiness.v == 0);
	case Q_DEACT_FILE:
		/* the size ratio does not already say "age": refaults decide */
		return in->force_deactivate == 0 &&
		       !kl_inactive_is_low(in->inactive_file.v, in->active_file.v);
	case Q_DEACT_ANON:
		return in->force_deactivate == 0 && in->swap_free.v > 0 &&
		       !kl_inactive_is_low(in->inactive_anon.v, in->active_anon.v);
	case Q_SLAB:
		/* the only input a slab policy reads: a boost on kswapd's node */
		return in->reclaimer == VMS_KSWAPD && in->boost_reclaim.prov == VMS_PROV_UNKNOWN;
	case Q_RETRY:
		/* the loop ran to the end: cache_trim_mode_failed decides */
		return d->first_lowest >= 0 && d->first_lowest <= 1;
	case Q_MAPPED:
		/*
		 * Never: the kernel's answer is in the record (nr_ref_keep counts
		 * the pages it kept), and what decides it per page (referenced
		 * PTEs, PG_referenced, VM_EXEC) is in no event. Agreement with
		 * "keep" holds by construction, like always-shrink's shrink_slab.
		 */
		return 0;
	}
	return 0;
}

int trivial_answer(int q, int k, const struct decision *d)
{
	const struct vms_pass_input *in = &d->in;
	struct vms_scan_decision sd;
	struct vms_pass_input blind;

	memset(&sd, 0, sizeof(sd));
	switch (q) {
	case Q_SCAN:
		switch (k) {
		case 0:
			sd.balance = VMS_SCAN_FILE;
			break;
		case 1:
			sd.balance = VMS_SCAN_EQUAL;
			break;
		case 2:
			sd.balance = VMS_SCAN_FRACT;
			sd.fraction_anon = (unsigned long long)in->swappiness.v;
			sd.fraction_file = (unsigned long long)(200 - in->swappiness.v);
			break;
		default:
			blind = *in;
			blind.refault_file.v = blind.refault_anon.v = 0;
			kl_scan_balance(&blind, in->anon_cost.v, in->file_cost.v, &sd);
			break;
		}
		return kl_scan_types(in, &sd);
	case Q_DEACT_FILE:
	case Q_DEACT_ANON:
		if (k == 0)
			return q == Q_DEACT_FILE ? kl_inactive_is_low(in->inactive_file.v, in->active_file.v) :
						   kl_inactive_is_low(in->inactive_anon.v, in->active_anon.v);
		return k == 1;
	case Q_SLAB:
		return k == 0;
	case Q_RETRY:
		return k == 1 || (k == 2 && d->first_lowest <= 1);
	}
	return 0;
}
