// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v6.9-cache-trim-retry.c - kswapd from 6.9 ("mm, vmscan: retry
 * kswapd's priority loop with cache_trim_mode off on failure"): a run that
 * reclaimed nothing while cache_trim_mode was on restarts its priority loop
 * with cache_trim_mode off before counting a failure.
 */
#include "replay.h"

static int v69_kswapd_retry(void *priv, const struct vms_kswapd_run *run)
{
	return run->cache_trim_mode;
}

const struct vms_policy policy_v6_9_cache_trim_retry = {
	.abi = VMS_POLICY_ABI,
	.name = "v6.9-cache-trim-retry",
	.description = "6.9+: a failed kswapd run with cache_trim_mode on retries with it off",
	.kernels = "6.9-6.18",
	.kswapd_retry = v69_kswapd_retry,
};
