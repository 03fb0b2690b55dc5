// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v5.0-boost-noslab.c - boosted kswapd of 5.0-5.2 (1c30844d2dfe):
 * while the watermarks were boosted, kswapd skipped shrink_slab()
 * (may_shrinkslab = 0), so inodes and dentries were not reclaimed while page
 * cache was (Dave Chinner's small-files report; fixed in 5.3).
 */
#include "replay.h"

static int v50_shrink_slab(void *priv, const struct vms_pass_input *in)
{
	return !(in->reclaimer == VMS_KSWAPD && in->boost.v > 0);
}

const struct vms_policy policy_v5_0_boost_noslab = {
	.abi = VMS_POLICY_ABI,
	.name = "v5.0-boost-noslab",
	.description = "5.0-5.2: boosted kswapd does not shrink slab",
	.kernels = "5.0-5.2",
	.shrink_slab = v50_shrink_slab,
};
