// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v6.8-cache-trim.c - kswapd up to 6.8: a balance_pgdat() run that
 * reclaimed nothing counts a failure even when cache_trim_mode kept it away
 * from cold anon; 16 such runs make the node hopeless.
 */
#include "replay.h"

static int v68_kswapd_retry(void *priv, const struct vms_kswapd_run *run)
{
	return 0;
}

const struct vms_policy policy_v6_8_cache_trim = {
	.abi = VMS_POLICY_ABI,
	.name = "v6.8-cache-trim",
	.description = "<=6.8: a failed kswapd run counts a failure, no retry without cache_trim_mode",
	.kernels = "5.5-6.8",
	.kswapd_retry = v68_kswapd_retry,
};
