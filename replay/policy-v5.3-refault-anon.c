// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v5.3-refault-anon.c - the inactive-list test of 5.3+ ("mm: vmscan:
 * scan anonymous pages on file refaults", 2c012a4ad1a2): file refaults make
 * the file list count as low in every call, so the SCAN_FILE shortcut is
 * off while refaults are seen and anon is scanned proportionally.
 */
#include "replay.h"

static int v53_scan_balance(void *priv, const struct vms_pass_input *in, struct vms_scan_decision *out)
{
	kl_scan_balance(in, in->anon_cost.v, in->file_cost.v, out);
	return 0;
}

const struct vms_policy policy_v5_3_refault_anon = {
	.abi = VMS_POLICY_ABI,
	.name = "v5.3-refault-anon",
	.description = "5.3+ inactive-list test: file refaults disable the SCAN_FILE shortcut",
	.kernels = "5.3-6.18 (4.19.62+)",
	.scan_balance = v53_scan_balance,
};
