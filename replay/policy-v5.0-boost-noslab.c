// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v5.0-boost-noslab.c - 5.0-5.2 (1c30844d2dfe, watermark boosting):
 * balance_pgdat() sets may_swap, may_writepage and may_shrinkslab to
 * !nr_boost_reclaim, so a boosted kswapd scanned file only and skipped
 * shrink_slab(): inodes and dentries were not reclaimed while page cache
 * was (Dave Chinner's small-files report; slab fixed in 5.3). Otherwise the
 * 4.12-5.2 logic (refault-blind shortcut) with 4.20+ round-up targets.
 * nr_boost_reclaim is the run's running value, which the recording does not
 * hold: with a boost on the node the answers that depend on it are
 * undecidable.
 */
#include "replay.h"

static int v50_deactivate(void *priv, const struct vms_pass_input *in, int file)
{
	return kl4_inactive_list_is_low(in, file, 1);
}

static int v50_scan_balance(void *priv, const struct vms_pass_input *in, struct vms_scan_decision *out)
{
	return kl4_scan_balance(in, 0, 1, 1, out);
}

/* shrink_node(): if (sc->may_shrinkslab) shrink_slab(); kswapd: may_shrinkslab = !nr_boost_reclaim */
static int v50_shrink_slab(void *priv, const struct vms_pass_input *in)
{
	if (in->reclaimer != VMS_KSWAPD)
		return 1;	/* direct, memcg and node reclaim: .may_shrinkslab = 1 */
	if (in->boost_reclaim.prov == VMS_PROV_UNKNOWN)
		return VMS_UNDECIDABLE;
	return in->boost_reclaim.v == 0;
}

const struct vms_policy policy_v5_0_boost_noslab = {
	.abi = VMS_POLICY_ABI,
	.name = "v5.0-boost-noslab",
	.description = "5.0-5.2: boosted kswapd does not swap or shrink slab; 4.12-5.2 scan balance",
	.kernels = "5.0-5.2",
	.deactivate = v50_deactivate,
	.scan_balance = v50_scan_balance,
	.shrink_slab = v50_shrink_slab,
	.mapped_once = kl4_mapped_once,	/* anon used once: activated (PageSwapBacked) */
};
