// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v5.3-boost-slab.c - 5.3+ ("mm, vmscan: do not special-case slab
 * reclaim when watermarks are boosted"): boosted kswapd shrinks slab like
 * any other reclaim pass.
 */
#include "replay.h"

static int v53_shrink_slab(void *priv, const struct vms_pass_input *in)
{
	return 1;
}

const struct vms_policy policy_v5_3_boost_slab = {
	.abi = VMS_POLICY_ABI,
	.name = "v5.3-boost-slab",
	.description = "5.3+: boosted kswapd shrinks slab too",
	.kernels = "5.3-6.18",
	.shrink_slab = v53_shrink_slab,
};
