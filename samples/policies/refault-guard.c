// SPDX-License-Identifier: GPL-2.0
/*
 * refault-guard.c - an example of a user policy for `vmscope replay`, built
 * as a shared object by `make samples` (samples/policies/refault-guard.so):
 *
 *   vmscope replay run.db --policy samples/policies/refault-guard.so:threshold=64
 *
 * The idea it tests: when more than `threshold` file pages refaulted
 * (activating refaults since the previous reclaim cycle), scan anon and file
 * equally instead of trimming the page cache only. Every other decision is
 * left to the baseline (the hooks are NULL or return VMS_DEFER).
 *
 * A policy plugin needs only include/vms-policy.h (ABI 4, which added the
 * mapped_once hook: left NULL here, so the baseline keeps mapped pages used
 * once) and must export the descriptor under the symbol `vms_policy`.
 * Parameters arrive as "k=v,k=v"; init() rejects what it does not
 * understand, with a message on stderr. A hook answers VMS_UNDECIDABLE when the recording lacks an input
 * its answer needs: here, whether a boosted kswapd could swap at all.
 * Inputs carry the range the kernel's value may have had (lo..hi); replay
 * moves them within it to tell which inputs decide each answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vms-policy.h"

struct guard {
	long long threshold;	/* file refaults that switch to equal scanning */
};

static int guard_init(void **priv, const char *params)
{
	struct guard *g = calloc(1, sizeof(*g));
	char *end;

	if (!g)
		return -1;
	g->threshold = 32;
	if (params && *params) {
		if (strncmp(params, "threshold=", 10)) {
			fprintf(stderr, "refault-guard: unknown parameter '%s' (takes threshold=N)\n",
				params);
			free(g);
			return -1;
		}
		g->threshold = strtoll(params + 10, &end, 10);
		if (*end || end == params + 10 || g->threshold < 0) {
			fprintf(stderr, "refault-guard: threshold takes a number >= 0\n");
			free(g);
			return -1;
		}
	}
	*priv = g;
	return 0;
}

static void guard_fini(void *priv)
{
	free(priv);
}

static int guard_scan_balance(void *priv, const struct vms_pass_input *in,
			      struct vms_scan_decision *out)
{
	const struct guard *g = priv;

	if (in->refault_file.prov == VMS_PROV_UNKNOWN || in->refault_file.v <= g->threshold ||
	    in->swap_free.v <= 0)
		return VMS_DEFER;	/* no evidence of thrashing, or nowhere to put anon */
	/* boosted kswapd runs with may_swap = 0: the baseline's file-only answer stands */
	if (in->reclaimer == VMS_KSWAPD && in->boost_reclaim.prov == VMS_PROV_UNKNOWN)
		return VMS_UNDECIDABLE;	/* a boost was seen; the running nr_boost_reclaim is not recorded */
	if (in->reclaimer == VMS_KSWAPD && in->boost_reclaim.v > 0)
		return VMS_DEFER;
	out->balance = VMS_SCAN_FRACT;
	out->fraction_anon = 1;
	out->fraction_file = 1;
	return 0;
}

const struct vms_policy vms_policy = {
	.abi = VMS_POLICY_ABI,
	.name = "refault-guard",
	.description = "scan anon and file equally while file refaults exceed a threshold",
	.kernels = "example",
	.init = guard_init,
	.fini = guard_fini,
	.scan_balance = guard_scan_balance,
};
