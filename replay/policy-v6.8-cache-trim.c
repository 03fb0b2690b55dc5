// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v6.8-cache-trim.c - 6.2-6.8 (the 6.2+ cost model, before
 * no_cache_trim_mode): a balance_pgdat() run that reclaimed nothing counts
 * a failure even when cache_trim_mode kept it away from cold anon; 16 such
 * runs make the node hopeless. cache_trim_mode is never turned off, so the
 * retry sweep of a 6.9+ recording is judged with it on.
 */
#include "replay.h"

static int v68_scan_balance(void *priv, const struct vms_pass_input *in, struct vms_scan_decision *out)
{
	struct vms_pass_input no_retry = *in;

	no_retry.no_cache_trim_mode = 0;
	return kl_scan_balance(&no_retry, in->anon_cost.v, in->file_cost.v, out);
}

static int v68_kswapd_retry(void *priv, const struct vms_kswapd_run *run)
{
	return 0;	/* 6.8.1 balance_pgdat(): if (!sc.nr_reclaimed) kswapd_failures++ */
}

const struct vms_policy policy_v6_8_cache_trim = {
	.abi = VMS_POLICY_ABI,
	.name = "v6.8-cache-trim",
	.description = "6.2-6.8: a failed kswapd run counts a failure; cache_trim_mode never off",
	.kernels = "6.2-6.8",
	.scan_balance = v68_scan_balance,
	.kswapd_retry = v68_kswapd_retry,
};
