// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v4.12-actual-reclaim.c - the inactive-list test of 4.12-5.2
 * (2a2e48854d70): the refault override applied only to the "actual reclaim"
 * calls, so get_scan_count()'s "enough inactive file -> SCAN_FILE" shortcut
 * looked at list sizes alone. During file thrashing it kept choosing file
 * only while cold anon was never scanned; 5.3 (2c012a4ad1a2) fixed that.
 */
#include "replay.h"

static int v412_scan_balance(void *priv, const struct vms_pass_input *in, struct vms_scan_decision *out)
{
	struct vms_pass_input no_refaults = *in;

	/* the same steps, but refaults do not make the file list look low here */
	no_refaults.refault_file.v = 0;
	kl_scan_balance(&no_refaults, in->anon_cost.v, in->file_cost.v, out);
	return 0;
}

const struct vms_policy policy_v4_12_actual_reclaim = {
	.abi = VMS_POLICY_ABI,
	.name = "v4.12-actual-reclaim",
	.description = "4.12-5.2 inactive-list test: refaults ignored by get_scan_count's SCAN_FILE shortcut",
	.kernels = "4.12-5.2",
	.scan_balance = v412_scan_balance,
};
