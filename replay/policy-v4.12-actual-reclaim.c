// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v4.12-actual-reclaim.c - the reclaim decisions of 4.12-4.20
 * (2a2e48854d70 to before boosting): inactive_list_is_low() zeroes the
 * file ratio on refaults only in its actual_reclaim calls (shrink_list), so
 * get_scan_count()'s "enough inactive file -> SCAN_FILE" shortcut looked at
 * list sizes alone. During file thrashing it kept choosing file only while
 * cold anon was never scanned; 5.3 (2c012a4ad1a2; 4.19.62+) fixed that.
 * No anon workingset (5.9), FRACT from recent_scanned/recent_rotated.
 * Parameter round_up=0|1: the FRACT targets round down in 4.12-4.19
 * (4.14.5 div64_u64), up from 4.20 and in later 4.19.y (4.19.72
 * DIV64_U64_ROUND_UP, 68600f623d69); default 0.
 */
#include <stdlib.h>

#include "vms.h"
#include "replay.h"

static int v412_init(void **priv, const char *params)
{
	static const char *const keys[] = { "round_up" };
	long long *round_up = calloc(1, sizeof(*round_up));

	if (!round_up)
		return -1;
	if (policy_params(params, keys, round_up, 1)) {
		free(round_up);
		return -1;
	}
	if (*round_up != 0 && *round_up != 1) {
		free(round_up);
		return vms_error("round_up takes 0 or 1");
	}
	*priv = round_up;
	return 0;
}

static void v412_fini(void *priv)
{
	free(priv);
}

/* shrink_list(): inactive_list_is_low(lruvec, file, sc, true) */
static int v412_deactivate(void *priv, const struct vms_pass_input *in, int file)
{
	return kl4_inactive_list_is_low(in, file, 1);
}

static int v412_scan_balance(void *priv, const struct vms_pass_input *in, struct vms_scan_decision *out)
{
	const long long *round_up = priv;

	return kl4_scan_balance(in, 0, 0, round_up ? (int)*round_up : 0, out);
}

const struct vms_policy policy_v4_12_actual_reclaim = {
	.abi = VMS_POLICY_ABI,
	.name = "v4.12-actual-reclaim",
	.description = "4.12-4.20 (4.19.y < .62): refaults ignored by get_scan_count's SCAN_FILE shortcut, "
		       "recent_rotated fractions, no anon workingset",
	.kernels = "4.12-4.20",
	.init = v412_init,
	.fini = v412_fini,
	.deactivate = v412_deactivate,
	.scan_balance = v412_scan_balance,
	.mapped_once = kl4_mapped_once,	/* anon used once: activated (PageSwapBacked) */
};
