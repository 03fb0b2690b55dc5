// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v5.3-refault-anon.c - 5.3-5.4 ("mm: vmscan: scan anonymous pages
 * on file refaults", 2c012a4ad1a2; also 4.19.62+): inactive_list_is_low()
 * zeroes the file ratio on refaults in every call, so refaults turn the
 * SCAN_FILE shortcut off and anon is scanned by the recent_rotated
 * fractions (round-up targets). Boosted kswapd still has may_swap = 0; slab
 * is shrunk in every pass (may_shrinkslab is gone). No anon workingset, no
 * cache_trim_mode (both later).
 */
#include "replay.h"

static int v53_deactivate(void *priv, const struct vms_pass_input *in, int file)
{
	return kl4_inactive_list_is_low(in, file, 1);
}

static int v53_scan_balance(void *priv, const struct vms_pass_input *in, struct vms_scan_decision *out)
{
	return kl4_scan_balance(in, 1, 1, 1, out);
}

const struct vms_policy policy_v5_3_refault_anon = {
	.abi = VMS_POLICY_ABI,
	.name = "v5.3-refault-anon",
	.description = "5.3-5.4: file refaults disable the SCAN_FILE shortcut; recent_rotated fractions",
	.kernels = "5.3-5.4, 4.19.62+",
	.deactivate = v53_deactivate,
	.scan_balance = v53_scan_balance,
	.mapped_once = kl4_mapped_once,	/* anon used once: activated (PageSwapBacked) */
};
