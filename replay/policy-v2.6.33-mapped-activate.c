// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v2.6.33-mapped-activate.c - 2.6.33 and earlier: a mapped page that
 * the inactive scan finds referenced is activated, however often it was
 * used. 2.6.33 shrink_page_list():
 *
 *	referenced = page_referenced(page, 1, sc->mem_cgroup, &vm_flags);
 *	if (sc->order <= PAGE_ALLOC_COSTLY_ORDER &&
 *				referenced && page_mapping_inuse(page)
 *				&& !(vm_flags & VM_LOCKED))
 *		goto activate_locked;
 *
 * where page_referenced() counts the referenced PTEs and the cleared
 * PG_referenced flag, and page_mapping_inuse() is 1 for a mapped page. So
 * the pages 2.6.34+ keep on the inactive list for a second look ("vmscan:
 * detect mapped file pages used only once", Johannes Weiner; 2.6.34
 * page_check_references() PAGEREF_KEEP, 6.18 folio_check_references()
 * FOLIOREF_KEEP: one referenced PTE, flag clear, not VM_EXEC file, not
 * VM_LOCKED) went to the active list, anon and file alike.
 *
 * This policy models that one decision (mapped_once) and no other: the
 * 2.6.33 scan balance (recent_rotated without refaults), deactivation
 * (inactive_file_is_low() per zone, no workingset), slab and kswapd loop
 * are not modelled, so its other hooks answer undecidable instead of
 * passing the baseline's 6.18 answers off as 2.6.33's.
 */
#include "replay.h"

/* PAGE_ALLOC_COSTLY_ORDER: above it 2.6.33 reclaims lumpily, ignoring references */
#define COSTLY_ORDER 3

static int v2633_mapped_once(void *priv, const struct vms_pass_input *in, int file)
{
	if (in->order > COSTLY_ORDER)
		return VMS_UNDECIDABLE;	/* reclaimed, neither kept nor activated */
	return 1;	/* referenced && page_mapping_inuse(): activate_locked */
}

static int v2633_deactivate(void *priv, const struct vms_pass_input *in, int file)
{
	return VMS_UNDECIDABLE;	/* not modelled */
}

static int v2633_scan_balance(void *priv, const struct vms_pass_input *in,
			      struct vms_scan_decision *out)
{
	return VMS_UNDECIDABLE;	/* not modelled */
}

static int v2633_shrink_slab(void *priv, const struct vms_pass_input *in)
{
	return VMS_UNDECIDABLE;	/* not modelled */
}

static int v2633_kswapd_retry(void *priv, const struct vms_kswapd_run *run)
{
	return VMS_UNDECIDABLE;	/* not modelled */
}

const struct vms_policy policy_v2_6_33_mapped_activate = {
	.abi = VMS_POLICY_ABI,
	.name = "v2.6.33-mapped-activate",
	.description = "<= 2.6.33: a referenced mapped page is activated even if used once "
		       "(mapped_once only; every other question undecidable: not modelled)",
	.kernels = "2.6.33",		/* read in 2.6.33.3; the rule is older */
	.mapped_once = v2633_mapped_once,
	.deactivate = v2633_deactivate,
	.scan_balance = v2633_scan_balance,
	.shrink_slab = v2633_shrink_slab,
	.kswapd_retry = v2633_kswapd_retry,
};
